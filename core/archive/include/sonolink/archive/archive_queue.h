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
    std::string kind;                 // "recording", "study", "file"
    ArchiveState state = ArchiveState::Queued;
    int attempts = 0;
    std::uint64_t sizeBytes = 0;      // as verified
    std::string crc32c;               // as verified (8 hex digits)
    std::int64_t enqueuedAtMs = 0;    // Unix epoch milliseconds
    std::int64_t nextAttemptAtMs = 0;
    std::int64_t verifiedAtMs = 0;
    std::int64_t localDeletedAtMs = 0;  // retention deleted the local file then; -1: kept, changed since
    std::string lastError;
};

struct ArchiveRetry {
    double initialDelayS = 5;   // after the first failure; doubles per failure ...
    double maxDelayS = 600;     // ... up to this
    double jitter = 0.5;        // each delay cut by up to this fraction, at random
};

// The items of the queue in directory, read without taking it over (safe beside its owner).
[[nodiscard]] Result<std::vector<ArchiveItem>> readArchiveQueue(const std::string& directory);

class ArchiveQueue {
public:
    // Opens (creating, 0700) the queue in directory. FailedPrecondition if another process holds
    // it; DataLoss naming the file if its database is damaged or no SonoLink archive queue (never
    // an empty queue in its place). Items found uploading are queued again.
    [[nodiscard]] static Result<std::unique_ptr<ArchiveQueue>> open(const std::string& directory, ArchiveRetry retry = {});
    ~ArchiveQueue();
    ArchiveQueue(const ArchiveQueue&) = delete;
    ArchiveQueue& operator=(const ArchiveQueue&) = delete;

    // Queues file for object. The same file already pending for the same object returns that
    // item: nothing is queued twice. A file that is not there is NotFound.
    [[nodiscard]] Result<ArchiveItem> enqueue(const std::string& file, const S3Location& object, const std::string& kind, std::int64_t nowMs);
    [[nodiscard]] std::vector<ArchiveItem> items() const;
    // Items due at nowMs, marked uploading before they are returned.
    [[nodiscard]] Result<std::vector<ArchiveItem>> takeDue(std::int64_t nowMs, std::size_t limit);
    [[nodiscard]] Status markVerified(std::int64_t id, std::uint64_t sizeBytes, const std::string& crc32c, std::int64_t nowMs);
    // retryable: queued again after the back-off; else failed until retry().
    [[nodiscard]] Status markFailed(std::int64_t id, const std::string& error, bool retryable, std::int64_t nowMs);
    [[nodiscard]] Status retry(std::int64_t id);
    // An item taken but not attempted (the pass was stopped first): queued again as it was.
    [[nodiscard]] Status putBack(std::int64_t id);
    // Deletes the local files of items verified before cutoffMs (a file already gone is fine),
    // each only if its size and CRC-32C are still those verified: one changed since is kept for
    // good (localDeletedAtMs -1, lastError says why). The records stay. Returns the files deleted.
    [[nodiscard]] Result<std::vector<std::string>> deleteLocalVerifiedBefore(std::int64_t cutoffMs, std::int64_t nowMs);
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
