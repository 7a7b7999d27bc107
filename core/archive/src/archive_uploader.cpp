#include "sonolink/archive/archive_uploader.h"

#include <chrono>

#include <fmt/format.h>

#include "sonolink/util/log.h"

namespace sonolink::archive {

std::int64_t epochMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

namespace {

// The local copy of a verified item deleted only if the store still holds what was verified
// (its size, its ETag, our CRC-32C: HEAD) and the file is still what was uploaded (the queue
// checks). An object gone or changed keeps the local copy for good, with the reason; a store that
// does not answer keeps it until the next pass (an Error here).
Result<bool> deleteLocalCopy(ArchiveQueue& queue, S3Client& client, const ArchiveItem& item) {
    auto stored = client.head(item.object);
    if (!stored && stored.error().code() != ErrorCode::NotFound) return fail(std::move(stored.error()));
    std::string doubt;
    if (!stored) {
        doubt = fmt::format("{} is no longer in the archive", item.object.url());
    } else {
        const auto crc = stored->metadata.find(kCrc32cMetadata);
        if (stored->sizeBytes != item.sizeBytes || (!item.etag.empty() && stored->etag != item.etag) || crc == stored->metadata.end() ||
            crc->second != item.crc32c) {
            doubt = fmt::format("{} changed since it was verified ({} bytes, ETag {}, CRC-32C {}; verified {} bytes, ETag {}, CRC-32C {})",
                                item.object.url(), stored->sizeBytes, stored->etag, crc == stored->metadata.end() ? "none" : crc->second,
                                item.sizeBytes, item.etag.empty() ? "not kept" : item.etag, item.crc32c);
        }
    }
    if (!doubt.empty()) {
        if (auto ok = queue.keepLocalCopy(item.id, doubt + ": the local copy is kept"); !ok) return fail(std::move(ok.error()));
        log::warn(log::category("archive"), "archive item {} ({}): {}: the local copy is kept", item.id, item.file, doubt);
        return false;
    }
    return queue.deleteLocalCopy(item.id, epochMs());
}

}  // namespace

Result<PassReport> runArchivePass(ArchiveQueue& queue, S3Client& client, ArchiveAudit* audit, const PassSettings& settings,
                                  const std::atomic<bool>* stop) {
    auto& log = log::category("archive");
    PassReport report;
    auto due = queue.takeDue(epochMs(), settings.batch);
    if (!due) return fail(std::move(due.error()));
    for (const auto& item : *due) {
        if (stop && stop->load()) {
            if (auto ok = queue.putBack(item.id); !ok) return fail(std::move(ok.error()));
            continue;
        }
        UploadOptions options;
        options.journalDirectory = settings.journalDirectory;
        options.metadata = {{"sonolink-kind", item.kind}};
        auto uploaded = client.uploadFile(item.file, item.object, options, {nullptr, stop});
        if (!uploaded && uploaded.error().code() == ErrorCode::Cancelled) {  // stopped mid-upload: its journal resumes it
            if (auto ok = queue.putBack(item.id); !ok) return fail(std::move(ok.error()));
            continue;
        }
        if (!uploaded) {
            const Error& e = uploaded.error();
            const bool heals = e.code() == ErrorCode::Unavailable;
            if (auto ok = queue.markFailed(item.id, e.message(), heals, epochMs()); !ok) return fail(std::move(ok.error()));
            ++(heals ? report.deferred : report.failed);
            log::warn(log, "archive item {} ({}): {}{}", item.id, item.object.url(), e.message(), heals ? " (queued again)" : "");
            if (audit) (void)audit->record({"upload", item.object.url(), item.file, 0, "", false, e.message()});
            continue;
        }
        const std::string crc = fmt::format("{:08x}", uploaded->crc32c);
        if (auto ok = queue.markVerified(item.id, uploaded->object.sizeBytes, crc, uploaded->object.etag, epochMs()); !ok) return fail(std::move(ok.error()));
        ++report.verified;
        if (audit) {
            if (auto ok = audit->record({"upload", item.object.url(), item.file, uploaded->object.sizeBytes, crc, true, ""}); !ok) {
                return fail(std::move(ok.error()));  // an upload the trail does not show must not pass unnoticed
            }
        }
    }
    if (settings.retentionDays >= 0) {
        const auto cutoff = epochMs() - static_cast<std::int64_t>(settings.retentionDays * 86'400'000.0);
        auto retained = queue.localCopiesDue(cutoff + 1);
        if (!retained) return fail(std::move(retained.error()));
        for (const auto& item : *retained) {
            if (stop && stop->load()) break;
            auto deleted = deleteLocalCopy(queue, client, item);
            if (!deleted) {
                log::warn(log, "archive item {} ({}): local copy kept for now: {}", item.id, item.file, deleted.error().message());
                continue;  // the store did not answer: asked again next pass
            }
            if (*deleted) {
                if (audit) (void)audit->record({"delete local copy", item.object.url(), item.file, item.sizeBytes, item.crc32c, true, ""});
                report.deletedLocal.push_back(item.file);
            }
        }
    }
    return report;
}

}  // namespace sonolink::archive
