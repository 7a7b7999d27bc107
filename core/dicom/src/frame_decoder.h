// What FrameSource needs of DCMTK: the image attributes of a header read on its own (every byte
// before Pixel Data), and one encapsulated frame decoded by DCMTK's codecs (RLE, JPEG-LS) into
// colour-by-pixel samples. Private to sonolink_dicom. Thread contract: pure functions (DCMTK's
// codec registry is set up once, thread-safely).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sonolink/dicom/frame_source.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct PixelDescription {
    FrameFormat format;
    int planarConfiguration = 0;  // 1: colour by plane
};

// `header`: the object's bytes up to Pixel Data's tag. Fails naming `name` for a header DCMTK
// cannot read or image attributes that are missing or out of range.
[[nodiscard]] Result<PixelDescription> parseHeader(std::span<const std::byte> header, const std::string& transferSyntaxUid, const std::string& name);

// The fragments of one frame decoded into `out` (format.frameBytes() bytes, colour by pixel).
[[nodiscard]] Status decodeFrame(const PixelDescription& pixels, const std::vector<std::span<const std::byte>>& fragments, std::span<std::byte> out,
                                 const std::string& what);

// Colour by plane (RRR..GGG..BBB..) to colour by pixel (RGBRGB..), in place through `scratch`.
void interleavePlanes(std::span<std::byte> frame, int samples, int bytesPerSample, std::vector<std::byte>& scratch);

}  // namespace sonolink::dicom
