// Naming and pinning the calling thread: named threads show up in top -H, gdb and profilers;
// pinning keeps a completion thread on its own core (the reference design's latency figures
// assume it). Thread contract: affects only the calling thread.
#pragma once

#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink {

// Pins the calling thread to one CPU. InvalidArgument for a CPU this process may not use.
[[nodiscard]] Status pinCurrentThread(int cpu);
// Names the calling thread (at most 15 characters are kept).
void nameCurrentThread(std::string_view name) noexcept;

}  // namespace sonolink
