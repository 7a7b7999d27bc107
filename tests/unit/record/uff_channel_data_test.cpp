#include "sonolink/record/uff_channel_data.h"
#include "sonolink/record/uff_reader.h"
#include "sonolink/record/uff_stream_writer.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>
#include <hdf5.h>

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
                const double tau =
                    (10e-3 * std::cos(d.geometry.angleRad[static_cast<std::size_t>(w)]) + std::hypot(d.geometry.elementX[static_cast<std::size_t>(e)], 10e-3)) /
                    1540;
                for (int k = 0; k < 800; ++k) {
                    const double t = d.geometry.initialTimeS + k / 40e6 - tau;
                    d.data16.push_back(
                        static_cast<std::int16_t>(std::lround((1000 + f) * std::exp(-t * t / (2 * 1e-14)) * std::cos(2 * std::numbers::pi * 5e6 * t))));
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

// Replaces the file's /channel_data/data with an int16 data set of the given shape that holds
// nothing (chunked, unwritten): what a hostile or broken file declares without the bytes.
void declareData(const std::filesystem::path& path, std::vector<hsize_t> dims) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    H5Ldelete(file, "/channel_data/data", H5P_DEFAULT);
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
    std::vector<hsize_t> chunk(dims.size(), 1);
    chunk.back() = 64;
    H5Pset_chunk(properties, static_cast<int>(chunk.size()), chunk.data());
    const hid_t data = H5Dcreate2(file, "/channel_data/data", H5T_STD_I16LE, space, H5P_DEFAULT, properties, H5P_DEFAULT);
    ASSERT_GE(data, 0);
    H5Dclose(data);
    H5Pclose(properties);
    H5Sclose(space);
    H5Fclose(file);
}

// The reported bug: a UFF declaring 10^9 samples aborted the process (an uncaught exception).
TEST_F(UffChannelDataTest, ADeclaredShapeNoRecordingHasIsRefusedBeforeAllocating) {
    ASSERT_TRUE(writeUffChannelData(path.string(), pointTarget()));
    declareData(path, {2, 2, 32, 1'000'000'000});
    auto back = readUffChannelData(path.string());
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(back.error().message().find("1000000000 samples"), std::string::npos) << back.error().message();
}

// Samples past the memory budget are refused with the figures; fewer frames at a time are read.
TEST_F(UffChannelDataTest, FramesPastTheMemoryBudgetAreRefusedAndReadOneAtATime) {
    const auto original = pointTarget();
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    const std::size_t frameBytes = 2u * 32u * 800u * 2u;
    auto all = readUffChannelData(path.string(), "/channel_data", {0, -1, frameBytes + 1});
    ASSERT_FALSE(all);
    EXPECT_EQ(all.error().code(), ErrorCode::ResourceExhausted);
    EXPECT_NE(all.error().message().find("read fewer frames"), std::string::npos) << all.error().message();
    auto second = readUffChannelData(path.string(), "/channel_data", {1, 1, frameBytes});
    ASSERT_TRUE(second) << second.error().message();
    EXPECT_EQ(second->frames, 1);
    EXPECT_EQ(second->firstFrame, 1);
    EXPECT_EQ(second->framesInFile, 2);
    const std::vector<std::int16_t> expected(original.data16.begin() + static_cast<std::ptrdiff_t>(frameBytes / 2), original.data16.end());
    EXPECT_EQ(second->data16, expected) << "exactly the second frame's samples";
    EXPECT_FALSE(readUffChannelData(path.string(), "/channel_data", {2, 1, 0})) << "past the last frame";
}

// Physics no probe has and samples that are no number are refused, named.
TEST_F(UffChannelDataTest, AbsurdPhysicsAndNonFiniteSamplesAreRefusedWithTheReason) {
    auto d = pointTarget();
    d.geometry.soundSpeedMps = 0;
    ASSERT_TRUE(writeUffChannelData(path.string(), d));
    auto back = readUffChannelData(path.string());
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message().find("sound_speed is 0"), std::string::npos) << back.error().message();
    std::filesystem::remove(path);
    d = pointTarget();
    d.dataFloat.assign(d.data16.begin(), d.data16.end());
    d.data16.clear();
    d.dataFloat[1u * 2u * 32u * 800u + 5u * 800u + 7u] = std::numeric_limits<float>::quiet_NaN();  // frame 1, wave 0, channel 5, sample 7
    ASSERT_TRUE(writeUffChannelData(path.string(), d));
    back = readUffChannelData(path.string());
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message().find("frame 1, wave 0, channel 5, sample 7"), std::string::npos) << back.error().message();
}

// Found by fuzz_uff: a chunk index that states another size than the chunk layout made HDF5
// 1.10's H5Dread copy past its buffer (a segfault of the reader). That file's sequence is
// damaged too, which the reader now finds first (it reads the metadata when it opens the file):
// refused, not a crash. The size check itself: ChunksOfAnotherSizeThanTheLayoutAreDamage.
TEST(UffFuzzFindings, AChunkStoredWithAnotherSizeIsRefusedNotACrash) {
    auto read = readUffChannelData(SONOLINK_TEST_DATA_DIR "/uff/fuzz_chunk_size_mismatch.uff");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message().find("fuzz_chunk_size_mismatch.uff:/channel_data"), std::string::npos) << read.error().message();
}

// A frame whose chunk is stored with another size than the layout (written raw with
// H5Dwrite_chunk, as a corrupt chunk index states it): that frame is DataLoss named before
// HDF5 reads it; the other frames still read, through one open reader.
TEST_F(UffChannelDataTest, ChunksOfAnotherSizeThanTheLayoutAreDamage) {
    const auto d = pointTarget();
    ASSERT_TRUE(writeUffChannelData(path.string(), d));
    {
        const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        ASSERT_GE(file, 0);
        ASSERT_GE(H5Ldelete(file, "/channel_data/data", H5P_DEFAULT), 0);
        const hsize_t dims[4] = {2, 2, 32, 800}, chunk[4] = {1, 2, 32, 800};
        const hid_t space = H5Screate_simple(4, dims, nullptr);
        const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(plist, 4, chunk);
        const hid_t data = H5Dcreate2(file, "/channel_data/data", H5T_STD_I16LE, space, H5P_DEFAULT, plist, H5P_DEFAULT);
        ASSERT_GE(data, 0);
        EXPECT_GE(H5Dwrite(data, H5T_NATIVE_INT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.data16.data()), 0);
        const hsize_t second[4] = {1, 0, 0, 0};
        const std::vector<std::int16_t> shortChunk(100, 7);
        EXPECT_GE(H5Dwrite_chunk(data, H5P_DEFAULT, 0, second, shortChunk.size() * 2, shortChunk.data()), 0);
        H5Dclose(data);
        H5Pclose(plist);
        H5Sclose(space);
        H5Fclose(file);
    }
    auto reader = UffReader::open(path.string());
    ASSERT_TRUE(reader) << reader.error().describe();
    auto damaged = reader->read({1, 1, 0});
    ASSERT_FALSE(damaged);
    EXPECT_EQ(damaged.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(damaged.error().message().find("frame 1 is damaged: a chunk of its data is stored as 200 bytes, not 102400"), std::string::npos)
        << damaged.error().message();
    auto whole = reader->read({0, -1, 0});
    ASSERT_FALSE(whole) << "a read of both frames meets the damaged one";
    auto good = reader->read({0, 1, 0});
    ASSERT_TRUE(good) << good.error().describe();
    EXPECT_TRUE(std::equal(good->data16.begin(), good->data16.end(), d.data16.begin()));
    std::vector<std::int16_t> frame(d.geometry.samplesPerFrame());
    ASSERT_TRUE(reader->readFrame16(0, frame));
    EXPECT_TRUE(std::equal(frame.begin(), frame.end(), d.data16.begin()));
    EXPECT_FALSE(reader->readFrame16(1, frame));
    EXPECT_FALSE(reader->readFrame16(2, frame)) << "past the end";
}

// Found by fuzz_uff: 'sound_speed' stored with a corrupt type of 4 GB a value, which made HDF5
// allocate 4 GB to convert it (4.2 GB of RSS for a 35 KB file): refused before the read.
TEST(UffFuzzFindings, AValueTypeNoNumberHasIsRefusedBeforeHdf5ConvertsIt) {
    auto read = readUffChannelData(SONOLINK_TEST_DATA_DIR "/uff/fuzz_huge_value_type.uff");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message().find("is not stored as numbers"), std::string::npos) << read.error().message();
}

// Found by fuzz_uff: an integer type whose precision or offset is corrupt made HDF5's
// conversion read past its buffer (SIGBUS): refused before the read.
TEST(UffFuzzFindings, ATypeWithACorruptPrecisionIsRefused) {
    auto read = readUffChannelData(SONOLINK_TEST_DATA_DIR "/uff/fuzz_bad_type_precision.uff");
    ASSERT_FALSE(read);
    EXPECT_FALSE(read.error().message().empty());
}

// Found by fuzz_uff: a scalar whose stored bytes are fewer than its value needs made HDF5 copy
// from a null pointer (SIGSEGV): refused before the read.
TEST(UffFuzzFindings, AValueStoredInFewerBytesThanItNeedsIsRefused) {
    auto read = readUffChannelData(SONOLINK_TEST_DATA_DIR "/uff/fuzz_short_compact_value.uff");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message().find("stores fewer bytes"), std::string::npos) << read.error().message();
}

TEST(UffFuzzFindings, AbsurdMetadataSizesAreAnError) {
    auto read = readUffChannelData(SONOLINK_TEST_DATA_DIR "/uff/fuzz_absurd_metadata_size.uff");
    ASSERT_FALSE(read);
    EXPECT_FALSE(read.error().message().empty());
}

}  // namespace
}  // namespace sonolink::record
