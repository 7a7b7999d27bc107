// The engine's grid: the settings' rows, or more where the depth step would exceed a seventh of
// the centre wavelength (the shipped 512 rows over 3 to 38 mm at 5 MHz become 797: the envelope
// without the aliasing of a coarse depth step, docs/performance.md).
#include "cpu_imager.h"

#include <gtest/gtest.h>

#include "beamform_phantom.h"

namespace sonolink::engine {
namespace {

TEST(CpuImagerTest, TheCentreFrequencySetsTheDepthStep) {
    EXPECT_EQ(depthRowsFor(3e-3, 38e-3, 512, 1540, 5e6), 797u) << "the shipped grid: 35 mm at 44 um";
    EXPECT_EQ(depthRowsFor(3e-3, 38e-3, 2048, 1540, 5e6), 2048u) << "fine enough already";
    EXPECT_EQ(depthRowsFor(3e-3, 38e-3, 512, 1540, 10e6), 1592u);
    EXPECT_EQ(depthRowsFor(3e-3, 38e-3, 512, 1540, 0), 512u);
    const auto phantom = beamform::phantom::simulate({{0, 15e-3, 1}}, {0}, 1500, 2e-6);
    const auto setup = imagingSetupFor(ImagingSettings{}, phantom.geometry, 2, 5e6);
    EXPECT_EQ(setup.grid.z.size(), depthRowsFor(3e-3, 38e-3, 512, phantom.geometry.soundSpeedMps, 5e6)) << "the default imaging settings at 5 MHz";
    EXPECT_EQ(setup.grid.x.size(), 256u);
    EXPECT_NEAR(setup.grid.z.front(), 3e-3, 1e-12);
    EXPECT_NEAR(setup.grid.z.back(), 38e-3, 1e-12);
}

}  // namespace
}  // namespace sonolink::engine
