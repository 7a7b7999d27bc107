#include "sonolink/dicom/document_writers.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <fmt/format.h>

#include "codecs.h"
#include "dataset_puts.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {
namespace {

Status checkContext(const InstanceContext& c) {
    for (const auto& [uid, what] : {std::pair{&c.study.instanceUid, "Study Instance UID"}, std::pair{&c.series.instanceUid, "Series Instance UID"},
                                    std::pair{&c.sopInstanceUid, "SOP Instance UID"}}) {
        if (auto ok = checkUid(*uid, what); !ok) return ok;
    }
    return {};
}

Status save(DcmFileFormat& file, const std::string& path) { return saveEncoded(file, path, Compression::None); }

}  // namespace

Status writeEncapsulatedPdf(const std::string& path, const InstanceContext& c, const std::vector<std::uint8_t>& pdf, const std::string& title) {
    if (auto ok = checkContext(c); !ok) return ok;
    if (pdf.size() < 5 || std::string(pdf.begin(), pdf.begin() + 5) != "%PDF-") {
        return fail(ErrorCode::InvalidArgument, "the document is not a PDF (it does not start with %PDF-)");
    }
    DcmFileFormat file;
    DcmDataset& ds = *file.getDataset();
    Puts put(ds);
    putPatientStudyEquipment(put, c, UID_EncapsulatedPDFStorage, "DOC");
    put.string(DCM_ConversionType, "WSD")  // SC Equipment: workstation
        .string(DCM_InstanceNumber, std::to_string(c.instanceNumber))
        .string(DCM_ContentDate, c.contentDate)
        .string(DCM_ContentTime, c.contentTime)
        .string(DCM_AcquisitionDateTime, c.contentDate + c.contentTime)
        .string(DCM_BurnedInAnnotation, "YES")  // a report shows the patient's data in its pages
        .string(DCM_DocumentTitle, title)
        .string(DCM_MIMETypeOfEncapsulatedDocument, "application/pdf");
    if (auto ok = put.status(); !ok) return ok;
    ds.insertEmptyElement(DCM_ConceptNameCodeSequence);
    std::vector<std::uint8_t> even = pdf;
    if (even.size() % 2) even.push_back(0);  // OB values have even length
    put.u32(DCM_EncapsulatedDocumentLength, static_cast<Uint32>(pdf.size()));
    if (auto cond = ds.putAndInsertUint8Array(DCM_EncapsulatedDocument, even.data(), static_cast<unsigned long>(even.size())); cond.bad()) {
        return fail(ErrorCode::Internal, fmt::format("cannot set the encapsulated document: {}", cond.text()));
    }
    if (auto ok = put.status(); !ok) return ok;
    return save(file, path);
}

Status writeRawData(const std::string& path, const InstanceContext& c, const RawDataPayload& payload) {
    if (auto ok = checkContext(c); !ok) return ok;
    if (auto ok = checkUid(payload.formatVersionUid, "Creator-Version UID"); !ok) return ok;
    if (payload.bytes.empty()) return fail(ErrorCode::InvalidArgument, "a Raw Data object needs samples");
    if (payload.bytes.size() >= 0xFFFFFFF0ull) return fail(ErrorCode::InvalidArgument, "the samples exceed one DICOM element (4 GiB): split them");
    DcmFileFormat file;
    DcmDataset& ds = *file.getDataset();
    Puts put(ds);
    putPatientStudyEquipment(put, c, UID_RawDataStorage, "US");
    put.string(DCM_BodyPartExamined, c.series.bodyPartExamined);  // else Laterality is required
    put.string(DCM_InstanceNumber, std::to_string(c.instanceNumber))
        .string(DCM_ContentDate, c.contentDate)
        .string(DCM_ContentTime, c.contentTime)
        .string(DCM_CreatorVersionUID, payload.formatVersionUid);
    if (auto ok = put.status(); !ok) return ok;
    ds.insertEmptyElement(DCM_AcquisitionContextSequence);
    // The private block (PS3.5 7.8): creator at (0009,0010), its elements at (0009,10xx).
    DcmTag samples(0x0009, 0x1010, EVR_OB);
    samples.setPrivateCreator(kRawDataPrivateCreator);
    DcmTag description(0x0009, 0x1011, EVR_LT);
    description.setPrivateCreator(kRawDataPrivateCreator);
    std::vector<std::uint8_t> even = payload.bytes;
    if (even.size() % 2) even.push_back(0);
    if (ds.putAndInsertString(DcmTag(0x0009, 0x0010, EVR_LO), kRawDataPrivateCreator).bad() ||
        ds.putAndInsertUint8Array(samples, even.data(), static_cast<unsigned long>(even.size())).bad() ||
        ds.putAndInsertString(description, payload.description.c_str()).bad()) {
        return fail(ErrorCode::Internal, "cannot write the private RF block");
    }
    return save(file, path);
}

}  // namespace sonolink::dicom
