// Delay-and-sum is linear in the channels: 4 hosts x 32 channels, each beamforming its own
// channels by the plan, summed in host order, give the full-aperture image within float rounding
// (NCC >= 0.99999), and, through the wire form and the joiner in any arrival order, the very bits
// of a single process's sum of the same partitions. For RF and IQ, each window, plane-wave
// compounding and photoacoustic shots.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "sonolink/cluster/frame_joiner.h"
#include "sonolink/cluster/partial_image.h"
#include "sonolink/cluster/partial_sum.h"
#include "sonolink/transport/sim/rf_scene.h"

namespace sonolink::cluster {
namespace {

constexpr int kChannels = 128;
constexpr int kHosts = 4;
constexpr int kSamples = 1600;
constexpr double kPitch = 0.3e-3, kFc = 5e6, kFs = 40e6;

struct Acquisition {
    beamform::AcquisitionGeometry geometry;
    std::vector<std::int16_t> frame;  // waves x 128 channels x samples
};

Acquisition acquire(bool photoacoustic) {
    const transport::sim::RfScene scene(transport::sim::SceneSpec::standardPhantom(kChannels, kPitch, kFc, kFs, kSamples, 1540));
    Acquisition a;
    beamform::AcquisitionGeometry& g = a.geometry;
    g.channels = kChannels;
    g.samples = kSamples;
    g.samplingRateHz = kFs;
    g.initialTimeS = scene.spec().initialTimeS;
    for (int e = 0; e < kChannels; ++e) g.elementX.push_back(scene.elementX(e));
    g.elementWidthM = kPitch;
    const std::size_t perWave = std::size_t{kChannels} * kSamples;
    if (photoacoustic) {
        g.waves = 1;
        g.angleRad = {0};
        g.photoacoustic = {true};
        a.frame.resize(perWave);
        scene.renderPhotoacoustic(7, a.frame);
        return a;
    }
    g.angleRad = {-0.1, 0, 0.1};  // three plane waves, coherently compounded
    g.waves = 3;
    a.frame.resize(3 * perWave);
    for (std::size_t w = 0; w < 3; ++w) scene.renderPlaneWave(g.angleRad[w], 7 + w, std::span(a.frame).subspan(w * perWave, perWave));
    return a;
}

ClusterPlan planFor(const Acquisition& a, PartialKind kind, beamform::Window window, int hosts) {
    ClusterPlan plan;
    plan.geometry = a.geometry;
    plan.grid = beamform::PixelGrid::fromRanges(-12e-3, 12e-3, 48, 6e-3, 28e-3, 96);
    plan.params.window = window;
    plan.kind = kind;
    plan.modulationFrequencyHz = kFc;
    plan.iqDecimation = 2;
    plan.threads = 2;
    plan.softwareVersion = "test";
    for (int h = 0; h < hosts; ++h) plan.hosts.push_back({h * (kChannels / hosts), kChannels / hosts});
    return plan;
}

double ncc(const std::vector<float>& a, const std::vector<float>& b) {
    double ab = 0, aa = 0, bb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ab += double{a[i]} * b[i];
        aa += double{a[i]} * a[i];
        bb += double{b[i]} * b[i];
    }
    return ab / std::sqrt(aa * bb);
}

std::vector<std::vector<float>> partials(const ClusterPlan& plan, const Acquisition& a) {
    std::vector<std::vector<float>> out;
    for (std::size_t h = 0; h < plan.hosts.size(); ++h) {
        const auto own = sliceChannels(a.geometry, a.frame, plan.hosts[h].firstChannel, plan.hosts[h].channelCount);
        auto partial = computePartial(plan, h, own);
        EXPECT_TRUE(partial) << partial.error().describe();
        out.push_back(partial ? std::move(*partial) : std::vector<float>{});
    }
    return out;
}

// Each partial through its wire form (header and payload decoded and checked), offered to the
// joiner in a shuffled order; the frame it lets go, summed.
std::vector<float> distributedSum(const ClusterPlan& plan, const std::vector<std::vector<float>>& parts, unsigned shuffleSeed) {
    const std::uint64_t hash = planHash(plan);
    FrameJoiner joiner({.hosts = parts.size(), .deadlineNs = 1'000'000, .policy = IncompletePolicy::ShowFlagged, .mostFramesOpen = 4}, hash,
                       plan.partialValues());
    std::vector<std::size_t> order(parts.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(shuffleSeed));
    std::vector<JoinedFrame> frames;
    for (const std::size_t h : order) {
        PartialHeader header{.session = 1,
                             .planHash = hash,
                             .epoch = 0,
                             .triggerSequence = 42,
                             .host = static_cast<std::uint16_t>(h),
                             .firstChannel = static_cast<std::uint16_t>(plan.hosts[h].firstChannel),
                             .channelCount = static_cast<std::uint16_t>(plan.hosts[h].channelCount),
                             .kind = plan.kind,
                             .nx = static_cast<std::uint32_t>(plan.grid.x.size()),
                             .nz = static_cast<std::uint32_t>(plan.grid.z.size()),
                             .valuesCrc = 0,
                             .beamformedNs = 0};
        const std::vector<std::byte> payload = payloadOf(parts[h], header);
        auto decoded = decodeHeader(encodeHeader(header));
        EXPECT_TRUE(decoded) << decoded.error().describe();
        auto values = payloadValues(*decoded, payload);
        EXPECT_TRUE(values) << values.error().describe();
        for (auto& f : joiner.offer(*decoded, std::move(*values), 0)) frames.push_back(std::move(f));
    }
    EXPECT_EQ(frames.size(), 1u);
    if (frames.empty() || !frames[0].complete) return {};
    return frames[0].sum;
}

struct Case {
    PartialKind kind;
    beamform::Window window;
    bool photoacoustic;
};

class DecompositionTest : public testing::TestWithParam<Case> {};

TEST_P(DecompositionTest, FourHostsOfThirtyTwoChannelsAreTheFullAperture) {
    const Case c = GetParam();
    const Acquisition a = acquire(c.photoacoustic);
    const ClusterPlan whole = planFor(a, c.kind, c.window, 1);
    const ClusterPlan split = planFor(a, c.kind, c.window, kHosts);
    ASSERT_TRUE(split.validate()) << split.validate().error().describe();
    const std::vector<float> full = partials(whole, a).at(0);
    const auto parts = partials(split, a);
    const std::vector<float> reference = sumInHostOrder(parts);
    ASSERT_EQ(reference.size(), full.size());
    EXPECT_GE(ncc(reference, full), 0.99999);
    for (unsigned seed : {1u, 2u, 3u}) {
        const std::vector<float> distributed = distributedSum(split, parts, seed);
        ASSERT_EQ(distributed.size(), reference.size());
        EXPECT_EQ(0, std::memcmp(distributed.data(), reference.data(), reference.size() * sizeof(float))) << "arrival order " << seed;
    }
    // The same partials computed again (as another run would) are the same bits.
    EXPECT_EQ(parts, partials(split, a));
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
    const char* windows[] = {"Rectangular", "Hann", "Tukey"};
    return std::string(info.param.kind == PartialKind::Iq ? "Iq" : "Rf") + windows[static_cast<int>(info.param.window)] +
           (info.param.photoacoustic ? "Photoacoustic" : "Compounded");
}

INSTANTIATE_TEST_SUITE_P(EachKindAndWindow, DecompositionTest,
                         testing::Values(Case{PartialKind::Rf, beamform::Window::Rectangular, false}, Case{PartialKind::Rf, beamform::Window::Hann, false},
                                         Case{PartialKind::Rf, beamform::Window::Tukey, false}, Case{PartialKind::Iq, beamform::Window::Rectangular, false},
                                         Case{PartialKind::Iq, beamform::Window::Hann, false}, Case{PartialKind::Iq, beamform::Window::Tukey, false},
                                         Case{PartialKind::Rf, beamform::Window::Hann, true}, Case{PartialKind::Iq, beamform::Window::Hann, true}),
                         caseName);

TEST(DecompositionTest, TheEnvelopeComesAfterTheFullSum) {
    const Acquisition a = acquire(false);
    const ClusterPlan split = planFor(a, PartialKind::Rf, beamform::Window::Hann, kHosts);
    const auto parts = partials(split, a);
    const beamform::BeamformedImage image = envelopeOfSum(split, sumInHostOrder(parts));
    // The sum of the hosts' envelopes is not the envelope of the sum: a host's envelope carries
    // no phase, so the hosts' echoes would not cancel where they should.
    std::vector<float> sumOfEnvelopes(image.columns.size(), 0.0f);
    for (const auto& p : parts) {
        const beamform::BeamformedImage e = envelopeOfSum(split, p);
        for (std::size_t i = 0; i < e.columns.size(); ++i) sumOfEnvelopes[i] += e.columns[i];
    }
    EXPECT_LT(ncc(image.columns, sumOfEnvelopes), 0.999);
    EXPECT_EQ(image.nx, split.grid.x.size());
    EXPECT_EQ(image.nz, split.grid.z.size());
}

}  // namespace
}  // namespace sonolink::cluster
