// The photoacoustic colour maps are perceptual (L* rises with the level, black to white) and the
// overlay leaves the B-mode untouched below the threshold, blends the colour at the opacity above
// it, and refuses pictures of two rasters.
#include "sonolink/image/shot_overlay.h"

#include <gtest/gtest.h>

namespace sonolink::image {
namespace {

class ColourMapTest : public ::testing::TestWithParam<ColourMap> {};

TEST_P(ColourMapTest, LightnessRisesFromBlackToWhite) {
    const auto& table = colourTable(GetParam());
    EXPECT_NEAR(lightness(table.front()), 0.0, 0.5);
    EXPECT_GT(lightness(table.back()), 95.0);
    for (std::size_t level = 1; level < table.size(); ++level) {
        EXPECT_GE(lightness(table[level]), lightness(table[level - 1]) - 1e-9) << "level " << level;
    }
    // Spread over the range, not bunched: each quarter of the levels adds lightness.
    for (std::size_t q = 1; q <= 4; ++q) EXPECT_GT(lightness(table[q * 64 - 1]) - lightness(table[(q - 1) * 64]), 8.0) << "quarter " << q;
}

INSTANTIATE_TEST_SUITE_P(BothMaps, ColourMapTest, ::testing::Values(ColourMap::Hot, ColourMap::Iron));

TEST(ShotOverlayTest, BelowTheThresholdTheBModeStaysAsItIs) {
    const std::vector<std::uint8_t> bmode{10, 100, 200, 50};
    const std::vector<std::uint8_t> shot{0, 70, 80, 255};
    auto rgb = overlayPicture(bmode, shot, {ColourMap::Hot, 0.3, 1.0});  // threshold level 77
    ASSERT_TRUE(rgb);
    for (int i : {0, 1}) {
        for (int c = 0; c < 3; ++c) EXPECT_EQ((*rgb)[3 * i + c], bmode[static_cast<std::size_t>(i)]) << "pixel " << i;
    }
    const auto hot = colourTable(ColourMap::Hot);
    EXPECT_EQ((*rgb)[6], hot[80].r);  // opaque: the colour itself
    EXPECT_EQ((*rgb)[9], hot[255].r);
}

TEST(ShotOverlayTest, OpacityBlendsTheColourWithTheGrey) {
    const std::vector<std::uint8_t> bmode{100};
    const std::vector<std::uint8_t> shot{255};  // white in both maps' top
    auto rgb = overlayPicture(bmode, shot, {ColourMap::Iron, 0.0, 0.5});
    ASSERT_TRUE(rgb);
    const auto top = colourTable(ColourMap::Iron)[255];
    EXPECT_NEAR((*rgb)[0], (100 + top.r) / 2.0, 1.0);
    EXPECT_NEAR((*rgb)[2], (100 + top.b) / 2.0, 1.0);
}

TEST(ShotOverlayTest, PicturesOfTwoRastersAreRefused) {
    const std::vector<std::uint8_t> bmode(12), shot(10);
    auto rgb = overlayPicture(bmode, shot, {});
    ASSERT_FALSE(rgb);
    EXPECT_NE(rgb.error().message().find("not the same raster"), std::string::npos);
}

TEST(ShotOverlayTest, AColourPictureMapsEveryLevel) {
    const std::vector<std::uint8_t> shot{0, 128, 255};
    const auto rgb = colourPicture(shot, ColourMap::Hot);
    ASSERT_EQ(rgb.size(), 9u);
    EXPECT_EQ(rgb[0], 0);
    EXPECT_EQ(rgb[3], colourTable(ColourMap::Hot)[128].r);
    EXPECT_EQ(rgb[8], colourTable(ColourMap::Hot)[255].b);
}

}  // namespace
}  // namespace sonolink::image
