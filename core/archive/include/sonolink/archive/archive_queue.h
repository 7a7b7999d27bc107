// ArchiveQueue: the persistent queue of files bound for the archive (finished recordings,
// exported studies). Records live in SQLite (archive-queue.db in the queue's folder: WAL, each
// change one durable transaction), so a restart or a crash (SIGKILL, power loss) loses nothing:
// an upload cut short is queued again and resumes from its multipart journal into the same key,
// so each item ends as exactly one object. Files are not copied (recordings are gigabytes): the
// local file stays until its upload is verified, then as long as the retention rule says.
// One process owns a queue at a time (an advisory lock the kernel drops when the owner dies).
// Thread contract: every method is thread-safe (one internal mutex); none does network I/O.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/archive/s3_settings.h"
#include "sonolink/util/result.h"

namespace sonolink::archive {

// queued -> uploading -> verified; failed when the store refuses it for good (retry() queues it
// again). A verified item's local file is deleted by retention (localDeletedAtMs set).
enum class ArchiveState { Queued, Uploading, Verified, Failed };
[[nodiscard]] std::string_view toString(ArchiveState state) noexcept;

struct ArchiveItem {
    std::int64_t id = 0;
    std::string file;
    S3Location object;
    std::string kind;  // "recording", "study", "file"
    ArchiveState state = ArchiveState::Queued;
    int attempts = 0;
    std::uint64_t sizeBytes = 0;    // as verified
    std::string crc32c;             // as verified (8 hex digits)
    std::int64_t enqueuedAtMs = 0;  // Unix epoch milliseconds
    std::int64_t nextAttemptAtMs = 0;
    std::int64_t verifiedAtMs = 0;
    std::int64_t localDeletedAtMs = 0;  // retention deleted the local file then; -1: kept, changed since
    std::string lastError;
    std::string etag;  // the stored object's, as verified: checked again before the local copy goes
};

struct ArchiveRetry {
    double initialDelayS = 5;  // after the first failure; doubles per failure ...
    double maxDelayS = 600;    // ... up to this
    double jitter = 0.5;       // each delay cut by up to this fraction, at random
};

// The items of the queue in directory, read without taking it over (safe beside its owner).
[[nodiscard]] Result<std::vector<ArchiveItem>> readArchiveQueue(const std::string& directory);

class ArchiveQueue {
public:
    // Opens (creating, 0700) the queue in directory. FailedPrecondition if another process holds
    // it; DataLoss naming the file if its database is damaged, no SonoLink archive queue, or
    // missing or empty in a folder where a queue was created (never an empty queue in its
    // place). Items found uploading are queued again.
    [[nodiscard]] static Result<std::unique_ptr<ArchiveQueue>> open(const std::string& directory, ArchiveRetry retry = {});
    // Starts a new, empty queue in directory on purpose: the database there (if any) is moved
    // aside, not deleted. Returns where it went. FailedPrecondition if another process holds it.
    [[nodiscard]] static Result<std::string> reset(const std::string& directory, std::int64_t nowMs);
    ~ArchiveQueue();
    ArchiveQueue(const ArchiveQueue&) = delete;
    ArchiveQueue& operator=(const ArchiveQueue&) = delete;

    // Queues file for object. The same file already pending for the same object returns that
    // item: nothing is queued twice. A file that is not there is NotFound.
    [[nodiscard]] Result<ArchiveItem> enqueue(const std::string& file, const S3Location& object, const std::string& kind, std::int64_t nowMs);
    [[nodiscard]] std::vector<ArchiveItem> items() const;
    // Items due at nowMs, marked uploading before they are returned.
    [[nodiscard]] Result<std::vector<ArchiveItem>> takeDue(std::int64_t nowMs, std::size_t limit);
    [[nodiscard]] Status markVerified(std::int64_t id, std::uint64_t sizeBytes, const std::string& crc32c, const std::string& etag, std::int64_t nowMs);
    // retryable: queued again after the back-off; else failed until retry().
    [[nodiscard]] Status markFailed(std::int64_t id, const std::string& error, bool retryable, std::int64_t nowMs);
    [[nodiscard]] Status retry(std::int64_t id);
    // An item taken but not attempted (the pass was stopped first): queued again as it was.
    [[nodiscard]] Status putBack(std::int64_t id);
    // Items verified before cutoffMs whose local file is still there to delete by retention.
    [[nodiscard]] Result<std::vector<ArchiveItem>> localCopiesDue(std::int64_t cutoffMs) const;
    // Deletes the local file of verified item id (a file already gone is fine: false), only if its
    // size and CRC-32C are still those verified: one changed since is kept for good (false,
    // localDeletedAtMs -1, lastError says why). The caller checks the stored object first.
    [[nodiscard]] Result<bool> deleteLocalCopy(std::int64_t id, std::int64_t nowMs);
    // The local copy of item id kept for good (localDeletedAtMs -1), with the reason.
    [[nodiscard]] Status keepLocalCopy(std::int64_t id, const std::string& why);
    [[nodiscard]] std::optional<std::int64_t> nextDueMs() const;
    // Nothing queued or uploading.
    [[nodiscard]] bool settled() const;
    [[nodiscard]] const std::string& directory() const noexcept;

private:
    struct State;
    explicit ArchiveQueue(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::archive
