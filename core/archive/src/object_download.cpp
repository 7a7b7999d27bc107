// S3Client's reads: a byte range straight into the caller's memory (resumed from the byte it
// reached when a connection is cut), and whole objects by ranges in parallel into a file that is
// renamed into place only when every byte is there and the CRC-32C stored with it agrees.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include <curl/curl.h>
#include <fmt/format.h>

#include "client_impl.h"
#include "encoding.h"

namespace sonolink::archive {
namespace {

// "bytes 100-199/1000" -> 100.
bool rangeStart(const HttpAnswer& answer, std::uint64_t& start) {
    const auto it = answer.headers.find("content-range");
    if (it == answer.headers.end() || !it->second.starts_with("bytes ")) return false;
    start = std::strtoull(it->second.c_str() + 6, nullptr, 10);
    return true;
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    [[nodiscard]] int get() const noexcept { return fd_; }
    int release() noexcept { return std::exchange(fd_, -1); }

private:
    int fd_;
};

}  // namespace

Status S3Client::readRange(const S3Location& object, std::uint64_t offset, std::span<std::byte> into, const std::atomic<bool>* cancel) {
    if (into.empty()) return {};
    std::uint64_t got = 0;  // survives attempts: a cut connection resumes here
    const std::string what = fmt::format("GET {} bytes {}-{}", object.url(), offset, offset + into.size() - 1);
    auto headers = impl_->customerKeyHeaders();
    auto answer = impl_->run(what, [&](CurlConnection& connection) -> tl::expected<HttpAnswer, S3Failure> {
        HttpCall c;
        c.target = impl_->target(object);
        c.headers = headers;
        c.headers.push_back(fmt::format("Range: bytes={}-{}", offset + got, offset + into.size() - 1));
        c.expectedBytes = into.size() - got;
        c.cancel = cancel;
        bool overflow = false;
        c.sink = [&](std::span<const std::byte> data) {
            if (got + data.size() > into.size()) {
                overflow = true;
                return false;
            }
            std::memcpy(into.data() + got, data.data(), data.size());
            got += data.size();
            return true;
        };
        const std::uint64_t from = got;
        auto a = connection.perform(c);
        if (overflow) return tl::unexpected(S3Failure{206, 0, "", "", "", "the server sent more bytes than the range asked for"});
        if (!a) return a;
        std::uint64_t start = 0;
        if (a->status != 206 || !rangeStart(*a, start) || start != offset + from) {
            got = from;
            return tl::unexpected(S3Failure{static_cast<int>(a->status), 0, "", "", "",
                                            fmt::format("the server answered the range from byte {} with HTTP {} '{}'", offset + from, a->status,
                                                        a->headers.count("content-range") ? a->headers.at("content-range") : "")});
        }
        if (got < into.size()) {  // a short answer: treated as a cut connection, resumed
            return tl::unexpected(S3Failure{static_cast<int>(a->status), CURLE_PARTIAL_FILE, fmt::format("got {} of {} bytes", got, into.size()), "", "", ""});
        }
        return a;
    }, cancel);
    if (!answer) return fail(std::move(answer.error()));
    return {};
}

Result<DownloadResult> S3Client::downloadFile(const S3Location& object, const std::filesystem::path& file, const TransferControl& control) {
    auto info = head(object);
    if (!info) return fail(std::move(info.error()));
    DownloadResult result;
    result.object = *info;
    const std::uint64_t size = info->sizeBytes;
    const std::filesystem::path temporary = file.string() + ".sonolink-part";
    FileDescriptor fd(::open(temporary.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot write '{}': {}", temporary.string(), std::strerror(errno)));
    auto discard = [&](Error e) {
        ::unlink(temporary.c_str());
        return fail(std::move(e));
    };
    if (size > 0 && ::posix_fallocate(fd.get(), 0, static_cast<off_t>(size)) != 0 && ::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) {
        return discard(Error(ErrorCode::ResourceExhausted, fmt::format("no room for {} bytes at '{}'", size, temporary.string())));
    }
    std::byte* map = nullptr;
    if (size > 0) {
        void* m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
        if (m == MAP_FAILED) return discard(Error(ErrorCode::ResourceExhausted, fmt::format("cannot map '{}': {}", temporary.string(), std::strerror(errno))));
        map = static_cast<std::byte*>(m);
    }
    const std::uint64_t chunk = impl_->settings.partSizeBytes;
    const std::uint64_t chunks = (size + chunk - 1) / chunk;
    std::atomic<std::uint64_t> next{0}, bytesDone{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::optional<Error> firstError;
    auto worker = [&] {
        for (;;) {
            const std::uint64_t i = next.fetch_add(1);
            if (i >= chunks || stop.load()) return;
            const std::uint64_t offset = i * chunk;
            const std::uint64_t length = std::min(chunk, size - offset);
            auto ok = readRange(object, offset, std::span(map + offset, length), control.cancel);
            std::lock_guard lock(mutex);
            if (!ok) {
                if (!firstError) firstError = std::move(ok.error());
                stop = true;
                return;
            }
            bytesDone += length;
            if (control.progress) control.progress({bytesDone.load(), size});
        }
    };
    {
        std::vector<std::jthread> workers;
        const auto count = std::min<std::uint64_t>(static_cast<std::uint64_t>(impl_->settings.parallelRequests), std::max<std::uint64_t>(chunks, 1));
        for (std::uint64_t i = 0; i < count; ++i) workers.emplace_back(worker);
    }
    if (!firstError) {
        result.crc32c = crc32cOf(std::span<const std::byte>(map, size));
        const auto stored = info->metadata.find(kCrc32cMetadata);
        if (stored != info->metadata.end()) {
            if (stored->second != crc32cHex(result.crc32c)) {
                firstError = Error(ErrorCode::DataLoss, fmt::format("{}: the bytes read have CRC-32C {}, the object was stored with {}", object.url(),
                                                                    crc32cHex(result.crc32c), stored->second));
            } else {
                result.crcChecked = true;
            }
        }
    }
    if (map) ::munmap(map, size);
    if (firstError) return discard(std::move(*firstError));
    if (::fsync(fd.get()) != 0) return discard(Error(ErrorCode::ResourceExhausted, fmt::format("cannot sync '{}': {}", temporary.string(), std::strerror(errno))));
    if (::rename(temporary.c_str(), file.c_str()) != 0) {
        return discard(Error(ErrorCode::Unavailable, fmt::format("cannot rename '{}' to '{}': {}", temporary.string(), file.string(), std::strerror(errno))));
    }
    if (control.progress && size == 0) control.progress({0, 0});
    return result;
}

}  // namespace sonolink::archive
