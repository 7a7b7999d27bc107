#include "sonolink/dicom/us_image_writer.h"

#include <cmath>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <fmt/format.h>

#include "codecs.h"
#include "dataset_puts.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {
namespace {

Status validateFrame(const BModeFrame& f, const BModeFrame& first, std::size_t index) {
    if (f.rows <= 0 || f.columns <= 0 || f.rows > 65535 || f.columns > 65535) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame {} of {} x {} pixels: rows and columns must be 1 to 65535", index, f.rows, f.columns));
    }
    if (f.samplesPerPixel != 1 && f.samplesPerPixel != 3) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame {}: {} samples per pixel; 1 (grey) or 3 (RGB)", index, f.samplesPerPixel));
    }
    const auto needed = static_cast<std::size_t>(f.rows) * static_cast<std::size_t>(f.columns) * static_cast<std::size_t>(f.samplesPerPixel);
    if (f.pixels.size() != needed) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame {} holds {} {}, {} x {} need {}", index, f.pixels.size(),
                                                            f.samplesPerPixel == 1 ? "pixels" : "samples", f.rows, f.columns, needed));
    }
    if (!(f.cmPerPixelX > 0) || !(f.cmPerPixelY > 0) || !std::isfinite(f.cmPerPixelX) || !std::isfinite(f.cmPerPixelY)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("frame {}: calibration {} x {} cm per pixel: both must be positive", index, f.cmPerPixelX, f.cmPerPixelY));
    }
    if (f.rows != first.rows || f.columns != first.columns || f.samplesPerPixel != first.samplesPerPixel || f.cmPerPixelX != first.cmPerPixelX ||
        f.cmPerPixelY != first.cmPerPixelY || f.xStartCm != first.xStartCm || f.zStartCm != first.zStartCm) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame {} differs from frame 0 in size, spacing or place (a cine has one geometry)", index));
    }
    return {};
}

Status validateContext(const InstanceContext& c) {
    for (const auto& [uid, what] : {std::pair{&c.study.instanceUid, "Study Instance UID"}, std::pair{&c.series.instanceUid, "Series Instance UID"},
                                    std::pair{&c.sopInstanceUid, "SOP Instance UID"}}) {
        if (auto ok = checkUid(*uid, what); !ok) return ok;
    }
    return {};
}

// General Series' Request Attributes Sequence: the order (from the worklist) this image fulfils.
Status putRequestAttributes(DcmDataset& ds, const InstanceContext& c) {
    const auto& r = c.request;
    if (r.requestedProcedureId.empty() && r.scheduledProcedureStepId.empty()) return {};
    DcmItem* item = nullptr;
    if (ds.findOrCreateSequenceItem(DCM_RequestAttributesSequence, item, 0).bad() || item == nullptr) {
        return fail(ErrorCode::Internal, "cannot create the Request Attributes Sequence");
    }
    Puts put(*item);
    put.string(DCM_RequestedProcedureID, r.requestedProcedureId).string(DCM_ScheduledProcedureStepID, r.scheduledProcedureStepId);
    if (!r.requestedProcedureDescription.empty()) put.string(DCM_RequestedProcedureDescription, r.requestedProcedureDescription);
    if (!r.scheduledProcedureStepDescription.empty()) put.string(DCM_ScheduledProcedureStepDescription, r.scheduledProcedureStepDescription);
    if (!c.study.accessionNumber.empty()) put.string(DCM_AccessionNumber, c.study.accessionNumber);
    put.string(DCM_StudyInstanceUID, c.study.instanceUid);
    return put.status();
}

// Everything but the pixel data and the multi-frame attributes.
Status putCommon(DcmDataset& ds, const InstanceContext& c, const BModeFrame& f, const char* sopClassUid) {
    Puts put(ds);
    putPatientStudyEquipment(put, c, sopClassUid, "US");
    put.string(DCM_BodyPartExamined, c.series.bodyPartExamined);
    if (auto ok = putRequestAttributes(ds, c); !ok) return ok;
    // General Image, US Image, Image Pixel
    put.string(DCM_InstanceNumber, std::to_string(c.instanceNumber))
        .string(DCM_PatientOrientation, "")
        .string(DCM_ContentDate, c.contentDate)
        .string(DCM_ContentTime, c.contentTime)
        .string(DCM_BurnedInAnnotation, f.burnedInAnnotation ? "YES" : "NO")
        .string(DCM_ImageType, (f.derivation.empty() ? "ORIGINAL\\PRIMARY\\" : "DERIVED\\SECONDARY\\") + f.imageTypeValue3 + "\\0001")  // 0001: 2D imaging
        .string(DCM_LossyImageCompression, "00")
        .u16(DCM_SamplesPerPixel, static_cast<Uint16>(f.samplesPerPixel))
        .string(DCM_PhotometricInterpretation, f.samplesPerPixel == 3 ? "RGB" : "MONOCHROME2")
        .u16(DCM_Rows, static_cast<Uint16>(f.rows))
        .u16(DCM_Columns, static_cast<Uint16>(f.columns))
        .u16(DCM_BitsAllocated, 8)
        .u16(DCM_BitsStored, 8)
        .u16(DCM_HighBit, 7)
        .u16(DCM_PixelRepresentation, 0);
    if (f.samplesPerPixel == 3) put.u16(DCM_PlanarConfiguration, 0);
    if (!f.derivation.empty()) put.string(DCM_DerivationDescription, f.derivation);
    if (auto ok = put.status(); !ok) return ok;
    // US Region Calibration: one 2D tissue region over the whole image, cm per pixel.
    DcmItem* region = nullptr;
    if (ds.findOrCreateSequenceItem(DCM_SequenceOfUltrasoundRegions, region, 0).bad() || region == nullptr) {
        return fail(ErrorCode::Internal, "cannot create the Sequence of Ultrasound Regions");
    }
    Puts regionPut(*region);
    regionPut
        .u16(DCM_RegionSpatialFormat, 1)  // 2D
        .u16(DCM_RegionDataType, 1)       // tissue
        .u32(DCM_RegionFlags, 0)
        .u32(DCM_RegionLocationMinX0, 0)
        .u32(DCM_RegionLocationMinY0, 0)
        .u32(DCM_RegionLocationMaxX1, static_cast<Uint32>(f.columns - 1))
        .u32(DCM_RegionLocationMaxY1, static_cast<Uint32>(f.rows - 1))
        .u16(DCM_PhysicalUnitsXDirection, 3)  // cm
        .u16(DCM_PhysicalUnitsYDirection, 3)
        .f64(DCM_PhysicalDeltaX, f.cmPerPixelX)
        .f64(DCM_PhysicalDeltaY, f.cmPerPixelY)
        .s32(DCM_ReferencePixelX0, 0)  // the first pixel, at its physical place
        .s32(DCM_ReferencePixelY0, 0)
        .f64(DCM_ReferencePixelPhysicalValueX, f.xStartCm)
        .f64(DCM_ReferencePixelPhysicalValueY, f.zStartCm);
    return regionPut.status();
}

Status save(DcmFileFormat& file, const std::vector<const BModeFrame*>& frames, const std::string& path, Compression compression) {
    std::vector<std::uint8_t> pixels;
    for (const auto* f : frames) pixels.insert(pixels.end(), f->pixels.begin(), f->pixels.end());
    if (auto c = file.getDataset()->putAndInsertUint8Array(DCM_PixelData, pixels.data(), static_cast<unsigned long>(pixels.size())); c.bad()) {
        return fail(ErrorCode::Internal, fmt::format("cannot set the pixel data: {}", c.text()));
    }
    return saveEncoded(file, path, compression);
}

}  // namespace

std::string transferSyntaxUid(Compression compression) {
    switch (compression) {
        case Compression::Rle: return UID_RLELosslessTransferSyntax;
        case Compression::JpegLs: return UID_JPEGLSLosslessTransferSyntax;
        case Compression::None: break;
    }
    return UID_LittleEndianExplicitTransferSyntax;
}

Status writeUsImage(const std::string& path, const UsImageObject& o, Compression compression) {
    if (auto ok = validateFrame(o.frame, o.frame, 0); !ok) return ok;
    if (auto ok = validateContext(o.context); !ok) return ok;
    DcmFileFormat file;
    if (auto ok = putCommon(*file.getDataset(), o.context, o.frame, UID_UltrasoundImageStorage); !ok) return ok;
    return save(file, {&o.frame}, path, compression);
}

Status writeUsCine(const std::string& path, const UsCineObject& o, Compression compression) {
    if (o.frames.empty()) return fail(ErrorCode::InvalidArgument, "a cine needs at least one frame");
    for (std::size_t i = 0; i < o.frames.size(); ++i) {
        if (auto ok = validateFrame(o.frames[i], o.frames[0], i); !ok) return ok;
    }
    if (!(o.frameTimeMs > 0) || !std::isfinite(o.frameTimeMs))
        return fail(ErrorCode::InvalidArgument, fmt::format("frame time {} ms must be positive", o.frameTimeMs));
    if (auto ok = validateContext(o.context); !ok) return ok;
    DcmFileFormat file;
    DcmDataset& ds = *file.getDataset();
    if (auto ok = putCommon(ds, o.context, o.frames[0], UID_UltrasoundMultiframeImageStorage); !ok) return ok;
    // Multi-frame and Cine: Frame Time (DS, at most 16 characters) and the rate it gives.
    const auto frameTime = fmt::format("{:.6g}", o.frameTimeMs);
    const auto rate = static_cast<long>(std::lround(1000.0 / o.frameTimeMs));
    Puts put(ds);
    put.string(DCM_NumberOfFrames, std::to_string(o.frames.size()))
        .tagKey(DCM_FrameIncrementPointer, DCM_FrameTime)
        .string(DCM_FrameTime, frameTime)
        .string(DCM_CineRate, std::to_string(std::max(rate, 1L)))
        .string(DCM_RecommendedDisplayFrameRate, std::to_string(std::max(rate, 1L)));
    if (auto ok = put.status(); !ok) return ok;
    std::vector<const BModeFrame*> frames;
    for (const auto& f : o.frames) frames.push_back(&f);
    return save(file, frames, path, compression);
}

}  // namespace sonolink::dicom
