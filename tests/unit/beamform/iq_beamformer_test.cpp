// The IQ option against the RF path on the analytic phantom: demodulated and beamformed with
// phase rotation, a target lands where it is, with the RF envelope's width and shape; without
// the phase rotation the coherent sum falls apart; bad parameters are named.
#include "sonolink/beamform/iq_beamformer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include "beamform_phantom.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::beamform {
namespace {

using namespace phantom;

struct IqScene {
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

// The largest difference between `got` and `want` over the largest magnitude in `want`
// (infinite where `want` is all zero, so that an empty comparison fails).
template <typename V> float worstOverPeak(const std::vector<V>& got, const std::vector<V>& want) {
    if (got.size() != want.size()) return std::numeric_limits<float>::infinity();
    float peak = 0, worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        peak = std::max(peak, static_cast<float>(std::abs(want[i])));
        worst = std::max(worst, static_cast<float>(std::abs(got[i] - want[i])));
    }
    return peak > 0 ? worst / peak : std::numeric_limits<float>::infinity();
}

TEST(IqBeamformerTest, MatchesTheRfEnvelope) {
    IqScene scene;
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
    IqScene scene;
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

// The vector loops (the pair tables and the polynomial rotation and window) against the
// reference (exact rotation and window per pixel), on the baseband at the RF's rate and decimated
// as the band allows, plane and diverging waves, rectangular, Hann and Tukey: the envelope within
// 1e-4 of the peak.
TEST(IqBeamformerTest, VectorLoopsAgreeWithTheReference) {
    const std::vector<Scatterer> targets{{-3e-3, 12e-3, 1}, {2e-3, 20e-3, 0.7}, {5e-3, 8e-3, 0.5}};
    const auto plane = simulate(targets, {-8, 0, 8}, 1400, 2e-6);
    const auto diverging = simulate(targets, {-8, 0, 8}, 1400, 2e-6, {-15e-3, -15e-3, -15e-3});
    const int decimation = iqDecimation(kFs, kFc);
    EXPECT_GT(decimation, 1) << "the phantom's band allows decimation";
    for (const auto* phantom : {&plane, &diverging}) {
        for (const int d : {1, decimation}) {
            auto iq = demodulateToIq(phantom->view(), kFc, d);
            ASSERT_TRUE(iq) << iq.error().describe();
            EXPECT_EQ(iq->geometry.samples, (1400 + d - 1) / d);
            for (const auto window : {Window::Rectangular, Window::Hann, Window::Tukey}) {
                BeamformParams params;
                params.window = window;
                for (std::size_t depths : {203u, 1021u}) {
                    const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 33, 3e-3, 30e-3, depths);
                    auto reference = delayAndSumIq(iq->geometry, iq->samples, kFc, grid, params, 1, true, VectorLoop::Scalar);
                    ASSERT_TRUE(reference);
                    const auto ref = reference->magnitude();
                    for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
                        auto fast = delayAndSumIq(iq->geometry, iq->samples, kFc, grid, params, 2, true, loop);
                        ASSERT_TRUE(fast);
                        const auto got = fast->magnitude();
                        EXPECT_LT(worstOverPeak(got.columns, ref.columns), 1e-4f)
                            << (phantom == &plane ? "plane" : "diverging") << ", decimation " << d << ", window " << static_cast<int>(window) << ", " << depths
                            << " depths, loop " << static_cast<int>(loop);
                    }
                }
            }
        }
    }
}

// The residual rotation's polynomials are fitted per frame to the phase per IQ sample w: a sine of
// degree 5 up to w = 2.6, of degree 7 past it. Both sides of that line, and w = 3.0 near its end
// (pi), agree with the reference within 1e-4 of the peak.
TEST(IqBeamformerTest, TheFittedRotationHoldsForEveryPhasePerSample) {
    const auto plane = simulate({{-3e-3, 12e-3, 1}, {2e-3, 20e-3, 0.7}}, {-8, 8}, 1400, 2e-6);
    const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 33, 3e-3, 30e-3, 301);
    for (const double w : {2.5, 2.7, 3.0}) {
        const double fd = w * kFs / 3 / (2 * std::numbers::pi);  // decimation 3
        auto iq = demodulateToIq(plane.view(), fd, 3);
        ASSERT_TRUE(iq);
        for (const auto window : {Window::Rectangular, Window::Hann}) {
            BeamformParams params;
            params.window = window;
            const auto reference = delayAndSumIq(iq->geometry, iq->samples, fd, grid, params, 1, true, VectorLoop::Scalar)->magnitude();
            for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
                const auto fast = delayAndSumIq(iq->geometry, iq->samples, fd, grid, params, 2, true, loop)->magnitude();
                EXPECT_LT(worstOverPeak(fast.columns, reference.columns), 1e-4f)
                    << "w " << w << ", window " << static_cast<int>(window) << ", loop " << static_cast<int>(loop);
            }
        }
    }
}

// Demodulation eight outputs at a time (the filter split into the decimation's phases) against
// one output at a time, float and int16 samples, decimations on both sides of the split's two
// ways and a trace length that leaves a partial last vector: within 1e-5 of the largest output.
TEST(IqBeamformerTest, VectorDemodulationAgreesWithTheReference) {
    const auto plane = simulate({{-3e-3, 12e-3, 1}, {2e-3, 20e-3, 0.7}}, {-8, 8}, 1403, 2e-6);
    std::vector<std::int16_t> adc;
    for (float s : plane.samples) adc.push_back(static_cast<std::int16_t>(std::lround(std::clamp(s * 2000.0f, -32768.0f, 32767.0f))));
    const ChannelDataView view32 = plane.view(), view16{&plane.geometry, {}, adc};
    for (const auto* view : {&view32, &view16}) {
        for (const int d : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13}) {  // up to 8 the phases by transposition, past it by gathers
            auto reference = demodulateToIq(*view, kFc, d, VectorLoop::Scalar);
            auto fast = demodulateToIq(*view, kFc, d, VectorLoop::Best);
            ASSERT_TRUE(reference && fast);
            EXPECT_LT(worstOverPeak(fast->samples, reference->samples), 1e-5f) << "decimation " << d << (view == &view16 ? ", int16" : ", float");
        }
    }
}

// Decimated as the band allows, the image is the one at the RF's rate (the filter already took
// out everything above f_d): within 2 % of the peak.
TEST(IqBeamformerTest, DecimationKeepsTheImage) {
    IqScene scene;
    auto full = demodulateToIq(scene.phantom.view(), kFc, 1);
    auto decimated = demodulateToIq(scene.phantom.view(), kFc, iqDecimation(kFs, kFc));
    ASSERT_TRUE(full && decimated);
    EXPECT_DOUBLE_EQ(decimated->geometry.samplingRateHz, kFs / iqDecimation(kFs, kFc));
    const auto a = normalised(delayAndSumIq(full->geometry, full->samples, kFc, scene.grid, {})->magnitude());
    const auto b = normalised(delayAndSumIq(decimated->geometry, decimated->samples, kFc, scene.grid, {})->magnitude());
    double worst = 0;
    for (std::size_t i = 0; i < a.columns.size(); ++i) worst = std::max(worst, double(std::abs(a.columns[i] - b.columns[i])));
    EXPECT_LT(worst, 0.02);
    EXPECT_EQ(peakIndex(a), peakIndex(b));
}

// From RF straight to the image (each trace's filter outputs turned into the beamformer's table) is the same
// image as demodulating a frame and beamforming it: every loop, float and int16 samples, at the
// RF's rate and decimated, within 1e-6 of the peak; and its bad arguments are named the same way.
TEST(IqBeamformerTest, FromRfItIsDemodulationThenBeamforming) {
    IqScene scene;
    std::vector<std::int16_t> adc;
    for (float s : scene.phantom.samples) adc.push_back(static_cast<std::int16_t>(std::lround(std::clamp(s * 2000.0f, -32768.0f, 32767.0f))));
    const ChannelDataView view32 = scene.phantom.view(), view16{&scene.phantom.geometry, {}, adc};
    BeamformParams params;
    params.window = Window::Hann;
    for (const auto* view : {&view32, &view16}) {
        for (const int d : {1, iqDecimation(kFs, kFc)}) {
            for (auto loop : {VectorLoop::Scalar, VectorLoop::Avx2, VectorLoop::Best}) {
                auto iq = demodulateToIq(*view, kFc, d, loop);
                ASSERT_TRUE(iq);
                auto twoSteps = delayAndSumIq(iq->geometry, iq->samples, kFc, scene.grid, params, 2, true, loop);
                auto direct = delayAndSumIq(*view, kFc, d, scene.grid, params, 2, loop);
                ASSERT_TRUE(twoSteps && direct) << direct.error().describe();
                EXPECT_LE(worstOverPeak(direct->columns, twoSteps->columns), 1e-6f)
                    << "decimation " << d << ", loop " << static_cast<int>(loop) << (view == &view16 ? ", int16" : ", float");
            }
        }
    }
    auto bad = delayAndSumIq(view32, 25e6, 1, scene.grid, params);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message().find("modulation frequency 25000000 Hz"), std::string::npos) << bad.error().message();
}

// The workers share a frame's channels out (channels g, g + G, ... to worker g) and add their
// parts: the image is the one thread's, up to the order of the sums, whether G divides the
// channels or not. (F# 0.5: every channel, the array's edges too, adds to the point's pixels.)
TEST(IqBeamformerTest, TheImageIsTheSameWhateverTheThreadCount) {
    IqScene scene;
    BeamformParams params;
    params.window = Window::Tukey;
    params.fNumber = 0.5;
    for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
        auto one = delayAndSumIq(scene.phantom.view(), kFc, iqDecimation(kFs, kFc), scene.grid, params, 1, loop);
        ASSERT_TRUE(one);
        for (const unsigned threads : {2u, 3u, 5u}) {
            auto shared = delayAndSumIq(scene.phantom.view(), kFc, iqDecimation(kFs, kFc), scene.grid, params, threads, loop);
            ASSERT_TRUE(shared);
            EXPECT_LE(worstOverPeak(shared->columns, one->columns), 1e-5f) << threads << " threads, loop " << static_cast<int>(loop);
        }
    }
}

TEST(IqBeamformerTest, BadParametersAreNamed) {
    IqScene scene;
    auto demodulated = demodulateToIq(scene.phantom.view(), 25e6);
    ASSERT_FALSE(demodulated);
    EXPECT_NE(demodulated.error().message().find("modulation frequency 25000000 Hz"), std::string::npos) << demodulated.error().message();
    auto image = delayAndSumIq(scene.phantom.geometry, std::span(scene.iq).first(10), kFc, scene.grid, {});
    ASSERT_FALSE(image);
    EXPECT_NE(image.error().message().find("10 IQ samples for 3 waves x 128 channels x 1500 samples"), std::string::npos) << image.error().message();
}

}  // namespace
}  // namespace sonolink::beamform
