// The PACS store-and-forward queue as the facade shows it: plain values copied out of the DICOM
// module, so the GUI needs nothing of it.
// Thread contract: plain values, copy freely.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sonolink::engine {

enum class QueueItemState { Queued, Sending, Sent, Committed, Failed };
std::string_view toString(QueueItemState state);

struct QueueItem {
    std::string id;          // "000042": enqueue order
    std::string node;        // the configured PACS node's name
    std::string sourceFile;  // what was enqueued
    std::string patientName;
    std::string sopInstanceUid;
    QueueItemState state = QueueItemState::Queued;
    int attempts = 0;
    std::int64_t enqueuedAtMs = 0;  // Unix epoch milliseconds
    std::int64_t nextAttemptAtMs = 0;
    std::int64_t sentAtMs = 0;
    std::int64_t committedAtMs = 0;
    std::string lastError;  // why the last attempt failed (empty after success)
    bool commitmentRequired = false;
};

}  // namespace sonolink::engine
