// Exam: who and what an exam is (the patient, the study with its accession number, referring
// physician and description, the order it fulfils): the one value every export takes, from the
// GUI, the engine's cine export and the CLI alike, filled by hand or from a worklist item.
// makeInstanceContext() turns it into a new object's context. Thread contract: pure functions.
#pragma once

#include <string>

#include "sonolink/dicom/dicom_time.h"
#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/dicom/worklist.h"

namespace sonolink::dicom {

struct Exam {
    Patient patient;
    std::string studyInstanceUid;  // empty: each object a study of its own (give one to keep them together)
    std::string studyId = "1";
    std::string accessionNumber;
    std::string referringPhysician;
    std::string studyDescription;
    std::string bodyPart = "ABDOMEN";
    RequestAttributes request;  // the order (worklist): requested procedure, scheduled step
};

// The exam a worklist item schedules (its Study Instance UID, accession number, referring
// physician, the requested procedure as study description, the order).
[[nodiscard]] Exam examFrom(const WorklistItem& item);

// A new object of the exam: its study (the exam's, or a new UID), a new series and instance,
// this equipment, dated now.
[[nodiscard]] InstanceContext makeInstanceContext(const Exam& exam, const Equipment& equipment, const UidGenerator& uids, const DicomDateTime& now);

}  // namespace sonolink::dicom
