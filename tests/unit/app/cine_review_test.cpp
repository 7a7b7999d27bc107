// screenFrameOf: decoded DICOM samples made 8-bit for the console's review, against values worked
// by hand: 8-bit grey as stored, MONOCHROME1 inverted, 12 bits stored low or high in 16, signed
// samples from their lowest to their highest, YBR_FULL to RGB; subsampled colour and a short
// buffer refused with the reason.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sonolink/app/cine_review.h"

namespace sonolink::app {
namespace {

dicom::FrameFormat grey(int bitsAllocated, int bitsStored, int highBit, bool signedSamples, int columns) {
    dicom::FrameFormat f;
    f.rows = 1;
    f.columns = columns;
    f.bitsAllocated = bitsAllocated;
    f.bitsStored = bitsStored;
    f.highBit = highBit;
    f.signedSamples = signedSamples;
    f.photometric = "MONOCHROME2";
    return f;
}

std::vector<std::byte> samples16(const std::vector<std::uint16_t>& values) {
    std::vector<std::byte> out(values.size() * 2);
    std::memcpy(out.data(), values.data(), out.size());  // little endian host, as decoded
    return out;
}

std::vector<std::uint8_t> shown(const dicom::FrameFormat& f, const std::vector<std::byte>& decoded) {
    auto frame = screenFrameOf(f, decoded);
    EXPECT_TRUE(frame) << frame.error().describe();
    return frame ? frame->pixels : std::vector<std::uint8_t>{};
}

TEST(ScreenFrame, EightBitGreyAsStoredAndMonochrome1Inverted) {
    auto f = grey(8, 8, 7, false, 3);
    const std::vector<std::byte> decoded{std::byte{0}, std::byte{100}, std::byte{255}};
    EXPECT_EQ(shown(f, decoded), (std::vector<std::uint8_t>{0, 100, 255}));
    f.photometric = "MONOCHROME1";
    EXPECT_EQ(shown(f, decoded), (std::vector<std::uint8_t>{255, 155, 0}));
}

TEST(ScreenFrame, TwelveBitsStoredLowOrHighInSixteen) {
    // 0, 2048 and 4095 of 12 bits: 0, 128 and 255; the bits above the high bit are ignored.
    EXPECT_EQ(shown(grey(16, 12, 11, false, 3), samples16({0xF000, 0xF800, 0xFFFF})), (std::vector<std::uint8_t>{0, 128, 255}));
    EXPECT_EQ(shown(grey(16, 12, 15, false, 3), samples16({0x000F, 0x800F, 0xFFF0})), (std::vector<std::uint8_t>{0, 128, 255}));
}

TEST(ScreenFrame, SignedSamplesFromTheirLowestToTheirHighest) {
    // 16 bits signed: -32768, -1 and 32767; 12 bits signed, high bit 11: -2048, 0 and 2047.
    EXPECT_EQ(shown(grey(16, 16, 15, true, 3), samples16({0x8000, 0xFFFF, 0x7FFF})), (std::vector<std::uint8_t>{0, 127, 255}));
    EXPECT_EQ(shown(grey(16, 12, 11, true, 3), samples16({0x0800, 0x0000, 0x07FF})), (std::vector<std::uint8_t>{0, 128, 255}));
}

TEST(ScreenFrame, YbrFullBecomesRgb) {
    auto f = grey(8, 8, 7, false, 2);
    f.samplesPerPixel = 3;
    f.photometric = "YBR_FULL";
    // Grey (Cb = Cr = 128) stays grey; pure red in YBR_FULL (76, 85, 255) comes back near (255, 0, 0).
    const std::vector<std::byte> decoded{std::byte{90}, std::byte{128}, std::byte{128}, std::byte{76}, std::byte{85}, std::byte{255}};
    const auto rgb = shown(f, decoded);
    ASSERT_EQ(rgb.size(), 6u);
    EXPECT_EQ((std::vector<std::uint8_t>{rgb[0], rgb[1], rgb[2]}), (std::vector<std::uint8_t>{90, 90, 90}));
    EXPECT_GE(rgb[3], 253);
    EXPECT_LE(rgb[4], 2);
    EXPECT_LE(rgb[5], 2);
}

TEST(ScreenFrame, WhatCannotBeShownIsRefusedWithTheReason) {
    auto f = grey(8, 8, 7, false, 4);
    auto shortBuffer = screenFrameOf(f, std::vector<std::byte>(3));
    ASSERT_FALSE(shortBuffer);
    EXPECT_NE(shortBuffer.error().message().find("a frame of 3 bytes"), std::string::npos) << shortBuffer.error().message();
    f.samplesPerPixel = 3;
    f.photometric = "PALETTE COLOR";
    auto palette = screenFrameOf(f, std::vector<std::byte>(12));
    ASSERT_FALSE(palette);
    EXPECT_NE(palette.error().message().find("PALETTE COLOR"), std::string::npos) << palette.error().message();
}

}  // namespace
}  // namespace sonolink::app
