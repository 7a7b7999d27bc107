// CineReview: a DICOM image or cine opened for review in the console (sonolink --cine), a local
// file or an s3:// object read in place frame by frame (dicom::FrameSource: the next frames
// fetched ahead when read in order), each frame turned into what a screen shows: 8-bit grey
// (MONOCHROME1 inverted; samples of fewer stored bits, 16-bit or signed, scaled from their stored
// range) or 8-bit RGB (YBR_FULL converted).
// Thread contract: one thread at a time (the console reads on a thread of its own).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sonolink/config/app_config.h"
#include "sonolink/dicom/frame_source.h"

namespace sonolink::app {

struct ReviewFrame {
    int rows = 0;
    int columns = 0;
    int channels = 1;                  // 1: grey; 3: RGB by pixel
    std::vector<std::uint8_t> pixels;  // rows x columns x channels
};

class CineReview {
public:
    // Reads the object's header and offset table (the first frame's bytes only, remotely);
    // fails naming the object and what is wrong with it.
    [[nodiscard]] static Result<CineReview> open(const std::string& pathOrUrl, const config::ArchiveSettings& archive);

    [[nodiscard]] const dicom::FrameFormat& format() const noexcept { return frames_.format(); }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    // Frame index (from 0) as a screen shows it; fails naming the object and the frame.
    [[nodiscard]] Result<ReviewFrame> frame(std::uint32_t index);

private:
    CineReview(std::string name, dicom::FrameSource frames) : name_(std::move(name)), frames_(std::move(frames)) {}
    std::string name_;
    dicom::FrameSource frames_;
    std::vector<std::byte> decoded_;
};

// Samples as decoded (format: layout, bits, photometric) made 8-bit for a screen.
[[nodiscard]] Result<ReviewFrame> screenFrameOf(const dicom::FrameFormat& format, std::span<const std::byte> decoded);

}  // namespace sonolink::app
