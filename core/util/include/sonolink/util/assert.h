// SONOLINK_ASSERT(cond, "what went wrong"): for programmer errors only (broken invariants).
// Logs the message with file and line, then aborts, in every build type. It must never be
// reachable from user input or from what the device sends: those are Errors (result.h).
// Thread contract: callable from any thread.
#pragma once

namespace sonolink::detail {
[[noreturn]] void assertFailed(const char* condition, const char* message, const char* file, int line) noexcept;
}  // namespace sonolink::detail

#define SONOLINK_ASSERT(cond, message)                                              \
    do {                                                                            \
        if (!(cond)) [[unlikely]]                                                   \
            ::sonolink::detail::assertFailed(#cond, (message), __FILE__, __LINE__); \
    } while (false)
