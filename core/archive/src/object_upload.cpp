// S3Client's uploads: one PUT up to a part's size, multipart above it (parts in parallel, each
// signed with its SHA-256, confirmed in a journal so that a crash resumes), then a HEAD that
// checks size and CRC-32C before the upload is called done.
#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "client_impl.h"
#include "encoding.h"
#include "s3_xml.h"
#include "sonolink/archive/multipart_journal.h"
#include "sonolink/util/mapped_file.h"
#include "sonolink/util/log.h"

namespace sonolink::archive {
namespace {

std::vector<std::string> metadataHeaders(const std::map<std::string, std::string>& metadata, std::uint32_t crc) {
    std::vector<std::string> headers;
    for (const auto& [name, value] : metadata) headers.push_back(fmt::format("x-amz-meta-{}: {}", name, value));
    headers.push_back(fmt::format("x-amz-meta-{}: {}", kCrc32cMetadata, crc32cHex(crc)));
    return headers;
}

// The object as stored: its size and our CRC-32C, as HEAD reports them.
Status verifyStored(S3Client& client, const S3Location& object, std::uint64_t size, std::uint32_t crc, ObjectInfo& info) {
    auto stored = client.head(object);
    if (!stored) return fail(std::move(stored.error()).addContext("while checking the upload"));
    info = *stored;
    const auto it = stored->metadata.find(kCrc32cMetadata);
    if (stored->sizeBytes != size || it == stored->metadata.end() || it->second != crc32cHex(crc)) {
        return fail(ErrorCode::DataLoss, fmt::format("{} holds {} bytes with CRC-32C {} after the upload; sent {} bytes with {}", object.url(),
                                                     stored->sizeBytes, it == stored->metadata.end() ? "none" : it->second, size, crc32cHex(crc)));
    }
    return {};
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
    if (auto ok = verifyStored(*this, object, bytes.size(), result.crc32c, result.object); !ok) return fail(std::move(ok.error()));
    return result;
}

Result<UploadResult> S3Client::uploadFile(const std::filesystem::path& file, const S3Location& object, const UploadOptions& options,
                                          const TransferControl& control) {
    auto mapped = MappedFile::open(file);
    if (!mapped) return fail(std::move(mapped.error()));
    const auto bytes = mapped->bytes();
    const std::uint64_t partSize = impl_->settings.partSizeBytes;
    if (bytes.size() <= partSize) {
        auto result = putBytes(bytes, object, options.metadata);
        if (result && control.progress) control.progress({bytes.size(), bytes.size()});
        return result;
    }
    if (bytes.size() > partSize * 10000) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' needs more than S3's 10000 parts of {} bytes: raise archive.part_size_bytes",
                                                            file.string(), partSize));
    }

    MultipartJournal journal;
    journal.file = std::filesystem::absolute(file).string();
    journal.sizeBytes = bytes.size();
    journal.modifiedNs = mapped->modifiedNs();
    journal.crc32c = crc32cOf(bytes);
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

    const auto plan = planParts(bytes.size(), partSize);
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
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= pending.size() || stop.load() || (control.cancel && control.cancel->load())) return;
            const PartPlan& p = pending[i];
            const auto body = bytes.subspan(p.offset, p.size);
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
            if (control.progress) control.progress({bytesDone, bytes.size()});
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
    if (auto ok = verifyStored(*this, object, bytes.size(), journal.crc32c, result.object); !ok) {
        return fail(answer ? std::move(ok.error()) : std::move(answer.error()));
    }
    if (journaled) std::filesystem::remove(journalFile);
    return result;
}

}  // namespace sonolink::archive
