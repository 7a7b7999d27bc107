// Validation of the CPU reference beamformer on analytic phantoms generated here, in USTB's
// conventions: point-spread function widths against theory, a cyst's contrast, scenes that
// expose a reversed element order or a one-sample time-zero error, and photoacoustic shots.
#include "sonolink/beamform/cpu_beamformer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "beamform_phantom.h"

namespace sonolink::beamform {
namespace {

using namespace phantom;

BeamformedImage envelope(const ChannelDataView& view, const PixelGrid& grid, BeamformParams params = {}) {
    auto image = delayAndSum(view, grid, params);
    EXPECT_TRUE(image) << image.error().describe();
    envelopeAlongDepth(*image);
    return std::move(*image);
}

// Full width at half maximum of a sampled profile around its peak (linear interpolation).
double fwhm(const std::vector<double>& positions, const std::vector<double>& values) {
    const auto peak = static_cast<std::size_t>(std::max_element(values.begin(), values.end()) - values.begin());
    const double half = values[peak] / 2;
    auto crossing = [&](int direction) {
        for (std::size_t i = peak; i > 0 && i + 1 < values.size(); i = direction > 0 ? i + 1 : i - 1) {
            const std::size_t j = direction > 0 ? i + 1 : i - 1;
            if (values[j] < half) return positions[i] + (positions[j] - positions[i]) * (values[i] - half) / (values[i] - values[j]);
        }
        return positions[peak];
    };
    return std::abs(crossing(+1) - crossing(-1));
}

// The largest difference between an image and a reference, as a fraction of the reference's
// peak (infinite for a reference with no signal, so that no comparison with it passes).
float worstOfPeak(const BeamformedImage& reference, const BeamformedImage& image) {
    float peak = 0, worst = 0;
    for (std::size_t i = 0; i < reference.columns.size(); ++i) {
        peak = std::max(peak, std::abs(reference.columns[i]));
        worst = std::max(worst, std::abs(image.columns[i] - reference.columns[i]));
    }
    return peak > 0 ? worst / peak : std::numeric_limits<float>::infinity();
}

// The peak of the image: (x, z) refined with a parabola through its neighbours in each direction.
std::pair<double, double> peakPosition(const BeamformedImage& image, const PixelGrid& grid) {
    const auto it = std::max_element(image.columns.begin(), image.columns.end());
    const auto index = static_cast<std::size_t>(it - image.columns.begin());
    const auto ix = index / image.nz, iz = index % image.nz;
    auto refine = [](double left, double mid, double right) { return 0.5 * (left - right) / (left - 2 * mid + right); };
    const double dz = iz > 0 && iz + 1 < image.nz ? refine(image.at(ix, iz - 1), image.at(ix, iz), image.at(ix, iz + 1)) : 0;
    const double dx = ix > 0 && ix + 1 < image.nx ? refine(image.at(ix - 1, iz), image.at(ix, iz), image.at(ix + 1, iz)) : 0;
    return {grid.x[ix] + dx * (grid.x[1] - grid.x[0]), grid.z[iz] + dz * (grid.z[1] - grid.z[0])};
}

TEST(CpuBeamformerTest, LateralResolutionMatchesTheory) {
    const double fNumber = 2.0, z = 20e-3;
    auto phantom = simulate({{0, z, 1}}, {0}, 1400, 0);
    const auto grid = PixelGrid::fromRanges(-2e-3, 2e-3, 201, z - 1e-3, z + 1e-3, 161);
    BeamformParams params;
    params.fNumber = fNumber;
    const auto image = envelope(phantom.view(), grid, params);
    const auto peak = static_cast<std::size_t>(std::max_element(image.columns.begin(), image.columns.end()) - image.columns.begin()) % image.nz;
    std::vector<double> lateral;
    for (std::size_t ix = 0; ix < image.nx; ++ix) lateral.push_back(image.at(ix, peak));
    const double theory = 1.207 * kLambda * fNumber;  // -6 dB width of the aperture's sinc
    const double measured = fwhm(grid.x, lateral);
    RecordProperty("lateral_fwhm_um", std::to_string(measured * 1e6) + " vs " + std::to_string(theory * 1e6));
    EXPECT_NEAR(measured, theory, 0.1 * theory);
}

TEST(CpuBeamformerTest, AxialResolutionMatchesThePulse) {
    const double z = 15e-3;
    auto phantom = simulate({{0, z, 1}}, {0}, 1200, 0);
    const auto grid = PixelGrid::fromRanges(-0.2e-3, 0.2e-3, 5, z - 1e-3, z + 1e-3, 401);
    const auto image = envelope(phantom.view(), grid);
    std::vector<double> axial;
    for (std::size_t iz = 0; iz < image.nz; ++iz) axial.push_back(image.at(2, iz));
    const double pulse = 2 * std::sqrt(2 * std::log(2.0)) * kSigmaT * kC / 2;  // envelope FWHM, two-way
    const double measured = fwhm(grid.z, axial);
    RecordProperty("axial_fwhm_um", std::to_string(measured * 1e6) + " vs " + std::to_string(pulse * 1e6));
    EXPECT_NEAR(measured, pulse, 0.1 * pulse);
}

TEST(CpuBeamformerTest, CystIsDark) {
    std::mt19937 random(5);
    std::uniform_real_distribution<double> x(-8e-3, 8e-3), z(10e-3, 30e-3);
    std::normal_distribution<double> amplitude(0, 1);
    std::vector<Scatterer> speckle;
    while (speckle.size() < 3000) {
        const Scatterer s{x(random), z(random), amplitude(random)};
        if (std::hypot(s.x, s.z - 20e-3) > 3e-3) speckle.push_back(s);
    }
    auto phantom = simulate(speckle, {-8, 0, 8}, 1800, 0);
    const auto grid = PixelGrid::fromRanges(-6e-3, 6e-3, 97, 12e-3, 28e-3, 321);
    BeamformParams params;
    params.window = Window::Hann;
    const auto image = envelope(phantom.view(), grid, params);
    double inside = 0, outside = 0;
    int nIn = 0, nOut = 0;
    for (std::size_t ix = 0; ix < image.nx; ++ix) {
        for (std::size_t iz = 0; iz < image.nz; ++iz) {
            const double r = std::hypot(grid.x[ix], grid.z[iz] - 20e-3);
            if (r < 2e-3) inside += image.at(ix, iz), ++nIn;
            else if (r > 4e-3) outside += image.at(ix, iz), ++nOut;
        }
    }
    const double contrastDb = 20 * std::log10((inside / nIn) / (outside / nOut));
    RecordProperty("cyst_contrast_db", std::to_string(contrastDb));
    EXPECT_LT(contrastDb, -15) << "cyst contrast " << contrastDb << " dB";
}

// An asymmetric scene, three steering angles and a non-zero initial time: targets come out
// where they are only when every convention is right.
struct Scene {
    std::vector<Scatterer> targets{{4e-3, 16e-3, 1}};
    Phantom phantom = simulate(targets, {-10, 0, 10}, 1400, 3e-6);
    PixelGrid grid = PixelGrid::fromRanges(2e-3, 6e-3, 81, 15e-3, 17e-3, 257);
};

TEST(CpuBeamformerTest, TargetsLandWhereTheyAre) {
    Scene scene;
    const auto [x, z] = peakPosition(envelope(scene.phantom.view(), scene.grid), scene.grid);
    RecordProperty("position_error_um", std::to_string((x - 4e-3) * 1e6) + ", " + std::to_string((z - 16e-3) * 1e6));
    EXPECT_NEAR(x, 4e-3, kLambda / 6);
    EXPECT_NEAR(z, 16e-3, 0.4 * kC / (2 * kFs));  // within 0.4 of one sample's depth (19 um)
}

// Focused and diverging transmits (USTB source distance > 0 and < 0), steered, with an initial
// time: the target lands where it is; beamformed as if they were plane waves, it does not.
TEST(CpuBeamformerTest, FocusedAndDivergingWavesPutTheTargetWhereItIs) {
    const std::vector<Scatterer> target{{4e-3, 16e-3, 1}};
    const auto grid = PixelGrid::fromRanges(2e-3, 6e-3, 81, 15e-3, 17e-3, 257);
    for (const double distance : {20e-3, 12e-3, -15e-3}) {
        auto phantom = simulate(target, {-8, 0, 8}, 1400, 2e-6, {distance, distance, distance});
        const auto [x, z] = peakPosition(envelope(phantom.view(), grid), grid);
        EXPECT_NEAR(x, 4e-3, kLambda / 6) << "source distance " << distance;
        EXPECT_NEAR(z, 16e-3, 0.4 * kC / (2 * kFs)) << "source distance " << distance;
        auto asPlaneWaves = phantom.geometry;
        asPlaneWaves.sourceDistance = {};
        const auto [xp, zp] = peakPosition(envelope(phantom.with(asPlaneWaves), grid), grid);
        EXPECT_GT(std::hypot(xp - 4e-3, zp - 16e-3), kC / (2 * kFs)) << "the transmit model must matter (" << distance << ")";
    }
}

// A laser shot: each absorber is where it is only when no transmit path is counted (read as a
// 0-degree plane wave, the old error, it lands at about half its depth); every vector loop gives
// the reference's sum, rectangular and windowed, float and int16.
TEST(CpuBeamformerTest, PhotoacousticShotsPutTheAbsorberWhereItIs) {
    const std::vector<Scatterer> absorber{{3e-3, 18e-3, 1}};
    auto shot = simulate(absorber, {0}, 1100, 1e-6, {}, true);
    const auto grid = PixelGrid::fromRanges(1e-3, 5e-3, 81, 6e-3, 22e-3, 641);
    const auto [x, z] = peakPosition(envelope(shot.view(), grid), grid);
    EXPECT_NEAR(x, 3e-3, kLambda / 6);
    EXPECT_NEAR(z, 18e-3, 0.4 * kC / kFs);  // one way: a sample is c / fs of depth
    auto asPlaneWave = shot.geometry;
    asPlaneWave.photoacoustic = {};
    const auto [xp, zp] = peakPosition(envelope(shot.with(asPlaneWave), grid), grid);
    EXPECT_NEAR(zp, 9e-3, 1e-3) << "read as a plane wave, the transmit path halves the depth";
    std::vector<std::int16_t> adc(shot.samples.size());
    for (std::size_t i = 0; i < adc.size(); ++i) adc[i] = static_cast<std::int16_t>(std::lround(shot.samples[i] * 8000));
    auto shot16 = shot.view();
    shot16.samples = {};
    shot16.samples16 = adc;
    for (const auto window : {Window::Rectangular, Window::Hann}) {
        BeamformParams params;
        params.window = window;
        for (const auto& view : {shot.view(), shot16}) {
            auto reference = delayAndSum(view, grid, params, 1, VectorLoop::Scalar);
            ASSERT_TRUE(reference) << reference.error().describe();
            for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
                auto fast = delayAndSum(view, grid, params, 2, loop);
                ASSERT_TRUE(fast);
                EXPECT_LT(worstOfPeak(*reference, *fast), 1e-4f) << "window " << static_cast<int>(window) << ", loop " << static_cast<int>(loop);
            }
        }
    }
}

TEST(CpuBeamformerTest, PhotoacousticMarksMustMatchTheWaves) {
    auto shot = simulate({{0, 10e-3, 1}}, {0, 0}, 800, 0, {}, true);
    auto oneMark = shot.geometry;
    oneMark.photoacoustic.resize(1);
    auto image = delayAndSum(shot.with(oneMark), PixelGrid::fromRanges(-1e-3, 1e-3, 8, 5e-3, 15e-3, 32), {});
    ASSERT_FALSE(image);
    EXPECT_NE(image.error().message().find("1 photoacoustic marks for 2 waves"), std::string::npos) << image.error().message();
}

TEST(CpuBeamformerTest, SourceDistancesMustMatchTheWaves) {
    auto phantom = simulate({{0, 10e-3, 1}}, {-5, 5}, 800, 0, {20e-3, 20e-3});
    auto oneDistance = phantom.geometry;
    oneDistance.sourceDistance.resize(1);
    auto image = delayAndSum(phantom.with(oneDistance), PixelGrid::fromRanges(-1e-3, 1e-3, 8, 5e-3, 15e-3, 32), {});
    ASSERT_FALSE(image);
    EXPECT_NE(image.error().message().find("1 source distances for 2 waves"), std::string::npos) << image.error().message();
}

TEST(CpuBeamformerTest, CatchesAOneSampleTimeZeroError) {
    Scene scene;
    auto shifted = scene.phantom.geometry;
    shifted.initialTimeS += 1 / kFs;  // believe the record starts one sample later
    const auto [x, z] = peakPosition(envelope(scene.phantom.with(shifted), scene.grid), scene.grid);
    (void)x;
    RecordProperty("shifted_depth_error_um", std::to_string((z - 16e-3) * 1e6));
    EXPECT_GT(std::abs(z - 16e-3), 0.75 * kC / (2 * kFs)) << "a one-sample time-zero error must move the target";
}

TEST(CpuBeamformerTest, CatchesAReversedElementOrder) {
    Scene scene;
    const auto right = envelope(scene.phantom.view(), scene.grid);
    auto flipped = scene.phantom.geometry;
    std::reverse(flipped.elementX.begin(), flipped.elementX.end());
    const auto wrong = envelope(scene.phantom.with(flipped), scene.grid);
    const float rightPeak = *std::max_element(right.columns.begin(), right.columns.end());
    const float wrongPeak = *std::max_element(wrong.columns.begin(), wrong.columns.end());
    RecordProperty("reversed_peak_ratio", std::to_string(wrongPeak / rightPeak));
    EXPECT_LT(wrongPeak, 0.5f * rightPeak) << "a reversed array must defocus the off-axis target";
}

TEST(CpuBeamformerTest, SamplesOutsideTheRecordContributeNothing) {
    auto phantom = simulate({{0, 10e-3, 1}}, {0}, 600, 0);  // the record ends near 12 mm
    const auto grid = PixelGrid::fromRanges(-1e-3, 1e-3, 3, 20e-3, 30e-3, 11);
    auto image = delayAndSum(phantom.view(), grid, {});
    ASSERT_TRUE(image);
    for (float v : image->columns) EXPECT_EQ(v, 0.0f);
}

// Depths that increase as doubles (so the grid is valid) but are one float: the beamformer works
// in float, and its depth lookup must not divide by their zero span. Every loop gives the
// reference's image (each depth the same sum).
TEST(CpuBeamformerTest, DepthsThatAreOneFloatGiveTheReferenceImage) {
    Scene scene;
    PixelGrid grid = PixelGrid::fromRanges(-4e-3, 4e-3, 9, 16e-3, 16e-3 + 1e-12, 12);
    ASSERT_TRUE(grid.validate());
    ASSERT_EQ(static_cast<float>(grid.z.front()), static_cast<float>(grid.z.back()));
    for (auto window : {Window::Rectangular, Window::Tukey}) {
        BeamformParams params;
        params.window = window;
        auto reference = delayAndSum(scene.phantom.view(), grid, params, 1, VectorLoop::Scalar);
        ASSERT_TRUE(reference);
        for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
            auto fast = delayAndSum(scene.phantom.view(), grid, params, 2, loop);
            ASSERT_TRUE(fast);
            EXPECT_LT(worstOfPeak(*reference, *fast), 1e-4f) << "window " << static_cast<int>(window) << ", loop " << static_cast<int>(loop);
        }
    }
}

TEST(CpuBeamformerTest, VectorisedLoopsAgreeWithTheReference) {
    Scene scene;
    // 203 depths (not a multiple of 8): eight depths span ~48 samples, the vector loops gather;
    // 1021: ~10 samples, with AVX-512 a 32-sample window and a permute instead.
    for (std::size_t depths : {203u, 1021u}) {
        const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 33, 3e-3, 30e-3, depths);
        auto reference = delayAndSum(scene.phantom.view(), grid, {}, 1, VectorLoop::Scalar);
        ASSERT_TRUE(reference);
        for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
            auto fast = delayAndSum(scene.phantom.view(), grid, {}, 2, loop);
            ASSERT_TRUE(fast);
            EXPECT_LT(worstOfPeak(*reference, *fast), 1e-4f)
                << depths << " depths, " << (loop == VectorLoop::Avx2 ? "AVX2" : "best");  // FMA vs separate multiply-add
        }
    }
}

// A grid that ends inside the target's echo, so that every channel's last depths (the vector
// loops' last, partial step: 203 is no multiple of 8 or 16) carry signal: skipped or misplaced,
// they would show against the reference far above 1e-4 of the peak.
TEST(CpuBeamformerTest, EveryChannelsLastDepthsAdd) {
    Scene scene;
    std::vector<std::int16_t> adc(scene.phantom.samples.size());
    for (std::size_t i = 0; i < adc.size(); ++i) adc[i] = static_cast<std::int16_t>(std::lround(scene.phantom.samples[i] * 8000));
    auto view16 = scene.phantom.view();
    view16.samples = {};
    view16.samples16 = adc;
    const auto grid = PixelGrid::fromRanges(2e-3, 6e-3, 17, 4e-3, 16.05e-3, 203);  // the target at 16 mm, in the last rows
    for (const auto window : {Window::Rectangular, Window::Hann, Window::Tukey}) {
        BeamformParams params;
        params.window = window;
        for (const auto& [what, data] : {std::pair{"float", scene.phantom.view()}, std::pair{"int16", view16}}) {
            auto reference = delayAndSum(data, grid, params, 1, VectorLoop::Scalar);
            ASSERT_TRUE(reference);
            for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
                for (int frame = 0; frame < 2; ++frame) {  // Best: either vector loop (loop_choice.h)
                    auto fast = delayAndSum(data, grid, params, 2, loop);
                    ASSERT_TRUE(fast);
                    float peak = 0, worst = 0, bottom = 0;
                    for (std::size_t i = 0; i < reference->columns.size(); ++i) {
                        peak = std::max(peak, std::abs(reference->columns[i]));
                        worst = std::max(worst, std::abs(fast->columns[i] - reference->columns[i]));
                        if (i % grid.z.size() + 8 >= grid.z.size()) bottom = std::max(bottom, std::abs(reference->columns[i]));
                    }
                    ASSERT_GT(bottom, 0.1f * peak) << "the last rows must carry the echo";
                    EXPECT_LT(worst / peak, 1e-4f) << "window " << static_cast<int>(window) << ", " << what << ", loop " << static_cast<int>(loop);
                }
            }
        }
    }
}

// Hann and Tukey in the vector loops (the window a polynomial, no transcendental per pixel)
// against the scalar reference (the exact window per pixel), for plane and diverging waves,
// float and int16 samples, gathers and AVX-512 windows: envelope within 1e-4 of the peak.
TEST(CpuBeamformerTest, WindowedVectorLoopsAgreeWithTheReference) {
    const std::vector<Scatterer> targets{{-3e-3, 12e-3, 1}, {2e-3, 20e-3, 0.7}, {5e-3, 8e-3, 0.5}};
    auto plane = simulate(targets, {-8, 0, 8}, 1400, 2e-6);
    auto diverging = simulate(targets, {-8, 0, 8}, 1400, 2e-6, {-15e-3, -15e-3, -15e-3});
    std::vector<std::int16_t> adc(plane.samples.size());
    for (std::size_t i = 0; i < adc.size(); ++i) adc[i] = static_cast<std::int16_t>(std::lround(plane.samples[i] * 8000));
    auto plane16 = plane.view();
    plane16.samples = {};
    plane16.samples16 = adc;
    const std::vector<std::pair<const char*, ChannelDataView>> views{
        {"plane, float", plane.view()}, {"plane, int16", plane16}, {"diverging, float", diverging.view()}};
    for (const auto window : {Window::Hann, Window::Tukey}) {
        for (const double alpha : {0.25, 0.5, 1.0}) {
            if (window == Window::Hann && alpha != 0.5) continue;
            BeamformParams params;
            params.window = window;
            params.tukeyAlpha = alpha;
            for (std::size_t depths : {203u, 1021u}) {
                const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 33, 3e-3, 30e-3, depths);
                for (const auto& [what, view] : views) {
                    auto reference = delayAndSum(view, grid, params, 1, VectorLoop::Scalar);
                    ASSERT_TRUE(reference) << reference.error().describe();
                    envelopeAlongDepth(*reference);
                    for (auto loop : {VectorLoop::Avx2, VectorLoop::Best}) {
                        auto fast = delayAndSum(view, grid, params, 2, loop);
                        ASSERT_TRUE(fast);
                        envelopeAlongDepth(*fast);
                        float peak = 0, worst = 0;
                        for (std::size_t i = 0; i < reference->columns.size(); ++i) {
                            peak = std::max(peak, reference->columns[i]);
                            worst = std::max(worst, std::abs(fast->columns[i] - reference->columns[i]));
                        }
                        ASSERT_GT(peak, 0.0f);
                        EXPECT_LT(worst / peak, 1e-4f) << what << ", window " << static_cast<int>(window) << " alpha " << alpha << ", " << depths
                                                       << " depths, loop " << static_cast<int>(loop);
                    }
                }
            }
        }
    }
}

// Two columns share a transform (one as the real part, one as the imaginary): each gets the
// envelope it has alone, the odd one out of 17 too.
TEST(CpuBeamformerTest, ColumnsSharingATransformGetTheEnvelopeEachHasAlone) {
    Scene scene;
    const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 17, 3e-3, 30e-3, 700);
    auto rf = delayAndSum(scene.phantom.view(), grid, {});
    ASSERT_TRUE(rf);
    for (const std::size_t k : {1u, 2u}) {
        auto together = *rf;
        envelopeAlongDepth(together, 2, k);
        float peak = 0, worst = 0;
        for (std::size_t ix = 0; ix < rf->nx; ++ix) {
            BeamformedImage alone{
                1,
                rf->nz,
                {rf->columns.begin() + static_cast<std::ptrdiff_t>(ix * rf->nz), rf->columns.begin() + static_cast<std::ptrdiff_t>((ix + 1) * rf->nz)}};
            envelopeAlongDepth(alone, 1, k);
            ASSERT_EQ(alone.nz, together.nz);
            for (std::size_t iz = 0; iz < alone.nz; ++iz) {
                peak = std::max(peak, alone.at(0, iz));
                worst = std::max(worst, std::abs(together.at(ix, iz) - alone.at(0, iz)));
            }
        }
        EXPECT_LT(worst / peak, 1e-6f) << "every " << k;
    }
}

// Keeping every k-th row of the envelope (the RF beamformed k times finer than it is shown):
// with k dividing the transform's length, the inverse transform of the folded spectrum; else
// the whole transform and every k-th row. Both equal the full envelope's rows 0, k, 2k, ...
TEST(CpuBeamformerTest, AnEnvelopeKeepingEveryKthRowIsTheFullOnesRows) {
    Scene scene;
    for (const std::size_t depths : {1023u, 1021u, 400u}) {
        const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 17, 3e-3, 30e-3, depths);
        auto rf = delayAndSum(scene.phantom.view(), grid, {});
        ASSERT_TRUE(rf);
        auto full = *rf;
        envelopeAlongDepth(full, 2);
        for (const std::size_t k : {2u, 3u, 4u}) {
            auto kept = *rf;
            envelopeAlongDepth(kept, 2, k);
            ASSERT_EQ(kept.nz, (depths + k - 1) / k);
            ASSERT_EQ(kept.columns.size(), kept.nx * kept.nz);
            float peak = 0, worst = 0;
            for (std::size_t ix = 0; ix < full.nx; ++ix) {
                for (std::size_t iz = 0; iz < kept.nz; ++iz) {
                    peak = std::max(peak, full.at(ix, iz * k));
                    worst = std::max(worst, std::abs(kept.at(ix, iz) - full.at(ix, iz * k)));
                }
            }
            EXPECT_LT(worst / peak, 1e-5f) << depths << " depths, every " << k;
        }
    }
}

TEST(CpuBeamformerTest, Int16SamplesGiveTheSameImage) {
    // The front end's int16 ADC samples, beamformed directly, against the same values as float.
    Scene scene;
    std::vector<std::int16_t> adc(scene.phantom.samples.size());
    std::vector<float> asFloat(adc.size());
    for (std::size_t i = 0; i < adc.size(); ++i) {
        adc[i] = static_cast<std::int16_t>(std::lround(scene.phantom.samples[i] * 8000));
        asFloat[i] = adc[i];
    }
    auto view16 = scene.phantom.view();
    view16.samples = {};
    view16.samples16 = adc;
    auto viewF = scene.phantom.view();
    viewF.samples = asFloat;
    // 203 depths: eight depths span ~48 samples (the vector loops gather); 1024 depths: ~10
    // samples (with AVX-512BW, a 32-sample window and a word permute instead).
    for (std::size_t depths : {203u, 1024u}) {
        const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 33, 3e-3, 30e-3, depths);
        for (auto loop : {VectorLoop::Best, VectorLoop::Avx2, VectorLoop::Scalar}) {
            auto a = delayAndSum(view16, grid, {}, 2, loop);
            auto b = delayAndSum(viewF, grid, {}, 2, VectorLoop::Scalar);
            ASSERT_TRUE(a && b);
            EXPECT_LT(worstOfPeak(*b, *a), 1e-4f) << "loop " << static_cast<int>(loop) << ", " << depths << " depths";
        }
    }
    auto both = scene.phantom.view();
    both.samples16 = adc;
    auto refused = delayAndSum(both, PixelGrid::fromRanges(-8e-3, 8e-3, 33, 3e-3, 30e-3, 203), {});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("both as float and as int16"), std::string::npos);
}

TEST(CpuBeamformerTest, BadInputIsNamed) {
    auto phantom = simulate({{0, 10e-3, 1}}, {0}, 600, 0);
    auto wrongChannels = phantom.geometry;
    wrongChannels.channels = 64;
    wrongChannels.elementX.resize(64);
    auto bad = delayAndSum(phantom.with(wrongChannels), PixelGrid::fromRanges(0, 1e-3, 2, 5e-3, 6e-3, 2), {});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message().find("channel data holds"), std::string::npos);
    PixelGrid grid{{0.0}, {5e-3, 4e-3}};
    auto unsorted = delayAndSum(phantom.view(), grid, {});
    ASSERT_FALSE(unsorted);
    EXPECT_NE(unsorted.error().message().find("depths must increase"), std::string::npos);
}

TEST(CpuBeamformerTest, WindowsAndLogCompression) {
    BeamformParams p;
    p.fNumber = 1;
    p.window = Window::Hann;
    EXPECT_FLOAT_EQ(apodization(0, 10e-3, p), 1.0f);
    EXPECT_NEAR(apodization(2.5e-3, 10e-3, p), 0.5f, 1e-6);
    EXPECT_EQ(apodization(5.1e-3, 10e-3, p), 0.0f);
    p.window = Window::Tukey;
    p.tukeyAlpha = 0.5;
    EXPECT_FLOAT_EQ(apodization(2.4e-3, 10e-3, p), 1.0f);
    EXPECT_LT(apodization(4.5e-3, 10e-3, p), 0.5f);
    const std::vector<float> env{1.0f, 0.1f, 0.001f, 0.0f};
    const auto db = logCompress(env, 40, 0);
    EXPECT_FLOAT_EQ(db[0], 0.0f);
    EXPECT_NEAR(db[1], -20.0f, 1e-4);
    EXPECT_FLOAT_EQ(db[2], -40.0f);  // clipped
    EXPECT_FLOAT_EQ(db[3], -40.0f);
}

}  // namespace
}  // namespace sonolink::beamform
