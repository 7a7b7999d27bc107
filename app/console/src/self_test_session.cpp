#include "sonolink/console/self_test_session.h"

#include <algorithm>

#include <fmt/format.h>

#include "engineer_authority.h"
#include "sonolink/auth/reauthenticate.h"
#include "sonolink/gui/dialogs/self_test_wizard.h"
#include "sonolink/gui/dialogs/self_test_words.h"
#include "sonolink/gui/views/engine_text.h"
#include "sonolink/report/qa_report_pdf.h"
#include "sonolink/report/selftest_report.h"
#include "sonolink/util/station_user.h"

namespace sonolink::app {
namespace {

// The report as the wizard shows it and saves it: the engine's sentences and the step names in the user's language.
report::ReportLanguage reportLanguage() {
    return {[](const std::string& s) { return gui::engineText(QString::fromStdString(s)).toStdString(); },
            [](const std::string& s) { return gui::stepTitle(QString::fromStdString(s)).toStdString(); }};
}

}  // namespace

SelfTestSession::SelfTestSession(gui::EngineBridge& bridge, gui::SelfTestWizard& wizard, SelfTestReporting reporting, QObject* parent)
    : QObject(parent), bridge_(bridge), wizard_(wizard), reporting_(std::move(reporting)) {
    connect(&bridge_, &gui::EngineBridge::stateChanged, this, &SelfTestSession::onState);
    connect(&bridge_, &gui::EngineBridge::selfTestStepEnded, &wizard_, &gui::SelfTestWizard::showStep);
    connect(&bridge_, &gui::EngineBridge::selfTestProgress, &wizard_, &gui::SelfTestWizard::showProgress);
    connect(&bridge_, &gui::EngineBridge::selfTestOverridden, this, [this](const QString& by, const QString& reason, const QString& blocked) {
        override_ =
            report::overrideRecord({reason.toStdString(), by.toStdString(), blocked.toStdString()}, std::chrono::system_clock::now(), authenticationMethod());
        keepReport(lastProblem_);  // a new report, with the override; the failed one stays as it was
        wizard_.showOverride(by, reason);
        Q_EMIT actionFinished(true);
    });
    // The self-test needs the link to itself: live or frozen, scanning stops first, and the re-run
    // follows once the station is ready. A refusal ends the wait, saying why.
    connect(&wizard_, &gui::SelfTestWizard::runAgainRequested, this, [this](const QStringList& steps) {
        rerunPending_ = true;
        const auto state = bridge_.stateName();
        if (state == "streaming" || state == "frozen") {
            rerunAfterStop_ = steps;
            stoppingForRerun_ = true;
            wizard_.showActionResult(tr("Scanning stops first: the self-test needs the link to itself."), true);
            return bridge_.stopStreaming();
        }
        bridge_.runSelfTest(steps);
    });
    connect(&bridge_, &gui::EngineBridge::commandRefused, this, [this](const QString& command, const QString& why) {
        if (command != "runSelfTest" || !rerunPending_) return;
        rerunPending_ = stoppingForRerun_ = false;
        wizard_.showActionResult(tr("The self-test was not run: %1").arg(why), false);
        wizard_.showSettled(bridge_.streamingBlock());
    });
    connect(&wizard_, &gui::SelfTestWizard::cancelRequested, &bridge_, &gui::EngineBridge::cancelSelfTest);
    connect(&wizard_, &gui::SelfTestWizard::signRequested, this, &SelfTestSession::sign);
    connect(&wizard_, &gui::SelfTestWizard::overrideRequested, this, &SelfTestSession::giveOverride);
    connect(&wizard_, &gui::SelfTestWizard::savePdfRequested, this, [this](const QString& file) {
        if (report_.is_null()) return wizard_.showActionResult(tr("No report yet: the self-test has not finished."), false);
        const auto written = report::writeQaReportPdf(report_, file.toStdString(), reportLanguage());
        wizard_.showActionResult(written ? tr("Saved as %1").arg(file) : QString::fromStdString(written.error().describe()), written.has_value());
    });
}

void SelfTestSession::onState(const QString& state, const QString& reason) {
    if (stoppingForRerun_) {
        if (state == "ready") {
            stoppingForRerun_ = false;
            return bridge_.runSelfTest(rerunAfterStop_);
        }
        if (state == "idle" || state == "error") {  // the link went down instead
            stoppingForRerun_ = rerunPending_ = false;
            wizard_.showActionResult(tr("The self-test was not run: the station is %1 (%2)").arg(state, reason), false);
            return wizard_.showSettled(bridge_.streamingBlock());
        }
        if (state != "self-test") return;  // on its way to ready
        stoppingForRerun_ = false;         // the new session's own self-test runs: that is the re-run
    }
    if (state == "self-test" && !running_) {
        running_ = true;
        started_ = std::chrono::system_clock::now();
        override_ = nullptr;  // a new run needs its own override
        if (!rerunPending_) wizard_.showRunning();
        rerunPending_ = false;
        return;
    }
    if (!running_ || (state != "ready" && state != "error")) return;
    running_ = false;
    const auto problem = state == "error" ? tr("the self-test could not finish: %1").arg(reason) : QString();
    keepReport(problem);
    const auto block = bridge_.streamingBlock();
    wizard_.showSettled(block.isEmpty() ? problem : block);
}

void SelfTestSession::keepReport(const QString& problem) {
    lastProblem_ = problem;
    const auto& steps = bridge_.selfTestSteps();
    const bool failed = std::any_of(steps.begin(), steps.end(), [](const auto& s) { return s.verdict == engine::SelfTestVerdict::Fail; });
    report::SelfTestRun run{reporting_.mode,
                            started_,
                            std::chrono::system_clock::now(),
                            steps,
                            bridge_.stats(),
                            !failed && problem.isEmpty() && !steps.empty(),
                            problem.toStdString(),
                            reporting_.station,
                            override_};
    report_ = report::selfTestReport(run, report::lastPassingReport(reporting_.directory));
    auto written = report::writeSelfTestReport(reporting_.directory, report_);
    if (!written) {
        reportFile_.clear();
        wizard_.showActionResult(tr("The QA report could not be kept: %1").arg(QString::fromStdString(written.error().describe())), false);
    } else {
        reportFile_ = *written;
        Q_EMIT reportKept(QString::fromStdString(reportFile_.string()));
    }
    showReport();
}

void SelfTestSession::showReport() {
    wizard_.showReport(QString::fromStdString(report::qaReportHtml(report_, reportLanguage())), QString::fromStdString(reportFile_.string()),
                       report_.contains("signature"));
}

void SelfTestSession::sign(const QString& meaning, const QString& password) {
    if (reportFile_.empty()) {
        wizard_.showActionResult(tr("There is no kept report to sign."), false);
        return Q_EMIT actionFinished(false);
    }
    if (auto role = engineerRole(reporting_.engineerGroup); !role) {
        wizard_.showActionResult(tr("Not signed: %1").arg(QString::fromStdString(role.error().message())), false);
        return Q_EMIT actionFinished(false);
    }
    reauthenticateThen(this, password, [this, meaning, file = reportFile_](const Status& checked) {
        if (!checked) {
            wizard_.showActionResult(tr("Not signed: %1").arg(QString::fromStdString(checked.error().message())), false);
            return Q_EMIT actionFinished(false);
        }
        const auto user = stationUser();
        auto signedOne =
            report::signReportFile(file, {user, auth::printedName(user), meaning.toStdString(), std::chrono::system_clock::now(), authenticationMethod()});
        if (!signedOne) {
            wizard_.showActionResult(tr("Not signed: %1").arg(QString::fromStdString(signedOne.error().describe())), false);
            return Q_EMIT actionFinished(false);
        }
        if (file == reportFile_) report_ = std::move(*signedOne);
        showReport();
        wizard_.showActionResult(
            tr("Signed by %1 (%2), meaning: %3").arg(QString::fromStdString(user), QString::fromStdString(auth::printedName(user)), meaning), true);
        Q_EMIT reportKept(QString::fromStdString(file.string()));
        Q_EMIT actionFinished(true);
    });
}

void SelfTestSession::giveOverride(const QString& reason, const QString& password) {
    if (auto role = engineerRole(reporting_.engineerGroup); !role) {
        wizard_.showActionResult(tr("No override was given: %1").arg(QString::fromStdString(role.error().message())), false);
        return Q_EMIT actionFinished(false);
    }
    reauthenticateThen(this, password, [this, reason](const Status& checked) {
        if (!checked) {
            wizard_.showActionResult(tr("No override was given: %1").arg(QString::fromStdString(checked.error().message())), false);
            return Q_EMIT actionFinished(false);
        }
        bridge_.overrideSelfTest(reason);  // the engine takes it (selfTestOverridden) or refuses it (a problem)
    });
}

}  // namespace sonolink::app
