#include "sonolink/transport/sim/frame_layout.h"

#include <gtest/gtest.h>

namespace sonolink::transport::sim {
namespace {

TEST(FrameLayoutTest, WholeChannelsPerBlock) {
    Configure c;
    c.channelCount = 128;
    c.samplesPerChannel = 2048;  // 4 KiB per channel
    c.anglesMilliDeg = {-5000, 0, 5000};
    auto layout = planFrameLayout(c, 256 * 1024);
    ASSERT_TRUE(layout) << layout.error().describe();
    EXPECT_EQ(layout->channelsPerBlock, 63);
    EXPECT_EQ(layout->blocks.size(), 3u * 3u);  // 63 + 63 + 2 channels per wave
    EXPECT_EQ(layout->blocks[2].channelCount, 2);
    EXPECT_EQ(layout->blocks[3].wave, 1);
    EXPECT_EQ(layout->blocks[3].frameOffset, 128u * 4096u);
    EXPECT_EQ(layout->frameBytes, 3u * 128u * 4096u);
    std::size_t covered = 0;
    for (const auto& b : layout->blocks) {
        covered += b.payloadBytes;
        EXPECT_LE(b.payloadBytes + 64u, 256u * 1024u);
    }
    EXPECT_EQ(covered, layout->frameBytes);
}

TEST(FrameLayoutTest, SplitsSamplesWhenAChannelDoesNotFit) {
    Configure c;
    c.channelCount = 2;
    c.samplesPerChannel = 10'000;  // 20,000 bytes per channel, slots of 8 KiB
    c.anglesMilliDeg = {0};
    auto layout = planFrameLayout(c, 8192);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->channelsPerBlock, 1);
    const auto perChannel = (8192u - 64u) / 2u;  // 4064 samples
    EXPECT_EQ(layout->blocks.size(), 2u * 3u);
    EXPECT_EQ(layout->blocks[1].firstSample, perChannel);
    EXPECT_EQ(layout->blocks[2].sampleCount, 10'000u - 2 * perChannel);
    EXPECT_EQ(layout->blocks[3].firstChannel, 1);
    EXPECT_EQ(layout->blocks[3].frameOffset, 20'000u);
}

TEST(FrameLayoutTest, PhotoacousticHasOneReceiveEvent) {
    Configure c;
    c.photoacoustic = true;
    c.anglesMilliDeg = {-5000, 0, 5000};
    auto layout = planFrameLayout(c, 1 << 20);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->waves, 1);
}

TEST(FrameLayoutTest, TooManyBlocksIsAClearError) {
    Configure c;
    c.channelCount = 256;
    c.samplesPerChannel = 65536;
    c.anglesMilliDeg = std::vector<std::int32_t>(32, 0);
    auto layout = planFrameLayout(c, 4096);
    ASSERT_FALSE(layout);
    EXPECT_EQ(layout.error().code(), ErrorCode::ResourceExhausted);
    EXPECT_NE(layout.error().message().find("use larger slots"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::transport::sim
