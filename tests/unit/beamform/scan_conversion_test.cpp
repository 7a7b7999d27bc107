// Scan conversion of a sector image onto a Cartesian grid: a smooth analytic field sampled
// along rays comes back at every Cartesian pixel inside the sector within the bilinear
// interpolation's error, exactly on a ray sample, and as the fill value outside the sector;
// inconsistent sectors are refused with the reason.
#include "sonolink/beamform/scan_conversion.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

namespace sonolink::beamform {
namespace {

constexpr double kPeriod = 5e-3;
double field(double r, double theta) { return std::cos(2 * std::numbers::pi * r / kPeriod) * (1 + theta); }

SectorImage sampledSector() {
    SectorImage s;
    for (int i = 0; i < 401; ++i) s.r.push_back(i * 0.1e-3);  // 0 .. 40 mm
    for (int i = 0; i < 91; ++i) s.theta.push_back((-45.0 + i) * std::numbers::pi / 180);
    for (double t : s.theta) {
        for (double r : s.r) s.rays.push_back(static_cast<float>(field(r, t)));
    }
    return s;
}

TEST(ScanConversionTest, CartesianPixelsInsideTheSectorMatchTheField) {
    const auto sector = sampledSector();
    const auto grid = PixelGrid::fromRanges(-30e-3, 30e-3, 121, 0.5e-3, 40e-3, 100);
    auto image = scanConvert(sector, grid, -60.0f);
    ASSERT_TRUE(image) << image.error().describe();
    int inside = 0, outside = 0;
    double worst = 0;
    for (std::size_t ix = 0; ix < image->nx; ++ix) {
        for (std::size_t iz = 0; iz < image->nz; ++iz) {
            const double x = grid.x[ix], z = grid.z[iz], r = std::hypot(x, z), theta = std::atan2(x, z);
            constexpr double kEdge = 1e-9;  // pixels on the sector's edge could go either way
            if (r <= 40e-3 - kEdge && std::abs(theta) <= std::numbers::pi / 4 - kEdge) {
                ++inside;
                worst = std::max(worst, std::abs(image->at(ix, iz) - field(r, theta)));
            } else if (r > 40e-3 + kEdge || std::abs(theta) > std::numbers::pi / 4 + kEdge) {
                ++outside;
                EXPECT_EQ(image->at(ix, iz), -60.0f) << "x " << x << ", z " << z << " is outside the sector";
            }
        }
    }
    // Bilinear error of (1 + θ) cos(k r) with step dr: at most (1 + π/4) k^2 dr^2 / 8 (3.5e-3);
    // the field is linear in θ, so the angular step adds nothing.
    const double k = 2 * std::numbers::pi / kPeriod, dr = 0.1e-3;
    const double bound = (1 + std::numbers::pi / 4) * k * k * dr * dr / 8;
    EXPECT_LT(worst, 1.05 * bound);
    RecordProperty("worst_error", std::to_string(worst) + " bound " + std::to_string(bound));
    EXPECT_GT(inside, 5000);
    EXPECT_GT(outside, 1000);
}

TEST(ScanConversionTest, APixelOnARaySampleIsThatSample) {
    const auto sector = sampledSector();
    PixelGrid grid;
    grid.x = {0.0};
    grid.z = {sector.r[150]};  // on the 0-degree ray, sample 150
    auto image = scanConvert(sector, grid, 0.0f);
    ASSERT_TRUE(image);
    EXPECT_FLOAT_EQ(image->at(0, 0), sector.rays[45 * sector.r.size() + 150]);
}

TEST(ScanConversionTest, InconsistentSectorsAreRefusedWithTheReason) {
    auto sector = sampledSector();
    sector.rays.pop_back();
    auto image = scanConvert(sector, PixelGrid::fromRanges(-1e-3, 1e-3, 4, 1e-3, 2e-3, 4), 0.0f);
    ASSERT_FALSE(image);
    EXPECT_NE(image.error().message().find("36490 values for 91 rays x 401 depths"), std::string::npos) << image.error().message();
    sector = sampledSector();
    std::swap(sector.theta[3], sector.theta[4]);
    image = scanConvert(sector, PixelGrid::fromRanges(-1e-3, 1e-3, 4, 1e-3, 2e-3, 4), 0.0f);
    ASSERT_FALSE(image);
    EXPECT_NE(image.error().message().find("sector theta must increase: theta[4]"), std::string::npos) << image.error().message();
}

}  // namespace
}  // namespace sonolink::beamform
