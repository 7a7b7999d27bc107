// The self-test wizard's two pages: the steps as they run (SelfTestPage) and the QA report with
// its actions (QaReportPage); and stepDetailsHtml, one step's details as the details box shows
// them. Private to gui/dialogs. Thread contract: GUI thread only.
#pragma once

#include <QHash>
#include <QString>
#include <QWizardPage>

#include "sonolink/gui/dialogs/self_test_words.h"
#include "sonolink/gui/views/self_test_result.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace sonolink::gui {

class SelfTestWizard;

[[nodiscard]] QString stepDetailsHtml(const SelfTestResult& result);

class SelfTestPage : public QWizardPage {
    Q_OBJECT
public:
    explicit SelfTestPage(SelfTestWizard& wizard);

    void showRunning(const QStringList& steps);
    void showStep(const SelfTestResult& result);
    void showProgress(const QString& step, double fraction, const QString& detail);
    void showSettled(const QString& blockedBy);
    [[nodiscard]] bool isComplete() const override { return settled_; }
    [[nodiscard]] QTreeWidget* list() const { return list_; }

private:
    void runAgain();
    void showDetails();
    QTreeWidgetItem* rowFor(const QString& step);

    SelfTestWizard& wizard_;
    QTreeWidget* list_;
    QLabel* underWay_;
    QProgressBar* progress_;
    QLabel* summary_;
    QPushButton* runAgain_;
    QPushButton* cancel_;
    QPushButton* details_;
    QHash<QString, SelfTestResult> results_;
    bool settled_ = false;
};

class QaReportPage : public QWizardPage {
    Q_OBJECT
public:
    explicit QaReportPage(SelfTestWizard& wizard);

    void showReport(const QString& html, const QString& file, bool isSigned);
    void showBlocked(const QString& blockedBy);
    void showActionResult(const QString& text, bool ok);
    [[nodiscard]] bool isComplete() const override { return blockedBy_.isEmpty(); }
    [[nodiscard]] QTextBrowser* view() const { return view_; }
    [[nodiscard]] const QString& blockedBy() const { return blockedBy_; }

private:
    void save();
    void print();
    void sign();
    void giveOverride();

    SelfTestWizard& wizard_;
    QTextBrowser* view_;
    QLabel* file_;
    QLabel* blocked_;
    QLabel* result_;
    QPushButton* sign_;
    QPushButton* override_;
    QString blockedBy_;
};

}  // namespace sonolink::gui
