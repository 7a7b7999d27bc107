// Live frames beamformed on the GPU straight from the acquisition ring: the simulated link's
// ring is page-locked (cudaHostRegister), each delivered frame's blocks are copied from their
// slots into place on the device (no host copy), and the envelope is compared with the CPU
// reference on the same samples (relative error <= 1e-4). Blocks that do not cover a frame
// are refused. Skips itself where there is no GPU.
#include <cstring>
#include <mutex>
#include <numbers>

#include <gtest/gtest.h>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/beamform/cuda/gpu_beamformer.h"
#include "sonolink/beamform/cuda/gpu_probe.h"
#include "sonolink/ingest/stream_session.h"
#include "sonolink/transport/sim/in_process_front_end.h"

namespace sonolink::beamform::cuda {
namespace {

constexpr int kChannels = 64, kSamples = 1024;

ingest::SessionOptions session() {
    ingest::SessionOptions o;
    o.configure.channelCount = kChannels;
    o.configure.samplesPerChannel = kSamples;
    o.configure.anglesMilliDeg = {-5000, 0, 5000};
    o.configure.frameRateMilliHz = 0;
    return o;
}

GpuBeamformerSetup setupFor(const transport::Configure& c, const PixelGrid& grid) {
    GpuBeamformerSetup s;
    s.sampleType = SampleType::Int16;
    // The GPU-check build has no composition root (app::geometryOf): the same mapping, for plane waves.
    auto& g = s.geometry;
    g.waves = c.waveCount();
    g.channels = c.channelCount;
    g.samples = static_cast<int>(c.samplesPerChannel);
    g.samplingRateHz = c.samplingRateHz;
    g.soundSpeedMps = c.soundSpeedMmPerS * 1e-3;
    g.elementX = linearArrayElementX(g.channels, c.pitchNm * 1e-9);
    for (auto a : c.anglesMilliDeg) g.angleRad.push_back(a * 1e-3 * std::numbers::pi / 180);
    s.grid = grid;
    s.framesPerChunk = 1;
    return s;
}

// On the ingest thread: each frame beamformed on the GPU from its ring slots and on the CPU
// from a contiguous copy, and the two compared.
class GpuCheckingSink final : public ingest::FrameSink {
public:
    GpuCheckingSink(GpuBeamformer& gpu, const GpuBeamformerSetup& setup) : gpu_(gpu), setup_(setup) {}
    void onFrame(const ingest::FrameRef& frame) noexcept override {
        std::vector<RfBlock> blocks;
        std::vector<std::int16_t> contiguous(setup_.geometry.samplesPerFrame());
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) {
            const auto& block = frame->block(b);
            const auto& h = block.header;
            blocks.push_back(
                {block.payload.data(), 0, h.waveIndex, h.firstChannel, h.channelCount, static_cast<int>(h.firstSample), static_cast<int>(h.sampleCount)});
            for (int c = 0; c < h.channelCount; ++c) {
                std::memcpy(contiguous.data() + (static_cast<std::size_t>(h.waveIndex) * kChannels + h.firstChannel + c) * kSamples + h.firstSample,
                            block.payload.data() + static_cast<std::size_t>(c) * h.sampleCount * 2, std::size_t(h.sampleCount) * 2);
            }
        }
        std::vector<float> gpuImage(setup_.grid.x.size() * setup_.grid.z.size());
        auto ok = gpu_.beamformBlocks(blocks, 1, GpuOutput::Envelope, gpuImage);
        const ChannelDataView view{&setup_.geometry, {}, contiguous};
        auto cpu = delayAndSum(view, setup_.grid, {});
        std::lock_guard lock(mutex);
        if (!ok) {
            errors.push_back(ok.error().describe());
            return;
        }
        if (!cpu) {
            errors.push_back(cpu.error().describe());
            return;
        }
        envelopeAlongDepth(*cpu);
        double peak = 0, worst = 0;
        for (std::size_t i = 0; i < gpuImage.size(); ++i) {
            if (!std::isfinite(gpuImage[i])) worst = std::numeric_limits<double>::infinity();
            peak = std::max(peak, double(std::abs(cpu->columns[i])));
            worst = std::max(worst, double(std::abs(gpuImage[i] - cpu->columns[i])));
        }
        relativeErrors.push_back(peak > 0 ? worst / peak : worst);
    }
    std::mutex mutex;
    std::vector<double> relativeErrors;
    std::vector<std::string> errors;

private:
    GpuBeamformer& gpu_;
    const GpuBeamformerSetup& setup_;
};

TEST(GpuRingBeamformTest, FramesStraightFromTheRegisteredRing) {
    if (auto gpu = probeCuda(); !gpu) GTEST_SKIP() << gpu.error().message();
    auto link = transport::sim::SimLink::create({"", 64 * 1024, 128, std::chrono::milliseconds(5000)});
    ASSERT_TRUE(link) << link.error().describe();
    auto frontEnd = transport::sim::InProcessFrontEnd::start(**link, {});
    ASSERT_TRUE(frontEnd);
    const auto setup = setupFor(session().configure, PixelGrid::fromRanges(-8e-3, 8e-3, 64, 5e-3, 30e-3, 256));
    auto gpu = GpuBeamformer::create(setup);
    ASSERT_TRUE(gpu) << gpu.error().describe();
    const auto ring = (*link)->ring();
    const auto ringBytes = std::size_t(ring.slotBytes) * ring.slotCount;
    ASSERT_TRUE((*gpu)->registerHostMemory(ring.base, ringBytes));
    {
        auto s = ingest::StreamSession::open(**link, session());
        ASSERT_TRUE(s) << s.error().describe();
        GpuCheckingSink sink(**gpu, setup);
        (*s)->ingest().addSink(sink);
        std::atomic<bool> stop{false};
        auto summary = (*s)->run(4, stop);
        ASSERT_TRUE(summary) << summary.error().describe();
        std::lock_guard lock(sink.mutex);
        EXPECT_TRUE(sink.errors.empty()) << sink.errors.front();
        ASSERT_EQ(sink.relativeErrors.size(), 4u);
        for (double e : sink.relativeErrors) EXPECT_LE(e, 1e-4);
    }
    EXPECT_TRUE((*gpu)->unregisterHostMemory(ring.base));
}

// Blocks are checked before anything is copied.
TEST(GpuRingBeamformTest, BlocksThatDoNotCoverTheFrameAreRefused) {
    if (auto gpu = probeCuda(); !gpu) GTEST_SKIP() << gpu.error().message();
    const auto setup = setupFor(session().configure, PixelGrid::fromRanges(-1e-3, 1e-3, 4, 5e-3, 10e-3, 16));
    auto gpu = GpuBeamformer::create(setup);
    ASSERT_TRUE(gpu) << gpu.error().describe();
    std::vector<std::int16_t> samples(std::size_t(kChannels) * kSamples);
    std::vector<float> out(4 * 16);
    const std::vector<RfBlock> oneWave{{samples.data(), 0, 0, 0, kChannels, 0, kSamples}};
    auto partial = (*gpu)->beamformBlocks(oneWave, 1, GpuOutput::Rf, out);
    ASSERT_FALSE(partial);
    EXPECT_NE(partial.error().message().find("the blocks of frame 0 hold 65536 samples, the frame 196608"), std::string::npos) << partial.error().message();
    const std::vector<RfBlock> outside{{samples.data(), 0, 3, 0, kChannels, 0, kSamples}};
    auto beyond = (*gpu)->beamformBlocks(outside, 1, GpuOutput::Rf, out);
    ASSERT_FALSE(beyond);
    EXPECT_NE(beyond.error().message().find("lies outside"), std::string::npos) << beyond.error().message();
}

}  // namespace
}  // namespace sonolink::beamform::cuda
