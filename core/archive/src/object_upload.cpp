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
                                                     "store's copy is not the file (its metadata claims it is)",
                                                     object.url(), crc32cHex(*readBack), crc32cHex(crc)));
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
                return fail(ErrorCode::DataLoss,
                            fmt::format("cannot read '{}' at byte {}: {}", path_, offset + done, n < 0 ? std::strerror(errno) : "it became shorter"));
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
            return fail(ErrorCode::DataLoss,
                        fmt::format("'{}' changed while it was uploaded ({} bytes, then {}): upload it again once it is whole", path_, size_, id->first));
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

// One multipart upload of a file, step by step: describe it (size, time of change, CRC-32C),
// resume what its journal and the server agree on, or start it; send the parts in parallel, each
// confirmed in the journal; then complete it and verify the stored object.
class MultipartUpload {
public:
    MultipartUpload(S3Client& client, S3Client::Impl& impl, const SourceFile& source, const std::filesystem::path& file, const S3Location& object,
                    const UploadOptions& options, const TransferControl& control)
        : client_(client), impl_(impl), source_(source), object_(object), options_(options), control_(control), journaled_(!options.journalDirectory.empty()),
          what_("upload " + object.url()) {
        journal_.file = std::filesystem::absolute(file).string();
        journal_.sizeBytes = source.size();
        journal_.modifiedNs = source.modifiedNs();
        journal_.bucket = object.bucket;
        journal_.key = object.key;
        journal_.partSizeBytes = impl.settings.partSizeBytes;
        if (journaled_) journalFile_ = journalPath(options.journalDirectory, journal_.file, object.bucket, object.key);
        plan_ = planParts(source.size(), impl.settings.partSizeBytes);
    }

    Result<UploadResult> run() {
        auto crc = crcOfFile(source_);
        if (!crc) return fail(std::move(crc.error()));
        journal_.crc32c = *crc;
        result_.crc32c = *crc;
        if (journaled_) {
            if (auto ok = resume(); !ok) return fail(std::move(ok.error()));
        }
        if (journal_.uploadId.empty()) {
            if (auto ok = start(); !ok) return fail(std::move(ok.error()));
        }
        for (const auto& [n, p] : done_) journal_.parts.push_back(p);
        result_.partsResumed = static_cast<int>(done_.size());
        if (auto ok = saveIfJournaled(); !ok) return fail(std::move(ok.error()));
        if (auto failure = sendParts()) {
            if (!journaled_) abort();  // nothing can resume it: free what the server holds
            return fail(std::move(*failure));
        }
        return complete();
    }

private:
    // The journal's parts that the server holds too (ETag and size); a journal of another
    // version of the file, or an upload the server no longer knows, starts afresh.
    Status resume() {
        std::error_code ec;
        std::filesystem::create_directories(options_.journalDirectory, ec);
        auto previous = loadJournal(journalFile_);
        if (!previous) log::warn(log::category("archive"), "{}", previous.error().message());
        if (!previous || !*previous || !(*previous)->describesSameUpload(journal_)) return {};
        journal_.uploadId = (*previous)->uploadId;
        auto stored = storedParts();
        if (!stored) return fail(std::move(stored.error()));
        if (!*stored) {
            journal_.uploadId.clear();
            return {};
        }
        for (const auto& p : (*previous)->parts) {
            auto it = (*stored)->find(p.number);
            if (it != (*stored)->end() && it->second.etag == p.etag && it->second.sizeBytes == p.sizeBytes) done_[p.number] = p;
        }
        return {};
    }

    // The server's own list of the parts it holds, page by page; none when the upload is gone
    // (aborted, expired).
    Result<std::optional<std::map<int, StoredPart>>> storedParts() {
        std::map<int, StoredPart> stored;
        int marker = 0;
        for (bool more = true; more;) {
            HttpCall c;
            c.target = impl_.target(object_, fmt::format("part-number-marker={}&uploadId={}", marker, uriEncode(journal_.uploadId, false)));
            auto answer = impl_.call("list parts of " + what_, std::move(c));
            if (!answer && answer.error().code() == ErrorCode::NotFound) return std::optional<std::map<int, StoredPart>>();
            if (!answer) return fail(std::move(answer.error()));
            auto page = parseListParts(answer->body);
            if (!page) return fail(std::move(page.error()).addContext("while resuming " + what_));
            for (auto& p : page->parts) stored[p.number] = p;
            more = page->truncated && page->nextMarker > marker;
            marker = page->nextMarker;
        }
        return std::optional(std::move(stored));
    }

    Status start() {
        HttpCall c;
        c.method = "POST";
        c.target = impl_.target(object_, "uploads=");
        c.headers = metadataHeaders(options_.metadata, journal_.crc32c);
        for (auto& h : impl_.customerKeyHeaders()) c.headers.push_back(std::move(h));
        auto answer = impl_.call("start " + what_, std::move(c), &result_.retries);
        if (!answer) return fail(std::move(answer.error()));
        auto id = parseUploadId(answer->body);
        if (!id) return fail(std::move(id.error()).addContext("while starting " + what_));
        journal_.uploadId = *id;
        done_.clear();
        return {};
    }

    Status saveIfJournaled() { return journaled_ ? saveJournal(journalFile_, journal_) : Status{}; }

    // The parts not yet stored, by parallel workers; the first failure stops them all. Then
    // cancellation and a change to the file are failures too: none, or the one that stopped it.
    std::optional<Error> sendParts() {
        std::uint64_t bytesDone = 0;
        for (const auto& p : plan_) {
            if (done_.count(p.number)) bytesDone += p.size;
            else pending_.push_back(p);
        }
        bytesDone_ = bytesDone;
        {
            std::vector<std::jthread> workers;
            const int count = std::min<int>(impl_.settings.parallelRequests, static_cast<int>(std::max<std::size_t>(pending_.size(), 1)));
            for (int i = 0; i < count; ++i) workers.emplace_back([this] { sendPending(); });
        }
        result_.retries += retries_.load();
        if (control_.cancel && control_.cancel->load() && !firstError_) {
            firstError_ = Error(ErrorCode::Cancelled, fmt::format("{}: cancelled with {} of {} parts stored{}", what_, done_.size(), plan_.size(),
                                                                  journaled_ ? " (the journal resumes it)" : ""));
        }
        if (!firstError_) {  // the parts and the CRC must be of one version of the file
            if (auto ok = source_.unchanged(); !ok) firstError_ = std::move(ok.error());
        }
        return std::move(firstError_);
    }

    // A worker: takes the next pending part until none is left or one failed.
    void sendPending() {
        std::vector<std::byte> buffer;  // one part, reused
        for (;;) {
            const std::size_t i = next_.fetch_add(1);
            if (i >= pending_.size() || stop_.load() || (control_.cancel && control_.cancel->load())) return;
            if (auto ok = sendPart(pending_[i], buffer); !ok) {
                std::lock_guard lock(mutex_);
                if (!firstError_) firstError_ = std::move(ok.error());
                stop_ = true;
                return;
            }
        }
    }

    Status sendPart(const PartPlan& p, std::vector<std::byte>& buffer) {
        buffer.resize(static_cast<std::size_t>(p.size));
        if (auto ok = source_.read(p.offset, buffer); !ok) return ok;
        const std::span<const std::byte> body(buffer);
        HttpCall c;
        c.method = "PUT";
        c.target = impl_.target(object_, fmt::format("partNumber={}&uploadId={}", p.number, uriEncode(journal_.uploadId, false)));
        c.body = body;
        c.payloadSha256 = sha256Hex(body);
        c.headers = impl_.customerKeyHeaders();
        c.cancel = control_.cancel;
        int partRetries = 0;
        auto answer = impl_.call(fmt::format("{} part {} of {}", what_, p.number, plan_.size()), std::move(c), &partRetries);
        retries_ += partRetries;
        if (!answer) return fail(std::move(answer.error()));
        const auto etag = answer->headers.find("etag");
        if (etag == answer->headers.end()) return fail(ErrorCode::DataLoss, fmt::format("{} part {}: the server gave no ETag", what_, p.number));
        std::lock_guard lock(mutex_);
        JournalPart confirmed{p.number, unquoted(etag->second), p.size};
        done_[p.number] = confirmed;
        journal_.parts.push_back(confirmed);
        if (auto ok = saveIfJournaled(); !ok) return ok;
        bytesDone_ += p.size;
        if (control_.progress) control_.progress({bytesDone_, source_.size()});
        return {};
    }

    void abort() {
        HttpCall c;
        c.method = "DELETE";
        c.target = impl_.target(object_, "uploadId=" + uriEncode(journal_.uploadId, false));
        (void)impl_.call("abort " + what_, std::move(c));
    }

    // Completes the upload from the parts stored, then checks the object; the journal goes.
    Result<UploadResult> complete() {
        std::vector<StoredPart> parts;
        for (const auto& [n, p] : done_) parts.push_back({n, p.etag, p.sizeBytes});
        const std::string body = completeMultipartBody(parts);
        HttpCall c;
        c.method = "POST";
        c.target = impl_.target(object_, "uploadId=" + uriEncode(journal_.uploadId, false));
        c.body = std::as_bytes(std::span(body.data(), body.size()));
        c.headers = {"Content-Type: application/xml"};
        auto answer = impl_.run(
            "complete " + what_,
            [&](CurlConnection& connection) -> tl::expected<HttpAnswer, S3Failure> {
                auto a = connection.perform(c);
                if (!a) return a;
                if (auto etag = parseCompleteResult(a->body); !etag) {  // a 200 that carries an <Error>
                    const auto error = parseErrorBody(a->body);
                    return tl::unexpected(S3Failure{500, 0, "", error.code.empty() ? "InternalError" : error.code, etag.error().message(), ""});
                }
                return a;
            },
            control_.cancel, &result_.retries);
        // A completion whose answer was lost is retried into NoSuchUpload: the object tells.
        if (!answer && answer.error().code() != ErrorCode::NotFound) return fail(std::move(answer.error()));
        result_.parts = static_cast<int>(plan_.size());
        if (auto ok = verifyStored(client_, object_, source_.size(), journal_.crc32c, result_); !ok) {
            return fail(answer ? std::move(ok.error()) : std::move(answer.error()));
        }
        if (journaled_) std::filesystem::remove(journalFile_);
        return std::move(result_);
    }

    S3Client& client_;
    S3Client::Impl& impl_;
    const SourceFile& source_;
    const S3Location& object_;
    const UploadOptions& options_;
    const TransferControl& control_;
    const bool journaled_;
    const std::string what_;
    std::filesystem::path journalFile_;
    std::vector<PartPlan> plan_;
    std::vector<PartPlan> pending_;
    UploadResult result_;
    std::atomic<std::size_t> next_{0};
    std::atomic<bool> stop_{false};
    std::atomic<int> retries_{0};
    std::mutex mutex_;  // what the workers share: the journal, the parts done, the progress, the first error
    MultipartJournal journal_;
    std::map<int, JournalPart> done_;  // part number -> confirmed
    std::uint64_t bytesDone_ = 0;
    std::optional<Error> firstError_;
};

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
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' needs more than S3's 10000 parts of {} bytes: raise archive.part_size_bytes", file.string(), partSize));
    }

    return MultipartUpload(*this, *impl_, *source, file, object, options, control).run();
}

}  // namespace sonolink::archive
