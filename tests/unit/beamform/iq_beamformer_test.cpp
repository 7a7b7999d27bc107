// The IQ option against the RF path on the analytic phantom: demodulated and beamformed with
// phase rotation, a target lands where it is, with the RF envelope's width and shape; without
// the phase rotation the coherent sum falls apart; bad parameters are named.
#include "sonolink/beamform/iq_beamformer.h"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "beamform_phantom.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::beamform {
namespace {

using namespace phantom;

struct Scene {
    Phantom phantom = simulate({{3e-3, 18e-3, 1}}, {-6, 0, 6}, 1500, 2e-6);
    PixelGrid grid = PixelGrid::fromRanges(1e-3, 5e-3, 81, 17e-3, 19e-3, 201);
    std::vector<std::complex<float>> iq = *demodulateToIq(phantom.view(), kFc);
};

BeamformedImage normalised(BeamformedImage image) {
    const float peak = *std::max_element(image.columns.begin(), image.columns.end());
    for (auto& v : image.columns) v /= peak;
    return image;
}

std::pair<std::size_t, std::size_t> peakIndex(const BeamformedImage& image) {
    const auto i = static_cast<std::size_t>(std::max_element(image.columns.begin(), image.columns.end()) - image.columns.begin());
    return {i / image.nz, i % image.nz};
}

TEST(IqBeamformerTest, MatchesTheRfEnvelope) {
    Scene scene;
    auto iq = delayAndSumIq(scene.phantom.geometry, scene.iq, kFc, scene.grid, {});
    ASSERT_TRUE(iq) << iq.error().describe();
    auto rf = delayAndSum(scene.phantom.view(), scene.grid, {});
    ASSERT_TRUE(rf);
    envelopeAlongDepth(*rf);
    const auto a = normalised(iq->magnitude()), b = normalised(*rf);
    const auto [ix, iz] = peakIndex(a);
    EXPECT_NEAR(scene.grid.x[ix], 3e-3, kLambda / 4);
    EXPECT_NEAR(scene.grid.z[iz], 18e-3, kC / kFs);
    EXPECT_EQ(peakIndex(b), peakIndex(a)) << "IQ and RF peaks at different pixels";
    double worst = 0;
    for (std::size_t i = 0; i < a.columns.size(); ++i) worst = std::max(worst, double(std::abs(a.columns[i] - b.columns[i])));
    RecordProperty("largest_difference_to_rf_envelope", std::to_string(worst));
    EXPECT_LT(worst, 0.05) << "normalised IQ and RF envelopes differ";
}

TEST(IqBeamformerTest, PhaseRotationMatters) {
    Scene scene;
    auto rotated = delayAndSumIq(scene.phantom.geometry, scene.iq, kFc, scene.grid, {}, 0, true);
    auto plain = delayAndSumIq(scene.phantom.geometry, scene.iq, kFc, scene.grid, {}, 0, false);
    ASSERT_TRUE(rotated && plain);
    const auto peak = [](const IqImage& image) {
        float best = 0;
        for (const auto& v : image.columns) best = std::max(best, std::abs(v));
        return best;
    };
    EXPECT_LT(peak(*plain), 0.5f * peak(*rotated));
}

TEST(IqBeamformerTest, BadParametersAreNamed) {
    Scene scene;
    auto demodulated = demodulateToIq(scene.phantom.view(), 25e6);
    ASSERT_FALSE(demodulated);
    EXPECT_NE(demodulated.error().message().find("modulation frequency 25000000 Hz"), std::string::npos) << demodulated.error().message();
    auto image = delayAndSumIq(scene.phantom.geometry, std::span(scene.iq).first(10), kFc, scene.grid, {});
    ASSERT_FALSE(image);
    EXPECT_NE(image.error().message().find("10 IQ samples for 3 waves x 128 channels x 1500 samples"), std::string::npos) << image.error().message();
}

}  // namespace
}  // namespace sonolink::beamform
