// GPU memory tests: the algorithms of memory_tests.h (each named there with the faults it finds)
// run by CUDA kernels over a block of the GPU's memory; every mismatch counted, the first 64
// reported with the word's index, the value written and the value read. On the GPU an element
// of a March test visits its words in parallel: each thread takes its own words in the element's
// direction (rows of as many words as the grid has threads, up or down), so faults that need one
// global order (coupling between cells of different threads) are found only where it holds.
// A planted fault (tests) makes bits of one word stuck in the kernels' writes.
// Plain C++, no CUDA types. Thread contract: one thread at a time per instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sonolink/selftest/memory_tests.h"
#include "sonolink/util/result.h"

namespace sonolink::selftest::cuda {

// Bits of word `word` that read 1 (stuckAtOne) or 0 (stuckAtZero) whatever was written.
struct PlantedFault {
    std::size_t word = 0;
    std::uint64_t stuckAtOne = 0;
    std::uint64_t stuckAtZero = 0;
};

struct GpuMemoryTestSetup {
    int device = 0;
    std::size_t bytes = std::size_t{256} << 20;  // the block tested, whole 64-bit words
    std::optional<PlantedFault> planted;
};

class GpuMemoryTester {
public:
    // Allocates the block: Unavailable without a device, ResourceExhausted when it does not fit,
    // InvalidArgument for a block under one word or a planted word outside it.
    [[nodiscard]] static Result<std::unique_ptr<GpuMemoryTester>> create(const GpuMemoryTestSetup& setup);
    ~GpuMemoryTester();
    GpuMemoryTester(const GpuMemoryTester&) = delete;
    GpuMemoryTester& operator=(const GpuMemoryTester&) = delete;

    // One algorithm over the block; its mismatches sorted by word. seed: the random pattern's.
    [[nodiscard]] Result<MemoryTestResult> run(MemoryAlgorithm algorithm, std::uint64_t seed = 1);
    // The baseline: bytes read plus written per second by cudaMemcpy of one half of the block
    // into the other, the best of `iterations`.
    [[nodiscard]] Result<double> copyBandwidth(int iterations);

    [[nodiscard]] std::size_t bytes() const noexcept;
    [[nodiscard]] const std::string& deviceName() const noexcept;

private:
    struct State;
    explicit GpuMemoryTester(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::selftest::cuda
