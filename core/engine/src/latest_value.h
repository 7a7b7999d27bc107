// LatestValue<T>: a mailbox holding the newest shared_ptr<const T>: the producer replaces it, any
// reader takes its own reference and keeps the value alive as long as it needs (the producer
// never writes into a value being read). A mutex around the pointer swap, not
// std::atomic<std::shared_ptr>: libstdc++ 12's lock-bit implementation is invisible to
// ThreadSanitizer, and at display and frame rates an uncontended mutex costs nothing.
// Thread contract: any thread.
#pragma once

#include <memory>

#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

template <typename T> class LatestValue {
public:
    void store(std::shared_ptr<T> value) {
        MutexLock lock(mutex_);
        value_.swap(value);  // the old value is released after the lock, when `value` goes
    }
    [[nodiscard]] std::shared_ptr<T> load() const {
        MutexLock lock(mutex_);
        return value_;
    }
    [[nodiscard]] std::shared_ptr<T> exchange(std::shared_ptr<T> value) {
        MutexLock lock(mutex_);
        value_.swap(value);
        return value;
    }

private:
    mutable Mutex mutex_;
    std::shared_ptr<T> value_ GUARDED_BY(mutex_);
};

}  // namespace sonolink::engine
