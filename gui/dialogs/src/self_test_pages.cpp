#include "self_test_pages.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPrintDialog>
#include <QPrinter>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "sonolink/gui/dialogs/reauthentication_dialog.h"
#include "sonolink/gui/dialogs/self_test_wizard.h"

namespace sonolink::gui {
namespace {

enum StepListColumn { StepColumn, VerdictColumn, TimeColumn, FiguresColumn };

}  // namespace

QString stepTitle(const QString& step) {
    static const QHash<QString, const char*> names{
        {"station", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "station")},
        {"ring memory", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "ring memory")},
        {"link BER", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "link BER")},
        {"ring slots (DMA path)", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "ring slots (DMA path)")},
        {"element check", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "element check")},
        {"phantom check", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "phantom check")},
        {"PACS", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "PACS")},
        {"memlock limit", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "memlock limit")},
        {"huge pages", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "huge pages")},
        {"CPU governor", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "CPU governor")},
        {"GPU", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "GPU")},
        {"RDMA port", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "RDMA port")},
        {"NUMA locality", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "NUMA locality")},
        {"PTP clock", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "PTP clock")},
        {"writable folder", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "writable folder")},
        {"free disk", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "free disk")},
        {"recordings", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "recordings")},
        {"DICOM queue", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "DICOM queue")},
        {"QA reports", QT_TRANSLATE_NOOP("sonolink::gui::SelfTestPage", "QA reports")},
    };
    const auto name = [](const QString& part) {
        const auto found = names.constFind(part);
        return found == names.cend() ? part : SelfTestPage::tr(found.value());
    };
    if (!step.startsWith("station: ")) return name(step);
    return SelfTestPage::tr("%1: %2").arg(name("station"), stationCheckTitle(step.mid(9)));
}

QString stationCheckTitle(const QString& check) {
    auto part = check;
    QString what;
    if (const auto open = part.indexOf(" ("); open > 0 && part.endsWith(')')) {  // "writable folder (recordings)"
        what = part.mid(open + 2, part.size() - open - 3);
        part = part.left(open);
    }
    return what.isEmpty() ? stepTitle(part) : SelfTestPage::tr("%1 (%2)").arg(stepTitle(part), stepTitle(what));
}

QString faultText(const QString& fault) {
    if (fault == "ok") return SelfTestPage::tr("ok");
    if (fault == "dead") return SelfTestPage::tr("dead");
    if (fault == "weak") return SelfTestPage::tr("weak");
    if (fault == "noisy") return SelfTestPage::tr("noisy");
    if (fault == "swapped") return SelfTestPage::tr("swapped");
    if (fault == "uncorrelated") return SelfTestPage::tr("uncorrelated");
    return fault;
}

QString verdictText(const QString& verdict) {
    if (verdict == "pass") return SelfTestPage::tr("pass");
    if (verdict == "warn") return SelfTestPage::tr("warning");
    if (verdict == "fail") return SelfTestPage::tr("FAIL");
    return SelfTestPage::tr("running");
}

QColor verdictColor(const QString& verdict) {
    if (verdict == "pass") return {0x2e, 0x7d, 0x32};
    if (verdict == "warn") return {0xb2, 0x6a, 0x00};
    if (verdict == "fail") return {0xc6, 0x28, 0x28};
    return {0x60, 0x60, 0x60};
}

SelfTestPage::SelfTestPage(SelfTestWizard& wizard)
    : wizard_(wizard), list_(new QTreeWidget), underWay_(new QLabel), progress_(new QProgressBar), summary_(new QLabel),
      runAgain_(new QPushButton(tr("Run again"))), cancel_(new QPushButton(tr("Cancel test"))), details_(new QPushButton(tr("Details…"))) {
    setObjectName("selfTestPage");
    setTitle(tr("Start-up self-test"));
    setSubTitle(
        tr("Before anyone scans, the station proves its set-up, the DMA ring's memory, the link's bit error rate, the "
           "probe's elements and the imaging chain on the front end's phantom, and that the PACS answers."));
    list_->setObjectName("stepList");
    list_->setColumnCount(4);
    list_->setHeaderLabels({tr("Step"), tr("Verdict"), tr("Time (s)"), tr("Figures")});
    list_->setRootIsDecorated(false);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_->setWordWrap(true);
    list_->header()->setSectionResizeMode(StepColumn, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(VerdictColumn, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(TimeColumn, QHeaderView::ResizeToContents);
    list_->header()->setStretchLastSection(true);
    underWay_->setObjectName("underWayLabel");
    progress_->setObjectName("stepProgress");
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    summary_->setObjectName("summaryLabel");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runAgain_->setObjectName("runAgainButton");
    runAgain_->setToolTip(tr("Runs the selected steps again (every step when none is selected)"));
    cancel_->setObjectName("cancelTestButton");
    details_->setObjectName("detailsButton");
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runAgain_);
    buttons->addWidget(details_);
    buttons->addStretch(1);
    buttons->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list_, 1);
    layout->addWidget(underWay_);
    layout->addWidget(progress_);
    layout->addWidget(summary_);
    layout->addLayout(buttons);
    connect(runAgain_, &QPushButton::clicked, this, &SelfTestPage::runAgain);
    connect(cancel_, &QPushButton::clicked, &wizard_, &SelfTestWizard::cancelRequested);
    connect(details_, &QPushButton::clicked, this, &SelfTestPage::showDetails);
    connect(list_, &QTreeWidget::itemDoubleClicked, this, &SelfTestPage::showDetails);
    showRunning({});
}

QTreeWidgetItem* SelfTestPage::rowFor(const QString& step) {
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        if (list_->topLevelItem(i)->data(StepColumn, Qt::UserRole).toString() == step) return list_->topLevelItem(i);
    }
    auto* item = new QTreeWidgetItem(list_);
    item->setData(StepColumn, Qt::UserRole, step);
    item->setText(StepColumn, stepTitle(step));
    return item;
}

// The rows of the steps about to run are marked running (all when none are named).
void SelfTestPage::showRunning(const QStringList& steps) {
    settled_ = false;
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        auto* item = list_->topLevelItem(i);
        const auto step = item->data(StepColumn, Qt::UserRole).toString();
        const bool rerun = steps.isEmpty() || steps.contains(step) || (steps.contains("station") && step.startsWith("station: "));
        if (!rerun) continue;
        item->setText(VerdictColumn, verdictText({}));
        item->setForeground(VerdictColumn, verdictColor({}));
    }
    underWay_->setText(tr("Starting…"));
    progress_->setValue(0);
    progress_->setVisible(true);
    summary_->clear();
    runAgain_->setEnabled(false);
    cancel_->setEnabled(true);
    Q_EMIT completeChanged();
}

void SelfTestPage::showStep(const SelfTestResult& r) {
    results_.insert(r.step, r);
    auto* item = rowFor(r.step);
    item->setText(VerdictColumn, verdictText(r.verdict));
    item->setForeground(VerdictColumn, verdictColor(r.verdict));
    auto font = item->font(VerdictColumn);
    font.setBold(r.verdict != "pass");
    item->setFont(VerdictColumn, font);
    item->setText(TimeColumn, r.seconds > 0 ? QString::number(r.seconds, 'f', 2) : QString());
    item->setText(FiguresColumn, r.figures);
    item->setToolTip(FiguresColumn, r.fix.isEmpty() ? r.figures : tr("%1\n\nWhat to do: %2").arg(r.figures, r.fix));
    list_->scrollToItem(item);
}

void SelfTestPage::showProgress(const QString& step, double fraction, const QString& detail) {
    if (step.isEmpty()) return;
    underWay_->setText(detail.isEmpty() ? tr("Under way: %1").arg(stepTitle(step)) : tr("Under way: %1 (%2)").arg(stepTitle(step), detail));
    progress_->setValue(static_cast<int>(fraction * 1000));
}

void SelfTestPage::showSettled(const QString& blockedBy) {
    settled_ = true;
    int passed = 0, warned = 0, failed = 0;
    for (const auto& r : results_) (r.verdict == "pass" ? passed : r.verdict == "warn" ? warned : failed)++;
    underWay_->setText(tr("Finished: %1 passed, %2 with a warning, %3 failed").arg(passed).arg(warned).arg(failed));
    progress_->setVisible(false);
    if (blockedBy.isEmpty()) {
        summary_->setText(tr("Acquisition may start."));
        summary_->setStyleSheet(QString("color: %1").arg(verdictColor(failed > 0 || warned > 0 ? "warn" : "pass").name()));
    } else {
        summary_->setText(
            tr("Acquisition is blocked: %1. Run the step again once fixed, or give an override with its reason on the next page.").arg(blockedBy));
        summary_->setStyleSheet(QString("color: %1").arg(verdictColor("fail").name()));
    }
    runAgain_->setEnabled(true);
    cancel_->setEnabled(false);
    Q_EMIT completeChanged();
}

void SelfTestPage::runAgain() {
    QStringList steps;
    for (const auto* item : list_->selectedItems()) steps << item->data(StepColumn, Qt::UserRole).toString();
    showRunning(steps);
    Q_EMIT wizard_.runAgainRequested(steps);
}

void SelfTestPage::showDetails() {
    const auto* item = list_->currentItem();
    if (!item) return;
    const auto step = item->data(StepColumn, Qt::UserRole).toString();
    if (!results_.contains(step)) return;
    auto* box =
        new QMessageBox(QMessageBox::NoIcon, tr("Self-test step: %1").arg(stepTitle(step)), stepDetailsHtml(results_.value(step)), QMessageBox::Close, this);
    box->setObjectName("stepDetails");
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QaReportPage::QaReportPage(SelfTestWizard& wizard)
    : wizard_(wizard), view_(new QTextBrowser), file_(new QLabel), blocked_(new QLabel), result_(new QLabel), sign_(new QPushButton(tr("Sign…"))),
      override_(new QPushButton(tr("Override…"))) {
    setObjectName("qaReportPage");
    setTitle(tr("QA report"));
    setSubTitle(
        tr("The record of this start: every step's verdict, figures, limit and baseline, under its SHA-256. Sign it "
           "to approve it; print or save it for the station's file."));
    view_->setObjectName("reportView");
    file_->setObjectName("reportFileLabel");
    file_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    blocked_->setObjectName("blockedLabel");
    blocked_->setWordWrap(true);
    blocked_->setStyleSheet(QString("color: %1").arg(verdictColor("fail").name()));
    result_->setObjectName("actionResultLabel");
    result_->setWordWrap(true);
    auto* save = new QPushButton(tr("Save PDF…"));
    save->setObjectName("savePdfButton");
    auto* print = new QPushButton(tr("Print…"));
    print->setObjectName("printButton");
    sign_->setObjectName("signButton");
    override_->setObjectName("overrideButton");
    override_->setVisible(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(save);
    buttons->addWidget(print);
    buttons->addWidget(sign_);
    buttons->addStretch(1);
    buttons->addWidget(override_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(view_, 1);
    layout->addWidget(file_);
    layout->addWidget(blocked_);
    layout->addWidget(result_);
    layout->addLayout(buttons);
    connect(save, &QPushButton::clicked, this, &QaReportPage::save);
    connect(print, &QPushButton::clicked, this, &QaReportPage::print);
    connect(sign_, &QPushButton::clicked, this, &QaReportPage::sign);
    connect(override_, &QPushButton::clicked, this, &QaReportPage::giveOverride);
}

void QaReportPage::showReport(const QString& html, const QString& file, bool isSigned) {
    view_->setHtml(html);
    file_->setText(file.isEmpty() ? tr("Not kept yet") : tr("Kept as %1 (and its PDF beside it)").arg(file));
    sign_->setEnabled(!file.isEmpty() && !isSigned);
    sign_->setToolTip(isSigned ? tr("Signed already") : QString());
}

void QaReportPage::showBlocked(const QString& blockedBy) {
    blockedBy_ = blockedBy;
    blocked_->setText(blockedBy.isEmpty() ? QString() : tr("Acquisition is blocked: %1").arg(blockedBy));
    blocked_->setVisible(!blockedBy.isEmpty());
    override_->setVisible(!blockedBy.isEmpty());
    Q_EMIT completeChanged();
}

void QaReportPage::showActionResult(const QString& text, bool ok) {
    result_->setText(text);
    result_->setStyleSheet(QString("color: %1").arg(verdictColor(ok ? "pass" : "fail").name()));
}

void QaReportPage::save() {
    const auto file = QFileDialog::getSaveFileName(this, tr("Save the QA report"), QString(), tr("PDF (*.pdf)"));
    if (!file.isEmpty()) Q_EMIT wizard_.savePdfRequested(file.endsWith(".pdf", Qt::CaseInsensitive) ? file : file + ".pdf");
}

void QaReportPage::print() {
    QPrinter printer(QPrinter::HighResolution);
    QPrintDialog dialog(&printer, this);
    if (dialog.exec() != QDialog::Accepted) return;
    view_->document()->print(&printer);
}

void QaReportPage::sign() {
    ReauthenticationDialog dialog(tr("Sign"),
                                  tr("Your signature is bound to this report's content: your password proves who you are, "
                                     "and the meaning says what you sign for."),
                                  tr("Meaning"), {tr("reviewed and approved"), tr("performed the tests"), tr("reviewed")}, wizard_.user(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    Q_EMIT wizard_.signRequested(dialog.statement(), dialog.takePassword());
}

void QaReportPage::giveOverride() {
    ReauthenticationDialog dialog(tr("Override"),
                                  tr("A failed step blocks acquisition: %1. An override lets this station acquire until "
                                     "the next start. It is recorded, with your name and reason, in the QA report and "
                                     "the audit trail.")
                                      .arg(blockedBy_),
                                  tr("Reason"), {}, wizard_.user(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    Q_EMIT wizard_.overrideRequested(dialog.statement(), dialog.takePassword());
}

}  // namespace sonolink::gui
