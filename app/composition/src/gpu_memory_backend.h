// The start-up self-test's GPU memory step on this station: March C- by the CUDA module's kernels
// (selftest/cuda/gpu_memory_test.h) over a block of each GPU's memory. Built only with the CUDA
// module. Thread contract: the function returned runs on one thread at a time (the engine's ctl).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sonolink/engine/engine_backends.h"

namespace sonolink::app {

// Each call probes the station's GPUs (none: no outcome, no step) and tests `bytes` of each.
[[nodiscard]] std::function<std::vector<engine::GpuMemoryOutcome>()> gpuMemoryTest(std::size_t bytes);

}  // namespace sonolink::app
