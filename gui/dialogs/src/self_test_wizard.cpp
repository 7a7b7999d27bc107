#include "sonolink/gui/dialogs/self_test_wizard.h"

#include "self_test_pages.h"

namespace sonolink::gui {

SelfTestWizard::SelfTestWizard(const QString& user, QWidget* parent)
    : QWizard(parent), user_(user), tests_(new SelfTestPage(*this)), report_(new QaReportPage(*this)) {
    setObjectName("selfTestWizard");
    setWindowTitle(tr("SonoLink start-up self-test"));
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage, false);
    setOption(QWizard::NoCancelButton, false);
    setButtonText(QWizard::CancelButton, tr("Close"));
    setButtonText(QWizard::FinishButton, tr("Start scanning"));
    addPage(tests_);
    addPage(report_);
    resize(980, 680);
}

void SelfTestWizard::showRunning(const QStringList& steps) { tests_->showRunning(steps); }
void SelfTestWizard::showStep(const SelfTestResult& result) { tests_->showStep(result); }
void SelfTestWizard::showProgress(const QString& step, double fraction, const QString& detail) { tests_->showProgress(step, fraction, detail); }

void SelfTestWizard::showSettled(const QString& blockedBy) {
    tests_->showSettled(blockedBy);
    report_->showBlocked(blockedBy);
}

void SelfTestWizard::showOverride(const QString& by, const QString& reason) {
    report_->showBlocked({});
    report_->showActionResult(tr("Overridden by %1: %2. Acquisition may start; the override is in the report and the audit trail.").arg(by, reason), true);
}

void SelfTestWizard::showReport(const QString& html, const QString& file, bool isSigned) { report_->showReport(html, file, isSigned); }
void SelfTestWizard::showActionResult(const QString& text, bool ok) { report_->showActionResult(text, ok); }

QTreeWidget* SelfTestWizard::stepList() const { return tests_->list(); }
QTextBrowser* SelfTestWizard::reportView() const { return report_->view(); }
bool SelfTestWizard::blocked() const { return !report_->blockedBy().isEmpty(); }

}  // namespace sonolink::gui
