#include "sonolink/dicom/exam.h"

namespace sonolink::dicom {

Exam examFrom(const WorklistItem& item) {
    Exam exam;
    exam.patient = item.patient;
    exam.studyInstanceUid = item.studyInstanceUid;
    exam.accessionNumber = item.accessionNumber;
    exam.referringPhysician = item.referringPhysician;
    exam.studyDescription = item.requestedProcedureDescription;
    exam.request = {item.requestedProcedureId, item.requestedProcedureDescription, item.scheduledProcedureStepId, item.scheduledProcedureStepDescription};
    return exam;
}

InstanceContext makeInstanceContext(const Exam& exam, const Equipment& equipment, const UidGenerator& uids, const DicomDateTime& now) {
    InstanceContext c;
    c.patient = exam.patient;
    c.study.instanceUid = exam.studyInstanceUid.empty() ? uids.next() : exam.studyInstanceUid;
    c.study.id = exam.studyId;
    c.study.accessionNumber = exam.accessionNumber;
    c.study.date = now.date;
    c.study.time = now.time;
    c.study.referringPhysician = exam.referringPhysician;
    c.study.description = exam.studyDescription;
    c.series.instanceUid = uids.next();
    c.series.number = 1;
    c.series.bodyPartExamined = exam.bodyPart;
    c.equipment = equipment;
    c.request = exam.request;
    c.sopInstanceUid = uids.next();
    c.contentDate = now.date;
    c.contentTime = now.time;
    return c;
}

}  // namespace sonolink::dicom
