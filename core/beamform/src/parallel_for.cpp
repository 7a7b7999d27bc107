#include "parallel_for.h"

#include "sonolink/util/thread_affinity.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sonolink::beamform {
namespace {

// A wait that spins a short while before it sleeps: on this kind of host a sleeping thread takes
// tens of microseconds to wake (parallelFor cost 28 us a call with both waits asleep), and a
// frame's passes follow each other within microseconds. Past kSpin the thread sleeps, so an idle
// pool costs nothing.
constexpr auto kSpin = std::chrono::microseconds(100);

template <typename Ready> bool spinUntil(Ready ready) noexcept {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (ready()) return true;
#if defined(__x86_64__)
            __builtin_ia32_pause();
#endif
        }
        if (std::chrono::steady_clock::now() >= until) return ready();
    }
}

// threads - 1 workers that wait for a job; thread t (the caller is 0) does index t, then they take
// the rest one at a time from a shared counter (a thread the scheduler lends to another process
// for a while leaves its indices to the others, instead of making them wait), and the caller
// waits for the last. Every thread works on every job, so a worker's own scratch grows on the
// first job, never later. Both waits spin first (spinUntil), then sleep on the mutex.
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
            pending_.store(threads_ - 1, std::memory_order_relaxed);
            next_.store(threads_, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        take(0, count, body);
        if (!spinUntil([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock lock(mutex_);
            done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
        }
        body_ = nullptr;
    }

private:
    void take(std::size_t first, std::size_t count, const IndexedBody& body) {
        if (first < count) body(first);
        for (auto i = next_.fetch_add(1, std::memory_order_relaxed); i < count; i = next_.fetch_add(1, std::memory_order_relaxed)) body(i);
    }
    void work(unsigned t) {
        // Beamforming is throughput work: it gives way to the threads that must not wait.
        yieldCurrentThreadToInteractive(kThroughputWorkNice);
        std::uint64_t seen = 0;
        for (;;) {
            spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen || stopping_; });
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_.load(std::memory_order_relaxed) != seen; });
            if (stopping_) return;
            seen = generation_.load(std::memory_order_relaxed);
            const auto* body = body_;
            const auto count = count_;
            lock.unlock();
            take(t, count, *body);
            lock.lock();
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.notify_one();
        }
    }

    const unsigned threads_;
    std::vector<std::thread> workers_;
    std::mutex turn_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const IndexedBody* body_ = nullptr;         // under mutex_
    std::size_t count_ = 0;                     // under mutex_
    std::atomic<std::size_t> next_{0};          // the next index to take
    std::atomic<unsigned> pending_{0};          // workers still on the job (changed under mutex_, read spinning)
    std::atomic<std::uint64_t> generation_{0};  // jobs posted (changed under mutex_, read spinning)
    std::atomic<bool> stopping_{false};
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
