// BackgroundSync: fsyncs one file descriptor on a thread of its own whenever asked, so that the
// recorder goes on writing while the disk catches up (a sync blocks for as long as the disk takes
// to write what is dirty: done inline at every flush it stalled recording at 0.63 GB/s here).
// Private to sonolink_record. Thread contract: request() and error() from the owner's thread; the
// descriptor stays open until the BackgroundSync is destroyed (which joins its thread).
#pragma once

#include <atomic>
#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace sonolink::record {

class BackgroundSync {
public:
    explicit BackgroundSync(int fd);
    ~BackgroundSync();
    BackgroundSync(const BackgroundSync&) = delete;
    BackgroundSync& operator=(const BackgroundSync&) = delete;

    // Syncs the file again once the sync under way (if any) ends: everything written before this
    // call is on the disk when the next sync completes.
    void request();
    // Blocks until every sync asked for has ended.
    void drain();
    // The errno of the first sync that failed; 0 while none has.
    [[nodiscard]] int error() const noexcept { return error_.load(std::memory_order_acquire); }
    // Syncs completed (for tests and figures).
    [[nodiscard]] std::uint64_t completed() const noexcept { return completed_.load(std::memory_order_acquire); }

private:
    void run(std::stop_token stop);

    int fd_;
    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::condition_variable_any idle_;
    bool wanted_ = false;
    bool busy_ = false;
    std::atomic<int> error_{0};
    std::atomic<std::uint64_t> completed_{0};
    std::jthread thread_;  // last: started once the rest exists, stopped and joined first
};

}  // namespace sonolink::record
