#include "background_sync.h"

#include <unistd.h>

#include <cerrno>

#include "sonolink/util/thread_affinity.h"

namespace sonolink::record {

BackgroundSync::BackgroundSync(int fd) : fd_(fd), thread_([this](std::stop_token stop) { run(stop); }) {}

BackgroundSync::~BackgroundSync() {
    thread_.request_stop();
    wake_.notify_all();
}

void BackgroundSync::request() {
    {
        std::lock_guard lock(mutex_);
        wanted_ = true;
    }
    wake_.notify_one();
}

void BackgroundSync::drain() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return !wanted_ && !busy_; });
}

void BackgroundSync::run(std::stop_token stop) {
    nameCurrentThread("rec-sync");
    std::unique_lock lock(mutex_);
    while (wake_.wait(lock, stop, [this] { return wanted_; })) {
        wanted_ = false;
        busy_ = true;
        lock.unlock();
        if (::fsync(fd_) != 0) {
            int expected = 0;
            error_.compare_exchange_strong(expected, errno, std::memory_order_acq_rel);
        }
        completed_.fetch_add(1, std::memory_order_acq_rel);
        lock.lock();
        busy_ = false;
        idle_.notify_all();
    }
    // Stopping: anything still asked for is done by the owner's own sync at close.
    busy_ = false;
    wanted_ = false;
    idle_.notify_all();
}

}  // namespace sonolink::record
