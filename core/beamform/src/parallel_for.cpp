#include "parallel_for.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sonolink::beamform {
namespace {

// threads - 1 workers that wait for a job, each doing its share of every job; the caller does the
// first share and waits for the rest.
class WorkerPool {
public:
    explicit WorkerPool(unsigned threads) : threads_(threads) {
        for (unsigned t = 1; t < threads_; ++t) workers_.emplace_back([this, t] { work(t); });
    }
    ~WorkerPool() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& w : workers_) w.join();
    }
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void run(std::size_t count, const IndexedBody& body) {
        std::lock_guard turn(turn_);  // one job at a time
        {
            std::lock_guard lock(mutex_);
            body_ = &body;
            count_ = count;
            pending_ = threads_ - 1;
            ++generation_;
        }
        wake_.notify_all();
        for (std::size_t i = 0; i < count; i += threads_) body(i);
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
        body_ = nullptr;
    }

private:
    void work(unsigned t) {
        std::uint64_t seen = 0;
        for (;;) {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
            const auto* body = body_;
            const auto count = count_;
            lock.unlock();
            for (std::size_t i = t; i < count; i += threads_) (*body)(i);
            lock.lock();
            if (--pending_ == 0) done_.notify_one();
        }
    }

    const unsigned threads_;
    std::vector<std::thread> workers_;
    std::mutex turn_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const IndexedBody* body_ = nullptr;
    std::size_t count_ = 0;
    unsigned pending_ = 0;
    std::uint64_t generation_ = 0;
    bool stopping_ = false;
};

WorkerPool& poolOf(unsigned threads) {
    static std::mutex mutex;
    // Never destroyed: a thread still imaging while the process exits must find its pool.
    static auto* pools = new std::map<unsigned, std::unique_ptr<WorkerPool>>();
    std::lock_guard lock(mutex);
    auto& pool = (*pools)[threads];
    if (!pool) pool = std::make_unique<WorkerPool>(threads);
    return *pool;
}

}  // namespace

void parallelFor(std::size_t count, unsigned threads, IndexedBody body) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(count, 1)));
    if (threads <= 1) {
        for (std::size_t i = 0; i < count; ++i) body(i);
        return;
    }
    poolOf(threads).run(count, body);
}

}  // namespace sonolink::beamform
