// The GPU beamformer against the CPU reference on several scenes: the envelope's relative error
// (largest difference over the largest value) must be <= 1e-4 in float32. Scenes: point targets
// with one plane wave; three steered waves with a non-zero initial time; focused and diverging
// waves; int16 ADC samples with a Hann window; batches of different frames, more than one
// chunk, from registered (page-locked) and from ordinary memory, envelope and RF out; the IQ
// path (every window, float and int16, steered waves, speckle, decimations from none to the
// band's limit) against the CPU's scalar IQ reference; sector imaging against delayAndSumSector.
// The RF and IQ scenes run with every way the kernels offer (GpuKernelOptions). A NaN anywhere fails. Skips
// itself where there is no GPU; the refusals of inconsistent setups run everywhere.
#include "sonolink/beamform/cuda/gpu_beamformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "beamform_phantom.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/beamform/cuda/gpu_probe.h"
#include "sonolink/beamform/iq_beamformer.h"
#include "sonolink/beamform/sector_beamformer.h"

namespace sonolink::beamform::cuda {
namespace {

using namespace phantom;

class GpuBeamformerTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto gpu = probeCuda(); !gpu) GTEST_SKIP() << gpu.error().message();
    }
};

GpuBeamformerSetup setupFor(const AcquisitionGeometry& geometry, const PixelGrid& grid, const BeamformParams& params, SampleType type,
                            GpuKernelOptions kernel = {}) {
    GpuBeamformerSetup s;
    s.sampleType = type;
    s.geometry = geometry;
    s.grid = grid;
    s.params = params;
    s.framesPerChunk = 2;
    s.kernel = kernel;
    return s;
}

// Every way the delay-and-sum kernels offer.
constexpr GpuKernelOptions kEveryKernel[] = {{false, false}, {true, false}, {false, true}, {true, true}};

std::string describe(const GpuKernelOptions& k) {
    return fmt::format("conversions by {}, {}", k.conversionsByRounding ? "rounding" : "instruction", k.fullOccupancy ? "full occupancy" : "registers free");
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

// The largest error over every way of the RF kernel is the one recorded.
void expectAgreement(const Phantom& p, const PixelGrid& grid, const BeamformParams& params) {
    const auto cpu = cpuEnvelope(p.view(), grid, params);
    double worst = 0;
    for (const auto& kernel : kEveryKernel) {
        auto gpu = GpuBeamformer::create(setupFor(p.geometry, grid, params, SampleType::Float32, kernel));
        ASSERT_TRUE(gpu) << gpu.error().describe();
        std::vector<float> out(grid.x.size() * grid.z.size());
        ASSERT_TRUE((*gpu)->beamform(p.samples.data(), 1, GpuOutput::Envelope, out));
        const double error = relativeError(out, cpu);
        worst = std::max(worst, error);
        EXPECT_LE(error, 1e-4) << describe(kernel);
    }
    ::testing::Test::RecordProperty("relative_error", fmt::format("{:.3e}", worst));
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
    std::vector<std::vector<float>> cpu;
    for (int f = 0; f < kFrames; ++f) {
        ChannelDataView view = frames[f].view();
        view.samples = {};
        view.samples16 = std::span<const std::int16_t>(adc).subspan(f * perFrame, perFrame);
        cpu.push_back(cpuEnvelope(view, grid, params));
    }
    for (const auto& kernel : kEveryKernel) {
        auto gpu = GpuBeamformer::create(setupFor(frames[0].geometry, grid, params, SampleType::Int16, kernel));
        ASSERT_TRUE(gpu) << gpu.error().describe();
        std::vector<float> out(kFrames * grid.x.size() * grid.z.size());
        {
            const Registered pinned(**gpu, adc.data(), adc.size() * sizeof(std::int16_t));
            ASSERT_TRUE(pinned.status()) << pinned.status().error().describe();
            ASSERT_TRUE((*gpu)->beamform(adc.data(), kFrames, GpuOutput::Envelope, out));
        }
        for (int f = 0; f < kFrames; ++f) {
            const auto& reference = cpu[static_cast<std::size_t>(f)];
            EXPECT_LE(relativeError(std::span<const float>(out).subspan(f * reference.size(), reference.size()), reference), 1e-4)
                << "frame " << f << ", " << describe(kernel);
        }
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

// The CPU's scalar IQ reference: demodulated one output at a time, every pixel and channel with
// the exact window and rotation.
std::vector<float> cpuIqEnvelope(const ChannelDataView& v, const PixelGrid& grid, const BeamformParams& params, double fd, int decimation) {
    auto iq = demodulateToIq(v, fd, decimation, VectorLoop::Scalar);
    EXPECT_TRUE(iq) << iq.error().describe();
    if (!iq) return {};
    auto image = delayAndSumIq(iq->geometry, iq->samples, fd, grid, params, 0, true, VectorLoop::Scalar);
    EXPECT_TRUE(image) << image.error().describe();
    return image ? image->magnitude().columns : std::vector<float>{};
}

// A speckle field: many random scatterers (the texture a live image shows), and two bright points.
Phantom speckle(const std::vector<double>& anglesDeg, int samples, double t0, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> x(-8e-3, 8e-3), z(6e-3, 26e-3), amplitude(0.05, 0.3);
    std::vector<Scatterer> field{{0, 12e-3, 1}, {-4e-3, 20e-3, 0.8}};
    for (int i = 0; i < 150; ++i) field.push_back({x(random), z(random), amplitude(random)});
    return simulate(field, anglesDeg, samples, t0);
}

// decimation 0: as the band allows (iqDecimation). Returns the relative error (infinity when the
// set-up failed).
double expectIqAgreement(const Phantom& p, const PixelGrid& grid, const BeamformParams& params, SampleType type, double fd, const std::string& scene,
                         GpuKernelOptions kernel = {}, int decimationAsked = 0) {
    const double failed = std::numeric_limits<double>::infinity();
    auto setup = setupFor(p.geometry, grid, params, type, kernel);
    setup.modulationFrequencyHz = fd;
    setup.iqDecimation = decimationAsked;
    auto gpu = GpuBeamformer::create(setup);
    EXPECT_TRUE(gpu) << gpu.error().describe();
    if (!gpu) return failed;
    const int decimation = (*gpu)->iqDecimation();
    EXPECT_EQ(decimation, decimationAsked > 0 ? decimationAsked : iqDecimation(p.geometry.samplingRateHz, fd));
    std::vector<float> out((*gpu)->pixelsPerFrame());
    std::vector<std::int16_t> adc;
    ChannelDataView view = p.view();
    if (type == SampleType::Int16) {
        for (float v : p.samples) adc.push_back(static_cast<std::int16_t>(std::lround(v * 8000)));
        view.samples = {};
        view.samples16 = adc;
    }
    const void* frames = type == SampleType::Int16 ? static_cast<const void*>(adc.data()) : p.samples.data();
    const auto ran = (*gpu)->beamform(frames, 1, GpuOutput::Envelope, out);
    EXPECT_TRUE(ran) << ran.error().describe();
    const auto cpu = cpuIqEnvelope(view, grid, params, fd, decimation);
    EXPECT_EQ(cpu.size(), out.size());
    if (!ran || cpu.size() != out.size()) return failed;
    const double error = relativeError(out, cpu);
    const auto where = fmt::format("{}; {}", scene, describe(kernel));
    EXPECT_LE(error, 1e-4) << where;
    // The rotation matters: the same sum without it is far off (the test can fail).
    auto iq = demodulateToIq(view, fd, decimation, VectorLoop::Scalar);
    EXPECT_TRUE(iq);
    if (!iq) return failed;
    auto unrotated = delayAndSumIq(iq->geometry, iq->samples, fd, grid, params, 0, false, VectorLoop::Scalar);
    EXPECT_TRUE(unrotated);
    if (unrotated) {
        EXPECT_GT(relativeError(out, unrotated->magnitude().columns), 0.05) << where;
    }
    return error;
}

void recordWorst(double error) { ::testing::Test::RecordProperty("relative_error", fmt::format("{:.3e}", error)); }

TEST_F(GpuBeamformerTest, IqPathEveryWindowAgainstTheScalarReference) {
    const auto p = simulate({{0, 15e-3, 1}, {-5e-3, 25e-3, 0.7}, {6e-3, 32e-3, 0.5}}, {0}, 2048, 0);
    const auto grid = PixelGrid::fromRanges(-10e-3, 10e-3, 96, 5e-3, 38e-3, 400);
    double worst = 0;
    for (const auto& kernel : kEveryKernel) {
        for (const auto window : {Window::Rectangular, Window::Hann, Window::Tukey}) {
            BeamformParams params;
            params.window = window;
            const auto scene = fmt::format("float, one plane wave, window {}", static_cast<int>(window));
            worst = std::max(worst, expectIqAgreement(p, grid, params, SampleType::Float32, 5e6, scene, kernel));
        }
    }
    recordWorst(worst);
}

// 4 MHz at every decimation from none to the band's limit (4: 10 MHz), int16, and 6 MHz by 3 (a
// turn of 2.83 radians per IQ sample, near the most the band allows).
TEST_F(GpuBeamformerTest, IqPathAtEveryDecimation) {
    const auto p = simulate({{0, 15e-3, 1}, {-5e-3, 25e-3, 0.7}, {6e-3, 32e-3, 0.5}}, {0}, 2048, 0);
    const auto grid = PixelGrid::fromRanges(-10e-3, 10e-3, 64, 5e-3, 38e-3, 300);
    BeamformParams params;
    params.window = Window::Hann;
    double worst = 0;
    for (const auto& kernel : kEveryKernel) {
        worst = std::max(worst, expectIqAgreement(p, grid, params, SampleType::Float32, 6e6, "6 MHz, decimation 3", kernel, 3));
        for (const int decimation : {1, 2, 4}) {
            const auto scene = fmt::format("4 MHz, decimation {}", decimation);
            worst = std::max(worst, expectIqAgreement(p, grid, params, SampleType::Int16, 4e6, scene, kernel, decimation));
        }
    }
    recordWorst(worst);
}

TEST_F(GpuBeamformerTest, IqPathInt16SteeredWavesWithAnInitialTimeOnSpeckle) {
    const auto p = speckle({-8, 0, 8}, 1500, 3e-6, 7);
    const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 64, 5e-3, 26e-3, 300);
    double worst = 0;
    for (const auto& kernel : kEveryKernel) {
        BeamformParams params;
        params.window = Window::Hann;
        worst = std::max(worst, expectIqAgreement(p, grid, params, SampleType::Int16, 5e6, "int16, three waves, speckle", kernel));
        params.window = Window::Tukey;
        params.fNumber = 1.2;
        worst = std::max(worst, expectIqAgreement(p, grid, params, SampleType::Float32, 4.5e6, "float, Tukey, 4.5 MHz", kernel));
    }
    recordWorst(worst);
}

TEST_F(GpuBeamformerTest, IqPathBatchesFramesOverBothStreams) {
    constexpr int kFrames = 5;  // more than one chunk of two
    const auto grid = PixelGrid::fromRanges(-6e-3, 6e-3, 48, 8e-3, 24e-3, 256);
    std::vector<Phantom> frames;
    for (int f = 0; f < kFrames; ++f) frames.push_back(simulate({{-3e-3 + 1.5e-3 * f, 12e-3 + 2e-3 * f, 1}}, {-5, 5}, 1400, 0));
    std::vector<float> batch;
    for (const auto& f : frames) batch.insert(batch.end(), f.samples.begin(), f.samples.end());
    auto setup = setupFor(frames[0].geometry, grid, {}, SampleType::Float32);
    setup.modulationFrequencyHz = 5e6;
    auto gpu = GpuBeamformer::create(setup);
    ASSERT_TRUE(gpu) << gpu.error().describe();
    std::vector<float> out(kFrames * (*gpu)->pixelsPerFrame());
    ASSERT_TRUE((*gpu)->beamform(batch.data(), kFrames, GpuOutput::Envelope, out));
    for (int f = 0; f < kFrames; ++f) {
        const auto cpu = cpuIqEnvelope(frames[f].view(), grid, {}, 5e6, (*gpu)->iqDecimation());
        EXPECT_LE(relativeError(std::span<const float>(out).subspan(f * cpu.size(), cpu.size()), cpu), 1e-4) << "frame " << f;
    }
    const auto rf = (*gpu)->beamform(batch.data(), kFrames, GpuOutput::Rf, out);
    ASSERT_FALSE(rf);
    EXPECT_EQ(rf.error().code(), ErrorCode::InvalidArgument);
}

std::vector<double> steps(double first, double last, int count) {
    std::vector<double> v;
    for (int i = 0; i < count; ++i) v.push_back(first + (last - first) * i / (count - 1));
    return v;
}

// Laser shots (photoacoustic, received only): the GPU's tabulated delays from the same
// transmitDelaySamples, RF and IQ, against the CPU reference.
TEST_F(GpuBeamformerTest, PhotoacousticShots) {
    const auto p = simulate({{0, 12e-3, 1}, {-5e-3, 20e-3, 0.7}, {6e-3, 30e-3, 0.5}}, {0}, 1400, 1e-6, {}, true);
    const auto grid = PixelGrid::fromRanges(-10e-3, 10e-3, 96, 5e-3, 34e-3, 400);
    BeamformParams params;
    params.window = Window::Hann;
    expectAgreement(p, grid, params);
    recordWorst(expectIqAgreement(p, grid, params, SampleType::Float32, 5e6, "photoacoustic shot, Hann", kEveryKernel[0]));
}

TEST_F(GpuBeamformerTest, SectorAlongRaysAgainstTheCpu) {
    constexpr double kDeg = std::numbers::pi / 180;
    const auto p = simulate({{0, 14e-3, 1}, {-6e-3, 20e-3, 0.8}, {7e-3, 24e-3, 0.6}}, {-6, 0, 6}, 1800, 1e-6);
    const auto r = steps(6e-3, 30e-3, 360), theta = steps(-30 * kDeg, 30 * kDeg, 81);
    for (const auto window : {Window::Rectangular, Window::Hann}) {
        for (const auto type : {SampleType::Float32, SampleType::Int16}) {
            BeamformParams params;
            params.window = window;
            auto setup = setupFor(p.geometry, {}, params, type);
            setup.sectorR = r;
            setup.sectorTheta = theta;
            auto gpu = GpuBeamformer::create(setup);
            ASSERT_TRUE(gpu) << gpu.error().describe();
            ASSERT_EQ((*gpu)->pixelsPerFrame(), r.size() * theta.size());
            std::vector<float> out((*gpu)->pixelsPerFrame());
            std::vector<std::int16_t> adc;
            ChannelDataView view = p.view();
            const void* frames = p.samples.data();
            if (type == SampleType::Int16) {
                for (float v : p.samples) adc.push_back(static_cast<std::int16_t>(std::lround(v * 8000)));
                view.samples = {};
                view.samples16 = adc;
                frames = adc.data();
            }
            ASSERT_TRUE((*gpu)->beamform(frames, 1, GpuOutput::Envelope, out));
            auto cpu = delayAndSumSector(view, r, theta, params);
            ASSERT_TRUE(cpu) << cpu.error().describe();
            envelopeAlongRays(*cpu);
            const double error = relativeError(out, cpu->rays);
            ::testing::Test::RecordProperty("relative_error", fmt::format("{:.3e}", error));
            EXPECT_LE(error, 1e-4) << "window " << static_cast<int>(window) << (type == SampleType::Int16 ? ", int16" : ", float");
        }
    }
}

// Checked before any device is touched: runs on stations without a GPU too.
TEST(GpuBeamformerSetupTest, IqAndSectorSetupsAreRefusedWithTheReason) {
    const auto p = simulate({{0, 10e-3, 1}}, {0}, 800, 0);
    auto iq = setupFor(p.geometry, PixelGrid::fromRanges(-1e-3, 1e-3, 8, 5e-3, 15e-3, 64), {}, SampleType::Float32);
    iq.modulationFrequencyHz = 25e6;  // above half the 40 MHz sampling rate
    auto gpu = GpuBeamformer::create(iq);
    ASSERT_FALSE(gpu);
    EXPECT_NE(gpu.error().message().find("half the sampling rate"), std::string::npos) << gpu.error().message();
    iq.modulationFrequencyHz = 5e6;
    iq.iqDecimation = 5;  // 8 MHz: below twice 5 MHz
    gpu = GpuBeamformer::create(iq);
    ASSERT_FALSE(gpu);
    EXPECT_NE(gpu.error().message().find("IQ decimation 5"), std::string::npos) << gpu.error().message();
    auto sector = setupFor(p.geometry, {}, {}, SampleType::Float32);
    sector.sectorR = {5e-3, 10e-3};
    gpu = GpuBeamformer::create(sector);
    ASSERT_FALSE(gpu);
    EXPECT_NE(gpu.error().message().find("ray depths and angles (2 and 0 given)"), std::string::npos) << gpu.error().message();
    sector.sectorTheta = {0.1, 0.0};
    gpu = GpuBeamformer::create(sector);
    ASSERT_FALSE(gpu);
    EXPECT_NE(gpu.error().message().find("sector angles must increase"), std::string::npos) << gpu.error().message();
    sector.sectorTheta = {0.0, 0.1};
    sector.modulationFrequencyHz = 5e6;
    gpu = GpuBeamformer::create(sector);
    ASSERT_FALSE(gpu);
    EXPECT_NE(gpu.error().message().find("sector imaging beamforms RF"), std::string::npos) << gpu.error().message();
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
    // Conversions by rounding hold for delays below 2^22 samples only.
    setup = setupFor(p.geometry, PixelGrid::fromRanges(-1e-3, 1e-3, 8, 5e-3, 15e-3, 64), {}, SampleType::Float32, {true, false});
    setup.geometry.samples = 1 << 22;
    gpu = GpuBeamformer::create(setup);
    ASSERT_FALSE(gpu);
    EXPECT_EQ(gpu.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(gpu.error().message().find("4194304 samples a trace: conversions by rounding need fewer than 2^22"), std::string::npos) << gpu.error().message();
}

}  // namespace
}  // namespace sonolink::beamform::cuda
