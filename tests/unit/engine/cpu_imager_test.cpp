// The CPU imager's depth oversampling: chosen from the depth step and the centre frequency (the
// shipped grid, 68.5 um at 5 MHz, is beamformed at twice its rows; a grid fine enough is not),
// and an image oversampled k times is the k-times-finer image's every k-th row, on the grid's
// rows (the envelope without the aliasing of a coarse depth step, docs/performance.md).
#include "cpu_imager.h"

#include <gtest/gtest.h>

#include "beamform_phantom.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::engine {
namespace {

TEST(CpuImagerTest, TheDepthStepSetsTheOversampling) {
    EXPECT_EQ(depthOversamplingFor(35e-3 / 511, 1540, 5e6), 2) << "the shipped grid";
    EXPECT_EQ(depthOversamplingFor(35e-3 / 2047, 1540, 5e6), 1);
    EXPECT_EQ(depthOversamplingFor(35e-3 / 511, 1540, 10e6), 3);
    EXPECT_EQ(depthOversamplingFor(1e-2, 1540, 10e6), 8) << "at most 8";
    EXPECT_EQ(depthOversamplingFor(0, 1540, 5e6), 1);
    const auto setup = imagingSetupFor(ImagingSettings{}, beamform::phantom::simulate({{0, 15e-3, 1}}, {0}, 1500, 2e-6).geometry, 2, 5e6);
    EXPECT_EQ(setup.depthOversampling, 2) << "the default imaging settings at 5 MHz";
}

TEST(CpuImagerTest, AnOversampledImageIsTheFinerOnesEveryKthRowOnTheGridsRows) {
    const auto phantom = beamform::phantom::simulate({{1e-3, 12e-3, 1}, {-2e-3, 18e-3, 0.6}}, {-5, 0, 5}, 1400, 2e-6);
    std::vector<std::int16_t> adc(phantom.samples.size());
    for (std::size_t i = 0; i < adc.size(); ++i) adc[i] = static_cast<std::int16_t>(std::lround(phantom.samples[i] * 8000));
    ImagingSetup setup;
    setup.grid = beamform::PixelGrid::fromRanges(-4e-3, 4e-3, 16, 8e-3, 22e-3, 101);
    setup.params.window = beamform::Window::Hann;
    setup.beamformThreads = 2;
    setup.depthOversampling = 3;
    const beamform::AcquisitionGeometry geometry = phantom.geometry;
    const beamform::ChannelDataView view{&geometry, {}, adc};
    const auto fine = beamform::PixelGrid::fromRanges(-4e-3, 4e-3, 16, 8e-3, 22e-3, 301);
    const auto grid = oversampledGrid(setup.grid, 3);
    ASSERT_EQ(grid.z.size(), fine.z.size());
    for (std::size_t i = 0; i < fine.z.size(); ++i) EXPECT_NEAR(grid.z[i], fine.z[i], 1e-12);
    auto reference = beamform::delayAndSum(view, fine, setup.params, 2);
    ASSERT_TRUE(reference);
    beamform::envelopeAlongDepth(*reference, 2);
    auto image = oversampledEnvelope(view, setup, grid);
    ASSERT_TRUE(image) << image.error().describe();
    ASSERT_EQ(image->nz, 101u);
    ASSERT_EQ(image->nx, 16u);
    float worst = 0, peak = 0;
    for (std::size_t ix = 0; ix < 16; ++ix) {
        for (std::size_t iz = 0; iz < 101; ++iz) {
            peak = std::max(peak, reference->at(ix, 3 * iz));
            worst = std::max(worst, std::abs(image->at(ix, iz) - reference->at(ix, 3 * iz)));
        }
    }
    EXPECT_LT(worst / peak, 1e-5f);
}

}  // namespace
}  // namespace sonolink::engine
