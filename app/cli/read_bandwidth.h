// readBandwidthGBps(): how fast one core reads memory (every byte once, 256-bit loads into four
// accumulators where AVX2 exists): the baseline the benchmarks hold ingest and the engine to,
// measured in the same run on the same machine. Thread contract: pure; runs on the caller's core.
#pragma once

#include <cstddef>

namespace sonolink::cli {

// The best of `passes` passes over bytes at data (which should be larger than the caches).
[[nodiscard]] double readBandwidthGBps(const std::byte* data, std::size_t bytes, int passes);

}  // namespace sonolink::cli
