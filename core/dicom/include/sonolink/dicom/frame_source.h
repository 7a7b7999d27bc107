// FrameSource: the frames of a DICOM image (a US Multi-frame cine, or any single- or multi-frame
// image) read in place from a ByteSource, a mapped local file or an S3 object, without loading
// the object: the header is read in blocks and parsed by DCMTK; native frames are read at their
// offsets, encapsulated ones (RLE, JPEG-LS, ...) located through the Extended or Basic Offset
// Table (or, with neither, by walking the fragments once, one a frame) and decoded by DCMTK's
// codecs. A frame costs one read of its own bytes; frames read in order from a remote object
// have the next three fetched meanwhile, on threads of their own. Thread contract: one thread
// at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sonolink/util/byte_source.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

// How the frames were located.
enum class FrameIndex { Native, ExtendedOffsetTable, BasicOffsetTable, Fragments };
[[nodiscard]] const char* frameIndexName(FrameIndex index) noexcept;

struct FrameFormat {
    std::string sopClassUid;
    std::string transferSyntaxUid;
    int rows = 0;
    int columns = 0;
    int samplesPerPixel = 1;     // 1 (MONOCHROME2) or 3 (RGB)
    int bitsAllocated = 8;       // 8 or 16
    int bitsStored = 8;          // of which hold the value,
    int highBit = 7;             // the highest of them
    bool signedSamples = false;  // Pixel Representation 1: two's complement
    std::string photometric;
    std::uint32_t frames = 1;
    double frameTimeMs = 0;  // (0018,1063) when present
    // Whose images these are, as the object says (PN as written; IDs and dates as they are): the
    // review shows them over every frame.
    std::string patientName;
    std::string patientId;
    std::string patientBirthDate;  // YYYYMMDD or empty
    std::string studyDate;
    // mm between columns (across) and between rows (down): the first ultrasound region's
    // calibration (in cm), else Pixel Spacing; 0 when neither states it.
    double pixelSpacingXMm = 0;
    double pixelSpacingYMm = 0;
    // Where the first pixel's centre lies (mm: across from the probe's centre, down from its face),
    // from the first ultrasound region's reference pixel; unset when the object does not say.
    std::optional<double> firstPixelXMm;
    std::optional<double> firstPixelYMm;
    FrameIndex index = FrameIndex::Native;
    std::uint64_t headerBytes = 0;  // everything before Pixel Data
    // One decoded frame: rows x columns x samples (colour by pixel) x bitsAllocated / 8 bytes.
    [[nodiscard]] std::size_t frameBytes() const noexcept;
};

class FrameSource {
public:
    // Reads the header and the offset table; fails naming the object and what is wrong with it.
    [[nodiscard]] static Result<FrameSource> open(std::shared_ptr<ByteSource> source);
    FrameSource(FrameSource&&) noexcept;
    FrameSource& operator=(FrameSource&&) noexcept;
    ~FrameSource();

    [[nodiscard]] const FrameFormat& format() const noexcept;
    [[nodiscard]] std::string name() const;
    // Frame `index` (from 0), decoded into `out` (format().frameBytes() bytes, colour by pixel).
    [[nodiscard]] Status readFrame(std::uint32_t index, std::span<std::byte> out);
    // The bytes of the object frame `index` is read from (for a test or a progress line).
    struct Extent {
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
    };
    [[nodiscard]] Result<Extent> frameExtent(std::uint32_t index) const;

private:
    struct Impl;
    explicit FrameSource(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace sonolink::dicom
