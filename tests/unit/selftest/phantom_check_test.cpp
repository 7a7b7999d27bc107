// The phantom comparison on images made to order: Gaussian point targets on a speckle-free
// background. The same image passes with an NCC of 1; a point moved by 1 mm, or one blurred to
// twice its width, fails on that point alone; images on different grids are refused.
#include <cmath>

#include <gtest/gtest.h>

#include "sonolink/selftest/phantom_check.h"

namespace sonolink::selftest {
namespace {

constexpr std::size_t kNx = 96, kNz = 160;

struct Picture {
    std::vector<double> x, z;
    std::vector<float> columns;
    [[nodiscard]] ImageOnGrid view() const { return {kNx, kNz, columns, x, z}; }
};

struct Blob {
    double x, z, widthScale = 1;
};

// 0.1 mm pixels over x -4.8..4.7 mm, z 2..17.9 mm; each blob 0.6 mm lateral and 0.25 mm axial FWHM.
Picture picture(const std::vector<Blob>& blobs) {
    Picture p;
    for (std::size_t i = 0; i < kNx; ++i) p.x.push_back(-4.8e-3 + 1e-4 * static_cast<double>(i));
    for (std::size_t i = 0; i < kNz; ++i) p.z.push_back(2e-3 + 1e-4 * static_cast<double>(i));
    p.columns.assign(kNx * kNz, 0.01f);
    const double sx = 0.6e-3 / 2.3548, sz = 0.25e-3 / 2.3548;  // FWHM = 2.3548 sigma
    for (std::size_t ix = 0; ix < kNx; ++ix) {
        for (std::size_t iz = 0; iz < kNz; ++iz) {
            for (const auto& b : blobs) {
                const double dx = (p.x[ix] - b.x) / (sx * b.widthScale), dz = (p.z[iz] - b.z) / (sz * b.widthScale);
                p.columns[ix * kNz + iz] += static_cast<float>(std::exp(-0.5 * (dx * dx + dz * dz)));
            }
        }
    }
    return p;
}

const std::vector<std::pair<double, double>> kPoints{{0.0, 6e-3}, {-2e-3, 10e-3}, {2.5e-3, 14e-3}};
const PhantomLimits kLimits{};

TEST(PhantomCheckTest, TheReferenceItselfPassesWithEveryPointInPlace) {
    const auto reference = picture({{0.0, 6e-3}, {-2e-3, 10e-3}, {2.5e-3, 14e-3}});
    const auto r = comparePhantom(reference.view(), reference.view(), kPoints, kLimits);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_NEAR(r->ncc, 1.0, 1e-9);
    ASSERT_EQ(r->points.size(), 3u);
    for (const auto& p : r->points) {
        EXPECT_TRUE(p.passed);
        EXPECT_LT(p.errorM, 1e-9);
        EXPECT_NEAR(p.referenceFwhmLateralM, 0.6e-3, 0.05e-3);
        EXPECT_NEAR(p.referenceFwhmAxialM, 0.25e-3, 0.05e-3);
    }
    EXPECT_TRUE(r->passed(kLimits));
}

TEST(PhantomCheckTest, APointOutOfPlaceOrBlurredFailsOnThatPointAlone) {
    const auto reference = picture({{0.0, 6e-3}, {-2e-3, 10e-3}, {2.5e-3, 14e-3}});
    const auto moved = picture({{0.0, 6e-3}, {-2e-3, 11e-3}, {2.5e-3, 14e-3}});
    auto r = comparePhantom(moved.view(), reference.view(), kPoints, kLimits);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->points[0].passed);
    EXPECT_FALSE(r->points[1].passed);
    EXPECT_NEAR(r->points[1].errorM, 1e-3, 0.05e-3);
    EXPECT_TRUE(r->points[2].passed);
    EXPECT_FALSE(r->passed(kLimits));

    const auto blurred = picture({{0.0, 6e-3}, {-2e-3, 10e-3}, {2.5e-3, 14e-3, 2.0}});
    r = comparePhantom(blurred.view(), reference.view(), kPoints, kLimits);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->points[0].passed && r->points[1].passed);
    EXPECT_FALSE(r->points[2].passed);
    EXPECT_NEAR(r->points[2].fwhmLateralM / r->points[2].referenceFwhmLateralM, 2.0, 0.2);
    EXPECT_LT(r->points[2].errorM, 0.05e-3) << "in place, only wider";
}

TEST(PhantomCheckTest, AnImageOfSomethingElseHasALowNcc) {
    const auto reference = picture({{0.0, 6e-3}, {-2e-3, 10e-3}, {2.5e-3, 14e-3}});
    const auto mirrored = picture({{0.0, 6e-3}, {2e-3, 10e-3}, {-2.5e-3, 14e-3}});
    const auto r = comparePhantom(mirrored.view(), reference.view(), kPoints, kLimits);
    ASSERT_TRUE(r);
    EXPECT_LT(r->ncc, kLimits.minNcc);
    EXPECT_FALSE(r->passed(kLimits));
}

TEST(PhantomCheckTest, PointsOutsideTheGridAreLeftOutAndDifferentGridsRefused) {
    const auto reference = picture({{0.0, 6e-3}});
    const std::vector<std::pair<double, double>> outside{{0.0, 6e-3}, {0.0, 30e-3}};
    const auto r = comparePhantom(reference.view(), reference.view(), outside, kLimits);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->points.size(), 1u);
    auto shifted = reference;
    for (auto& z : shifted.z) z += 1e-3;
    const auto refused = comparePhantom(shifted.view(), reference.view(), kPoints, kLimits);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("different grids"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::selftest
