// The picture of one frame on the shipped grid (256 x 512 pixels over 38.1 x 35 mm, drawn on the
// 512 x 471 display raster): the whole chain (log compression, raster, TGC, gain, dynamic range,
// persistence, grey map) with each grey map, against the log compression alone on the grid as it
// was drawn before (beamform::logCompress, then 8 bits) in the same run.
// Run: build/default/tests/picture_bench [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/image/grey_chain.h"

namespace {

constexpr std::size_t kColumns = 256, kRows = 512;

std::vector<double> axis(double from, double to, std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = from + (to - from) * static_cast<double>(i) / static_cast<double>(n - 1);
    return v;
}

std::vector<float> speckle() {  // Rayleigh-distributed amplitudes, as an envelope of speckle is
    std::mt19937 random(7);
    std::normal_distribution<float> g;
    std::vector<float> e(kColumns * kRows);
    for (auto& v : e) v = std::hypot(g(random), g(random));
    return e;
}

void pictureChain(benchmark::State& state) {
    const auto x = axis(-19.05e-3, 19.05e-3, kColumns), z = axis(3e-3, 38e-3, kRows);
    const auto map = static_cast<sonolink::image::GreyMap>(state.range(0));
    sonolink::image::GreyChain chain(*sonolink::image::displayResampler(x, z, 512, 512), {std::vector<double>(8, 3.0), 0, 60, 0.3, map});
    const auto envelope = speckle();
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(chain.raster().rows * chain.raster().columns));
    for (auto _ : state) {
        chain.process(envelope, pixels);
        benchmark::DoNotOptimize(pixels.data());
    }
    state.counters["raster_px"] = static_cast<double>(pixels.size());
}
BENCHMARK(pictureChain)->Arg(0)->Arg(1)->Arg(2)->ArgName("grey_map")->Unit(benchmark::kMillisecond)->UseRealTime();

void logCompressOnTheGrid(benchmark::State& state) {
    const auto envelope = speckle();
    std::vector<std::uint8_t> pixels(envelope.size());
    for (auto _ : state) {
        const auto db = sonolink::beamform::logCompress(envelope, 60, 0);
        for (std::size_t i = 0; i < db.size(); ++i) pixels[i] = static_cast<std::uint8_t>(std::lround(std::clamp((db[i] + 60.0) / 60.0, 0.0, 1.0) * 255));
        benchmark::DoNotOptimize(pixels.data());
    }
}
BENCHMARK(logCompressOnTheGrid)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
