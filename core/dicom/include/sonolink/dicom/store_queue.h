// StoreQueue: the persistent store-and-forward queue of DICOM objects bound for PACS nodes. Each
// item is a copy of the object plus its record in an SQLite database (queue.db, WAL mode; each
// change one transaction, fsync'd where a loss would lose data: enqueue, commitment, failure,
// forgetting), so a restart or a crash (SIGKILL, power loss)
// loses nothing: an interrupted send, or one whose outcome was not yet on disk, is sent again
// with the same SOP Instance UID (the PACS keeps one instance). Settled items are forgotten after
// a retention time. One process owns a queue directory at a time (an advisory lock the kernel
// drops when the owner dies). Thread contract: every method is thread-safe (one internal mutex);
// none does network I/O.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sonolink/dicom/pacs_client.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

// queued -> sending -> sent [-> committed]; failed when the PACS refuses the object or does not
// commit it (the local copy stays; retry() queues it again).
enum class ItemState { Queued, Sending, Sent, Committed, Failed };
std::string_view toString(ItemState state);

struct QueueItem {
    std::string id;          // "000042": enqueue order
    std::string node;        // the configured PACS node's name
    ObjectInfo object;       // object.file: the queue's own copy
    std::string sourceFile;  // what was enqueued
    ItemState state = ItemState::Queued;
    int attempts = 0;
    std::int64_t enqueuedAtMs = 0;  // Unix epoch milliseconds
    std::int64_t nextAttemptAtMs = 0;
    std::int64_t sentAtMs = 0;
    std::int64_t committedAtMs = 0;
    std::uint16_t lastStatus = 0;     // the last C-STORE status, if one came back
    std::string lastError;            // why the last attempt failed (empty after success)
    bool commitmentRequired = false;  // the node confirms storage (Storage Commitment)
    std::string transactionUid;       // the pending commitment request, if any
    std::int64_t commitmentRequestedAtMs = 0;
};

struct RetryPolicy {
    double initialDelayS = 5;         // after the first failure
    double maxDelayS = 600;           // the cap of the doubling
    double jitter = 0.5;              // each delay is cut by up to this fraction, at random
    double commitmentTimeoutS = 600;  // a request with no report by then is sent again
};

// The delay before attempt (attempts + 1), after `attempts` failures: initial * 2^(attempts-1),
// capped, minus up to jitter of it. unit in [0, 1) is the random draw.
double retryDelayS(const RetryPolicy& policy, int attempts, double unit);

// The items of the queue in directory, read without taking it over (safe while another process
// runs the queue: it reads the last committed state); the same DataLoss as open() for a
// database that is damaged or does not account for the copies.
[[nodiscard]] Result<std::vector<QueueItem>> readQueue(const std::string& directory);

// What recover() did: records kept, copies queued again, copies kept aside (not DICOM), and why.
struct QueueRecovery {
    std::size_t kept = 0;
    std::size_t requeued = 0;
    std::size_t setAside = 0;
    std::size_t badRecords = 0;
    std::vector<std::string> notes;
};

class StoreQueue {
public:
    // Opens (creating, 0700) the queue in directory; FailedPrecondition if another process holds
    // it. Items found mid-send are queued again; a record whose copy is missing becomes failed;
    // the one copy an enqueue cut short leaves is kept aside (orphans/). A database that is
    // missing, damaged (it fails SQLite's integrity check), no SonoLink queue, or lost records
    // (copies it does not account for) is DataLoss naming the copies and `dicom queue recover`,
    // and nothing is changed: never an empty queue.
    [[nodiscard]] static Result<std::unique_ptr<StoreQueue>> open(const std::string& directory, RetryPolicy policy = {});
    // Repairs a queue open() refuses: the readable records kept (a damaged database moved aside),
    // every copy they do not account for (and those in orphans/) queued again with the UIDs it
    // carries, each for the node it was queued for (kept beside it); `node` (with
    // commitmentRequired) only for copies whose node is not known, which without it are kept
    // aside in orphans/ with a note. Needs the queue's lock, like open().
    [[nodiscard]] static Result<QueueRecovery> recover(const std::string& directory, const std::string& node, bool commitmentRequired, RetryPolicy policy = {});
    ~StoreQueue();
    StoreQueue(const StoreQueue&) = delete;
    StoreQueue& operator=(const StoreQueue&) = delete;

    // Copies the file in (durably) and queues it for node. Enqueuing an object (SOP Instance
    // UID) that is already pending for that node returns the pending item: nothing is sent twice.
    [[nodiscard]] Result<QueueItem> enqueue(const std::string& file, const std::string& node, bool commitmentRequired);

    [[nodiscard]] std::vector<QueueItem> items() const;
    [[nodiscard]] std::optional<QueueItem> item(const std::string& id) const;

    // Items of node due for sending at nowMs, marked sending (in memory: a restart queues them
    // again) before they are returned.
    [[nodiscard]] Result<std::vector<QueueItem>> takeDue(const std::string& node, std::int64_t nowMs, std::size_t limit);
    // The outcome of one attempt: stored; or failed (retry when the error is Unavailable or the
    // association failed, else failed for good); or not attempted (association broke first).
    [[nodiscard]] Status markStored(const std::string& id, std::uint16_t status, std::int64_t nowMs);
    [[nodiscard]] Status markFailed(const std::string& id, const Error& error, bool retryable, std::int64_t nowMs);
    [[nodiscard]] Status markNotAttempted(const std::string& id);

    // Storage commitment: sent items of node that await a request (none yet, or the last timed
    // out), and the bookkeeping of requests and reports. A committed item's copy is deleted.
    [[nodiscard]] std::vector<QueueItem> awaitingCommitmentRequest(const std::string& node, std::int64_t nowMs) const;
    [[nodiscard]] Status markCommitmentRequested(const std::vector<std::string>& ids, const std::string& transactionUid, std::int64_t nowMs);
    // The request did not reach the PACS: asked again after the first retry delay (with its
    // jitter), not after the whole commitment timeout, and not at once.
    [[nodiscard]] Status markCommitmentRequestFailed(const std::vector<std::string>& ids, std::int64_t nowMs);
    // Applies a report: committed UIDs and failed UIDs (with reasons) of a transaction.
    [[nodiscard]] Status applyCommitment(const std::string& transactionUid, const std::vector<std::string>& committedUids,
                                         const std::vector<std::pair<std::string, std::string>>& failedUids, std::int64_t nowMs);

    // Takes a queued item out of sending (a user's decision): failed, "withdrawn", copy kept.
    // FailedPrecondition for an item already sent or being sent.
    [[nodiscard]] Status withdraw(const std::string& id);
    // Queues a failed item again (a user's decision), attempts reset.
    [[nodiscard]] Status retry(const std::string& id);
    // Retention: forgets the items settled before cutoffMs (committed, or sent to a node that does
    // not commit storage) and deletes their copies; their records are deleted first.
    // Failed items stay until a user retries them. Returns how many were forgotten.
    [[nodiscard]] Result<std::size_t> forgetSettledBefore(std::int64_t cutoffMs);
    // Items waiting for a node not in `nodes` (removed from the configuration) end failed, with
    // the reason: never queued for ever in silence. Returns how many.
    [[nodiscard]] Result<std::size_t> failItemsOfUnknownNodes(const std::set<std::string>& nodes);
    // The earliest time anything of node is due (sending or a commitment request), if any.
    [[nodiscard]] std::optional<std::int64_t> nextDueMs(const std::string& node) const;
    // Grows with every change of any item (a cheap "has anything changed" for viewers).
    [[nodiscard]] std::uint64_t version() const noexcept;
    // True when nothing is queued, sending, or awaiting a commitment report.
    [[nodiscard]] bool settled() const;

    const std::string& directory() const;

private:
    struct State;
    explicit StoreQueue(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::dicom
