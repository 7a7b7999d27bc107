#include "sonolink/image/image_files.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <zlib.h>

namespace sonolink::image {
namespace {

Status finish(std::ofstream& out, const std::string& path) {
    out.flush();
    if (!out) return fail(ErrorCode::DataLoss, fmt::format("writing {} failed (disk full or no permission?)", path));
    return {};
}

void putBigEndian(std::vector<std::uint8_t>& out, std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(value >> shift));
}

void writeChunk(std::ofstream& out, const char* type, const std::vector<std::uint8_t>& data) {
    std::vector<std::uint8_t> chunk;
    putBigEndian(chunk, static_cast<std::uint32_t>(data.size()));
    chunk.insert(chunk.end(), type, type + 4);
    chunk.insert(chunk.end(), data.begin(), data.end());
    const auto crc = crc32(0, chunk.data() + 4, static_cast<uInt>(chunk.size() - 4));
    putBigEndian(chunk, static_cast<std::uint32_t>(crc));
    out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(chunk.size()));
}

}  // namespace

Status writeNpy(const std::string& path, std::span<const float> rowMajor, std::size_t rows, std::size_t columns) {
    if (rowMajor.size() != rows * columns)
        return fail(ErrorCode::InvalidArgument, fmt::format("{} values for a {} x {} image", rowMajor.size(), rows, columns));
    std::ofstream out(path, std::ios::binary);
    if (!out) return fail(ErrorCode::Unavailable, fmt::format("cannot create {}", path));
    // NPY 1.0: magic, version, header length, a dict padded with spaces to a multiple of 64.
    std::string header = fmt::format("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}, {}), }}", rows, columns);
    const std::size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header.push_back('\n');
    const std::array<char, 8> magic{'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(magic.data(), magic.size());
    const auto length = static_cast<std::uint16_t>(header.size());
    const char lengthBytes[2] = {static_cast<char>(length & 0xFF), static_cast<char>(length >> 8)};
    out.write(lengthBytes, 2);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(rowMajor.data()), static_cast<std::streamsize>(rowMajor.size() * sizeof(float)));
    return finish(out, path);
}

namespace {

// A PNG of rows x columns pixels of `channels` bytes each (1: grey, 3: RGB), row-major.
Status writePngOf(const std::string& path, std::span<const std::uint8_t> rowMajor, std::size_t rows, std::size_t columns, std::size_t channels) {
    const std::size_t rowBytes = columns * channels;
    if (rowMajor.size() != rows * rowBytes || rows == 0 || columns == 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} values for a {} x {} image of {} channel(s)", rowMajor.size(), rows, columns, channels));
    }
    std::vector<std::uint8_t> raw;  // each row: filter byte 0, then the pixels
    raw.reserve(rows * (rowBytes + 1));
    for (std::size_t r = 0; r < rows; ++r) {
        raw.push_back(0);
        raw.insert(raw.end(), rowMajor.begin() + static_cast<std::ptrdiff_t>(r * rowBytes), rowMajor.begin() + static_cast<std::ptrdiff_t>((r + 1) * rowBytes));
    }
    uLongf compressedSize = compressBound(static_cast<uLong>(raw.size()));
    std::vector<std::uint8_t> compressed(compressedSize);
    if (compress2(compressed.data(), &compressedSize, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK) {
        return fail(ErrorCode::Internal, "zlib could not compress the image");
    }
    compressed.resize(compressedSize);
    std::ofstream out(path, std::ios::binary);
    if (!out) return fail(ErrorCode::Unavailable, fmt::format("cannot create {}", path));
    const std::array<unsigned char, 8> signature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    out.write(reinterpret_cast<const char*>(signature.data()), signature.size());
    std::vector<std::uint8_t> ihdr;
    putBigEndian(ihdr, static_cast<std::uint32_t>(columns));
    putBigEndian(ihdr, static_cast<std::uint32_t>(rows));
    const auto colourType = static_cast<std::uint8_t>(channels == 3 ? 2 : 0);  // truecolour or greyscale
    ihdr.insert(ihdr.end(), {8, colourType, 0, 0, 0});                         // 8-bit, deflate, no filter, no interlace
    writeChunk(out, "IHDR", ihdr);
    writeChunk(out, "IDAT", compressed);
    writeChunk(out, "IEND", {});
    return finish(out, path);
}

}  // namespace

Status writePng(const std::string& path, std::span<const std::uint8_t> rowMajor, std::size_t rows, std::size_t columns) {
    return writePngOf(path, rowMajor, rows, columns, 1);
}

Status writePngRgb(const std::string& path, std::span<const std::uint8_t> rgb, std::size_t rows, std::size_t columns) {
    return writePngOf(path, rgb, rows, columns, 3);
}

}  // namespace sonolink::image
