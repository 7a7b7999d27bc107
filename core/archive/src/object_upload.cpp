// S3Client's uploads: one PUT up to a part's size, multipart above it (parts in parallel, each
// signed with its SHA-256, confirmed in a journal so that a crash resumes), then a HEAD that
// checks size and CRC-32C and a read-back of the stored bytes before the upload is called done.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "client_impl.h"
#include "encoding.h"
#include "s3_xml.h"
#include "sonolink/archive/multipart_journal.h"
#include "sonolink/util/log.h"

namespace sonolink::archive {
namespace {

std::vector<std::string> metadataHeaders(const std::map<std::string, std::string>& metadata, std::uint32_t crc) {
    std::vector<std::string> headers;
    for (const auto& [name, value] : metadata) headers.push_back(fmt::format("x-amz-meta-{}: {}", name, value));
    headers.push_back(fmt::format("x-amz-meta-{}: {}", kCrc32cMetadata, crc32cHex(crc)));
    return headers;
}

// The object as stored: its size and our CRC-32C as HEAD reports them, then its bytes read back
// and their CRC-32C compared with what was sent. The metadata only says what the uploader
// attached; a store that assembled the parts in another order, or holds a flipped byte, still
// reports it: only the bytes themselves show the copy is the file.
Status verifyStored(S3Client& client, const S3Location& object, std::uint64_t size, std::uint32_t crc, UploadResult& result) {
    auto stored = client.head(object);
    if (!stored) return fail(std::move(stored.error()).addContext("while checking the upload"));
    result.object = *stored;
    const auto it = stored->metadata.find(kCrc32cMetadata);
    if (stored->sizeBytes != size || it == stored->metadata.end() || it->second != crc32cHex(crc)) {
        return fail(ErrorCode::DataLoss, fmt::format("{} holds {} bytes with CRC-32C {} after the upload; sent {} bytes with {}", object.url(),
                                                     stored->sizeBytes, it == stored->metadata.end() ? "none" : it->second, size, crc32cHex(crc)));
    }
    auto readBack = client.storedCrc32c(object, size);
    if (!readBack) return fail(std::move(readBack.error()));
    if (*readBack != crc) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: the stored object's bytes, read back, have CRC-32C {}; the file sent has {}: the "
                                                     "store's copy is not the file (its metadata claims it is)", object.url(),
                                                     crc32cHex(*readBack), crc32cHex(crc)));
    }
    result.readBack = true;
    return {};
}

// The file being uploaded, read by pread (a mapping would die of SIGBUS, with the engine around
// it, if another process truncated the file mid-upload), and its identity: size and time of
// last change, checked again before the upload is called done.
class SourceFile {
public:
    static Result<SourceFile> open(const std::filesystem::path& path) {
        SourceFile f;
        f.path_ = path.string();
        f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (f.fd_ < 0) {
            const int e = errno;
            return fail(e == ENOENT ? ErrorCode::NotFound : ErrorCode::InvalidArgument, fmt::format("cannot open '{}': {}", f.path_, std::strerror(e)));
        }
        auto id = f.identity();
        if (!id) return fail(std::move(id.error()));
        f.size_ = id->first;
        f.modifiedNs_ = id->second;
        return f;
    }
    SourceFile() = default;
    SourceFile(SourceFile&& o) noexcept : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)), size_(o.size_), modifiedNs_(o.modifiedNs_) {}
    SourceFile& operator=(SourceFile&&) = delete;
    ~SourceFile() {
        if (fd_ >= 0) ::close(fd_);
    }
    [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
    [[nodiscard]] std::int64_t modifiedNs() const noexcept { return modifiedNs_; }

    // Exactly into.size() bytes from offset; a file that has become shorter is an error.
    [[nodiscard]] Status read(std::uint64_t offset, std::span<std::byte> into) const {
        for (std::size_t done = 0; done < into.size();) {
            const ssize_t n = ::pread(fd_, into.data() + done, into.size() - done, static_cast<off_t>(offset + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                return fail(ErrorCode::DataLoss, fmt::format("cannot read '{}' at byte {}: {}", path_, offset + done, n < 0 ? std::strerror(errno)
                                                                                                                          : "it became shorter"));
            }
            done += static_cast<std::size_t>(n);
        }
        return {};
    }
    // Unchanged since it was opened (size and time of last change)? DataLoss naming it if not.
    [[nodiscard]] Status unchanged() const {
        auto id = identity();
        if (!id) return fail(std::move(id.error()));
        if (id->first != size_ || id->second != modifiedNs_) {
            return fail(ErrorCode::DataLoss, fmt::format("'{}' changed while it was uploaded ({} bytes, then {}): upload it again once it is whole",
                                                         path_, size_, id->first));
        }
        return {};
    }

private:
    Result<std::pair<std::uint64_t, std::int64_t>> identity() const {
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not a regular file", path_));
        return std::pair{static_cast<std::uint64_t>(st.st_size), static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
    }
    std::string path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::int64_t modifiedNs_ = 0;
};

// The whole file's CRC-32C, read in 8 MiB pieces.
Result<std::uint32_t> crcOfFile(const SourceFile& file) {
    std::vector<std::byte> buffer(std::min<std::uint64_t>(file.size(), std::uint64_t(8) << 20));
    std::uint32_t crc = 0;
    for (std::uint64_t at = 0; at < file.size();) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), file.size() - at));
        if (auto ok = file.read(at, std::span(buffer.data(), n)); !ok) return fail(std::move(ok.error()));
        crc = crc32cOf(std::span(buffer.data(), n), crc);
        at += n;
    }
    return crc;
}

struct PartPlan {
    int number;
    std::uint64_t offset;
    std::uint64_t size;
};

std::vector<PartPlan> planParts(std::uint64_t total, std::uint64_t partSize) {
    std::vector<PartPlan> parts;
    for (std::uint64_t offset = 0; offset < total; offset += partSize) {
        parts.push_back({static_cast<int>(parts.size() + 1), offset, std::min(partSize, total - offset)});
    }
    return parts;
}

}  // namespace

Result<UploadResult> S3Client::putBytes(std::span<const std::byte> bytes, const S3Location& object, const std::map<std::string, std::string>& metadata) {
    UploadResult result;
    result.crc32c = crc32cOf(bytes);
    HttpCall c;
    c.method = "PUT";
    c.target = impl_->target(object);
    c.body = bytes;
    c.headers = metadataHeaders(metadata, result.crc32c);
    for (auto& h : impl_->customerKeyHeaders()) c.headers.push_back(std::move(h));
    auto answer = impl_->call("PUT " + object.url(), std::move(c), &result.retries);
    if (!answer) return fail(std::move(answer.error()));
    if (auto ok = verifyStored(*this, object, bytes.size(), result.crc32c, result); !ok) return fail(std::move(ok.error()));
    return result;
}

Result<UploadResult> S3Client::uploadFile(const std::filesystem::path& file, const S3Location& object, const UploadOptions& options,
                                          const TransferControl& control) {
    auto source = SourceFile::open(file);
    if (!source) return fail(std::move(source.error()));
    const std::uint64_t total = source->size();
    const std::uint64_t partSize = impl_->settings.partSizeBytes;
    if (total <= partSize) {
        std::vector<std::byte> whole(static_cast<std::size_t>(total));
        if (auto ok = source->read(0, whole); !ok) return fail(std::move(ok.error()));
        auto result = putBytes(whole, object, options.metadata);
        if (result) {
            if (auto ok = source->unchanged(); !ok) return fail(std::move(ok.error()));
            if (control.progress) control.progress({total, total});
        }
        return result;
    }
    if (total > partSize * 10000) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' needs more than S3's 10000 parts of {} bytes: raise archive.part_size_bytes",
                                                            file.string(), partSize));
    }

    MultipartJournal journal;
    journal.file = std::filesystem::absolute(file).string();
    journal.sizeBytes = total;
    journal.modifiedNs = source->modifiedNs();
    auto crc = crcOfFile(*source);
    if (!crc) return fail(std::move(crc.error()));
    journal.crc32c = *crc;
    journal.bucket = object.bucket;
    journal.key = object.key;
    journal.partSizeBytes = partSize;
    const bool journaled = !options.journalDirectory.empty();
    const auto journalFile = journaled ? journalPath(options.journalDirectory, journal.file, object.bucket, object.key) : std::filesystem::path();

    UploadResult result;
    result.crc32c = journal.crc32c;
    const std::string what = "upload " + object.url();
    std::map<int, JournalPart> done;  // part number -> confirmed
    if (journaled) {
        std::error_code ec;
        std::filesystem::create_directories(options.journalDirectory, ec);
        auto previous = loadJournal(journalFile);
        if (!previous) log::warn(log::category("archive"), "{}", previous.error().message());
        if (previous && *previous && (*previous)->describesSameUpload(journal)) {
            journal.uploadId = (*previous)->uploadId;
            // The server's own list of the parts it holds: a part counts only if both agree.
            std::map<int, StoredPart> stored;
            int marker = 0;
            bool known = true;
            for (bool more = true; more;) {
                HttpCall c;
                c.target = impl_->target(object, fmt::format("part-number-marker={}&uploadId={}", marker, uriEncode(journal.uploadId, false)));
                auto answer = impl_->call("list parts of " + what, std::move(c));
                if (!answer) {
                    if (answer.error().code() != ErrorCode::NotFound) return fail(std::move(answer.error()));
                    known = false;  // the upload is gone (aborted, expired): start again
                    break;
                }
                auto page = parseListParts(answer->body);
                if (!page) return fail(std::move(page.error()).addContext("while resuming " + what));
                for (auto& p : page->parts) stored[p.number] = p;
                more = page->truncated && page->nextMarker > marker;
                marker = page->nextMarker;
            }
            if (known) {
                for (const auto& p : (*previous)->parts) {
                    auto it = stored.find(p.number);
                    if (it != stored.end() && it->second.etag == p.etag && it->second.sizeBytes == p.sizeBytes) done[p.number] = p;
                }
            } else {
                journal.uploadId.clear();
            }
        }
    }
    if (journal.uploadId.empty()) {
        HttpCall c;
        c.method = "POST";
        c.target = impl_->target(object, "uploads=");
        c.headers = metadataHeaders(options.metadata, journal.crc32c);
        for (auto& h : impl_->customerKeyHeaders()) c.headers.push_back(std::move(h));
        auto answer = impl_->call("start " + what, std::move(c), &result.retries);
        if (!answer) return fail(std::move(answer.error()));
        auto id = parseUploadId(answer->body);
        if (!id) return fail(std::move(id.error()).addContext("while starting " + what));
        journal.uploadId = *id;
        done.clear();
    }
    for (const auto& [n, p] : done) journal.parts.push_back(p);
    result.partsResumed = static_cast<int>(done.size());
    if (journaled) {
        if (auto ok = saveJournal(journalFile, journal); !ok) return fail(std::move(ok.error()));
    }

    const auto plan = planParts(total, partSize);
    std::vector<PartPlan> pending;
    std::uint64_t bytesDone = 0;
    for (const auto& p : plan) {
        if (done.count(p.number)) bytesDone += p.size;
        else pending.push_back(p);
    }
    std::mutex mutex;  // journal, done, progress, firstError
    std::optional<Error> firstError;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::atomic<int> retries{0};
    auto worker = [&] {
        std::vector<std::byte> buffer;  // one part, reused
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= pending.size() || stop.load() || (control.cancel && control.cancel->load())) return;
            const PartPlan& p = pending[i];
            buffer.resize(static_cast<std::size_t>(p.size));
            if (auto ok = source->read(p.offset, buffer); !ok) {
                std::lock_guard lock(mutex);
                if (!firstError) firstError = std::move(ok.error());
                stop = true;
                return;
            }
            const std::span<const std::byte> body(buffer);
            HttpCall c;
            c.method = "PUT";
            c.target = impl_->target(object, fmt::format("partNumber={}&uploadId={}", p.number, uriEncode(journal.uploadId, false)));
            c.body = body;
            c.payloadSha256 = sha256Hex(body);
            c.headers = impl_->customerKeyHeaders();
            c.cancel = control.cancel;
            int partRetries = 0;
            auto answer = impl_->call(fmt::format("{} part {} of {}", what, p.number, plan.size()), std::move(c), &partRetries);
            retries += partRetries;
            std::lock_guard lock(mutex);
            if (!answer) {
                if (!firstError) firstError = std::move(answer.error());
                stop = true;
                return;
            }
            const auto etag = answer->headers.find("etag");
            if (etag == answer->headers.end()) {
                if (!firstError) firstError = Error(ErrorCode::DataLoss, fmt::format("{} part {}: the server gave no ETag", what, p.number));
                stop = true;
                return;
            }
            JournalPart confirmed{p.number, unquoted(etag->second), p.size};
            done[p.number] = confirmed;
            journal.parts.push_back(confirmed);
            if (journaled) {
                if (auto ok = saveJournal(journalFile, journal); !ok && !firstError) {
                    firstError = std::move(ok.error());
                    stop = true;
                    return;
                }
            }
            bytesDone += p.size;
            if (control.progress) control.progress({bytesDone, total});
        }
    };
    {
        std::vector<std::jthread> workers;
        const int count = std::min<int>(impl_->settings.parallelRequests, static_cast<int>(std::max<std::size_t>(pending.size(), 1)));
        for (int i = 0; i < count; ++i) workers.emplace_back(worker);
    }
    result.retries += retries.load();
    if (control.cancel && control.cancel->load() && !firstError) {
        firstError = Error(ErrorCode::Cancelled, fmt::format("{}: cancelled with {} of {} parts stored{}", what, done.size(), plan.size(),
                                                             journaled ? " (the journal resumes it)" : ""));
    }
    if (!firstError) {  // the parts and the CRC must be of one version of the file
        if (auto ok = source->unchanged(); !ok) firstError = std::move(ok.error());
    }
    if (firstError) {
        if (!journaled) {  // nothing can resume it: free what the server holds
            HttpCall c;
            c.method = "DELETE";
            c.target = impl_->target(object, "uploadId=" + uriEncode(journal.uploadId, false));
            (void)impl_->call("abort " + what, std::move(c));
        }
        return fail(std::move(*firstError));
    }

    std::vector<StoredPart> parts;
    for (const auto& [n, p] : done) parts.push_back({n, p.etag, p.sizeBytes});
    const std::string body = completeMultipartBody(parts);
    HttpCall c;
    c.method = "POST";
    c.target = impl_->target(object, "uploadId=" + uriEncode(journal.uploadId, false));
    c.body = std::as_bytes(std::span(body.data(), body.size()));
    c.headers = {"Content-Type: application/xml"};
    auto answer = impl_->run("complete " + what, [&](CurlConnection& connection) -> tl::expected<HttpAnswer, S3Failure> {
        auto a = connection.perform(c);
        if (!a) return a;
        if (auto etag = parseCompleteResult(a->body); !etag) {  // a 200 that carries an <Error>
            const auto error = parseErrorBody(a->body);
            return tl::unexpected(S3Failure{500, 0, "", error.code.empty() ? "InternalError" : error.code, etag.error().message(), ""});
        }
        return a;
    }, control.cancel, &result.retries);
    // A completion whose answer was lost is retried into NoSuchUpload: the object tells.
    if (!answer && answer.error().code() != ErrorCode::NotFound) return fail(std::move(answer.error()));
    result.parts = static_cast<int>(plan.size());
    if (auto ok = verifyStored(*this, object, total, journal.crc32c, result); !ok) {
        return fail(answer ? std::move(ok.error()) : std::move(answer.error()));
    }
    if (journaled) std::filesystem::remove(journalFile);
    return result;
}

}  // namespace sonolink::archive
