#include "sonolink/archive/archive_uploader.h"

#include <chrono>

#include <fmt/format.h>

#include "sonolink/util/log.h"

namespace sonolink::archive {

std::int64_t epochMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

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
        if (auto ok = queue.markVerified(item.id, uploaded->object.sizeBytes, crc, epochMs()); !ok) return fail(std::move(ok.error()));
        ++report.verified;
        if (audit) {
            if (auto ok = audit->record({"upload", item.object.url(), item.file, uploaded->object.sizeBytes, crc, true, ""}); !ok) {
                return fail(std::move(ok.error()));  // an upload the trail does not show must not pass unnoticed
            }
        }
    }
    if (settings.retentionDays >= 0) {
        const auto cutoff = epochMs() - static_cast<std::int64_t>(settings.retentionDays * 86'400'000.0);
        auto deleted = queue.deleteLocalVerifiedBefore(cutoff + 1, epochMs());
        if (!deleted) return fail(std::move(deleted.error()));
        for (const auto& file : *deleted) {
            if (audit) (void)audit->record({"delete local copy", "", file, 0, "", true, ""});
        }
        report.deletedLocal = std::move(*deleted);
    }
    return report;
}

}  // namespace sonolink::archive
