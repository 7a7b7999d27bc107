// One pass of the archive queue: each due item uploaded (multipart, resumable from its journal),
// verified (the stored bytes read back and their CRC-32C compared with the file's), marked and
// audited; then the retention rule deletes local files verified long enough ago, each only if
// the store still holds what was verified (HEAD: size, ETag, CRC-32C) and the file is unchanged. The engine's archive service and
// `sonolink-cli archive queue run` both run passes.
// Thread contract: one pass at a time per queue; the queue and the client are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sonolink/archive/archive_audit.h"
#include "sonolink/archive/archive_queue.h"
#include "sonolink/archive/s3_client.h"

namespace sonolink::archive {

struct PassSettings {
    std::filesystem::path journalDirectory;  // multipart journals
    double retentionDays = 30;               // local files kept this long after verification; < 0: for ever
    std::size_t batch = 16;                  // items taken per pass
};

struct PassReport {
    int verified = 0;
    int failed = 0;     // for good
    int deferred = 0;   // queued again after a failure that can heal
    std::vector<std::string> deletedLocal;
};

[[nodiscard]] std::int64_t epochMs();

// stop: ends the pass between items and within an upload (its journal resumes it next time).
[[nodiscard]] Result<PassReport> runArchivePass(ArchiveQueue& queue, S3Client& client, ArchiveAudit* audit, const PassSettings& settings,
                                                const std::atomic<bool>* stop = nullptr);

}  // namespace sonolink::archive
