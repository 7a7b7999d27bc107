// The GPU beamformer against the CPU reference on several scenes: the envelope's relative error
// (largest difference over the largest value) must be <= 1e-4 in float32. Scenes: point targets
// with one plane wave; three steered waves with a non-zero initial time; focused and diverging
// waves; int16 ADC samples with a Hann window; batches of different frames, more than one
// chunk, from registered (page-locked) and from ordinary memory, envelope and RF out. A NaN
// anywhere fails. Skips itself where there is no GPU.
#include "sonolink/beamform/cuda/gpu_beamformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "beamform_phantom.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/beamform/cuda/gpu_probe.h"

namespace sonolink::beamform::cuda {
namespace {

using namespace phantom;

class GpuBeamformerTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto gpu = probeCuda(); !gpu) GTEST_SKIP() << gpu.error().message();
    }
};

GpuBeamformerSetup setupFor(const AcquisitionGeometry& geometry, const PixelGrid& grid, const BeamformParams& params, SampleType type) {
    GpuBeamformerSetup s;
    s.sampleType = type;
    s.geometry = geometry;
    s.grid = grid;
    s.params = params;
    s.framesPerChunk = 2;
    return s;
}

std::vector<float> cpuEnvelope(const ChannelDataView& v, const PixelGrid& grid, const BeamformParams& params) {
    auto image = delayAndSum(v, grid, params);
    EXPECT_TRUE(image) << image.error().describe();
    envelopeAlongDepth(*image);
    return image->columns;
}

// Largest difference over the largest value; infinity when the GPU gave a NaN or infinity.
double relativeError(std::span<const float> gpu, std::span<const float> cpu) {
    double peak = 0, worst = 0;
    for (std::size_t i = 0; i < cpu.size(); ++i) {
        if (!std::isfinite(gpu[i])) return std::numeric_limits<double>::infinity();
        peak = std::max(peak, double(std::abs(cpu[i])));
        worst = std::max(worst, double(std::abs(gpu[i] - cpu[i])));
    }
    return peak > 0 ? worst / peak : worst;
}

// Page-locks a buffer for the life of the guard (unregistered on every way out of a test).
class Registered {
public:
    Registered(GpuBeamformer& gpu, void* memory, std::size_t bytes) : gpu_(gpu), memory_(memory), ok_(gpu.registerHostMemory(memory, bytes)) {}
    ~Registered() {
        if (ok_) (void)gpu_.unregisterHostMemory(memory_);
    }
    Registered(const Registered&) = delete;
    Registered& operator=(const Registered&) = delete;
    [[nodiscard]] const Status& status() const noexcept { return ok_; }

private:
    GpuBeamformer& gpu_;
    void* memory_;
    Status ok_;
};

void expectAgreement(const Phantom& p, const PixelGrid& grid, const BeamformParams& params) {
    auto gpu = GpuBeamformer::create(setupFor(p.geometry, grid, params, SampleType::Float32));
    ASSERT_TRUE(gpu) << gpu.error().describe();
    std::vector<float> out(grid.x.size() * grid.z.size());
    ASSERT_TRUE((*gpu)->beamform(p.samples.data(), 1, GpuOutput::Envelope, out));
    const auto cpu = cpuEnvelope(p.view(), grid, params);
    const double error = relativeError(out, cpu);
    ::testing::Test::RecordProperty("relative_error", fmt::format("{:.3e}", error));
    EXPECT_LE(error, 1e-4);
}

TEST_F(GpuBeamformerTest, PointTargetsOnePlaneWave) {
    const auto p = simulate({{0, 15e-3, 1}, {-5e-3, 25e-3, 0.7}, {6e-3, 32e-3, 0.5}}, {0}, 2048, 0);
    expectAgreement(p, PixelGrid::fromRanges(-10e-3, 10e-3, 96, 5e-3, 38e-3, 400), {});
}

TEST_F(GpuBeamformerTest, SteeredWavesWithAnInitialTime) {
    const double t0 = 4e-6;  // the record starts 4 us after t = 0: samples before it contribute 0
    const auto p = simulate({{2e-3, 12e-3, 1}, {-4e-3, 20e-3, 0.8}}, {-10, 0, 10}, 1500, t0);
    BeamformParams params;
    params.fNumber = 1.2;
    params.window = Window::Tukey;
    expectAgreement(p, PixelGrid::fromRanges(-8e-3, 8e-3, 64, 3e-3, 28e-3, 300), params);
}

TEST_F(GpuBeamformerTest, FocusedAndDivergingWaves) {
    const auto p = simulate({{2e-3, 14e-3, 1}, {-3e-3, 22e-3, 0.6}}, {-6, 0, 6, 0}, 1500, 1e-6, {18e-3, 18e-3, 18e-3, -12e-3});
    expectAgreement(p, PixelGrid::fromRanges(-6e-3, 6e-3, 64, 6e-3, 28e-3, 320), {});
}

TEST_F(GpuBeamformerTest, Int16SamplesBatchedFromRegisteredMemory) {
    // Five different frames (targets move), more than one chunk, from page-locked memory.
    constexpr int kFrames = 5;
    const auto grid = PixelGrid::fromRanges(-6e-3, 6e-3, 48, 8e-3, 24e-3, 256);
    BeamformParams params;
    params.window = Window::Hann;
    std::vector<Phantom> frames;
    for (int f = 0; f < kFrames; ++f) frames.push_back(simulate({{-3e-3 + 1.5e-3 * f, 12e-3 + 2e-3 * f, 1}}, {-5, 5}, 1400, 0));
    const auto perFrame = frames[0].samples.size();
    std::vector<std::int16_t> adc(perFrame * kFrames);
    for (int f = 0; f < kFrames; ++f) {
        for (std::size_t i = 0; i < perFrame; ++i) adc[f * perFrame + i] = static_cast<std::int16_t>(std::lround(frames[f].samples[i] * 8000));
    }
    auto gpu = GpuBeamformer::create(setupFor(frames[0].geometry, grid, params, SampleType::Int16));
    ASSERT_TRUE(gpu) << gpu.error().describe();
    std::vector<float> out(kFrames * grid.x.size() * grid.z.size());
    {
        const Registered pinned(**gpu, adc.data(), adc.size() * sizeof(std::int16_t));
        ASSERT_TRUE(pinned.status()) << pinned.status().error().describe();
        ASSERT_TRUE((*gpu)->beamform(adc.data(), kFrames, GpuOutput::Envelope, out));
    }
    for (int f = 0; f < kFrames; ++f) {
        ChannelDataView view = frames[f].view();
        view.samples = {};
        view.samples16 = std::span<const std::int16_t>(adc).subspan(f * perFrame, perFrame);
        const auto cpu = cpuEnvelope(view, grid, params);
        EXPECT_LE(relativeError(std::span<const float>(out).subspan(f * cpu.size(), cpu.size()), cpu), 1e-4) << "frame " << f;
    }
}

TEST_F(GpuBeamformerTest, RfOutputOfAFloatBatchFromPageableMemory) {
    // Three different float frames, two chunks on the two streams, from ordinary memory.
    constexpr int kFrames = 3;
    const auto grid = PixelGrid::fromRanges(-4e-3, 4e-3, 32, 10e-3, 22e-3, 200);
    std::vector<Phantom> frames;
    for (int f = 0; f < kFrames; ++f) frames.push_back(simulate({{-2e-3 + 2e-3 * f, 12e-3 + 4e-3 * f, 1}}, {0}, 1200, 0));
    std::vector<float> batch;
    for (const auto& f : frames) batch.insert(batch.end(), f.samples.begin(), f.samples.end());
    auto gpu = GpuBeamformer::create(setupFor(frames[0].geometry, grid, {}, SampleType::Float32));
    ASSERT_TRUE(gpu) << gpu.error().describe();
    std::vector<float> out(kFrames * grid.x.size() * grid.z.size());
    ASSERT_TRUE((*gpu)->beamform(batch.data(), kFrames, GpuOutput::Rf, out));
    for (int f = 0; f < kFrames; ++f) {
        auto cpu = delayAndSum(frames[f].view(), grid, {});
        ASSERT_TRUE(cpu);
        EXPECT_LE(relativeError(std::span<const float>(out).subspan(f * cpu->columns.size(), cpu->columns.size()), cpu->columns), 1e-4) << "frame " << f;
    }
}

// Checked before any device is touched: runs on stations without a GPU too.
TEST(GpuBeamformerSetupTest, InconsistentSetupIsRefusedWithTheReason) {
    const auto p = simulate({{0, 10e-3, 1}}, {0}, 800, 0);
    auto setup = setupFor(p.geometry, PixelGrid::fromRanges(-1e-3, 1e-3, 8, 5e-3, 15e-3, 64), {}, SampleType::Float32);
    setup.geometry.elementX.pop_back();
    auto gpu = GpuBeamformer::create(setup);
    ASSERT_FALSE(gpu);
    EXPECT_EQ(gpu.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(gpu.error().message().find("127 element positions for 128 channels"), std::string::npos) << gpu.error().message();
}

}  // namespace
}  // namespace sonolink::beamform::cuda
