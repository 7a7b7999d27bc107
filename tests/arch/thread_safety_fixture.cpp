// A deliberate fault for tests/arch/check_thread_safety.py: a guarded member read without its
// lock. Clang must report it, or the check proves nothing. Never built into a target.
#include "sonolink/util/thread_annotations.h"

namespace {

struct Counter {
    sonolink::Mutex mutex;
    int count GUARDED_BY(mutex) = 0;

    int unguardedRead() const { return count; }
};

}  // namespace

int threadSafetyFixture() { return Counter{}.unguardedRead(); }
