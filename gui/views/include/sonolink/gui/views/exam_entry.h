// ExamEntry: the patient and study as the exam dialog edits them: the name in DICOM PN
// components (alphabetic family and given, and the ideographic ones for a Chinese name), ID,
// birth date, sex, accession and description, and the order's fields when picked from the
// worklist. pnOf() and entryFromPn() convert to and from PN ("Wang^Xiaoming=王^小明");
// problemsOf() names every value DICOM would refuse. ScheduledRow: one worklist item. The body
// parts the exam dialog offers (bodyParts()), and the one a procedure's words name (bodyPartIn()).
// Thread contract: plain values and pure functions.
#pragma once

#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

namespace sonolink::gui {

struct ExamEntry {
    QString familyName;
    QString givenName;
    QString ideographicFamily;  // e.g. 王
    QString ideographicGiven;   // e.g. 小明
    QString id;
    QDate birthDate;  // null: unknown
    QString sex;      // "M", "F", "O" or empty
    QString accessionNumber;
    QString studyDescription;
    QString bodyPart;  // DICOM Body Part Examined (CID 4031 defined term); empty: ABDOMEN
    // From the worklist item it was picked from (empty when entered by hand).
    QString studyInstanceUid;
    QString requestedProcedureId;
    QString requestedProcedureDescription;
    QString scheduledProcedureStepId;
    QString scheduledProcedureStepDescription;
    QString referringPhysician;
    [[nodiscard]] bool empty() const { return familyName.isEmpty() && givenName.isEmpty() && ideographicFamily.isEmpty() && id.isEmpty(); }
};

struct ScheduledRow {
    ExamEntry exam;
    QString date;  // YYYYMMDD
    QString time;  // HHMMSS
    QString modality;
    QString stationAeTitle;
};

// "Family^Given" and, with an ideographic part, "=Family^Given" after it; trailing empty
// components dropped as DICOM asks.
[[nodiscard]] QString pnOf(const ExamEntry& entry);
// The name as people read it: "Wang Xiaoming (王小明)", either part alone when the other is empty.
[[nodiscard]] QString displayName(const ExamEntry& entry);
// The name's components from a PN value (its first two groups); other fields left empty.
[[nodiscard]] ExamEntry entryFromPn(const QString& pn);
// What DICOM would refuse, each in words naming the field; empty when all is well. today: the
// date a birth date may not pass.
[[nodiscard]] QStringList problemsOf(const ExamEntry& entry, QDate today = QDate::currentDate());
// DICOM's defined terms for the body parts an ultrasound station examines most (CID 4031).
[[nodiscard]] QStringList bodyParts();
// The first of bodyParts() a procedure's description names ("US THYROID" -> THYROID); empty: none.
[[nodiscard]] QString bodyPartIn(const QString& description);

}  // namespace sonolink::gui
