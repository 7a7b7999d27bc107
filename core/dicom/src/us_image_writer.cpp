#include "sonolink/dicom/us_image_writer.h"

#include <cmath>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <fmt/format.h>

#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {
namespace {

Status validate(const UsImageObject& o) {
    const auto& f = o.frame;
    if (f.rows <= 0 || f.columns <= 0 || f.rows > 65535 || f.columns > 65535) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame of {} x {} pixels: rows and columns must be 1 to 65535", f.rows, f.columns));
    }
    if (f.pixels.size() != static_cast<std::size_t>(f.rows) * static_cast<std::size_t>(f.columns)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame holds {} pixels, {} x {} need {}", f.pixels.size(), f.rows, f.columns,
                                                            static_cast<std::size_t>(f.rows) * static_cast<std::size_t>(f.columns)));
    }
    if (!(f.cmPerPixelX > 0) || !(f.cmPerPixelY > 0) || !std::isfinite(f.cmPerPixelX) || !std::isfinite(f.cmPerPixelY)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("calibration {} x {} cm per pixel: both must be positive", f.cmPerPixelX, f.cmPerPixelY));
    }
    for (const auto& [uid, what] : {std::pair{&o.study.instanceUid, "Study Instance UID"}, std::pair{&o.series.instanceUid, "Series Instance UID"},
                                    std::pair{&o.sopInstanceUid, "SOP Instance UID"}}) {
        if (auto ok = checkUid(*uid, what); !ok) return ok;
    }
    return {};
}

// Collects the first failure of a chain of DCMTK puts, naming the attribute.
class Puts {
public:
    explicit Puts(DcmItem& item) : item_(item) {}
    Puts& string(const DcmTagKey& tag, const std::string& value) { return check(item_.putAndInsertString(tag, value.c_str()), tag); }
    Puts& u16(const DcmTagKey& tag, Uint16 value) { return check(item_.putAndInsertUint16(tag, value), tag); }
    Puts& u32(const DcmTagKey& tag, Uint32 value) { return check(item_.putAndInsertUint32(tag, value), tag); }
    Puts& s32(const DcmTagKey& tag, Sint32 value) { return check(item_.putAndInsertSint32(tag, value), tag); }
    Puts& f64(const DcmTagKey& tag, Float64 value) { return check(item_.putAndInsertFloat64(tag, value), tag); }
    [[nodiscard]] Status status() const { return status_; }

private:
    Puts& check(const OFCondition& condition, const DcmTagKey& tag) {
        if (condition.bad() && status_) {
            status_ = fail(ErrorCode::InvalidArgument, fmt::format("cannot set {}: {}", DcmTag(tag).getTagName(), condition.text()));
        }
        return *this;
    }
    DcmItem& item_;
    Status status_;
};

}  // namespace

Status writeUsImage(const std::string& path, const UsImageObject& o) {
    if (auto ok = validate(o); !ok) return ok;
    DcmFileFormat file;
    DcmDataset& ds = *file.getDataset();
    const auto& f = o.frame;
    Puts put(ds);
    // SOP Common
    put.string(DCM_SpecificCharacterSet, "ISO_IR 192")
        .string(DCM_SOPClassUID, UID_UltrasoundImageStorage)
        .string(DCM_SOPInstanceUID, o.sopInstanceUid)
        .string(DCM_InstanceCreationDate, o.contentDate)
        .string(DCM_InstanceCreationTime, o.contentTime);
    // Patient, General Study, General Series, General Equipment
    put.string(DCM_PatientName, o.patient.name)
        .string(DCM_PatientID, o.patient.id)
        .string(DCM_PatientBirthDate, o.patient.birthDate)
        .string(DCM_PatientSex, o.patient.sex)
        .string(DCM_StudyInstanceUID, o.study.instanceUid)
        .string(DCM_StudyDate, o.study.date)
        .string(DCM_StudyTime, o.study.time)
        .string(DCM_ReferringPhysicianName, o.study.referringPhysician)
        .string(DCM_StudyID, o.study.id)
        .string(DCM_AccessionNumber, o.study.accessionNumber)
        .string(DCM_Modality, "US")
        .string(DCM_SeriesInstanceUID, o.series.instanceUid)
        .string(DCM_SeriesNumber, std::to_string(o.series.number))
        .string(DCM_BodyPartExamined, o.series.bodyPartExamined)
        .string(DCM_Manufacturer, o.equipment.manufacturer)
        .string(DCM_ManufacturerModelName, o.equipment.modelName)
        .string(DCM_DeviceSerialNumber, o.equipment.deviceSerialNumber)
        .string(DCM_SoftwareVersions, o.equipment.softwareVersions)
        .string(DCM_StationName, o.equipment.stationName);
    if (!o.study.description.empty()) put.string(DCM_StudyDescription, o.study.description);
    // General Image, US Image, Image Pixel
    put.string(DCM_InstanceNumber, std::to_string(o.instanceNumber))
        .string(DCM_PatientOrientation, "")
        .string(DCM_ContentDate, o.contentDate)
        .string(DCM_ContentTime, o.contentTime)
        .string(DCM_BurnedInAnnotation, "NO")
        .string(DCM_ImageType, "ORIGINAL\\PRIMARY\\" + f.imageTypeValue3 + "\\0001")  // 0001: 2D imaging
        .string(DCM_LossyImageCompression, "00")
        .u16(DCM_SamplesPerPixel, 1)
        .string(DCM_PhotometricInterpretation, "MONOCHROME2")
        .u16(DCM_Rows, static_cast<Uint16>(f.rows))
        .u16(DCM_Columns, static_cast<Uint16>(f.columns))
        .u16(DCM_BitsAllocated, 8)
        .u16(DCM_BitsStored, 8)
        .u16(DCM_HighBit, 7)
        .u16(DCM_PixelRepresentation, 0);
    if (auto ok = put.status(); !ok) return ok;
    // US Region Calibration: one 2D tissue region over the whole image, cm per pixel.
    DcmItem* region = nullptr;
    if (ds.findOrCreateSequenceItem(DCM_SequenceOfUltrasoundRegions, region, 0).bad() || region == nullptr) {
        return fail(ErrorCode::Internal, "cannot create the Sequence of Ultrasound Regions");
    }
    Puts regionPut(*region);
    regionPut.u16(DCM_RegionSpatialFormat, 1)  // 2D
        .u16(DCM_RegionDataType, 1)            // tissue
        .u32(DCM_RegionFlags, 0)
        .u32(DCM_RegionLocationMinX0, 0)
        .u32(DCM_RegionLocationMinY0, 0)
        .u32(DCM_RegionLocationMaxX1, static_cast<Uint32>(f.columns - 1))
        .u32(DCM_RegionLocationMaxY1, static_cast<Uint32>(f.rows - 1))
        .u16(DCM_PhysicalUnitsXDirection, 3)  // cm
        .u16(DCM_PhysicalUnitsYDirection, 3)
        .f64(DCM_PhysicalDeltaX, f.cmPerPixelX)
        .f64(DCM_PhysicalDeltaY, f.cmPerPixelY)
        .s32(DCM_ReferencePixelX0, f.columns / 2)  // the transducer face's centre
        .s32(DCM_ReferencePixelY0, 0);
    if (auto ok = regionPut.status(); !ok) return ok;
    if (auto c = ds.putAndInsertUint8Array(DCM_PixelData, f.pixels.data(), static_cast<unsigned long>(f.pixels.size())); c.bad()) {
        return fail(ErrorCode::Internal, fmt::format("cannot set the pixel data: {}", c.text()));
    }
    if (auto c = file.saveFile(path.c_str(), EXS_LittleEndianExplicit); c.bad()) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot write {}: {}", path, c.text()));
    }
    return {};
}

}  // namespace sonolink::dicom
