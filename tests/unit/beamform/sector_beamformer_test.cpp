// Sector imaging end to end on the analytic phantom: diverging waves, pixels along rays, the
// envelope along each ray, scan conversion to a Cartesian grid; two targets off the axis land
// where they are in (r, θ) and in (x, z). Bad sectors are named.
#include "sonolink/beamform/sector_beamformer.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "beamform_phantom.h"

namespace sonolink::beamform {
namespace {

using namespace phantom;

constexpr double kDeg = std::numbers::pi / 180;
struct Target {
    double r, theta;
};
const Target kTargets[] = {{20e-3, 15 * kDeg}, {14e-3, -10 * kDeg}};

std::vector<double> steps(double from, double to, int count) {
    std::vector<double> v;
    for (int i = 0; i < count; ++i) v.push_back(from + (to - from) * i / (count - 1));
    return v;
}

// The brightest sample within `box` of (a, b) in a [b-major][a] image.
template <typename At>
std::pair<double, double> brightestNear(const std::vector<double>& as, const std::vector<double>& bs, double a, double b, double boxA, double boxB, At at) {
    float best = -1;
    std::pair<double, double> where{};
    for (std::size_t j = 0; j < bs.size(); ++j) {
        for (std::size_t i = 0; i < as.size(); ++i) {
            if (std::abs(as[i] - a) > boxA || std::abs(bs[j] - b) > boxB) continue;
            if (at(j, i) > best) best = at(j, i), where = {as[i], bs[j]};
        }
    }
    return where;
}

TEST(SectorBeamformerTest, TargetsOffTheAxisLandWhereTheyAre) {
    std::vector<Scatterer> scatterers;
    for (const auto& t : kTargets) scatterers.push_back({t.r * std::sin(t.theta), t.r * std::cos(t.theta), 1});
    const auto p = simulate(scatterers, {-15, 0, 15}, 1800, 0, {-10e-3, -10e-3, -10e-3});
    auto sector = delayAndSumSector(p.view(), steps(8e-3, 28e-3, 401), steps(-25 * kDeg, 25 * kDeg, 101), {});
    ASSERT_TRUE(sector) << sector.error().describe();
    envelopeAlongRays(*sector);
    const auto nr = sector->r.size();
    for (const auto& t : kTargets) {
        const auto [r, theta] =
            brightestNear(sector->r, sector->theta, t.r, t.theta, 2e-3, 3 * kDeg, [&](std::size_t it, std::size_t ir) { return sector->rays[it * nr + ir]; });
        EXPECT_NEAR(r, t.r, 0.05e-3) << "target at " << t.r * 1e3 << " mm, " << t.theta / kDeg << " deg";
        EXPECT_NEAR(theta, t.theta, 0.5 * kDeg) << "target at " << t.r * 1e3 << " mm, " << t.theta / kDeg << " deg";
    }
    const auto grid = PixelGrid::fromRanges(-10e-3, 10e-3, 201, 5e-3, 30e-3, 251);
    auto image = scanConvert(*sector, grid, 0.0f);
    ASSERT_TRUE(image) << image.error().describe();
    for (const auto& t : kTargets) {
        const double x = t.r * std::sin(t.theta), z = t.r * std::cos(t.theta);
        const auto [px, pz] = brightestNear(grid.x, grid.z, x, z, 1.5e-3, 1.5e-3, [&](std::size_t iz, std::size_t ix) { return image->at(ix, iz); });
        EXPECT_NEAR(px, x, 0.2e-3);
        EXPECT_NEAR(pz, z, 0.15e-3);
    }
}

TEST(SectorBeamformerTest, BadSectorsAreNamed) {
    const auto p = simulate({{0, 10e-3, 1}}, {0}, 800, 0);
    auto backwards = delayAndSumSector(p.view(), steps(5e-3, 15e-3, 11), {0.1, 0.0}, {});
    ASSERT_FALSE(backwards);
    EXPECT_NE(backwards.error().message().find("sector angles must increase"), std::string::npos) << backwards.error().message();
    auto negative = delayAndSumSector(p.view(), {-1e-3, 5e-3}, {0.0, 0.1}, {});
    ASSERT_FALSE(negative);
    EXPECT_NE(negative.error().describe().find("sector depths r"), std::string::npos) << negative.error().describe();
}

}  // namespace
}  // namespace sonolink::beamform
