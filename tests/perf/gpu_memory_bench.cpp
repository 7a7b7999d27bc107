// Google Benchmark of the GPU memory tests over 4 GiB of the GPU's memory: each algorithm's
// traffic (bytes read plus written per second) and its ratio to cudaMemcpy's traffic (one half of
// the block into the other, the best of five) measured in the same run. Skips (with the reason)
// where there is no GPU.
#include <benchmark/benchmark.h>

#include "sonolink/selftest/cuda/gpu_memory_test.h"

namespace {

using namespace sonolink::selftest;

void gpuMemoryTest(benchmark::State& state) {
    const auto algorithm = kMemoryAlgorithms[static_cast<std::size_t>(state.range(0))];
    state.SetLabel(std::string(toString(algorithm)));
    auto tester = cuda::GpuMemoryTester::create({0, std::size_t{4} << 30, std::nullopt});
    if (!tester) {
        state.SkipWithError(tester.error().message().c_str());
        return;
    }
    auto copy = (*tester)->copyBandwidth(5);
    if (!copy) {
        state.SkipWithError(copy.error().message().c_str());
        return;
    }
    double bytes = 0, seconds = 0;
    for (auto _ : state) {
        auto r = (*tester)->run(algorithm);
        if (!r || !r->passed()) {
            state.SkipWithError(r ? "mismatches on sound memory" : r.error().message().c_str());
            return;
        }
        state.SetIterationTime(r->seconds);
        bytes += static_cast<double>(r->bytesMoved);
        seconds += r->seconds;
    }
    const double traffic = seconds > 0 ? bytes / seconds : 0;
    state.counters["traffic_bytes_per_s"] = traffic;
    state.counters["memcpy_bytes_per_s"] = *copy;
    state.counters["vs_memcpy"] = *copy > 0 ? traffic / *copy : 0;
}
BENCHMARK(gpuMemoryTest)->DenseRange(0, static_cast<int>(kMemoryAlgorithms.size()) - 1)->ArgName("algorithm")->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
