// StoreForwarder: drains the StoreQueue to the configured PACS nodes: due items of a node go out
// over one association (in batches), failures are retried with exponential back-off and jitter,
// objects the PACS refuses fail with the reason, and sent items of nodes that commit storage
// get a Storage Commitment request whose report (from CommitmentListener) marks them committed.
// Each attempt is audited (110104) per patient and study, with its outcome, and told as a
// ForwardEvent to whoever asked.
// Thread contract: runOnce() blocks on the network; start() runs it on a worker thread until
// stop() (or destruction). wake() and nextDueMs() may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sonolink/util/thread_annotations.h"
#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/pacs_node.h"
#include "sonolink/dicom/storage_commitment.h"
#include "sonolink/dicom/store_queue.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {

// The wall clock: Unix epoch milliseconds.
[[nodiscard]] std::int64_t nowMs();

struct Destination {
    std::string name;  // the node's configured name, as queued items name it
    PacsNode node;
    bool storageCommitment = false;
};

// What the forwarder did, as it did it: for a runner that reports it (as JSON lines, say) and
// for tests that wait on what happened rather than on a log's words.
struct ForwardEvent {
    enum class Kind {
        Stored,                   // item stored at node (status: its DIMSE status; warning status too)
        AttemptFailed,            // item's attempt failed (error; retry: whether it goes again)
        AssociationFailed,        // no association with node (error, count: the items waiting; retry)
        CommitmentRequested,      // count items of node, transactionUid
        CommitmentRequestFailed,  // count items of node, transactionUid, error: asked again later
        CommitmentReported,       // node's report for transactionUid: count committed, failedCount not
        NodeGone,                 // count items for nodes no longer configured: failed
    };
    Kind kind = Kind::Stored;
    std::string node;
    std::string item;
    std::optional<Error> error;
    bool retry = false;
    std::uint16_t status = 0;
    std::string transactionUid;
    std::size_t count = 0;
    std::size_t failedCount = 0;
};
[[nodiscard]] std::string_view toString(ForwardEvent::Kind kind);

struct ForwarderSettings {
    AssociationSettings association;
    std::vector<Destination> destinations;
    std::size_t batchSize = 512;  // objects per association at most
    double retentionS = 0;        // settled items are forgotten this long after; 0: never
    // Unix epoch milliseconds for every decision (back-off, retention, commitment timeouts);
    // null: the wall clock. Tests move a clock of their own, so they never sleep.
    std::function<std::int64_t()> clockMs;
    // Told of each event, on the thread that made it (runOnce()'s, or applyReport()'s caller's);
    // it must not call back into the forwarder. Null: nobody is told.
    std::function<void(const ForwardEvent&)> onEvent;
};

class StoreForwarder {
public:
    // audit may be null (no audit trail); it must outlive the forwarder.
    StoreForwarder(StoreQueue& queue, ForwarderSettings settings, UidGenerator uids, AuditTrail* audit = nullptr);
    ~StoreForwarder();
    StoreForwarder(const StoreForwarder&) = delete;
    StoreForwarder& operator=(const StoreForwarder&) = delete;

    // One pass over every destination: sends what is due, asks for commitments that are due;
    // then forgets the items settled longer ago than the retention.
    void runOnce();
    // Applies a commitment report to the queue (call it from the listener's callback).
    void applyReport(const CommitmentReport& report);
    // The earliest time anything is due, over all destinations.
    [[nodiscard]] std::optional<std::int64_t> nextDueMs() const;

    void start();
    void stop();
    void wake();

private:
    [[nodiscard]] std::int64_t now() const { return settings_.clockMs ? settings_.clockMs() : nowMs(); }
    void tell(ForwardEvent event) const {
        if (settings_.onEvent) settings_.onEvent(event);
    }
    void sendDue(const Destination& destination, std::int64_t atMs);
    void requestCommitments(const Destination& destination, std::int64_t atMs);
    void auditBatch(const Destination& destination, const std::vector<QueueItem>& items, const std::vector<bool>& reported,
                    const std::vector<std::optional<Error>>& unreported, const std::vector<std::optional<Error>>& failures);

    StoreQueue& queue_;
    ForwarderSettings settings_;
    UidGenerator uids_;
    AuditTrail* audit_;
    Mutex mutex_;
    std::condition_variable wakeUp_;
    bool stopping_ GUARDED_BY(mutex_) = false;
    bool woken_ GUARDED_BY(mutex_) = false;
    std::thread worker_;
};

}  // namespace sonolink::dicom
