// The element check on the simulator's own phantom (RfScene: speckle, point targets, a cyst,
// thermal noise of its own in every frame): a clean probe flags nothing; each fault the
// simulator can give a channel (dead, weak, noisy, swapped) is found, on that channel and no
// other, and a channel that fits nowhere is uncorrelated.
#include <gtest/gtest.h>

#include "sonolink/selftest/element_check.h"
#include "sonolink/transport/sim/channel_faults.h"
#include "sonolink/transport/sim/rf_scene.h"

namespace sonolink::selftest {
namespace {

using transport::sim::ChannelFaults;

constexpr int kChannels = 64, kSamples = 1024, kFrames = 4;

// kFrames frames of one plane wave, each with noise of its own, the faults applied.
std::vector<std::int16_t> phantomFrames(const ChannelFaults& faults) {
    const transport::sim::RfScene scene(transport::sim::SceneSpec::standardPhantom(kChannels, 0.3e-3, 5e6, 40e6, kSamples, 1540));
    std::vector<std::int16_t> out(static_cast<std::size_t>(kFrames) * kChannels * kSamples);
    for (int f = 0; f < kFrames; ++f) {
        auto frame = std::span(out).subspan(static_cast<std::size_t>(f) * kChannels * kSamples, static_cast<std::size_t>(kChannels) * kSamples);
        scene.renderPlaneWave(0, 100 + f, frame);
        transport::sim::applyChannelFaults(faults, frame, kChannels, kSamples, scene.spec().noiseRms, 100 + f);
    }
    return out;
}

ElementCheck check(const std::vector<std::int16_t>& data, int frames = kFrames) {
    auto r = checkElements({frames, 1, kChannels, kSamples, std::span(data).first(static_cast<std::size_t>(frames) * kChannels * kSamples), 8.0}, {});
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : ElementCheck{};
}

TEST(ElementCheckTest, ACleanProbeFlagsNothing) {
    const auto r = check(phantomFrames({}));
    EXPECT_TRUE(r.flagged().empty()) << "first flagged: " << (r.flagged().empty() ? -1 : r.flagged()[0]);
    EXPECT_TRUE(r.snrMeasured);
    EXPECT_GT(r.medianSnrDb, 20);
    EXPECT_GT(r.medianCorrelation, 0.6);
    EXPECT_GT(r.medianRms, 50);
}

TEST(ElementCheckTest, EachFaultIsFoundOnItsChannelAndNoOther) {
    ChannelFaults faults;
    faults.dead = {5};
    faults.weak = {12};
    faults.noisy = {30};
    faults.swapped = {{20, 50}};
    const auto r = check(phantomFrames(faults));
    EXPECT_EQ(r.flagged(), (std::vector<int>{5, 12, 20, 30, 50}));
    EXPECT_EQ(r.channels[5].fault, ElementFault::Dead);
    EXPECT_LT(r.channels[5].rms, 0.05 * r.medianRms);
    EXPECT_EQ(r.channels[12].fault, ElementFault::Weak);
    EXPECT_NEAR(r.channels[12].rms / r.medianRms, 0.25, 0.15);
    EXPECT_EQ(r.channels[30].fault, ElementFault::Noisy);
    EXPECT_LT(r.channels[30].snrDb, r.medianSnrDb - 10);
    EXPECT_EQ(r.channels[20].fault, ElementFault::Swapped);
    EXPECT_EQ(r.channels[20].swappedWith, 50);
    EXPECT_EQ(r.channels[50].fault, ElementFault::Swapped);
    EXPECT_EQ(r.channels[50].swappedWith, 20);
}

TEST(ElementCheckTest, AChannelThatFitsNowhereIsUncorrelated) {
    auto data = phantomFrames({});
    const transport::sim::RfScene elsewhere([] {  // another scene altogether on channel 40
        auto spec = transport::sim::SceneSpec::standardPhantom(kChannels, 0.3e-3, 5e6, 40e6, kSamples, 1540);
        spec.seed = 99;
        return spec;
    }());
    std::vector<std::int16_t> frame(static_cast<std::size_t>(kChannels) * kSamples);
    for (int f = 0; f < kFrames; ++f) {
        elsewhere.renderPlaneWave(0.2, 7 + f, frame);
        std::copy_n(frame.begin() + 40 * kSamples, kSamples, data.begin() + (static_cast<std::ptrdiff_t>(f) * kChannels + 40) * kSamples);
    }
    const auto r = check(data);
    EXPECT_EQ(r.flagged(), (std::vector<int>{40}));
    EXPECT_EQ(r.channels[40].fault, ElementFault::Uncorrelated);
}

TEST(ElementCheckTest, IdenticalFramesLeaveTheSnrUnmeasuredAndTheRestChecked) {
    ChannelFaults faults;
    faults.dead = {3};
    auto data = phantomFrames(faults);
    std::copy_n(data.begin(), static_cast<std::size_t>(kChannels) * kSamples, data.begin() + kChannels * kSamples);  // frame 1 = frame 0
    const auto r = check(data, 2);
    EXPECT_FALSE(r.snrMeasured);
    EXPECT_EQ(r.flagged(), (std::vector<int>{3}));
}

TEST(ElementCheckTest, AShapeThatDoesNotMatchTheDataIsRefused) {
    const std::vector<std::int16_t> data(100);
    const auto r = checkElements({1, 1, 4, 50, data}, {});
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message().find("100 samples for 1 frames x 1 waves x 4 channels x 50"), std::string::npos) << r.error().message();
    EXPECT_FALSE(checkElements({1, 1, 2, 50, data}, {}));
}

}  // namespace
}  // namespace sonolink::selftest
