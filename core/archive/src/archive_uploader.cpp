#include "sonolink/archive/archive_uploader.h"

#include <chrono>

#include <fmt/format.h>

#include "sonolink/util/log.h"

namespace sonolink::archive {

std::int64_t epochMs() { return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count(); }

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
            doubt = fmt::format("{} changed since it was verified ({} bytes, ETag {}, CRC-32C {}; verified {} bytes, ETag {}, CRC-32C {})", item.object.url(),
                                stored->sizeBytes, stored->etag, crc == stored->metadata.end() ? "none" : crc->second, item.sizeBytes,
                                item.etag.empty() ? "not kept" : item.etag, item.crc32c);
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

std::string_view toString(PassEvent::Kind kind) {
    switch (kind) {
        case PassEvent::Kind::Verified: return "verified";
        case PassEvent::Kind::UploadFailed: return "upload_failed";
        case PassEvent::Kind::LocalDeleted: return "local_deleted";
        case PassEvent::Kind::LocalKept: return "local_kept";
    }
    return "unknown";
}

namespace {

// One pass: its items, its report, and whom it tells.
class ArchivePass {
public:
    ArchivePass(ArchiveQueue& queue, S3Client& client, ArchiveAudit* audit, const PassSettings& settings, const std::atomic<bool>* stop)
        : queue_(queue), client_(client), audit_(audit), settings_(settings), stop_(stop) {}

    Result<PassReport> run() {
        auto due = queue_.takeDue(epochMs(), settings_.batch);
        if (!due) return fail(std::move(due.error()));
        for (const auto& item : *due) {
            if (auto ok = stopped() ? queue_.putBack(item.id) : upload(item); !ok) return fail(std::move(ok.error()));
        }
        if (settings_.retentionDays >= 0) {
            if (auto ok = applyRetention(); !ok) return fail(std::move(ok.error()));
        }
        return std::move(report_);
    }

private:
    [[nodiscard]] bool stopped() const { return stop_ && stop_->load(); }
    void tell(PassEvent event) const {
        if (settings_.onEvent) settings_.onEvent(event);
    }

    // Uploaded and verified, or failed (queued again where it can heal), audited and told; a
    // stop mid-upload puts it back (its journal resumes it).
    Status upload(const ArchiveItem& item) {
        UploadOptions options;
        options.journalDirectory = settings_.journalDirectory;
        options.metadata = {{"sonolink-kind", item.kind}};
        auto uploaded = client_.uploadFile(item.file, item.object, options, {nullptr, stop_});
        if (!uploaded && uploaded.error().code() == ErrorCode::Cancelled) return queue_.putBack(item.id);
        if (!uploaded) {
            const Error& e = uploaded.error();
            const bool heals = e.code() == ErrorCode::Unavailable;
            if (auto ok = queue_.markFailed(item.id, e.message(), heals, epochMs()); !ok) return ok;
            ++(heals ? report_.deferred : report_.failed);
            log::warn(log::category("archive"), "archive item {} ({}): {}{}", item.id, item.object.url(), e.message(), heals ? " (queued again)" : "");
            if (audit_) (void)audit_->record({"upload", item.object.url(), item.file, 0, "", false, e.message()});
            tell({PassEvent::Kind::UploadFailed, item.id, item.object.url(), item.file, 0, {}, e, heals});
            return {};
        }
        const std::string crc = fmt::format("{:08x}", uploaded->crc32c);
        if (auto ok = queue_.markVerified(item.id, uploaded->object.sizeBytes, crc, uploaded->object.etag, epochMs()); !ok) return ok;
        ++report_.verified;
        tell({PassEvent::Kind::Verified, item.id, item.object.url(), item.file, uploaded->object.sizeBytes, crc, std::nullopt, false});
        if (audit_) {
            if (auto ok = audit_->record({"upload", item.object.url(), item.file, uploaded->object.sizeBytes, crc, true, ""}); !ok) {
                return ok;  // an upload the trail does not show must not pass unnoticed
            }
        }
        return {};
    }

    // The local files verified longer ago than the retention: each deleted if the store still
    // holds what was verified, or kept (for now when the store did not answer).
    Status applyRetention() {
        const auto cutoff = epochMs() - static_cast<std::int64_t>(settings_.retentionDays * 86'400'000.0);
        auto retained = queue_.localCopiesDue(cutoff + 1);
        if (!retained) return fail(std::move(retained.error()));
        for (const auto& item : *retained) {
            if (stopped()) break;
            auto deleted = deleteLocalCopy(queue_, client_, item);
            if (!deleted) {
                log::warn(log::category("archive"), "archive item {} ({}): local copy kept for now: {}", item.id, item.file, deleted.error().message());
                tell({PassEvent::Kind::LocalKept, item.id, item.object.url(), item.file, 0, {}, deleted.error(), true});
                continue;  // the store did not answer: asked again next pass
            }
            if (!*deleted) {
                tell({PassEvent::Kind::LocalKept, item.id, item.object.url(), item.file, 0, {}, std::nullopt, false});
                continue;
            }
            if (audit_) (void)audit_->record({"delete local copy", item.object.url(), item.file, item.sizeBytes, item.crc32c, true, ""});
            report_.deletedLocal.push_back(item.file);
            tell({PassEvent::Kind::LocalDeleted, item.id, item.object.url(), item.file, item.sizeBytes, item.crc32c, std::nullopt, false});
        }
        return {};
    }

    ArchiveQueue& queue_;
    S3Client& client_;
    ArchiveAudit* audit_;
    const PassSettings& settings_;
    const std::atomic<bool>* stop_;
    PassReport report_;
};

}  // namespace

Result<PassReport> runArchivePass(ArchiveQueue& queue, S3Client& client, ArchiveAudit* audit, const PassSettings& settings, const std::atomic<bool>* stop) {
    return ArchivePass(queue, client, audit, settings, stop).run();
}

}  // namespace sonolink::archive
