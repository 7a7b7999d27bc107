#include "sonolink/dicom/worklist.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <fmt/format.h>

#include "association.h"
#include "worklist_answer.h"

namespace sonolink::dicom {
namespace {

std::string text(DcmItem& item, const DcmTagKey& tag) {
    OFString value;
    // Multi-valued strings whole (PN groups and the like are one value; dates may be ranges).
    if (item.findAndGetOFStringArray(tag, value).bad()) return {};
    return value.c_str();
}

DcmDataset buildQuery(const WorklistQuery& q) {
    DcmDataset query;
    query.putAndInsertString(DCM_SpecificCharacterSet, "ISO_IR 192");
    for (const auto& tag : {DCM_PatientName, DCM_PatientID, DCM_PatientBirthDate, DCM_PatientSex, DCM_AccessionNumber, DCM_StudyInstanceUID,
                            DCM_ReferringPhysicianName, DCM_RequestedProcedureID, DCM_RequestedProcedureDescription}) {
        query.putAndInsertString(tag, "");
    }
    DcmItem* step = nullptr;
    query.findOrCreateSequenceItem(DCM_ScheduledProcedureStepSequence, step, 0);
    step->putAndInsertString(DCM_Modality, q.modality.c_str());
    step->putAndInsertString(DCM_ScheduledStationAETitle, q.stationAeTitle.c_str());
    step->putAndInsertString(DCM_ScheduledProcedureStepStartDate, q.date.c_str());
    for (const auto& tag : {DCM_ScheduledProcedureStepStartTime, DCM_ScheduledProcedureStepID, DCM_ScheduledProcedureStepDescription}) {
        step->putAndInsertString(tag, "");
    }
    return query;
}

}  // namespace

WorklistItem worklistItemFrom(DcmDataset& answer) {
    WorklistItem item;
    item.characterSetAssumed = text(answer, DCM_SpecificCharacterSet).empty();
    if (!item.characterSetAssumed) answer.convertToUTF8();  // else: bytes as they came, taken as UTF-8
    item.patient = {text(answer, DCM_PatientName), text(answer, DCM_PatientID), text(answer, DCM_PatientBirthDate), text(answer, DCM_PatientSex)};
    item.accessionNumber = text(answer, DCM_AccessionNumber);
    item.studyInstanceUid = text(answer, DCM_StudyInstanceUID);
    item.referringPhysician = text(answer, DCM_ReferringPhysicianName);
    item.requestedProcedureId = text(answer, DCM_RequestedProcedureID);
    item.requestedProcedureDescription = text(answer, DCM_RequestedProcedureDescription);
    DcmItem* step = nullptr;
    if (answer.findAndGetSequenceItem(DCM_ScheduledProcedureStepSequence, step, 0).good() && step) {
        item.modality = text(*step, DCM_Modality);
        item.scheduledStationAeTitle = text(*step, DCM_ScheduledStationAETitle);
        item.scheduledStartDate = text(*step, DCM_ScheduledProcedureStepStartDate);
        item.scheduledStartTime = text(*step, DCM_ScheduledProcedureStepStartTime);
        item.scheduledProcedureStepId = text(*step, DCM_ScheduledProcedureStepID);
        item.scheduledProcedureStepDescription = text(*step, DCM_ScheduledProcedureStepDescription);
    }
    return item;
}

Result<std::vector<WorklistItem>> queryWorklist(const PacsNode& node, const AssociationSettings& settings, const WorklistQuery& q) {
    Association a(node, settings);
    if (auto ok = a.open({{UID_FINDModalityWorklistInformationModel, uncompressedSyntaxes()}}); !ok) return fail(std::move(ok.error()));
    const auto context = a.contextFor(UID_FINDModalityWorklistInformationModel, UID_LittleEndianExplicitTransferSyntax);
    if (context == 0) return fail(ErrorCode::FailedPrecondition, fmt::format("{} does not offer Modality Worklist", describe(node)));
    auto query = buildQuery(q);
    OFList<QRResponse*> responses;
    a.beginExchange(1 << 20);  // the answers: a day's worklist is far less than a megabyte
    const auto c = a.scu().sendFINDRequest(context, &query, &responses);
    std::vector<WorklistItem> items;
    Uint16 finalStatus = 0xFFFF;
    for (auto* response : responses) {
        if (response->m_dataset) items.push_back(worklistItemFrom(*response->m_dataset));
        else finalStatus = response->m_status;
        delete response;
    }
    if (c.bad()) {
        a.abortOnClose();
        return fail(a.exchangeError("worklist query", c));
    }
    if (finalStatus != 0x0000) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} ended the worklist query with status 0x{:04X}", describe(node), finalStatus));
    }
    return items;
}

}  // namespace sonolink::dicom
