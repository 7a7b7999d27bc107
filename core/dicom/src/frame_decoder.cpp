#include "frame_decoder.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcistrmb.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcpxitem.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include <cstring>
#include <string>

#include <fmt/format.h>

#include "codecs.h"

namespace sonolink::dicom {
namespace {

constexpr std::size_t kMaxFrameBytes = std::size_t{1} << 30;

int intOf(DcmItem& item, const DcmTagKey& key, int otherwise) {
    Uint16 v = 0;
    if (item.findAndGetUint16(key, v).good()) return v;
    return otherwise;
}

// An RLE frame (PS3.5 Annex G) checked before DCMTK decodes it: its header names one segment a
// byte of each sample, and each segment decodes (PackBits) to at least rows x columns bytes
// without running past its end (what follows is padding). DCMTK's decoder fills what a damaged
// segment lacks with zeros and succeeds; a frame of wrong pixels must be an error instead.
Status checkRle(const PixelDescription& p, std::span<const std::byte> frame, const std::string& what) {
    const auto byteAt = [&](std::size_t i) { return std::to_integer<std::uint8_t>(frame[i]); };
    const auto u32 = [&](std::size_t at) {
        return static_cast<std::uint32_t>(byteAt(at) | (byteAt(at + 1) << 8) | (byteAt(at + 2) << 16)) | (static_cast<std::uint32_t>(byteAt(at + 3)) << 24);
    };
    const auto& f = p.format;
    const std::uint32_t segments = static_cast<std::uint32_t>(f.samplesPerPixel * f.bitsAllocated / 8);
    if (frame.size() < 64 || u32(0) != segments) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: the RLE header names {} segments, {} expected: the object is damaged there", what,
                                                     frame.size() < 64 ? 0 : u32(0), segments));
    }
    const std::uint64_t expected = static_cast<std::uint64_t>(f.rows) * static_cast<std::uint64_t>(f.columns);
    for (std::uint32_t k = 0; k < segments; ++k) {
        const std::size_t begin = u32(4 + 4 * k), end = k + 1 < segments ? u32(8 + 4 * k) : frame.size();
        if (begin < 64 || end < begin || end > frame.size()) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: RLE segment {} lies at bytes {}-{} of a {}-byte frame: the object is damaged there", what, k,
                                                         begin, end, frame.size()));
        }
        std::uint64_t decoded = 0;  // up to rows x columns; what follows (padding) is not read
        bool overran = false;
        for (std::size_t at = begin; at < end && decoded < expected;) {
            const auto n = static_cast<std::int8_t>(byteAt(at++));
            if (n >= 0) {  // n + 1 literal bytes
                at += static_cast<std::size_t>(n) + 1;
                decoded += static_cast<std::uint64_t>(n) + 1;
                overran = at > end;
            } else if (n != -128) {  // the next byte 1 - n times
                overran = at >= end;
                ++at;
                decoded += static_cast<std::uint64_t>(1 - n);
            }
        }
        if (decoded < expected || overran) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: RLE segment {} {}, {} bytes expected: the object is damaged there", what, k,
                                                         overran ? "runs past its end" : fmt::format("decodes to {} bytes", decoded), expected));
        }
    }
    return {};
}

// The pixel spacing in mm: the first ultrasound region's calibration when it is in cm (units
// 3), else Pixel Spacing (between rows, then between columns).
void readPixelSpacing(DcmDataset& ds, FrameFormat& f) {
    DcmItem* region = nullptr;
    if (ds.findAndGetSequenceItem(DCM_SequenceOfUltrasoundRegions, region, 0).good() && region != nullptr) {
        Float64 dx = 0, dy = 0;
        if (intOf(*region, DCM_PhysicalUnitsXDirection, 0) == 3 && intOf(*region, DCM_PhysicalUnitsYDirection, 0) == 3 &&
            region->findAndGetFloat64(DCM_PhysicalDeltaX, dx).good() && region->findAndGetFloat64(DCM_PhysicalDeltaY, dy).good() && dx > 0 && dy > 0) {
            f.pixelSpacingXMm = dx * 10;
            f.pixelSpacingYMm = dy * 10;
            // Pixel (c, r) lies at x = X + (c - minX0 - X0) dx, where (X0, Y0) is the reference
            // pixel, relative to the region's corner (minX0, minY0), at (X, Y).
            Uint32 minX0 = 0, minY0 = 0;
            Sint32 x0 = 0, y0 = 0;
            Float64 x = 0, y = 0;
            if (region->findAndGetUint32(DCM_RegionLocationMinX0, minX0).good() && region->findAndGetUint32(DCM_RegionLocationMinY0, minY0).good() &&
                region->findAndGetSint32(DCM_ReferencePixelX0, x0).good() && region->findAndGetSint32(DCM_ReferencePixelY0, y0).good() &&
                region->findAndGetFloat64(DCM_ReferencePixelPhysicalValueX, x).good() &&
                region->findAndGetFloat64(DCM_ReferencePixelPhysicalValueY, y).good()) {
                f.firstPixelXMm = (x - (static_cast<double>(minX0) + x0) * dx) * 10;
                f.firstPixelYMm = (y - (static_cast<double>(minY0) + y0) * dy) * 10;
            }
            return;
        }
    }
    Float64 betweenRows = 0, betweenColumns = 0;
    if (ds.findAndGetFloat64(DCM_PixelSpacing, betweenRows, 0).good() && ds.findAndGetFloat64(DCM_PixelSpacing, betweenColumns, 1).good() && betweenRows > 0 &&
        betweenColumns > 0) {
        f.pixelSpacingXMm = betweenColumns;
        f.pixelSpacingYMm = betweenRows;
    }
}

// A format this reader takes, one whose frames fit what its header says: DataLoss for a damaged
// header, Unimplemented for what is not read here.
Status checkReadable(const FrameFormat& f, const std::string& name) {
    if (f.rows < 1 || f.columns < 1) return fail(ErrorCode::DataLoss, fmt::format("{}: Rows and Columns must be set ({} x {})", name, f.rows, f.columns));
    if (f.bitsAllocated != 8 && f.bitsAllocated != 16) {
        return fail(ErrorCode::Unimplemented, fmt::format("{}: {} bits allocated a sample; frames are read at 8 or 16", name, f.bitsAllocated));
    }
    if (f.samplesPerPixel != 1 && f.samplesPerPixel != 3) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: Samples per Pixel is {}; 1 or 3 expected", name, f.samplesPerPixel));
    }
    if (f.bitsStored < 1 || f.bitsStored > f.bitsAllocated || f.highBit < f.bitsStored - 1 || f.highBit >= f.bitsAllocated) {
        return fail(ErrorCode::DataLoss,
                    fmt::format("{}: {} bits stored, high bit {}, do not fit {} bits allocated", name, f.bitsStored, f.highBit, f.bitsAllocated));
    }
    // Chroma subsampled by two (YBR_FULL_422, YBR_PARTIAL_422/420): a frame is not rows x columns x 3
    // samples, and none of the codecs here outputs it.
    if (f.photometric.find("_42") != std::string::npos) {
        return fail(ErrorCode::Unimplemented, fmt::format("{}: frames of {} (colour subsampled) are not read", name, f.photometric));
    }
    if (f.frameBytes() > kMaxFrameBytes) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: a frame of {} x {} x {} samples of {} bits is over {} MiB: a damaged header", name, f.rows, f.columns,
                                                     f.samplesPerPixel, f.bitsAllocated, kMaxFrameBytes >> 20));
    }
    return {};
}

}  // namespace

Result<PixelDescription> parseHeader(std::span<const std::byte> header, const std::string& transferSyntaxUid, const std::string& name) {
    DcmInputBufferStream in;
    in.setBuffer(header.data(), static_cast<offile_off_t>(header.size()));
    in.setEos();
    DcmFileFormat file;
    file.transferInit();
    const OFCondition read = file.read(in, EXS_Unknown, EGL_noChange, DCM_MaxReadLength);
    file.transferEnd();
    if (read.bad()) return fail(ErrorCode::DataLoss, fmt::format("{}: the header ({} bytes) cannot be read: {}", name, header.size(), read.text()));
    DcmDataset& ds = *file.getDataset();
    PixelDescription p;
    auto& f = p.format;
    f.transferSyntaxUid = transferSyntaxUid;
    OFString text;
    if (ds.findAndGetOFString(DCM_SOPClassUID, text).good()) f.sopClassUid = text.c_str();
    if (ds.findAndGetOFString(DCM_PhotometricInterpretation, text).good()) f.photometric = text.c_str();
    f.rows = intOf(ds, DCM_Rows, 0);
    f.columns = intOf(ds, DCM_Columns, 0);
    f.samplesPerPixel = intOf(ds, DCM_SamplesPerPixel, 1);
    f.bitsAllocated = intOf(ds, DCM_BitsAllocated, 0);
    f.bitsStored = intOf(ds, DCM_BitsStored, f.bitsAllocated);
    f.highBit = intOf(ds, DCM_HighBit, f.bitsStored - 1);
    f.signedSamples = intOf(ds, DCM_PixelRepresentation, 0) == 1;
    p.planarConfiguration = intOf(ds, DCM_PlanarConfiguration, 0);
    Sint32 frames = 1;
    if (ds.tagExists(DCM_NumberOfFrames)) {
        if (ds.findAndGetSint32(DCM_NumberOfFrames, frames).bad() || frames < 1) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: Number of Frames (0028,0008) is not a positive number", name));
        }
    }
    f.frames = static_cast<std::uint32_t>(frames);
    Float64 frameTime = 0;
    if (ds.findAndGetFloat64(DCM_FrameTime, frameTime).good()) f.frameTimeMs = frameTime;
    if (ds.findAndGetOFString(DCM_PatientName, text).good()) f.patientName = text.c_str();
    if (ds.findAndGetOFString(DCM_PatientID, text).good()) f.patientId = text.c_str();
    if (ds.findAndGetOFString(DCM_PatientBirthDate, text).good()) f.patientBirthDate = text.c_str();
    if (ds.findAndGetOFString(DCM_StudyDate, text).good()) f.studyDate = text.c_str();
    readPixelSpacing(ds, f);
    if (auto ok = checkReadable(f, name); !ok) return fail(std::move(ok.error()));
    f.headerBytes = header.size();
    return p;
}

Status decodeFrame(const PixelDescription& p, const std::vector<std::span<const std::byte>>& fragments, std::span<std::byte> out, const std::string& what) {
    registerCodecs();
    const auto& f = p.format;
    const DcmXfer xfer(f.transferSyntaxUid.c_str());
    if (xfer.getXfer() == EXS_Unknown)
        return fail(ErrorCode::Unimplemented, fmt::format("{}: transfer syntax {} is unknown to DCMTK", what, f.transferSyntaxUid));
    if (xfer.getXfer() == EXS_RLELossless) {  // one fragment a frame (PS3.5 G.2)
        if (fragments.size() != 1) return fail(ErrorCode::DataLoss, fmt::format("{}: {} fragments; an RLE frame is one", what, fragments.size()));
        if (auto ok = checkRle(p, fragments.front(), what); !ok) return ok;
    }
    DcmDataset ds;
    ds.putAndInsertUint16(DCM_Rows, static_cast<Uint16>(f.rows));
    ds.putAndInsertUint16(DCM_Columns, static_cast<Uint16>(f.columns));
    ds.putAndInsertUint16(DCM_SamplesPerPixel, static_cast<Uint16>(f.samplesPerPixel));
    ds.putAndInsertOFStringArray(DCM_PhotometricInterpretation, f.photometric.c_str());
    ds.putAndInsertUint16(DCM_BitsAllocated, static_cast<Uint16>(f.bitsAllocated));
    ds.putAndInsertUint16(DCM_BitsStored, static_cast<Uint16>(f.bitsStored));
    ds.putAndInsertUint16(DCM_HighBit, static_cast<Uint16>(f.highBit));
    ds.putAndInsertUint16(DCM_PixelRepresentation, static_cast<Uint16>(f.signedSamples ? 1 : 0));
    if (f.samplesPerPixel > 1) ds.putAndInsertUint16(DCM_PlanarConfiguration, static_cast<Uint16>(p.planarConfiguration));
    ds.putAndInsertString(DCM_NumberOfFrames, "1");
    auto* sequence = new DcmPixelSequence(DCM_PixelSequenceTag);
    sequence->insert(new DcmPixelItem(DcmTag(DCM_Item, EVR_OB)));  // an empty offset table: one frame
    for (const auto& fragment : fragments) {
        auto* item = new DcmPixelItem(DcmTag(DCM_Item, EVR_OB));
        item->putUint8Array(reinterpret_cast<const Uint8*>(fragment.data()), static_cast<unsigned long>(fragment.size()));
        sequence->insert(item);
    }
    auto* pixelData = new DcmPixelData(DCM_PixelData);
    pixelData->putOriginalRepresentation(xfer.getXfer(), nullptr, sequence);
    ds.insert(pixelData);
    if (auto c = ds.chooseRepresentation(EXS_LittleEndianExplicit, nullptr); c.bad() || !ds.canWriteXfer(EXS_LittleEndianExplicit)) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: cannot be decoded from {}: {}", what, xfer.getXferName(), c.bad() ? c.text() : "no codec"));
    }
    const Uint8* decoded = nullptr;
    if (auto c = pixelData->getUint8Array(const_cast<Uint8*&>(decoded)); c.bad() || decoded == nullptr) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: the decoded frame has no pixels: {}", what, c.text()));
    }
    if (pixelData->getLength() < out.size()) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: decoded to {} bytes, {} expected", what, pixelData->getLength(), out.size()));
    }
    std::memcpy(out.data(), decoded, out.size());
    if (f.samplesPerPixel > 1 && intOf(ds, DCM_PlanarConfiguration, 0) == 1) {
        std::vector<std::byte> scratch;
        interleavePlanes(out, f.samplesPerPixel, f.bitsAllocated / 8, scratch);
    }
    return {};
}

void interleavePlanes(std::span<std::byte> frame, int samples, int bytesPerSample, std::vector<std::byte>& scratch) {
    const std::size_t plane = frame.size() / static_cast<std::size_t>(samples);
    const std::size_t pixels = plane / static_cast<std::size_t>(bytesPerSample);
    scratch.assign(frame.begin(), frame.end());
    for (std::size_t i = 0; i < pixels; ++i) {
        for (int s = 0; s < samples; ++s) {
            std::memcpy(frame.data() + (i * static_cast<std::size_t>(samples) + static_cast<std::size_t>(s)) * static_cast<std::size_t>(bytesPerSample),
                        scratch.data() + static_cast<std::size_t>(s) * plane + i * static_cast<std::size_t>(bytesPerSample),
                        static_cast<std::size_t>(bytesPerSample));
        }
    }
}

}  // namespace sonolink::dicom
