// DepthIndex (kernel_steps.h), the beamformers' lookup of where a channel enters the aperture and
// where a Tukey window turns flat: both of its lookups against std::lower_bound, on even grids
// (the guess), uneven ones (the walk), and grids whose depths are one float.
#include "kernel_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::beamform::kernel {
namespace {

std::size_t lowerBound(const std::vector<float>& z, float depth) { return static_cast<std::size_t>(std::lower_bound(z.begin(), z.end(), depth) - z.begin()); }

// Every depth of the grid, its neighbouring floats, the midpoints, depths before and after the
// grid, and random ones: both lookups give std::lower_bound's index.
void expectLowerBoundEverywhere(const std::vector<float>& z) {
    const DepthIndex index(z);
    std::vector<float> queries{0.0f, -1.0f, z.front() / 2, z.back() * 2, std::nextafter(z.front(), 0.0f)};
    for (std::size_t i = 0; i < z.size(); ++i) {
        queries.insert(queries.end(), {z[i], std::nextafter(z[i], 0.0f), std::nextafter(z[i], 1.0f)});
        if (i + 1 < z.size()) queries.push_back(z[i] + (z[i + 1] - z[i]) / 2);
    }
    std::mt19937 random(7);
    std::uniform_real_distribution<float> anywhere(0.0f, z.back() * 1.1f);
    for (int i = 0; i < 1000; ++i) queries.push_back(anywhere(random));
    for (float depth : queries) {
        EXPECT_EQ(index.firstAtOrBelowNear(depth), lowerBound(z, depth)) << "depth " << depth;
        EXPECT_EQ(index.firstAtOrBelow(depth), lowerBound(z, depth)) << "depth " << depth;
    }
}

TEST(DepthIndexTest, AnEvenGridIsLookedUpAsStdLowerBound) {
    std::vector<float> z;
    for (int i = 0; i < 512; ++i) z.push_back(static_cast<float>(2e-3 + 36e-3 * i / 511.0));
    expectLowerBoundEverywhere(z);
}

TEST(DepthIndexTest, AnUnevenGridIsWalked) {
    std::vector<float> z;
    for (int i = 1; i <= 200; ++i) z.push_back(static_cast<float>(1e-3 * i * i / 200.0));  // spacing grows 400-fold
    expectLowerBoundEverywhere(z);
}

TEST(DepthIndexTest, OneDepth) { expectLowerBoundEverywhere({16e-3f}); }

// Depths that increase as doubles (a valid grid) but are one value as floats: their span is 0,
// and a step of 1/0 would put NaN in the guess for a depth at the grid's.
TEST(DepthIndexTest, DepthsThatAreOneFloat) {
    std::vector<float> z;
    for (int i = 0; i < 12; ++i) z.push_back(static_cast<float>(16e-3 + 1e-12 * i));
    ASSERT_EQ(z.front(), z.back());
    EXPECT_EQ(DepthIndex::stepsPerMetre(z), 0.0f);
    expectLowerBoundEverywhere(z);
}

// Two depths the least float apart, at the least normal float: their span is positive, the step
// too large for a float.
TEST(DepthIndexTest, DepthsTooCloseForAFiniteStep) {
    const float z0 = std::numeric_limits<float>::min();
    const std::vector<float> z{z0, std::nextafter(z0, 1.0f)};
    EXPECT_TRUE(std::isfinite(DepthIndex::stepsPerMetre(z)));
    expectLowerBoundEverywhere(z);
}

}  // namespace
}  // namespace sonolink::beamform::kernel
