// Clang's thread-safety annotations and a mutex that carries them: a member GUARDED_BY(m) may
// only be touched with m held, a function that REQUIRES(m) only called with it held. Clang
// checks this at compile time (-Wthread-safety: tests/arch/check_thread_safety.py, in CI);
// under GCC the annotations are empty. Thread contract: Mutex is std::mutex; MutexLock and
// UniqueLock are held by one thread, as std::lock_guard and std::unique_lock are.
#pragma once

#include <mutex>

#if defined(__clang__)
#define SONOLINK_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define SONOLINK_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) SONOLINK_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY SONOLINK_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) SONOLINK_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) SONOLINK_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) SONOLINK_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) SONOLINK_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) SONOLINK_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) SONOLINK_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define ACQUIRED_BEFORE(...) SONOLINK_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define EXCLUDES(...) SONOLINK_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define RETURN_CAPABILITY(x) SONOLINK_THREAD_ANNOTATION(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS SONOLINK_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace sonolink {

// std::mutex, as a capability the analysis follows.
class CAPABILITY("mutex") Mutex {
public:
    void lock() ACQUIRE() { mutex_.lock(); }
    void unlock() RELEASE() { mutex_.unlock(); }
    bool try_lock() TRY_ACQUIRE(true) { return mutex_.try_lock(); }
    // For a condition variable's wait, through UniqueLock only.
    std::mutex& native() RETURN_CAPABILITY(this) { return mutex_; }

private:
    std::mutex mutex_;
};

// Holds a Mutex for its scope (std::lock_guard).
class SCOPED_CAPABILITY MutexLock {
public:
    explicit MutexLock(Mutex& mutex) ACQUIRE(mutex) : mutex_(mutex) { mutex_.lock(); }
    ~MutexLock() RELEASE() { mutex_.unlock(); }
    MutexLock(const MutexLock&) = delete;
    MutexLock& operator=(const MutexLock&) = delete;

private:
    Mutex& mutex_;
};

// Holds a Mutex for its scope, may let it go and take it again, and lends a std::unique_lock to
// a std::condition_variable's wait (which gives the mutex back held). Write the wait as a loop
// on the guarded condition: `while (!ready) cv.wait(lock.native());`, so the analysis sees it.
class SCOPED_CAPABILITY UniqueLock {
public:
    explicit UniqueLock(Mutex& mutex) ACQUIRE(mutex) : lock_(mutex.native()) {}
    ~UniqueLock() RELEASE() {}
    UniqueLock(const UniqueLock&) = delete;
    UniqueLock& operator=(const UniqueLock&) = delete;
    void lock() ACQUIRE() { lock_.lock(); }
    void unlock() RELEASE() { lock_.unlock(); }
    std::unique_lock<std::mutex>& native() { return lock_; }

private:
    std::unique_lock<std::mutex> lock_;
};

}  // namespace sonolink
