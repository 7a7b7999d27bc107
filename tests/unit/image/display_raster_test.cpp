#include "sonolink/image/display_raster.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::image {
namespace {

std::vector<double> evenly(double from, double to, int count) {
    std::vector<double> v(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = from + (to - from) * i / (count - 1);
    return v;
}

TEST(DisplayRasterTest, TheShippedFieldIsDrawnInItsTrueProportions) {
    // 128 elements at 0.3 mm: 38.1 mm across; 3 to 38 mm deep, in a 512 x 512 box.
    auto r = rasterFitting(-19.05e-3, 19.05e-3, 3e-3, 38e-3, 512, 512);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->columns, 512) << "the wider side fills the box";
    EXPECT_NEAR(r->metresPerPixel, 38.1e-3 / 511, 1e-15);
    EXPECT_EQ(r->rows, static_cast<int>(std::floor(35e-3 / r->metresPerPixel)) + 1);
    EXPECT_LE(r->zM(r->rows - 1), 38e-3 + 1e-12);
    EXPECT_GT(r->zM(r->rows - 1) + r->metresPerPixel, 38e-3) << "as deep as the field goes";
    EXPECT_DOUBLE_EQ(r->xM(0), -19.05e-3);
    EXPECT_DOUBLE_EQ(r->zM(0), 3e-3);
}

TEST(DisplayRasterTest, ADeepNarrowFieldFillsTheBoxDownwards) {
    auto r = rasterFitting(-5e-3, 5e-3, 0, 100e-3, 400, 300);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->rows, 300);
    EXPECT_EQ(r->columns, static_cast<int>(std::floor(10e-3 / (100e-3 / 299) + 1e-9)) + 1);
}

TEST(DisplayRasterTest, AnEmptyFieldOrATinyBoxIsRefusedByName) {
    auto empty = rasterFitting(1e-3, 1e-3, 0, 1e-2, 64, 64);
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message().find("empty field"), std::string::npos);
    auto tiny = rasterFitting(0, 1e-2, 0, 1e-2, 1, 64);
    ASSERT_FALSE(tiny);
    EXPECT_NE(tiny.error().message().find("at least 2 x 2"), std::string::npos);
    const std::vector<double> zigzag{0, 2e-3, 1e-3};
    const std::vector<double> z{1e-3, 2e-3};
    auto notMonotonic = displayResampler(zigzag, z, 64, 64);
    ASSERT_FALSE(notMonotonic);
    EXPECT_NE(notMonotonic.error().message().find("run one way"), std::string::npos);
}

// Bilinear interpolation reproduces a function linear in x and in z exactly, whatever the
// grid's spacing and whichever way its x runs.
void expectPlaneReproduced(const std::vector<double>& x, const std::vector<double>& z) {
    auto plane = [](double xm, double zm) { return static_cast<float>(1000 * xm - 400 * zm + 3); };
    std::vector<float> columnMajor;
    for (double xm : x) {
        for (double zm : z) columnMajor.push_back(plane(xm, zm));
    }
    auto resampler = displayResampler(x, z, 97, 61);
    ASSERT_TRUE(resampler);
    const auto& r = resampler->raster();
    std::vector<float> out(static_cast<std::size_t>(r.rows * r.columns));
    resampler->resample(columnMajor, out);
    for (int row = 0; row < r.rows; ++row) {
        for (int c = 0; c < r.columns; ++c) {
            ASSERT_NEAR(out[static_cast<std::size_t>(row * r.columns + c)], plane(r.xM(c), r.zM(row)), 2e-4) << row << ", " << c;
        }
    }
}

TEST(DisplayRasterTest, ResamplingIsExactForAPlaneOnEvenUnevenAndReversedGrids) {
    expectPlaneReproduced(evenly(-6e-3, 6e-3, 25), evenly(8e-3, 22e-3, 40));
    expectPlaneReproduced({-6e-3, -5.5e-3, -2e-3, 0, 0.5e-3, 4e-3, 6e-3}, {8e-3, 8.2e-3, 12e-3, 15e-3, 22e-3});
    expectPlaneReproduced(evenly(6e-3, -6e-3, 25), evenly(8e-3, 22e-3, 40));
}

}  // namespace
}  // namespace sonolink::image
