// The exam as the facade knows it: the patient, the study and the order it fulfils. One value
// set on the engine (setExam, by hand or from a worklist item) and used by every export.
// Thread contract: plain values, copy freely.
#pragma once

#include <string>

namespace sonolink::engine {

struct Patient {
    std::string name;        // PN, UTF-8, e.g. "Wang^Xiaoming=王^小明"
    std::string id;
    std::string birthDate;   // YYYYMMDD or empty
    std::string sex;         // M, F, O or empty
};

struct Exam {
    Patient patient;
    std::string studyInstanceUid;            // empty: the engine gives the exam one (its exports share it)
    std::string accessionNumber;
    std::string referringPhysician;
    std::string studyDescription;
    std::string requestedProcedureId;        // the order (from the worklist)
    std::string requestedProcedureDescription;
    std::string scheduledProcedureStepId;
    std::string scheduledProcedureStepDescription;
};

}  // namespace sonolink::engine
