#include "sonolink/gui/dialogs/exam_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sonolink::gui {
namespace {

QLineEdit* edit(const QString& objectName, int maxLength, const QString& placeholder = {}) {
    auto* e = new QLineEdit;
    e->setObjectName(objectName);
    e->setMaxLength(maxLength);
    e->setPlaceholderText(placeholder);
    return e;
}

}  // namespace

ExamDialog::ExamDialog(const QStringList& nodes, const ExamEntry& current, QWidget* parent)
    : QDialog(parent), tabs_(new QTabWidget), family_(edit("familyNameEdit", 64)), given_(edit("givenNameEdit", 64)),
      ideographicFamily_(edit("ideographicFamilyEdit", 64, tr("e.g. 王"))), ideographicGiven_(edit("ideographicGivenEdit", 64, tr("e.g. 小明"))),
      id_(edit("patientIdEdit", 64)), birth_(new QDateEdit), birthUnknown_(new QCheckBox(tr("unknown"))), sex_(new QComboBox),
      accession_(edit("accessionEdit", 16)), description_(edit("studyDescriptionEdit", 64)), bodyPart_(new QComboBox), problems_(new QLabel),
      start_(new QPushButton(tr("Start exam"))), node_(new QComboBox), date_(new QDateEdit(QDate::currentDate())), query_(new QPushButton(tr("Query"))),
      worklistStatus_(new QLabel), worklist_(new QTableWidget(0, 5)) {
    setObjectName("examDialog");
    setWindowTitle(tr("Exam"));
    tabs_->addTab(makePatientPage(), tr("Patient"));
    tabs_->addTab(makeWorklistPage(nodes), tr("Worklist"));

    auto* buttons = new QDialogButtonBox;
    start_->setObjectName("startExamButton");
    start_->setDefault(true);
    buttons->addButton(start_, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExamDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExamDialog::reject);
    fill(current);
    resize(620, 480);
}

// The Patient tab: the form, each field checked as it is edited, its problems listed below.
QWidget* ExamDialog::makePatientPage() {
    auto* patient = new QWidget;
    auto* form = new QFormLayout(patient);
    form->addRow(tr("Family name"), family_);
    form->addRow(tr("Given name"), given_);
    form->addRow(tr("Family name (characters)"), ideographicFamily_);
    form->addRow(tr("Given name (characters)"), ideographicGiven_);
    form->addRow(tr("Patient ID"), id_);
    birth_->setObjectName("birthDateEdit");
    birth_->setDisplayFormat("yyyy-MM-dd");
    birth_->setCalendarPopup(true);
    birth_->setMaximumDate(QDate::currentDate());
    birthUnknown_->setObjectName("birthUnknownCheck");
    auto* birthRow = new QHBoxLayout;
    birthRow->addWidget(birth_, 1);
    birthRow->addWidget(birthUnknown_);
    form->addRow(tr("Birth date"), birthRow);
    sex_->setObjectName("sexCombo");
    sex_->addItem(tr("unknown"), QString());
    sex_->addItem(tr("female"), QStringLiteral("F"));
    sex_->addItem(tr("male"), QStringLiteral("M"));
    sex_->addItem(tr("other"), QStringLiteral("O"));
    form->addRow(tr("Sex"), sex_);
    form->addRow(tr("Accession number"), accession_);
    form->addRow(tr("Study description"), description_);
    bodyPart_->setObjectName("bodyPartCombo");
    bodyPart_->setEditable(true);
    bodyPart_->addItems(bodyParts());
    bodyPart_->setToolTip(tr("Body Part Examined, written to every image of the exam (DICOM's defined terms; another may be typed)"));
    connect(bodyPart_, &QComboBox::currentTextChanged, this, &ExamDialog::check);
    form->addRow(tr("Body part"), bodyPart_);
    problems_->setObjectName("examProblemsLabel");
    problems_->setWordWrap(true);
    problems_->setStyleSheet("color: #d03030");
    form->addRow(problems_);
    connect(birthUnknown_, &QCheckBox::toggled, birth_, &QWidget::setDisabled);
    for (auto* e : {family_, given_, ideographicFamily_, ideographicGiven_, id_, accession_, description_})
        connect(e, &QLineEdit::textEdited, this, &ExamDialog::check);
    return patient;
}

// The Worklist tab: a query (node, date) asked by a signal, its scheduled exams listed; Use or a
// double-click fills the form from one.
QWidget* ExamDialog::makeWorklistPage(const QStringList& nodes) {
    auto* worklistPage = new QWidget;
    auto* wl = new QVBoxLayout(worklistPage);
    auto* queryRow = new QHBoxLayout;
    node_->setObjectName("worklistNodeCombo");
    node_->addItems(nodes);
    date_->setObjectName("worklistDateEdit");
    date_->setDisplayFormat("yyyy-MM-dd");
    date_->setCalendarPopup(true);
    query_->setObjectName("worklistQueryButton");
    query_->setEnabled(!nodes.isEmpty());
    queryRow->addWidget(new QLabel(tr("Node")));
    queryRow->addWidget(node_, 1);
    queryRow->addWidget(new QLabel(tr("Date")));
    queryRow->addWidget(date_);
    queryRow->addWidget(query_);
    wl->addLayout(queryRow);
    worklist_->setObjectName("worklistTable");
    worklist_->setHorizontalHeaderLabels({tr("Scheduled"), tr("Patient"), tr("ID"), tr("Procedure"), tr("Accession")});
    worklist_->horizontalHeader()->setStretchLastSection(true);
    worklist_->setSelectionBehavior(QAbstractItemView::SelectRows);
    worklist_->setSelectionMode(QAbstractItemView::SingleSelection);
    worklist_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    wl->addWidget(worklist_, 1);
    worklistStatus_->setObjectName("worklistStatusLabel");
    worklistStatus_->setWordWrap(true);
    worklistStatus_->setText(nodes.isEmpty() ? tr("No worklist node is configured (Settings).") : QString());
    auto* use = new QPushButton(tr("Use"));
    use->setObjectName("worklistUseButton");
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(worklistStatus_, 1);
    bottom->addWidget(use);
    wl->addLayout(bottom);
    connect(query_, &QPushButton::clicked, this, [this] {
        worklistStatus_->setStyleSheet({});
        worklistStatus_->setText(tr("Asking %1…").arg(node_->currentText()));
        query_->setEnabled(false);
        Q_EMIT worklistQueryRequested(node_->currentText(), date_->date().toString("yyyyMMdd"));
    });
    connect(use, &QPushButton::clicked, this, [this] { pick(worklist_->currentRow()); });
    connect(worklist_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { pick(row); });
    return worklistPage;
}

ExamEntry ExamDialog::entry() const {
    ExamEntry e = picked_;
    e.familyName = family_->text().trimmed();
    e.givenName = given_->text().trimmed();
    e.ideographicFamily = ideographicFamily_->text().trimmed();
    e.ideographicGiven = ideographicGiven_->text().trimmed();
    e.id = id_->text().trimmed();
    e.birthDate = birthUnknown_->isChecked() ? QDate() : birth_->date();
    e.sex = sex_->currentData().toString();
    e.accessionNumber = accession_->text().trimmed();
    e.studyDescription = description_->text().trimmed();
    e.bodyPart = bodyPart_->currentText().trimmed().toUpper();
    return e;
}

void ExamDialog::fill(const ExamEntry& e) {
    picked_ = e;
    family_->setText(e.familyName);
    given_->setText(e.givenName);
    ideographicFamily_->setText(e.ideographicFamily);
    ideographicGiven_->setText(e.ideographicGiven);
    id_->setText(e.id);
    birthUnknown_->setChecked(!e.birthDate.isValid());
    birth_->setDate(e.birthDate.isValid() ? e.birthDate : QDate(1980, 1, 1));
    sex_->setCurrentIndex(std::max(0, sex_->findData(e.sex)));
    accession_->setText(e.accessionNumber);
    description_->setText(e.studyDescription);
    // The exam's own, else the one its procedure names (a worklist item), else the first.
    QString part = e.bodyPart;
    if (part.isEmpty()) part = bodyPartIn(e.requestedProcedureDescription + ' ' + e.scheduledProcedureStepDescription + ' ' + e.studyDescription);
    bodyPart_->setCurrentText(part.isEmpty() ? bodyParts().front() : part);
    problems_->clear();
}

void ExamDialog::check() {
    const auto problems = problemsOf(entry());
    problems_->setText(problems.join('\n'));
}

void ExamDialog::accept() {
    const auto problems = problemsOf(entry());
    problems_->setText(problems.join('\n'));
    if (!problems.isEmpty()) {
        tabs_->setCurrentIndex(0);
        return;
    }
    QDialog::accept();
}

void ExamDialog::showWorklist(const QList<ScheduledRow>& rows, const QString& error) {
    query_->setEnabled(node_->count() > 0);
    rows_ = rows;
    worklist_->setRowCount(0);
    if (!error.isEmpty()) {
        worklistStatus_->setStyleSheet("color: #d03030");
        worklistStatus_->setText(tr("The worklist query failed: %1").arg(error));
        return;
    }
    worklistStatus_->setStyleSheet({});
    worklistStatus_->setText(rows.isEmpty() ? tr("Nothing scheduled.") : tr("Scheduled exams: %1").arg(rows.size()));
    for (const auto& r : rows) {
        const int i = worklist_->rowCount();
        worklist_->insertRow(i);
        const QString time = r.time.size() >= 4 ? r.time.left(2) + ':' + r.time.mid(2, 2) : r.time;
        const QString when = r.date.size() == 8 ? QDate::fromString(r.date, "yyyyMMdd").toString("yyyy-MM-dd") + ' ' + time : time;
        const QString cells[] = {when, displayName(r.exam), r.exam.id, r.exam.requestedProcedureDescription, r.exam.accessionNumber};
        for (int c = 0; c < 5; ++c) worklist_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    worklist_->resizeColumnsToContents();
    if (!rows.isEmpty()) worklist_->selectRow(0);
}

int ExamDialog::worklistRows() const { return worklist_->rowCount(); }

void ExamDialog::pick(int row) {
    if (row < 0 || row >= rows_.size()) return;
    fill(rows_[row].exam);
    check();
    tabs_->setCurrentIndex(0);
}

}  // namespace sonolink::gui
