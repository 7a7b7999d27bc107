#include "sonolink/record/uff_channel_data.h"
#include "sonolink/record/uff_stream_writer.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::record {
namespace {

UffChannelData pointTarget() {
    UffChannelData d;
    d.geometry.samplingRateHz = 40e6;
    d.geometry.initialTimeS = 1e-6;
    d.frames = 2;
    d.geometry.waves = 2;
    d.geometry.channels = 32;
    d.geometry.samples = 800;
    for (int e = 0; e < 32; ++e) d.geometry.elementX.push_back((e - 15.5) * 0.3e-3);
    d.geometry.angleRad = {-0.1, 0.1};
    for (int f = 0; f < 2; ++f) {
        for (int w = 0; w < 2; ++w) {
            for (int e = 0; e < 32; ++e) {
                const double tau = (10e-3 * std::cos(d.geometry.angleRad[static_cast<std::size_t>(w)]) + std::hypot(d.geometry.elementX[static_cast<std::size_t>(e)], 10e-3)) / 1540;
                for (int k = 0; k < 800; ++k) {
                    const double t = d.geometry.initialTimeS + k / 40e6 - tau;
                    d.data16.push_back(static_cast<std::int16_t>(std::lround((1000 + f) * std::exp(-t * t / (2 * 1e-14)) * std::cos(2 * std::numbers::pi * 5e6 * t))));
                }
            }
        }
    }
    return d;
}

class UffChannelDataTest : public ::testing::Test {
protected:
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("sonolink_uff_test_" + std::to_string(::getpid()) + ".uff");
    void TearDown() override { std::filesystem::remove(path); }
};

TEST_F(UffChannelDataTest, RoundTripKeepsEverySampleAndBeamformsTheSame) {
    const auto original = pointTarget();
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    auto back = readUffChannelData(path.string());
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->data16, original.data16);
    EXPECT_EQ(back->geometry.elementX, original.geometry.elementX);
    EXPECT_EQ(back->geometry.angleRad, original.geometry.angleRad);
    EXPECT_DOUBLE_EQ(back->geometry.initialTimeS, original.geometry.initialTimeS);
    const auto grid = beamform::PixelGrid::fromRanges(-2e-3, 2e-3, 9, 8e-3, 12e-3, 41);
    for (int f = 0; f < 2; ++f) {
        auto a = beamform::delayAndSum(*original.frame(f), grid, {});
        auto b = beamform::delayAndSum(*back->frame(f), grid, {});
        ASSERT_TRUE(a && b);
        EXPECT_EQ(a->columns, b->columns);
    }
    // Writing again replaces the group, it does not fail or append.
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    EXPECT_TRUE(readUffChannelData(path.string()));
}

TEST_F(UffChannelDataTest, ARecordingNeverOverwritesAFileAndLeavesNothingBehindWhenRefused) {
    const auto original = pointTarget();
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    const auto size = std::filesystem::file_size(path);
    auto writer = UffStreamWriter::create(path.string(), original.geometry);
    ASSERT_FALSE(writer);
    EXPECT_EQ(writer.error().code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(writer.error().message().find("exists already"), std::string::npos) << writer.error().message();
    EXPECT_EQ(std::filesystem::file_size(path), size) << "the file there is untouched";
    ASSERT_TRUE(readUffChannelData(path.string()));
    auto bad = original.geometry;
    bad.angleRad.pop_back();  // inconsistent: refused before anything is created
    const auto fresh = path.string() + ".new.uff";
    EXPECT_FALSE(UffStreamWriter::create(fresh, bad));
    EXPECT_FALSE(std::filesystem::exists(fresh));
    EXPECT_FALSE(std::filesystem::exists(fresh + ".reserve"));
}

TEST_F(UffChannelDataTest, InconsistentDataIsNotWritten) {
    auto d = pointTarget();
    d.geometry.angleRad.pop_back();
    auto written = writeUffChannelData(path.string(), d);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message().find("inconsistent channel data"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path));
}

// Focused and diverging waves (USTB wavefront 1, source distance > 0 or < 0) keep their sources,
// beside plane waves in the same sequence; a distance per wave or none.
TEST_F(UffChannelDataTest, FocusedAndDivergingWavesKeepTheirSources) {
    auto d = pointTarget();
    d.geometry.sourceDistance = {20e-3, -15e-3};
    ASSERT_TRUE(writeUffChannelData(path.string(), d));
    auto back = readUffChannelData(path.string());
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->geometry.sourceDistance, d.geometry.sourceDistance);
    auto view = back->frame(0);
    ASSERT_TRUE(view);
    EXPECT_EQ(view->geometry->sourceDistance.size(), 2u);
    d.geometry.sourceDistance = {20e-3, std::numeric_limits<double>::infinity()};  // one focused, one plane
    ASSERT_TRUE(writeUffChannelData(path.string(), d));
    back = readUffChannelData(path.string());
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->geometry.sourceDistance, d.geometry.sourceDistance);
    d.geometry.sourceDistance = {20e-3};
    auto written = writeUffChannelData(path.string(), d);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message().find("1 source distances for 2 waves"), std::string::npos) << written.error().message();
}

TEST_F(UffChannelDataTest, FrameOutOfRange) {
    const auto d = pointTarget();
    EXPECT_FALSE(d.frame(2));
    EXPECT_FALSE(d.frame(-1));
}

}  // namespace
}  // namespace sonolink::record
