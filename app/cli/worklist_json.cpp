#include "worklist_json.h"

#include "sonolink/report/json_file.h"

#include <fmt/format.h>

namespace sonolink::cli {

using nlohmann::json;

json toJson(const engine::ScheduledExam& s) {
    const auto& e = s.exam;
    return {{"patient_name", e.patient.name},
            {"patient_id", e.patient.id},
            {"patient_birth_date", e.patient.birthDate},
            {"patient_sex", e.patient.sex},
            {"accession_number", e.accessionNumber},
            {"study_instance_uid", e.studyInstanceUid},
            {"referring_physician", e.referringPhysician},
            {"requested_procedure_id", e.requestedProcedureId},
            {"requested_procedure_description", e.requestedProcedureDescription},
            {"scheduled_procedure_step_id", e.scheduledProcedureStepId},
            {"scheduled_procedure_step_description", e.scheduledProcedureStepDescription},
            {"scheduled_station_ae_title", s.scheduledStationAeTitle},
            {"scheduled_start_date", s.scheduledStartDate},
            {"scheduled_start_time", s.scheduledStartTime},
            {"modality", s.modality},
            {"character_set_assumed", s.characterSetAssumed}};
}

Result<dicom::WorklistItem> readWorklistItem(const std::string& file, std::size_t index) {
    auto read = report::readJsonFile(file, "worklist file");
    if (!read) return fail(std::move(read.error()));
    try {
        const auto& all = *read;
        if (!all.is_array()) return fail(ErrorCode::InvalidArgument, fmt::format("{}: expected the JSON array `dicom worklist --json` prints", file));
        if (index >= all.size()) return fail(ErrorCode::InvalidArgument, fmt::format("{} holds {} items; there is no item {}", file, all.size(), index));
        const auto& j = all[index];
        auto get = [&](const char* key) { return j.value(key, std::string()); };
        dicom::WorklistItem i;
        i.patient = {get("patient_name"), get("patient_id"), get("patient_birth_date"), get("patient_sex")};
        i.accessionNumber = get("accession_number");
        i.studyInstanceUid = get("study_instance_uid");
        i.referringPhysician = get("referring_physician");
        i.requestedProcedureId = get("requested_procedure_id");
        i.requestedProcedureDescription = get("requested_procedure_description");
        i.scheduledProcedureStepId = get("scheduled_procedure_step_id");
        i.scheduledProcedureStepDescription = get("scheduled_procedure_step_description");
        i.scheduledStationAeTitle = get("scheduled_station_ae_title");
        i.scheduledStartDate = get("scheduled_start_date");
        i.scheduledStartTime = get("scheduled_start_time");
        i.modality = get("modality");
        return i;
    } catch (const json::exception& e) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: not a worklist: {}", file, e.what()));
    }
}

}  // namespace sonolink::cli
