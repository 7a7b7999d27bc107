// One pass of the archive queue: each due item uploaded (multipart, resumable from its journal),
// verified (the stored bytes read back and their CRC-32C compared with the file's), marked and
// audited; then the retention rule deletes local files verified long enough ago, each only if
// the store still holds what was verified (HEAD: size, ETag, CRC-32C) and the file is unchanged. The engine's archive service and
// `sonolink-cli archive queue run` both run passes; each item's outcome is told as a PassEvent.
// Thread contract: one pass at a time per queue; the queue and the client are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/archive/archive_audit.h"
#include "sonolink/archive/archive_queue.h"
#include "sonolink/archive/s3_client.h"

namespace sonolink::archive {

// What a pass did, item by item, as it did it: for a runner that reports it (as JSON lines, say)
// and for tests that wait on what happened rather than on a log's words.
struct PassEvent {
    enum class Kind {
        Verified,      // item uploaded and read back: bytes, crc32c
        UploadFailed,  // item not uploaded: error; retry: whether it is queued again
        LocalDeleted,  // item's local file deleted by retention
        LocalKept,     // item's local file kept: for now (retry) when the store did not answer (error), for good
                       // when the object is gone or changed (the queue keeps why)
    };
    Kind kind = Kind::Verified;
    std::int64_t item = 0;
    std::string url;
    std::string file;
    std::uint64_t bytes = 0;
    std::string crc32c;
    std::optional<Error> error;
    bool retry = false;
};
[[nodiscard]] std::string_view toString(PassEvent::Kind kind);

struct PassSettings {
    std::filesystem::path journalDirectory;         // multipart journals
    double retentionDays = 30;                      // local files kept this long after verification; < 0: for ever
    std::size_t batch = 16;                         // items taken per pass
    std::function<void(const PassEvent&)> onEvent;  // on the pass's thread; null: nobody is told
};

struct PassReport {
    int verified = 0;
    int failed = 0;    // for good
    int deferred = 0;  // queued again after a failure that can heal
    std::vector<std::string> deletedLocal;
};

[[nodiscard]] std::int64_t epochMs();

// stop: ends the pass between items and within an upload (its journal resumes it next time).
[[nodiscard]] Result<PassReport> runArchivePass(ArchiveQueue& queue, S3Client& client, ArchiveAudit* audit, const PassSettings& settings,
                                                const std::atomic<bool>* stop = nullptr);

}  // namespace sonolink::archive
