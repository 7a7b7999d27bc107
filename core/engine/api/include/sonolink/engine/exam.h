// The exam as the facade knows it: the patient, the study and the order it fulfils. One value
// set on the engine (setExam, by hand or from a worklist item) and used by every export; and the
// worklist query and the exams it schedules.
// Thread contract: plain values, copy freely.
#pragma once

#include <string>

namespace sonolink::engine {

struct Patient {
    std::string name;  // PN, UTF-8, e.g. "Wang^Xiaoming=王^小明"
    std::string id;
    std::string birthDate;  // YYYYMMDD or empty
    std::string sex;        // M, F, O or empty
};

struct Exam {
    Patient patient;
    std::string studyInstanceUid;  // empty: the engine gives the exam one (its exports share it)
    std::string accessionNumber;
    std::string referringPhysician;
    std::string studyDescription;
    // DICOM Body Part Examined (a defined term of CID 4031: ABDOMEN, BREAST, THYROID, ...), on
    // every object of the exam; empty: ABDOMEN, the station's default.
    std::string bodyPart;
    std::string requestedProcedureId;  // the order (from the worklist)
    std::string requestedProcedureDescription;
    std::string scheduledProcedureStepId;
    std::string scheduledProcedureStepDescription;
};

// A Modality Worklist query to a configured node; date YYYYMMDD or YYYYMMDD-YYYYMMDD, empty
// fields match anything.
struct WorklistQuery {
    std::string node;  // the node's configured name
    std::string date;
    std::string modality = "US";
    std::string stationAeTitle;  // Scheduled Station AE Title
};

// An exam the worklist schedules, ready for setExam().
struct ScheduledExam {
    Exam exam;
    std::string scheduledStartDate;
    std::string scheduledStartTime;
    std::string scheduledStationAeTitle;
    std::string modality;
    bool characterSetAssumed = false;  // the answer named no character set: read as UTF-8
};

}  // namespace sonolink::engine
