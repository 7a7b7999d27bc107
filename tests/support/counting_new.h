// Replaces the global operator new and delete of the test binary that includes this header (in
// exactly one of its files) with ones that count allocations: over every thread, and on the
// calling thread. Tests prove with them that a steady-state path allocates nothing.
// Thread contract: the counters are safe to read from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

// The replacements pair new with malloc and delete with free; GCC's inliner sometimes sees only
// half of a pair and warns.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace sonolink::test {
inline std::atomic<std::uint64_t> allocations{0};  // every thread
inline thread_local std::uint64_t allocationsOnThisThread = 0;
inline void countAllocation() noexcept {
    allocations.fetch_add(1, std::memory_order_relaxed);
    ++allocationsOnThisThread;
}
}  // namespace sonolink::test

void* operator new(std::size_t size) {
    sonolink::test::countAllocation();
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, std::align_val_t alignment) {
    sonolink::test::countAllocation();
    const auto a = static_cast<std::size_t>(alignment);
    if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
