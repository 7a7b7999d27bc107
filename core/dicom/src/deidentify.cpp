#include "sonolink/dicom/deidentify.h"

#include "sonolink/dicom/value_rules.h"

#include <openssl/sha.h>

#include <array>
#include <vector>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcmetinf.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmdata/dcxfer.h>
#include <fmt/format.h>

#include "codecs.h"
#include "dataset_puts.h"
#include "sonolink/dicom/document_writers.h"

namespace sonolink::dicom {
namespace {

// PS3.15 Table E.1-1, Basic Profile, for the attributes our objects and common peers carry.
// X: removed.
const DcmTagKey kRemoved[] = {DCM_OtherPatientIDsSequence,
                              DCM_OtherPatientNames,
                              DCM_PatientAddress,
                              DCM_PatientTelephoneNumbers,
                              DCM_PatientBirthTime,
                              DCM_PatientAge,
                              DCM_PatientSize,
                              DCM_PatientWeight,
                              DCM_EthnicGroup,
                              DCM_Occupation,
                              DCM_AdditionalPatientHistory,
                              DCM_PatientComments,
                              DCM_RETIRED_MedicalRecordLocator,
                              DCM_PatientMotherBirthName,
                              DCM_MilitaryRank,
                              DCM_BranchOfService,
                              DCM_InstitutionName,
                              DCM_InstitutionAddress,
                              DCM_InstitutionalDepartmentName,
                              DCM_ReferringPhysicianAddress,
                              DCM_ReferringPhysicianTelephoneNumbers,
                              DCM_PhysiciansOfRecord,
                              DCM_PerformingPhysicianName,
                              DCM_NameOfPhysiciansReadingStudy,
                              DCM_OperatorsName,
                              DCM_RequestingPhysician,
                              DCM_StationName,
                              DCM_DeviceSerialNumber,
                              DCM_StudyDescription,
                              DCM_SeriesDescription,
                              DCM_RequestAttributesSequence,
                              DCM_PerformedProcedureStepDescription,
                              DCM_PerformedProcedureStepID,
                              DCM_PerformedProcedureStepStartDate,
                              DCM_PerformedProcedureStepStartTime,
                              DCM_RequestedProcedureDescription,
                              DCM_ImageComments,
                              DCM_RETIRED_AcquisitionComments,
                              DCM_DerivationDescription,
                              DCM_InstanceCreationDate,
                              DCM_InstanceCreationTime,
                              DCM_SeriesDate,
                              DCM_SeriesTime,
                              DCM_AcquisitionDate,
                              DCM_AcquisitionTime,
                              DCM_AcquisitionDateTime,
                              DCM_IssuerOfPatientID,
                              DCM_TimezoneOffsetFromUTC,
                              DCM_ProtocolName,
                              DCM_DateOfLastCalibration,
                              DCM_TimeOfLastCalibration};
// Z: kept, emptied (Type 2).
const DcmTagKey kEmptied[] = {DCM_PatientBirthDate, DCM_PatientSex, DCM_ReferringPhysicianName, DCM_AccessionNumber};
// Z with a dummy value (allowed by Z): media (DICOMDIR) need a study date, time and ID.
const std::pair<DcmTagKey, const char*> kDummies[] = {
    {DCM_StudyDate, "19000101"}, {DCM_StudyTime, "000000"}, {DCM_StudyID, "1"}, {DCM_ContentDate, "19000101"}, {DCM_ContentTime, "000000"}};
// U: replaced, wherever they are (sequences included).
const DcmTagKey kUids[] = {DCM_StudyInstanceUID,
                           DCM_SeriesInstanceUID,
                           DCM_SOPInstanceUID,
                           DCM_FrameOfReferenceUID,
                           DCM_ReferencedSOPInstanceUID,
                           DCM_TransactionUID,
                           DCM_SynchronizationFrameOfReferenceUID,
                           DCM_ReferencedFrameOfReferenceUID,
                           DCM_StorageMediaFileSetUID,
                           DCM_IrradiationEventUID};

// The big-endian bytes as a decimal number (for a 2.25 UID).
std::string toDecimal(std::vector<std::uint8_t> bytes) {
    std::string digits;
    while (std::any_of(bytes.begin(), bytes.end(), [](auto b) { return b != 0; })) {
        unsigned remainder = 0;
        for (auto& b : bytes) {
            const unsigned value = remainder * 256 + b;
            b = static_cast<std::uint8_t>(value / 10);
            remainder = value % 10;
        }
        digits.insert(digits.begin(), static_cast<char>('0' + remainder));
    }
    return digits.empty() ? "0" : digits;
}

void replaceUids(DcmItem& item, const std::string& key) {
    for (const auto& tag : kUids) {
        OFString value;
        if (item.findAndGetOFString(tag, value).good() && !value.empty()) item.putAndInsertString(tag, replacementUid(key, value.c_str()).c_str());
    }
    for (unsigned long i = 0; i < item.card(); ++i) {
        auto* element = item.getElement(i);
        if (element->ident() != EVR_SQ) continue;
        auto* sequence = static_cast<DcmSequenceOfItems*>(element);
        for (unsigned long k = 0; k < sequence->card(); ++k) replaceUids(*sequence->getItem(k), key);
    }
}

// Removes private attributes but for SonoLink's RF block; says whether that block was kept.
bool removePrivate(DcmDataset& ds) {
    OFString creator;
    const bool ours = ds.findAndGetOFString(DcmTagKey(0x0009, 0x0010), creator).good() && creator == kRawDataPrivateCreator;
    for (unsigned long i = ds.card(); i-- > 0;) {
        const auto tag = ds.getElement(i)->getTag();
        if (!tag.isPrivate()) continue;
        if (ours && tag.getGroup() == 0x0009 && (tag.getElement() == 0x0010 || (tag.getElement() >> 8) == 0x10)) continue;
        delete ds.remove(i);
    }
    return ours;
}

}  // namespace

std::string replacementUid(const std::string& key, const std::string& uid) {
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    const std::string message = key + '\0' + uid;
    SHA256(reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest.data());
    std::vector<std::uint8_t> bits(digest.begin(), digest.begin() + 16);
    bits[6] = static_cast<std::uint8_t>((bits[6] & 0x0F) | 0x80);  // a version 8 (custom) UUID, RFC 9562
    bits[8] = static_cast<std::uint8_t>((bits[8] & 0x3F) | 0x80);
    return "2.25." + toDecimal(std::move(bits));
}

Status deidentifyFile(const std::string& input, const std::string& output, const DeidentifyOptions& options) {
    if (options.uidKey.empty()) return fail(ErrorCode::InvalidArgument, "de-identification needs a key for the new UIDs");
    if (auto problem = personNameProblem(options.pseudonym); !problem.empty()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("the pseudonym '{}' is no valid person name: it {}", options.pseudonym, problem));
    }
    if (auto problem = longStringProblem(options.pseudonymId); !problem.empty()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("the pseudonym ID '{}' {}", options.pseudonymId, problem));
    }
    registerCodecs();
    DcmFileFormat file;
    if (auto c = file.loadFile(input.c_str()); c.bad()) return fail(ErrorCode::InvalidArgument, fmt::format("cannot read {}: {}", input, c.text()));
    DcmDataset& ds = *file.getDataset();
    OFString burnedIn;
    if (ds.findAndGetOFString(DCM_BurnedInAnnotation, burnedIn).good() && burnedIn == "YES") {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} has burnt-in annotation (Burned In Annotation YES): the Basic profile does not clean "
                                                               "what is drawn into pixels or a document; it is not exported de-identified",
                                                               input));
    }
    for (const auto& tag : kRemoved) delete ds.remove(tag);
    for (const auto& tag : kEmptied) {
        if (ds.tagExists(tag)) ds.putAndInsertString(tag, "");
    }
    for (const auto& [tag, dummy] : kDummies) {
        if (ds.tagExists(tag)) ds.putAndInsertString(tag, dummy);
    }
    replaceUids(ds, options.uidKey);
    const bool keptRf = removePrivate(ds);
    Puts put(ds);
    const auto familyName = options.pseudonym.substr(0, options.pseudonym.find_first_of("^="));
    put.string(DCM_PatientName, options.pseudonym)
        .string(DCM_PatientID, options.pseudonymId.empty() ? familyName : options.pseudonymId)
        .string(DCM_PatientIdentityRemoved, "YES")
        .string(DCM_DeidentificationMethod, keptRf ? "PS3.15 E.2 Basic Profile; Retain Safe Private (SonoLink RF samples)" : "PS3.15 E.2 Basic Profile")
        .string(DCM_LongitudinalTemporalInformationModified, "REMOVED");
    if (auto ok = put.status(); !ok) return ok;
    delete ds.remove(DCM_DeidentificationMethodCodeSequence);
    std::vector<std::pair<const char*, const char*>> codes = {{"113100", "Basic Application Confidentiality Profile"}};
    if (keptRf) codes.emplace_back("113111", "Retain Safe Private Option");
    for (const auto& [value, meaning] : codes) {
        DcmItem* code = nullptr;
        ds.findOrCreateSequenceItem(DCM_DeidentificationMethodCodeSequence, code, -2);
        Puts c(*code);
        c.string(DCM_CodeValue, value).string(DCM_CodingSchemeDesignator, "DCM").string(DCM_CodeMeaning, meaning);
        if (auto ok = c.status(); !ok) return ok;
    }
    // The meta header follows the dataset's new SOP Instance UID.
    OFString sopInstance;
    ds.findAndGetOFString(DCM_SOPInstanceUID, sopInstance);
    file.getMetaInfo()->putAndInsertString(DCM_MediaStorageSOPInstanceUID, sopInstance.c_str());
    const E_TransferSyntax syntax = ds.getOriginalXfer();
    return saveFileSafely(file, output, syntax == EXS_Unknown ? EXS_LittleEndianExplicit : syntax);
}

}  // namespace sonolink::dicom
