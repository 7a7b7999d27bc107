#include "dataset_puts.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <fmt/format.h>

namespace sonolink::dicom {

Puts& Puts::check(const OFCondition& condition, const DcmTagKey& tag) {
    if (condition.bad() && status_) {
        status_ = fail(ErrorCode::InvalidArgument, fmt::format("cannot set {}: {}", DcmTag(tag).getTagName(), condition.text()));
    }
    return *this;
}

void putPatientStudyEquipment(Puts& put, const InstanceContext& c, const char* sopClassUid, const char* modality) {
    put.string(DCM_SpecificCharacterSet, "ISO_IR 192")
        .string(DCM_SOPClassUID, sopClassUid)
        .string(DCM_SOPInstanceUID, c.sopInstanceUid)
        .string(DCM_InstanceCreationDate, c.contentDate)
        .string(DCM_InstanceCreationTime, c.contentTime);
    put.string(DCM_PatientName, c.patient.name)
        .string(DCM_PatientID, c.patient.id)
        .string(DCM_PatientBirthDate, c.patient.birthDate)
        .string(DCM_PatientSex, c.patient.sex)
        .string(DCM_StudyInstanceUID, c.study.instanceUid)
        .string(DCM_StudyDate, c.study.date)
        .string(DCM_StudyTime, c.study.time)
        .string(DCM_ReferringPhysicianName, c.study.referringPhysician)
        .string(DCM_StudyID, c.study.id)
        .string(DCM_AccessionNumber, c.study.accessionNumber)
        .string(DCM_Modality, modality)
        .string(DCM_SeriesInstanceUID, c.series.instanceUid)
        .string(DCM_SeriesNumber, std::to_string(c.series.number))
        .string(DCM_Manufacturer, c.equipment.manufacturer)
        .string(DCM_ManufacturerModelName, c.equipment.modelName)
        .string(DCM_DeviceSerialNumber, c.equipment.deviceSerialNumber)
        .string(DCM_SoftwareVersions, c.equipment.softwareVersions)
        .string(DCM_StationName, c.equipment.stationName);
    if (!c.study.description.empty()) put.string(DCM_StudyDescription, c.study.description);
    if (!c.series.description.empty()) put.string(DCM_SeriesDescription, c.series.description);
}

}  // namespace sonolink::dicom
