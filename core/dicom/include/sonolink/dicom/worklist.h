// Modality Worklist (C-FIND, PS3.4 K): the scheduled exams a worklist server holds for this
// station, by date, modality and scheduled station AE title, with the patient and requested
// procedure fields an exam carries into its images (examFrom(), exam.h). Answers are read as
// UTF-8 whatever character set the server used; a server that names none is assumed UTF-8 and
// the item says so. Thread contract: queryWorklist() blocks (DIMSE non-blocking mode, so its
// timeout fires); run it off the GUI thread (the engine runs it as a job).
#pragma once

#include <string>
#include <vector>

#include "sonolink/dicom/pacs_node.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct WorklistQuery {
    std::string date;             // YYYYMMDD or a range YYYYMMDD-YYYYMMDD; empty: any
    std::string modality = "US";  // empty: any
    std::string stationAeTitle;   // Scheduled Station AE Title; empty: any
};

struct WorklistItem {
    Patient patient;
    std::string accessionNumber;
    std::string studyInstanceUid;
    std::string referringPhysician;
    std::string requestedProcedureId;
    std::string requestedProcedureDescription;
    std::string scheduledProcedureStepId;
    std::string scheduledProcedureStepDescription;
    std::string scheduledStationAeTitle;
    std::string scheduledStartDate;
    std::string scheduledStartTime;
    std::string modality;
    bool characterSetAssumed = false;  // the answer named no character set: read as UTF-8
};

[[nodiscard]] Result<std::vector<WorklistItem>> queryWorklist(const PacsNode& node, const AssociationSettings& settings, const WorklistQuery& query);

}  // namespace sonolink::dicom
