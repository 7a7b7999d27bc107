// SelfTestWizard: the start-up self-test as the engineer follows it: each step as it ends, with
// its verdict, time and figures (details on demand: the BER and its bound, the memory tested, the
// element map, the fix), the step under way with its progress bar, re-run and cancel; then the QA
// report to view, save as PDF, print and sign, and the override (with a reason) when a failed
// step blocks streaming. It shows what it is given and asks for actions by signal: the app wires
// it to the engine's bridge, PAM and the report. Finish stays disabled while streaming is blocked.
// Thread contract: GUI thread only.
#pragma once

#include <QString>
#include <QStringList>
#include <QWizard>

#include "sonolink/gui/views/self_test_result.h"

class QTreeWidget;
class QTextBrowser;

namespace sonolink::gui {

class SelfTestPage;
class QaReportPage;

class SelfTestWizard : public QWizard {
    Q_OBJECT
public:
    explicit SelfTestWizard(const QString& user, QWidget* parent = nullptr);

    // A run begins (connect, or a re-run): its steps' rows are marked as running again.
    void showRunning(const QStringList& steps = {});
    void showStep(const SelfTestResult& result);
    void showProgress(const QString& step, double fraction, const QString& detail);
    // The run settled: streaming is blocked for this reason (empty: it is not).
    void showSettled(const QString& blockedBy);
    void showOverride(const QString& by, const QString& reason);
    // The QA report as it stands (HTML) and the file that keeps it.
    void showReport(const QString& html, const QString& file, bool isSigned);
    // What became of an action (a signature, an override, a save): shown on the report page.
    void showActionResult(const QString& text, bool ok);

    [[nodiscard]] QTreeWidget* stepList() const;
    [[nodiscard]] QTextBrowser* reportView() const;
    [[nodiscard]] bool blocked() const;
    [[nodiscard]] QString user() const { return user_; }

Q_SIGNALS:
    void runAgainRequested(const QStringList& steps);  // empty: every step
    void cancelRequested();
    void overrideRequested(const QString& reason, const QString& password);
    void signRequested(const QString& meaning, const QString& password);
    void savePdfRequested(const QString& file);

private:
    QString user_;
    SelfTestPage* tests_;
    QaReportPage* report_;
};

}  // namespace sonolink::gui
