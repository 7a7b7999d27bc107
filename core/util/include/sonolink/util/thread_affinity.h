// Naming, pinning and yielding the calling thread: named threads show up in top -H, gdb and
// profilers; pinning keeps a completion thread on its own core (the reference design's latency
// figures assume it); a lossy worker (the display's imager) yields the core to the threads that
// must not wait (the link, the GUI). Thread contract: affects only the calling thread.
#pragma once

#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink {

// Pins the calling thread to one CPU. InvalidArgument for a CPU this process may not use.
[[nodiscard]] Status pinCurrentThread(int cpu);
// Lowers the calling thread's scheduling priority by niceIncrement (Linux: nice is per thread);
// it runs as fast as before on a free core and gives way under contention. Best effort.
void yieldCurrentThreadToInteractive(int niceIncrement) noexcept;
inline constexpr int kThroughputWorkNice = 5;  // beamforming for the display: below the link and the GUI
// Names the calling thread (at most 15 characters are kept).
void nameCurrentThread(std::string_view name) noexcept;

}  // namespace sonolink
