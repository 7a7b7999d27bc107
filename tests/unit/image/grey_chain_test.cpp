#include "sonolink/image/grey_chain.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "../../support/counting_new.h"

namespace sonolink::image {
namespace {

// A 32 x 64 grid over 8 x 16 mm: its raster in a 64 x 64 box is 32 x 64 (0.254 mm a pixel).
struct Field {
    std::vector<double> x, z;
    Field() {
        for (int i = 0; i < 32; ++i) x.push_back(-4e-3 + 8e-3 * i / 31);
        for (int i = 0; i < 64; ++i) z.push_back(10e-3 + 16e-3 * i / 63);
    }
    [[nodiscard]] GreyChain chain(GreySettings s) const { return GreyChain(*displayResampler(x, z, 64, 64), std::move(s)); }
    // An envelope whose amplitude depends on depth only (column-major [x][z]).
    [[nodiscard]] std::vector<float> envelope(float (*amplitude)(double zM)) const {
        std::vector<float> out;
        for (std::size_t i = 0; i < x.size(); ++i) {
            for (double zm : z) out.push_back(amplitude(zm));
        }
        return out;
    }
};

std::vector<std::uint8_t> drawn(GreyChain& chain, const std::vector<float>& envelope) {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(chain.raster().rows * chain.raster().columns));
    chain.process(envelope, pixels);
    return pixels;
}

std::uint8_t level(double db, double range) { return static_cast<std::uint8_t>(std::lround((db + range) / range * 255)); }

TEST(GreyChainTest, TheLogCompressionIsAgainstTheFramesPeakAndSpreadOverTheDynamicRange) {
    Field field;
    auto chain = field.chain({{}, 0, 60, 0, GreyMap::Linear});
    const auto& r = chain.raster();
    EXPECT_EQ(r.rows, 64);
    EXPECT_EQ(r.columns, 32);
    auto pixels = drawn(chain, field.envelope([](double zm) { return zm < 18e-3 ? 4.0f : 2.0f; }));
    EXPECT_EQ(pixels.front(), 255) << "the peak is 0 dB";
    EXPECT_EQ(pixels.back(), level(-6.0206, 60)) << "half the peak is -6 dB";
    auto dark = field.chain({{}, -10, 40, 0, GreyMap::Linear});
    pixels = drawn(dark, field.envelope([](double zm) { return zm < 18e-3 ? 4.0f : 0.04f; }));
    EXPECT_EQ(pixels.front(), level(-10, 40)) << "gain moves everything";
    EXPECT_EQ(pixels.back(), 0) << "-50 dB is below a 40 dB range";
    const std::vector<float> zeros(field.x.size() * field.z.size(), 0.0f);
    pixels = drawn(dark, zeros);
    EXPECT_TRUE(std::all_of(pixels.begin(), pixels.end(), [](auto p) { return p == 0; })) << "an empty frame is black";
}

TEST(GreyChainTest, TimeGainCompensationPassesThroughItsPointsMonotonicallyAndSmoothly) {
    const std::vector<double> step{0, 0, 0, 0, 20, 20, 20, 20};
    const auto gain = depthGainDb(step, 1.5, 701);  // knots every 100 rows
    for (int k = 0; k < 8; ++k) EXPECT_NEAR(gain[static_cast<std::size_t>(k * 100)], step[static_cast<std::size_t>(k)] + 1.5, 1e-5) << k;
    for (std::size_t r = 1; r < gain.size(); ++r) {
        ASSERT_GE(gain[r], gain[r - 1] - 1e-6f) << "never back: row " << r;
        ASSERT_LE(gain[r], 21.5f + 1e-5f) << "never past the points: row " << r;
        ASSERT_GE(gain[r], 1.5f - 1e-5f);
    }
    // Smooth: the slope changes by little from row to row (a linear join would jump at each knot).
    const std::vector<double> ramp{0, 5, 12, 14, 10, 8, 9, 20};
    const auto smooth = depthGainDb(ramp, 0, 701);
    double largestTurn = 0;
    for (std::size_t r = 2; r < smooth.size(); ++r) {
        largestTurn = std::max(largestTurn, std::abs(static_cast<double>(smooth[r] - 2 * smooth[r - 1] + smooth[r - 2])));
    }
    EXPECT_LT(largestTurn, 0.01) << "dB per row per row";
}

TEST(GreyChainTest, TgcBrightensTheDepthsItIsSetFor) {
    Field field;
    auto flat = field.envelope([](double) { return 1.0f; });
    auto deeper = field.chain({{0, 0, 0, 0, 0, 0, 0, 0}, -30, 60, 0, GreyMap::Linear});
    auto before = drawn(deeper, flat);
    deeper.setSettings({{0, 0, 0, 0, 0, 0, 10, 20}, -30, 60, 0, GreyMap::Linear});
    auto after = drawn(deeper, flat);
    const auto columns = static_cast<std::size_t>(deeper.raster().columns);
    EXPECT_EQ(after[0], before[0]) << "the top is as it was";
    EXPECT_EQ(after.back(), level(-10, 60)) << "the bottom: -30 dB of gain, +20 dB of TGC";
    EXPECT_EQ(after[after.size() - columns], after.back()) << "a whole row alike";
}

TEST(GreyChainTest, PersistenceAveragesFramesAndOffShowsEachAsItIs) {
    Field field;
    auto bright = field.envelope([](double) { return 1.0f; });
    auto dim = field.envelope([](double zm) { return zm < 10.5e-3 ? 1.0f : 0.1f; });  // the top rows keep the peak
    auto chain = field.chain({{}, 0, 60, 0.5, GreyMap::Linear});
    drawn(chain, bright);
    auto blended = drawn(chain, dim);
    EXPECT_EQ(blended.back(), level(-10, 60)) << "half of 0 dB, half of -20 dB";
    chain.setSettings({{}, 0, 60, 0, GreyMap::Linear});
    EXPECT_EQ(drawn(chain, dim).back(), level(-20, 60)) << "off: the frame as it is";
    chain.setSettings({{}, 0, 60, 0.5, GreyMap::Linear});
    chain.reset();
    EXPECT_EQ(drawn(chain, bright).back(), 255) << "after a reset the first frame shows as it is";
}

TEST(GreyChainTest, GreyMapsLiftOrSpreadTheMidGreysAndKeepTheEnds) {
    Field field;
    auto envelope = field.envelope([](double zm) { return static_cast<float>(std::pow(10.0, -(zm - 10e-3) / 16e-3 * 3)); });  // 0 to -60 dB
    auto linear = field.chain({{}, 0, 60, 0, GreyMap::Linear});
    auto soft = field.chain({{}, 0, 60, 0, GreyMap::Soft});
    auto contrast = field.chain({{}, 0, 60, 0, GreyMap::Contrast});
    const auto l = drawn(linear, envelope), s = drawn(soft, envelope), c = drawn(contrast, envelope);
    EXPECT_EQ(s.front(), 255);
    EXPECT_EQ(c.front(), 255);
    const std::size_t low = l.size() * 3 / 4;  // about -45 dB: a weak echo
    EXPECT_GT(s[low], l[low] + 20) << "soft lifts weak echoes";
    EXPECT_LT(c[low], l[low]) << "contrast presses the dark end";
    const std::size_t high = l.size() / 4;
    EXPECT_GT(c[high], l[high]) << "and lifts the bright side";
}

TEST(GreyChainTest, AFrameAllocatesNothing) {
    Field field;
    auto chain = field.chain({{0, 1, 2, 3, 4, 5, 6, 7}, 0, 60, 0.3, GreyMap::Soft});
    auto envelope = field.envelope([](double zm) { return static_cast<float>(zm); });
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(chain.raster().rows * chain.raster().columns));
    chain.process(envelope, pixels);  // the first sizes the working buffers
    const auto before = test::allocationsOnThisThread;
    for (int i = 0; i < 5; ++i) chain.process(envelope, pixels);
    EXPECT_EQ(test::allocationsOnThisThread, before);
}

}  // namespace
}  // namespace sonolink::image
