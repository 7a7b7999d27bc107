// Google Benchmark of the GPU beamformer on the issue's configuration: a 256 x 512 grid,
// 128 channels x 2048 samples, F# 1.5, one plane wave. Kernel only: nominal
// pixel*channel*transmit operations per second (bar 1.5e12 on an H200) for every path offered:
// RF with each window, IQ (demodulation, pair table, delay-and-sum with rotation and the
// magnitude, at 5 MHz: decimated by 3) and sector (256 rays x 512 depths, +-35 degrees), each
// grid path with every way its kernel offers (GpuKernelOptions: argument `kernel`, bit 0
// conversions by rounding, bit 1 full occupancy); the windows and IQ are held to 0.8 x the best rectangular
// kernel in the same run (device_check_summary.py). The envelope's steps alone (cuFFT) for the RF paths. End to end:
// frames per second from page-locked host memory through copies, beamforming, envelope and copy
// back, in batches (bar 20,000 frames/s). Skips (with the reason) where there is no GPU.
#include <benchmark/benchmark.h>

#include <numbers>
#include <random>
#include <vector>

#include "sonolink/beamform/cuda/gpu_beamformer.h"

namespace {

using namespace sonolink::beamform;
using namespace sonolink::beamform::cuda;

constexpr int kChannels = 128, kSamples = 2048, kNx = 256, kNz = 512;

// The paths the benchmarks run: RF with each window, IQ, sector.
enum Mode { kRectangular, kHann, kTukey, kIqRectangular, kIqHann, kSectorHann };
const char* const kModeNames[] = {"rectangular", "hann", "tukey", "iq_rectangular", "iq_hann", "sector_hann"};

GpuBeamformerSetup issueSetup(SampleType type, int framesPerChunk, int mode, int kernel = 0) {
    GpuBeamformerSetup s;
    s.kernel.conversionsByRounding = (kernel & 1) != 0;
    s.kernel.fullOccupancy = (kernel & 2) != 0;
    s.sampleType = type;
    s.geometry.waves = 1;
    s.geometry.channels = kChannels;
    s.geometry.samples = kSamples;
    s.geometry.samplingRateHz = 40e6;
    s.geometry.elementX = linearArrayElementX(kChannels, 0.3e-3);
    s.geometry.angleRad = {0.0};
    s.grid = PixelGrid::fromRanges(-19e-3, 19e-3, kNx, 2e-3, 38e-3, kNz);
    s.params.fNumber = 1.5;
    s.params.window = mode == kHann || mode == kIqHann || mode == kSectorHann ? Window::Hann : mode == kTukey ? Window::Tukey : Window::Rectangular;
    if (mode == kIqRectangular || mode == kIqHann) s.modulationFrequencyHz = 5e6;
    if (mode == kSectorHann) {
        for (int i = 0; i < kNx; ++i) s.sectorTheta.push_back((-35.0 + 70.0 * i / (kNx - 1)) * std::numbers::pi / 180);
        for (int i = 0; i < kNz; ++i) s.sectorR.push_back(2e-3 + 36e-3 * i / (kNz - 1));
    }
    s.framesPerChunk = framesPerChunk;
    return s;
}

template <typename T> std::vector<T> noiseFrames(int frames) {
    std::mt19937 random(1);
    std::normal_distribution<float> noise(0, 100);
    std::vector<T> data(static_cast<std::size_t>(frames) * kChannels * kSamples);
    for (auto& v : data) v = static_cast<T>(noise(random));
    return data;
}

const double kNominalPerFrame = double(kNx) * kNz * kChannels * 1;

// Arguments: int16 (0 float, 1 int16), frames per launch, mode (Mode), kernel (GpuKernelOptions'
// bits).
void delayAndSumKernel(benchmark::State& state) {
    const bool int16 = state.range(0) == 1;
    const int frames = static_cast<int>(state.range(1));
    const int mode = static_cast<int>(state.range(2));
    state.SetLabel(kModeNames[mode]);
    auto gpu = GpuBeamformer::create(issueSetup(int16 ? SampleType::Int16 : SampleType::Float32, frames, mode, static_cast<int>(state.range(3))));
    if (!gpu) {
        state.SkipWithError(gpu.error().message().c_str());
        return;
    }
    std::vector<float> out(static_cast<std::size_t>(frames) * (*gpu)->pixelsPerFrame());
    const auto data16 = noiseFrames<std::int16_t>(frames);
    const auto data32 = noiseFrames<float>(frames);
    const void* data = int16 ? static_cast<const void*>(data16.data()) : data32.data();
    if (auto ok = (*gpu)->beamform(data, frames, GpuOutput::Envelope, out); !ok) {  // puts the frames on the device
        state.SkipWithError(ok.error().message().c_str());
        return;
    }
    constexpr int kLaunches = 20;  // per iteration, timed together with CUDA events
    double envelopeSeconds = 0;
    for (auto _ : state) {
        auto t = (*gpu)->timeKernel(frames, kLaunches);
        if (!t) {
            state.SkipWithError(t.error().message().c_str());
            return;
        }
        state.SetIterationTime(*t * kLaunches);
    }
    if (auto e = (*gpu)->timeEnvelope(frames, kLaunches); e) envelopeSeconds = *e;
    state.counters["nominal_ops_per_s"] = benchmark::Counter(kNominalPerFrame * frames * kLaunches, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["frames_per_s"] = benchmark::Counter(double(frames) * kLaunches, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["envelope_us_per_frame"] = envelopeSeconds * 1e6 / frames;
    state.counters["decimation"] = (*gpu)->iqDecimation();
}
// Each path with each way its kernel offers: sector one, the others four.
void everyPathAndKernel(benchmark::internal::Benchmark* b) {
    for (int int16 : {0, 1}) {
        for (int frames : {1, 16}) {
            for (int mode : {kRectangular, kHann, kTukey, kIqRectangular, kIqHann, kSectorHann}) {
                const int kernels = mode == kSectorHann ? 1 : 4;
                for (int kernel = 0; kernel < kernels; ++kernel) b->Args({int16, frames, mode, kernel});
            }
        }
    }
}
BENCHMARK(delayAndSumKernel)->Apply(everyPathAndKernel)->ArgNames({"int16", "frames", "mode", "kernel"})->UseManualTime()->Unit(benchmark::kMicrosecond);

// Arguments: frames per call (batch), frames per chunk, mode. int16 from registered memory,
// envelope out.
void endToEndFromPinnedMemory(benchmark::State& state) {
    const int batch = static_cast<int>(state.range(0));
    const int mode = static_cast<int>(state.range(2));
    state.SetLabel(kModeNames[mode]);
    auto gpu = GpuBeamformer::create(issueSetup(SampleType::Int16, static_cast<int>(state.range(1)), mode));
    if (!gpu) {
        state.SkipWithError(gpu.error().message().c_str());
        return;
    }
    static std::vector<std::int16_t> frames;  // generated once, not once per configuration
    if (frames.size() != static_cast<std::size_t>(batch) * kChannels * kSamples) frames = noiseFrames<std::int16_t>(batch);
    auto input = frames;
    std::vector<float> out(static_cast<std::size_t>(batch) * (*gpu)->pixelsPerFrame());
    bool inputPinned = false, outputPinned = false;
    if (auto ok = (*gpu)->registerHostMemory(input.data(), input.size() * 2); !ok) state.SkipWithError(ok.error().message().c_str());
    else inputPinned = true;
    if (inputPinned) {
        if (auto ok = (*gpu)->registerHostMemory(out.data(), out.size() * 4); !ok) state.SkipWithError(ok.error().message().c_str());
        else outputPinned = true;
    }
    if (outputPinned) {
        for (auto _ : state) {
            if (auto ok = (*gpu)->beamform(input.data(), batch, GpuOutput::Envelope, out); !ok) {
                state.SkipWithError(ok.error().message().c_str());
                break;
            }
        }
    }
    if (inputPinned) (void)(*gpu)->unregisterHostMemory(input.data());
    if (outputPinned) (void)(*gpu)->unregisterHostMemory(out.data());
    state.counters["frames_per_s"] = benchmark::Counter(batch, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["nominal_ops_per_s"] = benchmark::Counter(kNominalPerFrame * batch, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(endToEndFromPinnedMemory)
    ->ArgsProduct({{256}, {8, 32}, {kRectangular, kHann, kIqHann}})
    ->ArgNames({"batch", "chunk", "mode"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
