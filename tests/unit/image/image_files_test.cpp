// The image writers, read back byte by byte as NumPy and PNG readers read them: the .npy header
// (magic, version 1.0, the dict, 64-byte alignment) and float32 data; the PNG's signature,
// chunk CRCs, IHDR and the inflated rows (filter byte 0, levels mapped from [low, high]).
#include "sonolink/image/image_files.h"

#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::image {
namespace {

std::vector<std::uint8_t> readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t bigEndian(const std::uint8_t* p) { return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3]; }

class ImageFilesTest : public ::testing::Test {
protected:
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("sonolink_image_" + std::to_string(::getpid()));
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
};

TEST_F(ImageFilesTest, NpyIsVersionOneFloat32RowMajorWithAnAlignedHeader) {
    const std::vector<float> values{0.5f, -1.0f, 2.0f, 3.25f, 4.0f, 5.0f};
    ASSERT_TRUE(writeNpy((dir / "a.npy").string(), values, 2, 3));
    const auto bytes = readAll(dir / "a.npy");
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(std::memcmp(bytes.data(), "\x93NUMPY\x01\x00", 8), 0);
    const std::size_t headerLength = bytes[8] | (bytes[9] << 8);
    EXPECT_EQ((10 + headerLength) % 64, 0u) << "data aligned as NumPy writes it";
    const std::string header(bytes.begin() + 10, bytes.begin() + 10 + static_cast<std::ptrdiff_t>(headerLength));
    EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u) << header;
    EXPECT_EQ(header.back(), '\n');
    ASSERT_EQ(bytes.size(), 10 + headerLength + values.size() * 4);
    std::vector<float> back(values.size());
    std::memcpy(back.data(), bytes.data() + 10 + headerLength, values.size() * 4);
    EXPECT_EQ(back, values);
}

TEST_F(ImageFilesTest, PngIsEightBitGreyWithValidChunksAndTheLevelsAsGiven) {
    const std::vector<std::uint8_t> levels{0, 128, 255, 255, 0, 64};
    ASSERT_TRUE(writePng((dir / "a.png").string(), levels, 2, 3));
    const auto bytes = readAll(dir / "a.png");
    ASSERT_GE(bytes.size(), 8u);
    EXPECT_EQ(std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8), 0);
    std::size_t at = 8;
    std::vector<std::uint8_t> idat;
    std::vector<std::string> types;
    std::uint32_t width = 0, height = 0;
    while (at + 12 <= bytes.size()) {
        const auto length = bigEndian(&bytes[at]);
        const std::string type(bytes.begin() + static_cast<std::ptrdiff_t>(at + 4), bytes.begin() + static_cast<std::ptrdiff_t>(at + 8));
        ASSERT_LE(at + 12 + length, bytes.size());
        const auto crc = crc32(0, &bytes[at + 4], static_cast<uInt>(4 + length));
        EXPECT_EQ(crc, bigEndian(&bytes[at + 8 + length])) << type << ": bad CRC";
        types.push_back(type);
        if (type == "IHDR") {
            width = bigEndian(&bytes[at + 8]);
            height = bigEndian(&bytes[at + 12]);
            EXPECT_EQ(bytes[at + 16], 8) << "bit depth";
            EXPECT_EQ(bytes[at + 17], 0) << "greyscale";
        }
        if (type == "IDAT")
            idat.insert(idat.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at + 8), bytes.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
        at += 12 + length;
    }
    EXPECT_EQ(types, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
    EXPECT_EQ(width, 3u);
    EXPECT_EQ(height, 2u);
    std::vector<std::uint8_t> raw(2 * (3 + 1));
    uLongf rawSize = raw.size();
    ASSERT_EQ(uncompress(raw.data(), &rawSize, idat.data(), static_cast<uLong>(idat.size())), Z_OK);
    ASSERT_EQ(rawSize, raw.size());
    EXPECT_EQ(raw, (std::vector<std::uint8_t>{0, 0, 128, 255, 0, 255, 0, 64})) << "filter 0, then the levels";
}

TEST_F(ImageFilesTest, AShapeThatDoesNotFitOrAPathThatCannotBeWrittenIsAnError) {
    const std::vector<float> values(5, 0.0f);
    auto npy = writeNpy((dir / "b.npy").string(), values, 2, 3);
    ASSERT_FALSE(npy);
    EXPECT_NE(npy.error().message().find("5 values for a 2 x 3 image"), std::string::npos);
    ASSERT_FALSE(writePng((dir / "c.png").string(), std::vector<std::uint8_t>(5, 0), 2, 3));
    auto png = writePng((dir / "missing" / "b.png").string(), std::vector<std::uint8_t>(6, 0), 2, 3);
    ASSERT_FALSE(png);
    EXPECT_NE(png.error().message().find("cannot create"), std::string::npos) << png.error().message();
}

}  // namespace
}  // namespace sonolink::image
