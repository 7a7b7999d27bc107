#include "sonolink/gui/views/exam_entry.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace sonolink::gui {
namespace {

// The problems' words, translated in the context lupdate files them under.
struct ExamText {
    Q_DECLARE_TR_FUNCTIONS(sonolink::gui::ExamEntry)
};

QString group(const QString& family, const QString& given) {
    if (given.isEmpty()) return family;
    return family + '^' + given;
}

// PN's delimiters and DICOM's value separator may not stand inside a component; nor control
// characters (a line break typed or pasted).
bool cleanComponent(const QString& s) {
    for (const QChar c : s) {
        if (c == '^' || c == '=' || c == '\\' || c.category() == QChar::Other_Control) return false;
    }
    return true;
}

}  // namespace

QString pnOf(const ExamEntry& e) {
    const QString alphabetic = group(e.familyName.trimmed(), e.givenName.trimmed());
    const QString ideographic = group(e.ideographicFamily.trimmed(), e.ideographicGiven.trimmed());
    return ideographic.isEmpty() ? alphabetic : alphabetic + '=' + ideographic;
}

QString displayName(const ExamEntry& e) {
    const QString alphabetic = (e.familyName + ' ' + e.givenName).trimmed();
    const QString ideographic = e.ideographicFamily + e.ideographicGiven;
    if (alphabetic.isEmpty()) return ideographic;
    return ideographic.isEmpty() ? alphabetic : alphabetic + QStringLiteral(" (") + ideographic + ')';
}

ExamEntry entryFromPn(const QString& pn) {
    ExamEntry e;
    const auto groups = pn.split('=');
    const auto alphabetic = groups.value(0).split('^');
    e.familyName = alphabetic.value(0);
    e.givenName = alphabetic.value(1);
    if (groups.size() > 1) {
        const auto ideographic = groups.value(1).split('^');
        e.ideographicFamily = ideographic.value(0);
        e.ideographicGiven = ideographic.value(1);
    }
    return e;
}

QStringList problemsOf(const ExamEntry& e, QDate today) {
    QStringList out;
    const std::pair<const QString*, const char*> components[] = {
        {&e.familyName, QT_TRANSLATE_NOOP("sonolink::gui::ExamEntry", "family name")},
        {&e.givenName, QT_TRANSLATE_NOOP("sonolink::gui::ExamEntry", "given name")},
        {&e.ideographicFamily, QT_TRANSLATE_NOOP("sonolink::gui::ExamEntry", "family name (characters)")},
        {&e.ideographicGiven, QT_TRANSLATE_NOOP("sonolink::gui::ExamEntry", "given name (characters)")}};
    for (const auto& [value, name] : components) {
        if (!cleanComponent(*value)) out << ExamText::tr("The %1 may not contain ^, =, \\ or a line break.").arg(ExamText::tr(name));
    }
    if (e.familyName.trimmed().isEmpty() && e.ideographicFamily.trimmed().isEmpty()) out << ExamText::tr("A family name is needed.");
    // PN: at most 64 characters per component group.
    if (group(e.familyName.trimmed(), e.givenName.trimmed()).size() > 64) out << ExamText::tr("The name is longer than DICOM's 64 characters.");
    if (group(e.ideographicFamily.trimmed(), e.ideographicGiven.trimmed()).size() > 64)
        out << ExamText::tr("The name in characters is longer than DICOM's 64 characters.");
    const QString id = e.id.trimmed();
    if (id.isEmpty()) out << ExamText::tr("A patient ID is needed.");
    if (id.size() > 64) out << ExamText::tr("The patient ID is longer than DICOM's 64 characters.");
    if (id.contains('\\') || id.contains('\n')) out << ExamText::tr("The patient ID may not contain \\ or a line break.");
    if (e.birthDate.isValid() && e.birthDate > today) out << ExamText::tr("The birth date is in the future.");
    if (e.birthDate.isValid() && e.birthDate.year() < 1900) out << ExamText::tr("The birth date is before 1900.");
    if (!e.sex.isEmpty() && e.sex != "M" && e.sex != "F" && e.sex != "O") out << ExamText::tr("Sex must be M, F, O or unknown.");
    if (e.accessionNumber.size() > 16) out << ExamText::tr("The accession number is longer than DICOM's 16 characters.");
    if (e.studyDescription.size() > 64) out << ExamText::tr("The study description is longer than DICOM's 64 characters.");
    static const QRegularExpression codeString("^[A-Z0-9_ ]{0,16}$");
    if (!codeString.match(e.bodyPart).hasMatch()) out << ExamText::tr("The body part must be up to 16 capitals, digits, _ or spaces.");
    return out;
}

QStringList bodyParts() {
    return {"ABDOMEN", "BREAST",  "CHEST",   "HEART",     "KIDNEY", "LIVER", "NECK",     "PELVIS", "THYROID", "PROSTATE", "SCROTUM", "UTERUS",
            "OVARY",   "BLADDER", "CAROTID", "EXTREMITY", "ARM",    "LEG",   "SHOULDER", "KNEE",   "HIP",     "SKIN",     "HEAD",    "WHOLEBODY"};
}

QString bodyPartIn(const QString& description) {
    const auto words = description.toUpper().split(QRegularExpression("[^A-Z0-9_]+"), Qt::SkipEmptyParts);
    for (const auto& part : bodyParts()) {
        if (words.contains(part)) return part;
    }
    return {};
}

}  // namespace sonolink::gui
