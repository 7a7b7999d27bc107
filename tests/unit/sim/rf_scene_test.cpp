#include "sonolink/transport/sim/rf_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::transport::sim {
namespace {

SceneSpec onePoint(double x, double z) {
    SceneSpec spec;
    spec.elementCount = 64;
    spec.samplesPerChannel = 2048;
    spec.speckleScatterers = 0;
    spec.noiseRms = 0;
    spec.points = {{x, z, 50}};
    return spec;
}

// Index of the largest |sample| of one channel.
int peakSample(const std::vector<std::int16_t>& rf, int channel, int samples) {
    const auto* row = rf.data() + static_cast<std::size_t>(channel) * static_cast<std::size_t>(samples);
    return static_cast<int>(std::max_element(row, row + samples, [](auto a, auto b) { return std::abs(a) < std::abs(b); }) - row);
}

TEST(RfSceneTest, EchoArrivesAtTheUstbDelay) {
    const double x = 3e-3, z = 20e-3, angle = 10 * std::numbers::pi / 180;
    const RfScene scene(onePoint(x, z));
    const auto& s = scene.spec();
    std::vector<std::int16_t> rf(64 * 2048);
    scene.renderPlaneWave(angle, 1, rf);
    for (int e : {0, 20, 63}) {
        const double tau = (x * std::sin(angle) + z * std::cos(angle)) / s.soundSpeedMps + std::hypot(x - scene.elementX(e), z) / s.soundSpeedMps;
        EXPECT_NEAR(peakSample(rf, e, 2048), tau * s.samplingRateHz, 1.0) << "element " << e;
    }
}

TEST(RfSceneTest, ElementOrderRunsFromNegativeX) {
    const RfScene scene(onePoint(-8e-3, 15e-3));
    std::vector<std::int16_t> rf(64 * 2048);
    scene.renderPlaneWave(0, 1, rf);
    // The target is on the negative-x side: element 0 (most negative x) hears it first.
    EXPECT_LT(scene.elementX(0), 0);
    EXPECT_LT(peakSample(rf, 0, 2048), peakSample(rf, 63, 2048));
}

TEST(RfSceneTest, PhotoacousticIsOneWay) {
    const double z = 20e-3;
    const RfScene scene(onePoint(0, z));
    std::vector<std::int16_t> rf(64 * 2048);
    scene.renderPhotoacoustic(1, rf);
    const double tau = std::hypot(scene.elementX(32), z) / scene.spec().soundSpeedMps;
    // A bipolar pulse: its centre lies midway between its positive and negative peaks.
    const auto* row = rf.data() + 32 * 2048;
    const auto high = std::max_element(row, row + 2048) - row;
    const auto low = std::min_element(row, row + 2048) - row;
    EXPECT_NEAR((high + low) / 2.0, tau * scene.spec().samplingRateHz, 1.0);
    EXPECT_GT(std::abs(high - low), 2);
}

TEST(RfSceneTest, SeveralBuffersAtOnceEachEqualThatSeedRenderedAlone) {
    auto spec = SceneSpec::standardPhantom(32, 0.3e-3, 5e6, 40e6, 512, 1540);
    const RfScene scene(spec);
    std::vector<std::int16_t> alone3(32 * 512), alone9(32 * 512), both3(32 * 512), both9(32 * 512);
    scene.renderPlaneWave(0.1, 3, alone3);
    scene.renderPlaneWave(0.1, 9, alone9);
    const std::uint64_t seeds[] = {3, 9};
    const std::span<std::int16_t> outs[] = {both3, both9};
    scene.renderPlaneWaves(0.1, seeds, outs);
    EXPECT_EQ(both3, alone3);
    EXPECT_EQ(both9, alone9);
    EXPECT_NE(both3, both9);
}

TEST(RfSceneTest, NoiseVariesWithTheSeedOnly) {
    auto spec = onePoint(0, 10e-3);
    spec.noiseRms = 10;
    const RfScene scene(spec);
    std::vector<std::int16_t> a(64 * 2048), b(64 * 2048), c(64 * 2048);
    scene.renderPlaneWave(0, 7, a);
    scene.renderPlaneWave(0, 7, b);
    scene.renderPlaneWave(0, 8, c);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(RfSceneTest, StandardPhantomKeepsTargetsInsideTheImage) {
    const auto spec = SceneSpec::standardPhantom(128, 0.3e-3, 5e6, 40e6, 2048, 1540);
    const double maxDepth = 1540.0 * 2048 / 40e6 / 2;
    ASSERT_EQ(spec.points.size(), 6u);
    for (const auto& p : spec.points) {
        EXPECT_GT(p.zM, 0);
        EXPECT_LT(p.zM, maxDepth);
        EXPECT_LE(std::abs(p.xM), 128 * 0.3e-3 / 2);
    }
    ASSERT_EQ(spec.cysts.size(), 1u);
    EXPECT_LT(spec.cysts[0].zM + spec.cysts[0].radiusM, maxDepth);
}

}  // namespace
}  // namespace sonolink::transport::sim
