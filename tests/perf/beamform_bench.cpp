// Google Benchmark of the CPU reference beamformer on the configuration: a 256 x 512
// grid, 128 channels x 2048 samples, F# 1.5, one plane wave. Reports nominal
// pixel*channel*transmit operations per second (nx * nz * channels * transmits / time), the
// figure the performance bar is stated in (docs/performance.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/beamform/iq_beamformer.h"

namespace {

using namespace sonolink::beamform;

struct Setup {
    std::vector<float> samples;
    std::vector<std::int16_t> adc;
    AcquisitionGeometry geometry;
    ChannelDataView view, view16;
    PixelGrid grid = PixelGrid::fromRanges(-19e-3, 19e-3, 256, 2e-3, 38e-3, 512);
    Setup() {
        constexpr int channels = 128, length = 2048;
        std::mt19937 random(1);
        std::normal_distribution<float> noise(0, 100);
        samples.resize(static_cast<std::size_t>(channels) * length);
        for (auto& s : samples) s = noise(random);
        for (float s : samples) adc.push_back(static_cast<std::int16_t>(s));
        geometry = {1, channels, length, 40e6, 0, 1540, linearArrayElementX(channels, 0.3e-3), 0, 0, {0.0}, {}};
        view = ChannelDataView{&geometry, samples, {}};
        view16 = ChannelDataView{&geometry, {}, adc};
    }
};

// The benchmarks' arguments: threads, sample type (0 float, 1 the front end's int16), inner loop
// (0 the best this CPU has, 1 AVX2 gathers: the figure on CPUs without AVX-512), receive window
// (0 rectangular, 1 Hann, 2 Tukey with alpha 0.5).
struct Arguments {
    BeamformParams params;
    unsigned threads;
    const ChannelDataView* view;
    VectorLoop loop;
    explicit Arguments(const benchmark::State& state, const Setup& setup)
        : threads(static_cast<unsigned>(state.range(0))), view(state.range(1) == 0 ? &setup.view : &setup.view16),
          loop(state.range(2) == 0 ? VectorLoop::Best : VectorLoop::Avx2) {
        params.fNumber = 1.5;
        params.window = state.range(3) == 0 ? Window::Rectangular : state.range(3) == 1 ? Window::Hann : Window::Tukey;
    }
};

// Nominal pixel * channel * transmit operations per frame, and frames, per second.
void countFrames(benchmark::State& state) {
    const double nominal = 256.0 * 512.0 * 128.0 * 1.0;
    state.counters["nominal_ops_per_s"] = benchmark::Counter(nominal, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["frames_per_s"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

// Each iteration times one frame of ours and one of the baseline, in turn first (so that neither
// always follows the other): counter `name` is the median of baseline / ours over the pairs (a
// throughput ratio, 1: as fast). seconds(ours) beamforms one frame of that path and times it.
template <typename Seconds> void pairedThroughput(benchmark::State& state, const char* name, const Seconds& seconds) {
    std::vector<double> ratios;
    bool oursFirst = false;
    for (auto _ : state) {
        oursFirst = !oursFirst;
        const double first = seconds(oursFirst);
        const double second = seconds(!oursFirst);
        ratios.push_back(oursFirst ? second / first : first / second);
    }
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    state.counters[name] = ratios.empty() ? 0 : ratios[ratios.size() / 2];
    state.counters["pairs"] = static_cast<double>(ratios.size());
}

void delayAndSumCpu(benchmark::State& state) {
    static const Setup setup;
    const Arguments a(state, setup);
    for (auto _ : state) {
        auto image = delayAndSum(*a.view, setup.grid, a.params, a.threads, a.loop);
        benchmark::DoNotOptimize(image->columns.data());
    }
    countFrames(state);
}
BENCHMARK(delayAndSumCpu)
    ->ArgsProduct({{1, 2}, {0, 1}, {0, 1}, {0, 1, 2}})
    ->ArgNames({"threads", "int16", "avx2", "window"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A window against the rectangular path, paired: each iteration beamforms one frame of each (in
// turn first, so that neither always follows the other) and takes the ratio of their times;
// vs_rectangular is the median ratio. On a shared machine whose speed drifts over seconds, two
// frames milliseconds apart see the same machine: the ratio the bar holds (beamform_bar.py).
void windowVsRectangularCpu(benchmark::State& state) {
    static const Setup setup;
    const Arguments a(state, setup);
    BeamformParams rectangular = a.params;
    rectangular.window = Window::Rectangular;
    pairedThroughput(state, "vs_rectangular", [&](bool window) {
        const auto start = std::chrono::steady_clock::now();
        auto image = delayAndSum(*a.view, setup.grid, window ? a.params : rectangular, a.threads, a.loop);
        benchmark::DoNotOptimize(image->columns.data());
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
}
BENCHMARK(windowVsRectangularCpu)
    ->ArgsProduct({{2}, {0, 1}, {0, 1}, {1, 2}})
    ->ArgNames({"threads", "int16", "avx2", "window"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A photoacoustic shot (received only) against one ultrasound plane wave on the same grid, window
// and samples, paired: vs_plane_wave is the median of plane / shot (issue 40: a shot within 1.1
// times a plane wave's time, so >= 1 / 1.1).
void photoacousticVsPlaneWaveCpu(benchmark::State& state) {
    static const Setup setup;
    const Arguments a(state, setup);
    static const AcquisitionGeometry shot = [] {
        auto g = setup.geometry;
        g.photoacoustic = {true};
        return g;
    }();
    const ChannelDataView shotView{&shot, a.view->samples, a.view->samples16};
    pairedThroughput(state, "vs_plane_wave", [&](bool photoacoustic) {
        const auto start = std::chrono::steady_clock::now();
        auto image = delayAndSum(photoacoustic ? shotView : *a.view, setup.grid, a.params, a.threads, a.loop);
        benchmark::DoNotOptimize(image->columns.data());
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
}
BENCHMARK(photoacousticVsPlaneWaveCpu)
    ->ArgsProduct({{2}, {0, 1}, {0, 1}, {0, 1, 2}})
    ->ArgNames({"threads", "int16", "avx2", "window"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The IQ path against the rectangular RF path, paired as windowVsRectangularCpu is: a frame of
// each in turn, the median ratio of their times. Each timed frame follows an untimed one of the
// same path: the two paths do not share their working sets (the IQ tables and image, 2.4 MB, push
// the RF path's samples out of the caches), and timing a frame straight after the other path's
// flattered IQ by some 0.1 against each path's best repetition. demodulate = 1: the IQ frame
// includes its demodulation (the live image's path); 0: beamforming alone, its input demodulated
// once outside the pairs.
void iqVsRectangularCpu(benchmark::State& state) {
    static const Setup setup;
    const Arguments a(state, setup);
    const bool demodulate = state.range(4) == 1;
    constexpr double fd = 5e6;
    const int decimation = iqDecimation(setup.geometry.samplingRateHz, fd);
    const auto once = demodulateToIq(*a.view, fd, decimation);
    BeamformParams rectangular = a.params;
    rectangular.window = Window::Rectangular;
    const auto frame = [&](bool iq) {
        if (iq) {
            auto image = demodulate ? delayAndSumIq(*a.view, fd, decimation, setup.grid, a.params, a.threads, a.loop)
                                    : delayAndSumIq(once->geometry, once->samples, fd, setup.grid, a.params, a.threads, true, a.loop);
            benchmark::DoNotOptimize(image->columns.data());
        } else {
            auto image = delayAndSum(*a.view, setup.grid, rectangular, a.threads, a.loop);
            benchmark::DoNotOptimize(image->columns.data());
        }
    };
    const auto seconds = [&](bool iq) {
        frame(iq);  // warms this path's working set
        const auto start = std::chrono::steady_clock::now();
        frame(iq);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    pairedThroughput(state, "vs_rectangular", seconds);
}
BENCHMARK(iqVsRectangularCpu)
    ->ArgsProduct({{2, 1}, {0, 1}, {0, 1}, {0, 1, 2}, {1, 0}})
    ->ArgNames({"threads", "int16", "avx2", "window", "demodulate"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The IQ path as a live image runs it, per frame: demodulated at 5 MHz (decimated as the band
// allows) straight into the beamformer's tables and beamformed with phase rotation (its magnitude
// is the envelope: no Hilbert step).
void delayAndSumIqCpu(benchmark::State& state) {
    static const Setup setup;
    const Arguments a(state, setup);
    constexpr double fd = 5e6;
    const int decimation = iqDecimation(setup.geometry.samplingRateHz, fd);
    for (auto _ : state) {
        auto image = delayAndSumIq(*a.view, fd, decimation, setup.grid, a.params, a.threads, a.loop);
        benchmark::DoNotOptimize(image->columns.data());
    }
    countFrames(state);
    state.counters["decimation"] = decimation;
}
BENCHMARK(delayAndSumIqCpu)
    ->ArgsProduct({{1, 2}, {0, 1}, {0, 1}, {0, 1, 2}})
    ->ArgNames({"threads", "int16", "avx2", "window"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The IQ path's parts apart: demodulation alone, and beamforming alone (its input demodulated
// once, outside the timed loop). Their sum is about the row above.
void demodulateIqCpu(benchmark::State& state) {
    static const Setup setup;
    const auto* view = state.range(0) == 0 ? &setup.view : &setup.view16;
    const int decimation = iqDecimation(setup.geometry.samplingRateHz, 5e6);
    for (auto _ : state) {
        auto iq = demodulateToIq(*view, 5e6, decimation);
        benchmark::DoNotOptimize(iq->samples.data());
    }
    countFrames(state);
}
BENCHMARK(demodulateIqCpu)->Arg(0)->Arg(1)->ArgName("int16")->Unit(benchmark::kMillisecond)->UseRealTime();

void beamformIqCpu(benchmark::State& state) {
    static const Setup setup;
    const Arguments a(state, setup);
    constexpr double fd = 5e6;
    const auto iq = demodulateToIq(*a.view, fd, iqDecimation(setup.geometry.samplingRateHz, fd));
    for (auto _ : state) {
        auto image = delayAndSumIq(iq->geometry, iq->samples, fd, setup.grid, a.params, a.threads, true, a.loop);
        benchmark::DoNotOptimize(image->columns.data());
    }
    countFrames(state);
}
BENCHMARK(beamformIqCpu)
    ->ArgsProduct({{1, 2}, {0}, {0, 1}, {0, 1, 2}})
    ->ArgNames({"threads", "int16", "avx2", "window"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void envelopeCpu(benchmark::State& state) {
    BeamformedImage image;
    image.nx = 256;
    image.nz = 512;
    image.columns.assign(256 * 512, 1.0f);
    for (auto _ : state) envelopeAlongDepth(image, 2);
}
BENCHMARK(envelopeCpu)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
