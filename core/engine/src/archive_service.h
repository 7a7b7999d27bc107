// ArchiveService: the engine's archive thread (`arc`). It runs passes over the upload queue
// whenever an item is due or was just queued, and sleeps otherwise. Destroying it stops the
// thread; an upload in flight is cancelled and resumes from its journal at the next start.
// Thread contract: enqueue(), items() and retry() are thread-safe; the pass runs on `arc`.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sonolink/util/thread_annotations.h"
#include "sonolink/engine/engine_backends.h"

namespace sonolink::engine {

class ArchiveService {
public:
    // Opens the queue (its own errors as they are) and the audit trail, then starts `arc`.
    [[nodiscard]] static Result<std::unique_ptr<ArchiveService>> start(const ArchiveSetup& setup, std::shared_ptr<archive::S3Client> client);
    ~ArchiveService();
    ArchiveService(const ArchiveService&) = delete;
    ArchiveService& operator=(const ArchiveService&) = delete;

    // Queues a written file ("recording" or "study") under the configured bucket and prefix.
    [[nodiscard]] Result<archive::ArchiveItem> enqueue(const std::string& file, const std::string& kind);
    [[nodiscard]] std::vector<archive::ArchiveItem> items() const;
    [[nodiscard]] Status retry(std::int64_t id);

private:
    ArchiveService() = default;
    void run();
    void wake();

    ArchiveSetup setup_;
    std::shared_ptr<archive::S3Client> client_;
    std::unique_ptr<archive::ArchiveAudit> audit_;
    std::unique_ptr<archive::ArchiveQueue> queue_;
    std::atomic<bool> stop_{false};
    Mutex mutex_;
    std::condition_variable woken_;
    bool pending_ GUARDED_BY(mutex_) = false;  // something was queued since the last pass
    std::thread thread_;                       // last: started once everything above exists
};

}  // namespace sonolink::engine
