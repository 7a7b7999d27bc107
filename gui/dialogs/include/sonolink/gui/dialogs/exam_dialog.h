// ExamDialog: starts an exam: the patient entered by hand (the name in DICOM PN components,
// Chinese names in their own fields; ID, birth date or unknown, sex, accession, description),
// checked as DICOM would (every problem listed, Start exam refused until none), or picked from
// a Modality Worklist query (node, date; the scheduled exams in a list, double-click or Use
// fills the form). It asks for the query by a signal and is given the answer; it never waits.
// Thread contract: GUI thread only.
#pragma once

#include <QDialog>
#include <QList>
#include <QStringList>

#include "sonolink/gui/views/exam_entry.h"

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace sonolink::gui {

class ExamDialog : public QDialog {
    Q_OBJECT
public:
    // nodes: the configured worklist nodes' names (none: the worklist tab says so).
    ExamDialog(const QStringList& nodes, const ExamEntry& current, QWidget* parent = nullptr);

    [[nodiscard]] ExamEntry entry() const;  // as the form holds it now
    // The worklist's answer to the last query: its items, or why it failed.
    void showWorklist(const QList<ScheduledRow>& rows, const QString& error);
    void pick(int row);  // the row's exam into the form, the Patient tab shown
    [[nodiscard]] int worklistRows() const;

    void accept() override;  // only when the form has no problem

Q_SIGNALS:
    void worklistQueryRequested(const QString& node, const QString& date);  // date YYYYMMDD

private:
    QWidget* makePatientPage();
    QWidget* makeWorklistPage(const QStringList& nodes);
    void fill(const ExamEntry& entry);
    void check();

    QTabWidget* tabs_;
    QLineEdit* family_;
    QLineEdit* given_;
    QLineEdit* ideographicFamily_;
    QLineEdit* ideographicGiven_;
    QLineEdit* id_;
    QDateEdit* birth_;
    QCheckBox* birthUnknown_;
    QComboBox* sex_;
    QLineEdit* accession_;
    QLineEdit* description_;
    QComboBox* bodyPart_;  // DICOM's defined terms, editable; the worklist's procedure chooses one
    QLabel* problems_;
    QPushButton* start_;
    QComboBox* node_;
    QDateEdit* date_;
    QPushButton* query_;
    QLabel* worklistStatus_;
    QTableWidget* worklist_;
    QList<ScheduledRow> rows_;
    ExamEntry picked_;  // the order's fields of the worklist item picked last
};

}  // namespace sonolink::gui
