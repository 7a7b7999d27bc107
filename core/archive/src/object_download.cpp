// S3Client's reads: a byte range straight into the caller's memory (resumed from the byte it
// reached when a connection is cut), and whole objects by ranges in parallel into a file that is
// renamed into place only when every byte is there and the CRC-32C stored with it agrees.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

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

// The ranges of `chunk` bytes that make `size`, `parallel` at a time, each(index, offset,
// length) on a worker; the first failure stops the ranges not yet started and is returned.
Status eachRangeInParallel(std::uint64_t size, std::uint64_t chunk, int parallel,
                           const std::function<Status(std::uint64_t index, std::uint64_t offset, std::uint64_t length)>& each) {
    const std::uint64_t chunks = (size + chunk - 1) / chunk;
    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::optional<Error> firstError;
    auto worker = [&] {
        for (;;) {
            const std::uint64_t i = next.fetch_add(1);
            if (i >= chunks || stop.load()) return;
            const std::uint64_t offset = i * chunk;
            auto ok = each(i, offset, std::min(chunk, size - offset));
            if (ok) continue;
            std::lock_guard lock(mutex);
            if (!firstError) firstError = std::move(ok.error());
            stop = true;
            return;
        }
    };
    {
        std::vector<std::jthread> workers;
        const auto count = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(parallel, 1)), std::max<std::uint64_t>(chunks, 1));
        for (std::uint64_t i = 0; i < count; ++i) workers.emplace_back(worker);
    }
    if (firstError) return fail(std::move(*firstError));
    return {};
}

// Bytes [offset, offset + length) of object through write(at, data), `at` counted from offset;
// a cut connection resumes from the byte it reached. Never fewer bytes than asked for.
Status fetchRange(S3Client::Impl& impl, const S3Location& object, std::uint64_t offset, std::uint64_t length,
                  const std::function<bool(std::uint64_t, std::span<const std::byte>)>& write, const std::atomic<bool>* cancel) {
    std::uint64_t got = 0;  // survives attempts: a cut connection resumes here
    const std::string what = fmt::format("GET {} bytes {}-{}", object.url(), offset, offset + length - 1);
    auto headers = impl.customerKeyHeaders();
    auto answer = impl.run(
        what,
        [&](CurlConnection& connection) -> tl::expected<HttpAnswer, S3Failure> {
            HttpCall c;
            c.target = impl.target(object);
            c.headers = headers;
            c.headers.push_back(fmt::format("Range: bytes={}-{}", offset + got, offset + length - 1));
            c.expectedBytes = length - got;
            c.cancel = cancel;
            bool overflow = false, refused = false;
            c.sink = [&](std::span<const std::byte> data) {
                if (got + data.size() > length) {
                    overflow = true;
                    return false;
                }
                if (!write(got, data)) {
                    refused = true;
                    return false;
                }
                got += data.size();
                return true;
            };
            const std::uint64_t from = got;
            auto a = connection.perform(c);
            if (overflow) return tl::unexpected(S3Failure{206, 0, "", "", "", "the server sent more bytes than the range asked for"});
            if (refused) return tl::unexpected(S3Failure{206, 0, "", "", "", "the bytes read could not be written"});
            if (!a) return a;
            std::uint64_t start = 0;
            if (a->status != 206 || !rangeStart(*a, start) || start != offset + from) {
                got = from;
                return tl::unexpected(S3Failure{static_cast<int>(a->status), 0, "", "", "",
                                                fmt::format("the server answered the range from byte {} with HTTP {} '{}'", offset + from, a->status,
                                                            a->headers.count("content-range") ? a->headers.at("content-range") : "")});
            }
            if (got < length) {  // a short answer: treated as a cut connection, resumed
                return tl::unexpected(S3Failure{static_cast<int>(a->status), CURLE_PARTIAL_FILE, fmt::format("got {} of {} bytes", got, length), "", "", ""});
            }
            return a;
        },
        cancel);
    if (!answer) return fail(std::move(answer.error()));
    return {};
}

// The `size` bytes of object into the file `fd` (at `temporary`), by ranges in parallel.
// Each range written where it belongs as it arrives (no mapping: page faults on a fresh
// file cost more than the copy), its writeback started as it lands (the final fsync then
// waits for little); progress told as each range is done.
Status downloadRangesIntoFile(S3Client::Impl& impl, const S3Location& object, int fd, std::uint64_t size, const std::filesystem::path& temporary,
                              const TransferControl& control) {
    std::atomic<std::uint64_t> bytesDone{0};
    std::mutex progressMutex;  // progress is told from one worker at a time
    return eachRangeInParallel(
        size, impl.settings.partSizeBytes, impl.settings.parallelRequests, [&](std::uint64_t, std::uint64_t offset, std::uint64_t length) -> Status {
            int writeErrno = 0;
            auto ok = fetchRange(
                impl, object, offset, length,
                [&](std::uint64_t at, std::span<const std::byte> data) {
                    for (std::size_t done = 0; done < data.size();) {
                        const ssize_t n = ::pwrite(fd, data.data() + done, data.size() - done, static_cast<off_t>(offset + at + done));
                        if (n < 0 && errno == EINTR) continue;
                        if (n <= 0) {
                            writeErrno = n < 0 ? errno : ENOSPC;
                            return false;
                        }
                        done += static_cast<std::size_t>(n);
                    }
                    return true;
                },
                control.cancel);
            if (!ok) {
                if (writeErrno) return fail(ErrorCode::ResourceExhausted, fmt::format("cannot write '{}': {}", temporary.string(), std::strerror(writeErrno)));
                return fail(std::move(ok.error()));
            }
            ::sync_file_range(fd, static_cast<off_t>(offset), static_cast<off_t>(length), SYNC_FILE_RANGE_WRITE);
            bytesDone += length;
            std::lock_guard lock(progressMutex);
            if (control.progress) control.progress({bytesDone.load(), size});
            return {};
        });
}

// The CRC-32C of the downloaded file's `size` bytes, read back from the page cache once every
// range is there.
Result<std::uint32_t> downloadedFileCrc32c(int fd, std::uint64_t size, const std::filesystem::path& temporary) {
    std::vector<std::byte> buffer(std::size_t(4) << 20);
    std::uint32_t crc = 0;
    for (std::uint64_t at = 0; at < size;) {
        const ssize_t n = ::pread(fd, buffer.data(), std::min<std::uint64_t>(buffer.size(), size - at), static_cast<off_t>(at));
        if (n <= 0) return fail(Error(ErrorCode::DataLoss, fmt::format("cannot read back '{}' at byte {}", temporary.string(), at)));
        crc = crc32cOf(std::span(buffer.data(), static_cast<std::size_t>(n)), crc);
        at += static_cast<std::uint64_t>(n);
    }
    return crc;
}

}  // namespace

Status S3Client::readRange(const S3Location& object, std::uint64_t offset, std::span<std::byte> into, const std::atomic<bool>* cancel) {
    if (into.empty()) return {};
    return fetchRange(
        *impl_, object, offset, into.size(),
        [&](std::uint64_t at, std::span<const std::byte> data) {
            std::memcpy(into.data() + at, data.data(), data.size());
            return true;
        },
        cancel);
}

Result<std::uint32_t> S3Client::storedCrc32c(const S3Location& object, std::uint64_t size, const std::atomic<bool>* cancel) {
    // Pieces of a part's size read in parallel, each checksummed as it arrives (nothing is kept
    // in memory), then the pieces' CRCs joined in order.
    const std::uint64_t chunk = impl_->settings.partSizeBytes;
    std::vector<std::uint32_t> crcs(static_cast<std::size_t>((size + chunk - 1) / chunk), 0);  // each written by one worker
    auto read = eachRangeInParallel(size, chunk, impl_->settings.parallelRequests, [&](std::uint64_t i, std::uint64_t offset, std::uint64_t length) -> Status {
        std::uint32_t crc = 0;
        auto ok = fetchRange(
            *impl_, object, offset, length,
            [&](std::uint64_t, std::span<const std::byte> data) {
                crc = crc32cOf(data, crc);  // a resumed range continues where it stopped: in order
                return true;
            },
            cancel);
        if (!ok) return fail(std::move(ok.error()).addContext("while reading the stored object back to verify it"));
        crcs[static_cast<std::size_t>(i)] = crc;
        return {};
    });
    if (!read) return fail(std::move(read.error()));
    std::uint32_t whole = 0;
    for (std::size_t i = 0; i < crcs.size(); ++i) whole = crc32cCombine(whole, crcs[i], std::min(chunk, size - i * chunk));
    return whole;
}

Result<DownloadResult> S3Client::downloadFile(const S3Location& object, const std::filesystem::path& file, const TransferControl& control) {
    auto info = head(object);
    if (!info) return fail(std::move(info.error()));
    DownloadResult result;
    result.object = *info;
    const std::uint64_t size = info->sizeBytes;
    // A name of this transfer's own: two downloads to one file never write into each other.
    static std::atomic<std::uint64_t> transfers{0};
    const std::filesystem::path temporary = fmt::format("{}.sonolink-part-{}-{}", file.string(), ::getpid(), transfers.fetch_add(1));
    FileDescriptor fd(::open(temporary.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (fd.get() < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot write '{}': {}", temporary.string(), std::strerror(errno)));
    auto discard = [&](Error e) {
        ::unlink(temporary.c_str());
        return fail(std::move(e));
    };
    if (size > 0 && ::posix_fallocate(fd.get(), 0, static_cast<off_t>(size)) != 0 && ::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) {
        return discard(Error(ErrorCode::ResourceExhausted, fmt::format("no room for {} bytes at '{}'", size, temporary.string())));
    }
    auto fetched = downloadRangesIntoFile(*impl_, object, fd.get(), size, temporary, control);
    if (!fetched) return discard(std::move(fetched.error()));
    auto crc = downloadedFileCrc32c(fd.get(), size, temporary);
    if (!crc) return discard(std::move(crc.error()));
    result.crc32c = *crc;
    const auto stored = info->metadata.find(kCrc32cMetadata);
    if (stored != info->metadata.end()) {
        if (stored->second != crc32cHex(result.crc32c)) {
            return discard(Error(ErrorCode::DataLoss, fmt::format("{}: the bytes read have CRC-32C {}, the object was stored with {}", object.url(),
                                                                  crc32cHex(result.crc32c), stored->second)));
        }
        result.crcChecked = true;
    }
    if (::fsync(fd.get()) != 0)
        return discard(Error(ErrorCode::ResourceExhausted, fmt::format("cannot sync '{}': {}", temporary.string(), std::strerror(errno))));
    if (::rename(temporary.c_str(), file.c_str()) != 0) {
        return discard(Error(ErrorCode::Unavailable, fmt::format("cannot rename '{}' to '{}': {}", temporary.string(), file.string(), std::strerror(errno))));
    }
    if (control.progress && size == 0) control.progress({0, 0});
    return result;
}

}  // namespace sonolink::archive
