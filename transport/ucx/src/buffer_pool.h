// BufferPool: payload vectors kept for reuse, so that large payloads do not cost a fresh
// allocation (page faults) and a zero-fill each. Fed by Fabric::recycle() and by completed sends
// (once the caller has used the pool), drawn on by Fabric::buffer() and rendezvous receives.
// Only payloads of kMinPooledBytes or more are kept, at most `capacity` bytes of them in all.
// Thread contract: every method may be called from any thread (one mutex).
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

namespace sonolink::transport::ucx::detail {

class BufferPool {
public:
    static constexpr std::size_t kMinPooledBytes = 64 * 1024;  // below: malloc is cheap and the heap reuses the memory anyway

    explicit BufferPool(std::size_t capacity) : capacity_(capacity) {}

    // A vector of `size` bytes: a kept one when one fits (its bytes are what it held last), else a zero-filled one.
    std::vector<std::byte> take(std::size_t size) {
        if (size >= kMinPooledBytes) {
            std::lock_guard lock(mutex_);
            if (auto fit = bestFit(size); fit != kept_.end()) {
                std::vector<std::byte> buffer = std::move(*fit);
                kept_.erase(fit);
                keptBytes_ -= buffer.capacity();
                buffer.resize(size);  // no larger than its old size: nothing is written
                return buffer;
            }
        }
        return std::vector<std::byte>(size);
    }

    // Keeps the buffer if it is large enough and there is room; else frees it.
    void give(std::vector<std::byte> buffer) {
        if (buffer.size() < kMinPooledBytes) return;
        std::lock_guard lock(mutex_);
        if (keptBytes_ + buffer.capacity() > capacity_) return;
        keptBytes_ += buffer.capacity();
        kept_.push_back(std::move(buffer));
    }

    // Completed sends feed the pool only once the caller draws on it (buffer() or recycle()): a
    // caller that never does would leave it holding memory nobody takes.
    void markUsed() { used_.store(true, std::memory_order_relaxed); }
    bool used() const { return used_.load(std::memory_order_relaxed); }

private:
    // The smallest kept buffer that holds `size` bytes without growing (nor wasting over half of itself).
    std::vector<std::vector<std::byte>>::iterator bestFit(std::size_t size) {
        auto best = kept_.end();
        for (auto it = kept_.rbegin(); it != kept_.rend(); ++it) {  // the latest first: its bytes may still be in the cache
            const bool fits = it->size() >= size && it->size() / 2 <= size;
            if (fits && (best == kept_.end() || it->size() < best->size())) best = std::prev(it.base());
        }
        return best;
    }

    const std::size_t capacity_;
    std::mutex mutex_;
    std::vector<std::vector<std::byte>> kept_;  // guarded by mutex_
    std::size_t keptBytes_ = 0;                 // guarded by mutex_; their capacities
    std::atomic<bool> used_{false};
};

}  // namespace sonolink::transport::ucx::detail
