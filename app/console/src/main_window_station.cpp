// MainWindow's station dialogs: the exam (entered or from the worklist), Settings… (an engineer's
// change of the start-up self-test re-asked for the password and audited), the station check,
// and a DICOM cine opened for review in a window of its own.
#include <QFutureWatcher>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTreeWidget>
#include <QtConcurrent/QtConcurrentRun>

#include "engineer_authority.h"
#include "sonolink/console/main_window.h"
#include "sonolink/console/settings_store.h"
#include "sonolink/console/translations.h"
#include "sonolink/gui/dialogs/reauthentication_dialog.h"
#include "sonolink/util/station_user.h"

namespace sonolink::app {

void MainWindow::openExam() {
    if (examDialog_ && examDialog_->isVisible()) {  // a closed one awaits its deletion
        examDialog_->raise();
        return;
    }
    auto* dialog = new gui::ExamDialog(nodes_, bridge_.exam(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &gui::ExamDialog::worklistQueryRequested, &bridge_, &gui::EngineBridge::queryWorklist);
    connect(&bridge_, &gui::EngineBridge::worklistAnswered, dialog, &gui::ExamDialog::showWorklist);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { bridge_.setExam(dialog->entry()); });
    examDialog_ = dialog;
    dialog->open();
}

void MainWindow::setStationSettings(const gui::StationSettings& settings, const QStringList& nodesInUse) {
    station_ = settings;
    nodesInUse_ = nodesInUse;
}

void MainWindow::openSettings() {
    if (settingsDialog_ && settingsDialog_->isVisible()) {
        settingsDialog_->raise();
        return;
    }
    auto* dialog = new gui::SettingsDialog(loadStationSettings().value_or(station_), nodesInUse_, chooseLanguage({}), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &gui::SettingsDialog::echoRequested, this, [this, dialog](const gui::PacsNodeEntry& node, bool inUseAsIs) {
        if (inUseAsIs) return bridge_.verifyNode(node.name);
        bridge_.verifyNode(node, dialog->values());
    });
    connect(&bridge_, &gui::EngineBridge::nodeVerified, dialog, &gui::SettingsDialog::showEcho);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QSettings().setValue(kLanguageSetting, dialog->language());
        keepSettings(loadStationSettings().value_or(station_), dialog->values());
    });
    settingsDialog_ = dialog;
    dialog->open();
}

// Settings that affect safety (the start-up self-test's policy) are an engineer's to change: the
// role first, then a reason and the password; the change is audited. Others are kept at once.
void MainWindow::keepSettings(const gui::StationSettings& before, const gui::StationSettings& after) {
    const auto refuse = [this](const QString& why) { showProblem(tr("Settings not kept: %1").arg(why), kRed); };
    if (after.selfTestAtConnect == before.selfTestAtConnect && after.selfTestMode == before.selfTestMode) {
        saveStationSettings(after);
        return statusBar()->showMessage(tr("Settings kept: they apply at the next start."), 8000);
    }
    if (auto role = engineerRole(engineerGroup_.toStdString()); !role) return refuse(QString::fromStdString(role.error().message()));
    const auto onOff = [](bool on) { return on ? tr("at every connect") : tr("off"); };
    const QString change = tr("start-up self-test %1 (%2) -> %3 (%4)")
                               .arg(onOff(before.selfTestAtConnect), before.selfTestMode, onOff(after.selfTestAtConnect), after.selfTestMode);
    auto* ask = new gui::ReauthenticationDialog(tr("Change the start-up self-test"),
                                                tr("Only an engineer may change the start-up self-test (%1). Give the reason and your password: "
                                                   "the change is recorded with your name.")
                                                    .arg(change),
                                                tr("Reason"), {}, QString::fromStdString(stationUser()), this);
    ask->setObjectName("policyChangeDialog");
    ask->setAttribute(Qt::WA_DeleteOnClose);
    connect(ask, &QDialog::rejected, this, [refuse] { refuse(tr("the change of the start-up self-test was not confirmed")); });
    // The audit trail's words stay English, whatever the console's language.
    const QString audited = QString("at connect: %1 -> %2; mode: %3 -> %4")
                                .arg(before.selfTestAtConnect ? "on" : "off", after.selfTestAtConnect ? "on" : "off", before.selfTestMode, after.selfTestMode);
    connect(ask, &QDialog::accepted, this, [this, ask, after, change, audited, refuse] {
        const QString reason = ask->statement();
        reauthenticateThen(this, ask->takePassword(), [this, after, change, audited, reason, refuse](const Status& checked) {
            if (!checked) return refuse(QString::fromStdString(checked.error().message()));
            saveStationSettings(after);
            bridge_.recordPolicyChange("start-up self-test policy", audited, reason);
            statusBar()->showMessage(tr("Settings kept (%1, recorded): they apply at the next start.").arg(change), 8000);
        });
    });
    ask->open();
}

void MainWindow::showKeptSettingsRefused(const QString& reasons) {
    showProblem(tr("The kept settings were not used (Settings… to correct them): %1").arg(reasons), kAmber);
}

void MainWindow::setStationCheck(std::function<gui::StationCheckReport()> check) {
    stationCheck_ = std::move(check);
    stationCheckAction_->setEnabled(static_cast<bool>(stationCheck_));
}

void MainWindow::setCineOpener(CineReviewOpener opener) {
    cineOpener_ = std::move(opener);
    for (auto* action : cineActions_) action->setEnabled(static_cast<bool>(cineOpener_));
}

void MainWindow::openCineReview(const QString& object) {
    if (!cineOpener_) return;
    statusBar()->showMessage(tr("Opening %1…").arg(object), 5000);
    struct Opened {
        CineReviewSource source;
        QString why;
    };
    auto* watcher = new QFutureWatcher<Opened>(this);
    connect(watcher, &QFutureWatcher<Opened>::finished, this, [this, watcher, object] {
        auto opened = watcher->result();
        watcher->deleteLater();
        if (opened.source.frames <= 0) {
            showProblem(tr("Cannot review %1: %2").arg(object, opened.why), kRed);
            return;
        }
        // A window of its own beside the live picture, owned by it: closing the console closes it.
        auto* review = new CineReviewWindow(std::move(opened.source), this);
        review->setAttribute(Qt::WA_DeleteOnClose);
        review->show();
        Q_EMIT cineReviewOpened(review);
    });
    watcher->setFuture(QtConcurrent::run([opener = cineOpener_, object] {
        Opened opened;
        opened.source = opener(object, &opened.why);
        return opened;
    }));
}

void MainWindow::openStationCheck() {
    if (!stationCheck_) return;
    if (!stationCheckDialog_) {
        stationCheckDialog_ = new gui::StationCheckDialog(this);
        stationCheckDialog_->setAttribute(Qt::WA_DeleteOnClose);
        connect(stationCheckDialog_, &gui::StationCheckDialog::checkRequested, this, [this] {
            if (stationCheckRunning_) return;
            stationCheckRunning_ = true;
            stationCheckDialog_->showChecking();
            auto* watcher = new QFutureWatcher<gui::StationCheckReport>(this);
            connect(watcher, &QFutureWatcher<gui::StationCheckReport>::finished, this, [this, watcher] {
                stationCheckRunning_ = false;
                if (stationCheckDialog_) stationCheckDialog_->showResults(watcher->result());
                watcher->deleteLater();
            });
            watcher->setFuture(QtConcurrent::run(stationCheck_));
        });
    }
    stationCheckDialog_->show();
    stationCheckDialog_->raise();
    if (!stationCheckRunning_ && stationCheckDialog_->list()->topLevelItemCount() == 0) Q_EMIT stationCheckDialog_->checkRequested();
}

}  // namespace sonolink::app
