#include "sonolink/app/cine_review.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "sonolink/app/archive_source.h"

namespace sonolink::app {
namespace {

std::uint8_t clampByte(double v) { return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }

// YBR_FULL (PS3.3 C.7.6.3.1.2) to RGB, in place.
void rgbFromYbrFull(std::vector<std::uint8_t>& pixels) {
    for (std::size_t i = 0; i + 2 < pixels.size(); i += 3) {
        const double y = pixels[i], cb = pixels[i + 1] - 128.0, cr = pixels[i + 2] - 128.0;
        pixels[i] = clampByte(y + 1.402 * cr);
        pixels[i + 1] = clampByte(y - 0.344136 * cb - 0.714136 * cr);
        pixels[i + 2] = clampByte(y + 1.772 * cb);
    }
}

}  // namespace

Result<ReviewFrame> screenFrameOf(const dicom::FrameFormat& f, std::span<const std::byte> decoded) {
    if (decoded.size() < f.frameBytes()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("a frame of {} bytes where {} x {} x {} samples of {} bits need {}", decoded.size(), f.rows,
                                                            f.columns, f.samplesPerPixel, f.bitsAllocated, f.frameBytes()));
    }
    const bool grey = f.samplesPerPixel == 1;
    if (!grey && f.photometric != "RGB" && f.photometric != "YBR_FULL" && f.photometric != "YBR_FULL_422") {
        return fail(ErrorCode::Unimplemented, fmt::format("colour frames are shown from RGB or YBR_FULL; this object's are {}", f.photometric));
    }
    ReviewFrame out;
    out.rows = f.rows;
    out.columns = f.columns;
    out.channels = f.samplesPerPixel;
    const auto count = static_cast<std::size_t>(f.rows) * static_cast<std::size_t>(f.columns) * static_cast<std::size_t>(f.samplesPerPixel);
    out.pixels.resize(count);
    const bool plain = f.bitsAllocated == 8 && f.bitsStored == 8 && !f.signedSamples;
    if (plain) {
        std::memcpy(out.pixels.data(), decoded.data(), count);
    } else {  // the stored bits (below the high bit, signed or not) onto 0..255
        const int stored = f.bitsStored;
        const int shift = f.highBit + 1 - stored;
        const std::uint32_t mask = (1u << stored) - 1;
        const double lowest = f.signedSamples ? -static_cast<double>(1u << (stored - 1)) : 0.0;
        const double scale = 255.0 / static_cast<double>(mask);
        const std::size_t bytes = static_cast<std::size_t>(f.bitsAllocated) / 8;
        for (std::size_t i = 0; i < count; ++i) {
            std::uint16_t raw = 0;
            std::memcpy(&raw, decoded.data() + bytes * i, bytes);  // little endian, as decoded
            const std::uint32_t bits = (static_cast<std::uint32_t>(raw) >> shift) & mask;
            const bool negative = f.signedSamples && (bits >> (stored - 1)) != 0;
            const double value = negative ? static_cast<double>(bits) - static_cast<double>(mask) - 1.0 : static_cast<double>(bits);
            out.pixels[i] = clampByte((value - lowest) * scale);
        }
    }
    if (grey && f.photometric == "MONOCHROME1") {
        for (auto& p : out.pixels) p = static_cast<std::uint8_t>(255 - p);
    }
    if (!grey && f.photometric != "RGB") rgbFromYbrFull(out.pixels);
    return out;
}

Result<CineReview> CineReview::open(const std::string& pathOrUrl, const config::ArchiveSettings& archive) {
    auto source = openSource(pathOrUrl, archive);
    if (!source) return fail(std::move(source.error()));
    auto frames = dicom::FrameSource::open(*source);
    if (!frames) return fail(std::move(frames.error()));
    return CineReview(pathOrUrl, std::move(*frames));
}

Result<ReviewFrame> CineReview::frame(std::uint32_t index) {
    const auto& f = format();
    if (index >= f.frames) return fail(ErrorCode::InvalidArgument, fmt::format("{}: frame {} asked for; the object holds {}", name_, index, f.frames));
    decoded_.resize(f.frameBytes());
    if (auto read = frames_.readFrame(index, decoded_); !read) return fail(std::move(read.error()));
    auto screen = screenFrameOf(f, decoded_);
    if (!screen) return fail(std::move(screen.error()).addContext(fmt::format("{}, frame {}", name_, index)));
    return screen;
}

}  // namespace sonolink::app
