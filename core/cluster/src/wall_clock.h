// The shared clock's time: CLOCK_REALTIME in nanoseconds (the hosts' clocks are one, by PTP on a
// real cluster, by being one machine in the tests), and a steady deadline that far ahead.
// Thread contract: pure functions.
#pragma once

#include <chrono>
#include <cstdint>

namespace sonolink::cluster {

[[nodiscard]] inline std::int64_t wallNs() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The steady-clock instant when wallNs() reaches `atNs` (now if it has).
[[nodiscard]] inline std::chrono::steady_clock::time_point steadyAt(std::int64_t atNs) noexcept {
    const std::int64_t ahead = atNs - wallNs();
    return std::chrono::steady_clock::now() + std::chrono::nanoseconds(ahead > 0 ? ahead : 0);
}

}  // namespace sonolink::cluster
