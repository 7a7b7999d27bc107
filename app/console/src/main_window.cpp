#include "sonolink/console/main_window.h"

#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QActionGroup>
#include <QCoreApplication>
#include <QInputDialog>
#include <QSettings>
#include <QTreeWidget>
#include <QMessageBox>
#include <QtConcurrent/QtConcurrentRun>
#include <QFutureWatcher>
#include <QLocale>
#include <QTextStream>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>
#include <QVariantAnimation>
#include <QVBoxLayout>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <utility>

#include "sonolink/console/settings_store.h"
#include "sonolink/console/translations.h"
#include "sonolink/gui/dialogs/exam_dialog.h"
#include "sonolink/gui/plot/link_health_panel.h"
#include "sonolink/gui/plot/rf_panel.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/cine_bar.h"
#include "engineer_authority.h"
#include "image_watch.h"
#include "sonolink/gui/dialogs/reauthentication_dialog.h"
#include "sonolink/util/station_user.h"
#include "sonolink/gui/views/imaging_panel.h"
#include "sonolink/gui/views/photoacoustic_panel.h"
#include "sonolink/gui/dialogs/self_test_words.h"
#include "sonolink/gui/views/measurement_panel.h"
#include "sonolink/gui/views/archive_view.h"
#include "sonolink/gui/views/queue_view.h"

namespace sonolink::app {
namespace {

// The engine's state as the status bar names it, in the user's language.
QString stateTitle(const QString& state) {
    if (state == "idle") return MainWindow::tr("idle");
    if (state == "connecting") return MainWindow::tr("connecting");
    if (state == "self-test") return MainWindow::tr("self-test");
    if (state == "ready") return MainWindow::tr("ready");
    if (state == "streaming") return MainWindow::tr("streaming");
    if (state == "frozen") return MainWindow::tr("frozen");
    if (state == "error") return MainWindow::tr("error");
    return state;
}

gui::ImagingValues imagingOf(const gui::EngineBridge& bridge) {
    gui::ImagingValues v;
    v.gainDb = bridge.gainDb();
    v.dynamicRangeDb = bridge.dynamicRangeDb();
    v.depthStartMm = bridge.depthStartMm();
    v.depthEndMm = bridge.depthEndMm();
    v.persistence = bridge.persistence();
    v.tgcDb = bridge.tgcDb();
    return v;
}

}  // namespace

MainWindow::MainWindow(gui::EngineBridge& bridge, bool autoStream, QWidget* parent)
    : QMainWindow(parent), bridge_(bridge), autoStream_(autoStream), view_(new gui::BModeView), imaging_(new gui::ImagingPanel(imagingOf(bridge))),
      rf_(new gui::RfPanel(bridge.channelCount())), health_(new gui::LinkHealthPanel), queue_(new gui::QueueView), archive_(new gui::ArchiveView), cineBar_(new gui::CineBar), measurementPanel_(new gui::MeasurementPanel(*view_)), export_(new QLabel), recording_(new QLabel), patient_(new QLabel), state_(new QLabel), rate_(new QLabel),
      problem_(new QLabel), tgcFade_(new QVariantAnimation(this)), shotView_(new gui::BModeView), shots_(new gui::PhotoacousticPanel(bridge.shotDisplay())),
      laser_(new QLabel) {
    setObjectName("mainWindow");
    setWindowTitle(tr("SonoLink"));
    auto* central = new QWidget;
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* imageColumn = new QVBoxLayout;
    auto* pictures = new QHBoxLayout;  // the B-mode, and beside it dual mode's shots when side by side
    pictures->addWidget(view_, 1);
    pictures->addWidget(shotView_, 1);
    shotView_->hide();
    imageColumn->addLayout(pictures, 1);
    imageColumn->addWidget(cineBar_);
    cineBar_->hide();  // shown while frozen
    layout->addLayout(imageColumn, 1);
    connect(cineBar_, &gui::CineBar::frameChosen, this, [this](int i) { if (i >= 0 && i < cine_.size()) showPicture(cine_[i]); });
    // The controls scroll rather than squash when the screen is short (1366 x 768, 1280 x 720):
    // each slider keeps its height, the picture keeps its proportions beside them.
    auto* controlsBox = new QWidget;
    auto* controls = new QVBoxLayout(controlsBox);
    controls->setContentsMargins(0, 0, 0, 0);
    if (bridge_.firesLaser()) controls->addWidget(shots_);  // dual mode: the shots' controls first, in view
    controls->addWidget(imaging_);
    if (!bridge_.firesLaser()) controls->addWidget(shots_);  // hidden until a laser fires
    controls->addWidget(measurementPanel_);
    imaging_->setFixedWidth(250);
    shots_->setFixedWidth(250);
    measurementPanel_->setFixedWidth(250);
    auto* controlsScroll = new QScrollArea;
    controlsScroll->setObjectName("controlsScroll");
    controlsScroll->setWidget(controlsBox);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlsScroll->setFixedWidth(250 + controlsScroll->verticalScrollBar()->sizeHint().width() + 4);
    layout->addWidget(controlsScroll);
    view_->setMinimumSize(360, 240);
    connect(view_, &gui::BModeView::textRequested, this, [this](QPointF mm) {
        auto* ask = new QInputDialog(this);
        ask->setObjectName("annotationDialog");
        ask->setAttribute(Qt::WA_DeleteOnClose);
        ask->setWindowTitle(tr("Note"));
        ask->setLabelText(tr("Text at %1, %2 mm:").arg(mm.x(), 0, 'f', 1).arg(mm.y(), 0, 'f', 1));
        connect(ask, &QInputDialog::textValueSelected, this, [this, mm](const QString& text) {
            if (text.trimmed().isEmpty()) return;
            gui::Measurement note;
            note.kind = gui::MeasurementKind::Text;
            note.pointsMm = {mm};
            note.text = text.trimmed();
            view_->addMeasurement(note);
        });
        ask->open();
    });
    setCentralWidget(central);
    connect(imaging_, &gui::ImagingPanel::gainChanged, this, [this](double db) { bridge_.setGainDb(db); });
    connect(imaging_, &gui::ImagingPanel::dynamicRangeChanged, this, [this](double db) { bridge_.setDynamicRangeDb(db); });
    connect(imaging_, &gui::ImagingPanel::depthEndChanged, this, [this](double mm) { bridge_.setDepthEndMm(mm); });
    connect(imaging_, &gui::ImagingPanel::persistenceChanged, this, [this](double w) { bridge_.setPersistence(w); });
    connect(imaging_, &gui::ImagingPanel::tgcChanged, this, &MainWindow::onTgc);
    connect(imaging_, &gui::ImagingPanel::valuesApplied, this, [this](const gui::ImagingValues& v) {
        bridge_.setPicture(v);
        view_->setTgcCurve(v.tgcDb, 0);
    });
    imagingDefaults_ = imaging_->values();
    refreshPresets();
    connect(imaging_, &gui::ImagingPanel::presetChosen, this, [this](const QString& name) {
        for (const auto& p : imagingPresets(imagingDefaults_)) {
            if (p.name == name) imaging_->apply(p.values);
        }
    });
    connect(imaging_, &gui::ImagingPanel::savePresetRequested, this, [this] {
        auto* ask = new QInputDialog(this);
        ask->setObjectName("presetNameDialog");
        ask->setAttribute(Qt::WA_DeleteOnClose);
        ask->setWindowTitle(tr("Save preset"));
        ask->setLabelText(tr("Name of the preset:"));
        connect(ask, &QInputDialog::textValueSelected, this, [this](const QString& name) { if (!name.trimmed().isEmpty()) savePreset(name.trimmed()); });
        ask->open();
    });
    // The TGC curve: fully shown while adjusted, held a second, faded over the next.
    tgcFade_->setDuration(2000);
    tgcFade_->setKeyValues({{0.0, 1.0}, {0.5, 1.0}, {1.0, 0.0}});
    connect(tgcFade_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) { view_->setTgcCurve(imaging_->tgcDb(), v.toDouble()); });
    view_->setTgcCurve(imaging_->tgcDb(), 0);

    buildActions();
    buildDocks();
    buildShotControls();
    recording_->setObjectName("recordingLabel");
    connect(&bridge_, &gui::EngineBridge::recordingChanged, this, &MainWindow::showRecording);
    export_->setObjectName("exportLabel");
    connect(&bridge_, &gui::EngineBridge::exportUpdate, this, [this](const QString& message, double progress, bool failed, bool done) {
        export_->setText(done ? (failed ? tr("Export failed: %1").arg(message) : tr("Exported: %1").arg(message))
                              : tr("Exporting… %1 %").arg(static_cast<int>(progress * 100)));
        export_->setToolTip(message);
        export_->setStyleSheet(failed ? "color: #d03030" : "");
    });
    patient_->setObjectName("patientLabel");
    statusBar()->addWidget(patient_);
    connect(&bridge_, &gui::EngineBridge::examChanged, this, &MainWindow::onExamChanged);
    study_ = bridge_.exam().studyInstanceUid;
    examHasPatient_ = !bridge_.exam().empty();
    showPatient(bridge_.exam());
    state_->setObjectName("stateLabel");
    rate_->setObjectName("rateLabel");
    problem_->setObjectName("problemLabel");
    statusBar()->addWidget(state_);
    statusBar()->addWidget(rate_);
    statusBar()->addWidget(laser_);
    statusBar()->addWidget(recording_);
    statusBar()->addWidget(export_);
    statusBar()->addPermanentWidget(problem_, 1);
    connect(&bridge_, &gui::EngineBridge::stateChanged, this, &MainWindow::onState);
    connect(&bridge_, &gui::EngineBridge::imageReady, this, &MainWindow::onImage);
    auto* watch = new ImageWatch(bridge_, *view_, 750, this);  // said on the image within a second
    connect(watch, &ImageWatch::stalled, this, [this](double seconds, const QString& why) {
        if (seconds <= 0) return rate_->setStyleSheet({});
        rate_->setText(tr("0 frames/s: no new image for %1 s").arg(seconds, 0, 'f', 0));
        rate_->setToolTip(why);
        rate_->setStyleSheet("color: #d03030");
    });
    connect(&bridge_, &gui::EngineBridge::problem, this, [this](const QString& text, bool isError) {
        problem_->setText(text);
        problem_->setToolTip(text);
        problem_->setStyleSheet(isError ? "color: #d03030" : "color: #b07000");
    });
    // A self-test step that did not pass, in the status bar too (the wizard has them all): its figures and fix.
    connect(&bridge_, &gui::EngineBridge::selfTestStepEnded, this,
            [this](const gui::SelfTestResult& r) {
                if (r.verdict == "pass") return;
                problem_->setText(tr("Self-test, %1: %2: %3%4").arg(gui::stepTitle(r.step), gui::verdictText(r.verdict), r.figures,
                                                                     r.fix.isEmpty() ? QString() : tr(" What to do: %1").arg(r.fix)));
                problem_->setToolTip(problem_->text());  // the whole of it where the bar cuts it short
                problem_->setStyleSheet(r.verdict == "fail" ? "color: #d03030" : "color: #b07000");
            });
    onState(bridge_.stateName(), {});
    clock_.start();
    // The whole of a screen smaller than the console's own size (a laptop, a cart's 1366 x 768).
    const QSize room = screen()->availableGeometry().size();
    resize(room.width() < 1400 || room.height() < 950 ? room : QSize(1280, 900));
}

void MainWindow::buildActions() {
    auto* tools = addToolBar(tr("Acquisition"));
    tools->setObjectName("acquisitionToolBar");
    tools->addAction(tr("Connect"), this, [this] { bridge_.connectLink(); })->setObjectName("connectAction");
    tools->addAction(tr("Live"), this, [this] { bridge_.startStreaming(); })->setObjectName("liveAction");
    auto* stop = tools->addAction(tr("Stop"), this, [this] { bridge_.stopStreaming(); });
    stop->setObjectName("stopAction");
    stop->setToolTip(tr("Stop scanning; the link stays up (Live starts again)"));
    auto* disconnect = tools->addAction(tr("Disconnect"), this, [this] { bridge_.disconnectLink(); });
    disconnect->setObjectName("disconnectAction");
    disconnect->setToolTip(tr("Stop scanning and close the link to the front end"));
    // F: freeze, and F again: live (as on every console).
    auto* freeze = tools->addAction(tr("Freeze"), this, [this] { bridge_.stateName() == "frozen" ? bridge_.startStreaming() : bridge_.freeze(); });
    freeze->setObjectName("freezeAction");
    freeze->setShortcut(Qt::Key_F);
    auto* save = tools->addAction(tr("Save image…"), this, [this] {
        const auto path = QFileDialog::getSaveFileName(this, tr("Save image"), QString(), tr("PNG images (*.png)"));
        QString why;
        if (!path.isEmpty() && !saveImage(path, &why)) problem_->setText(why);
    });
    save->setObjectName("saveImageAction");
    save->setShortcut(QKeySequence::Save);
    record_ = tools->addAction(tr("Record"), this, &MainWindow::toggleRecording);
    record_->setObjectName("recordAction");
    record_->setCheckable(true);
    record_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    tools->addSeparator();
    auto* exam = tools->addAction(tr("Exam…"), this, &MainWindow::openExam);
    exam->setObjectName("examAction");
    exam->setShortcut(QKeySequence::New);
    auto* exportAction = tools->addAction(tr("Export cine"), this, &MainWindow::exportCine);
    exportAction->setObjectName("exportCineAction");
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    auto* exportImageAction = tools->addAction(tr("Export image"), this, &MainWindow::exportImage);
    exportImageAction->setObjectName("exportImageAction");
    exportImageAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    // The engine lets the exam's pictures go and goes live; examChanged clears the screen.
    auto* endExam = tools->addAction(tr("End exam"), this, [this] { bridge_.endExam(); });
    endExam->setObjectName("endExamAction");
    endExam->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    tools->addSeparator();
    auto* selfTest = tools->addAction(tr("Self-test…"), this, [this] { Q_EMIT selfTestRequested(); });
    selfTest->setObjectName("selfTestAction");
    selfTest->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    auto* settings = tools->addAction(tr("Settings…"), this, &MainWindow::openSettings);
    settings->setObjectName("settingsAction");
    settings->setShortcut(QKeySequence::Preferences);
    auto* reset = tools->addAction(tr("Fit image"), this, [this] { view_->resetView(); });
    reset->setObjectName("fitImageAction");
    reset->setShortcut(Qt::Key_0);
}

// The engineer's docks, tabbed under the image: the link's health first, the RF beside it.
void MainWindow::buildDocks() {
    auto* healthDock = new QDockWidget(tr("Link health"), this);
    healthDock->setObjectName("linkHealthDock");
    healthDock->setWidget(health_);
    auto* rfDock = new QDockWidget(tr("RF"), this);
    rfDock->setObjectName("rfDock");
    rfDock->setWidget(rf_);
    auto* queueDock = new QDockWidget(tr("PACS queue"), this);
    queueDock->setObjectName("queueDock");
    queueDock->setWidget(queue_);
    auto* archiveDock = new QDockWidget(tr("Archive"), this);
    archiveDock->setObjectName("archiveDock");
    archiveDock->setWidget(archive_);
    addDockWidget(Qt::BottomDockWidgetArea, healthDock);
    addDockWidget(Qt::BottomDockWidgetArea, rfDock);
    addDockWidget(Qt::BottomDockWidgetArea, queueDock);
    addDockWidget(Qt::BottomDockWidgetArea, archiveDock);
    tabifyDockWidget(healthDock, rfDock);
    tabifyDockWidget(rfDock, queueDock);
    tabifyDockWidget(queueDock, archiveDock);
    healthDock->raise();
    resizeDocks({healthDock}, {250}, Qt::Vertical);  // the image keeps most of the height
    // On a short screen (1366 x 768, 1280 x 720) the image takes the height: the engineer's docks
    // start hidden (View brings each back; a problem still shows in the status bar and on the image).
    if (screen()->availableGeometry().height() < 800) {
        for (auto* dock : {healthDock, rfDock, queueDock, archiveDock}) dock->hide();
    }
    auto* fileMenu = menuBar()->addMenu(tr("File"));
    auto* reviewFile = fileMenu->addAction(tr("Review a DICOM cine…"), this, [this] {
        const auto file = QFileDialog::getOpenFileName(this, tr("Review a DICOM cine"), exportFolder_, tr("DICOM (*.dcm *.DCM);;All files (*)"));
        if (!file.isEmpty()) openCineReview(file);
    });
    reviewFile->setObjectName("reviewCineAction");
    reviewFile->setShortcut(QKeySequence::Open);
    auto* reviewArchive = fileMenu->addAction(tr("Review a DICOM cine from the archive…"), this, [this] {
        bool ok = false;
        const auto url = QInputDialog::getText(this, tr("Review from the archive"), tr("The object in the archive (s3://bucket/key):"), QLineEdit::Normal,
                                               QStringLiteral("s3://"), &ok);
        if (ok && !url.trimmed().isEmpty()) openCineReview(url.trimmed());
    });
    reviewArchive->setObjectName("reviewArchiveCineAction");
    cineActions_ = {reviewFile, reviewArchive};
    for (auto* action : cineActions_) action->setEnabled(false);
    auto* viewMenu = menuBar()->addMenu(tr("View"));
    viewMenu->addAction(healthDock->toggleViewAction());
    viewMenu->addAction(rfDock->toggleViewAction());
    viewMenu->addAction(queueDock->toggleViewAction());
    viewMenu->addAction(archiveDock->toggleViewAction());
    viewMenu->addSeparator();
    burnIn_ = viewMenu->addAction(tr("Burn measurements into saved and exported images"));
    burnIn_->setObjectName("burnInAction");
    burnIn_->setCheckable(true);
    // The language, kept for the next start (every window is built in it).
    auto* languages = viewMenu->addMenu(tr("Language"));
    auto* group = new QActionGroup(this);
    const QString now = chooseLanguage({});
    for (const auto& [code, title, name] : {std::tuple{QStringLiteral("en"), tr("English"), "languageEnAction"},
                                            std::tuple{QStringLiteral("zh_CN"), tr("Simplified Chinese (简体中文)"), "languageZhAction"}}) {
        auto* action = languages->addAction(title);
        action->setObjectName(name);
        action->setCheckable(true);
        action->setChecked(code == now);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] {
            QSettings().setValue(kLanguageSetting, code);
            statusBar()->showMessage(tr("The language changes at the next start."), 8000);
        });
    }
    auto* helpMenu = menuBar()->addMenu(tr("Help"));
    stationCheckAction_ = helpMenu->addAction(tr("Station check…"), this, &MainWindow::openStationCheck);
    stationCheckAction_->setObjectName("stationCheckAction");
    stationCheckAction_->setEnabled(false);
    helpMenu->addAction(tr("About SonoLink"), this, [this] {
        QMessageBox::about(this, tr("About SonoLink"),
                           tr("<b>SonoLink %1</b><br>Ultrasound and photoacoustic acquisition and QA workstation.<br>"
                              "Qt %2. Station check: Help menu, or <code>sonolink-cli doctor</code>.")
                               .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
    connect(&bridge_, &gui::EngineBridge::queueChanged, queue_, &gui::QueueView::showQueue);
    connect(queue_, &gui::QueueView::retryRequested, &bridge_, &gui::EngineBridge::retryQueueItem);
    connect(queue_, &gui::QueueView::withdrawRequested, &bridge_, &gui::EngineBridge::withdrawQueueItem);
    queue_->showQueue(bridge_.queue());
    connect(&bridge_, &gui::EngineBridge::archiveChanged, archive_, &gui::ArchiveView::showArchive);
    connect(archive_, &gui::ArchiveView::retryRequested, &bridge_, &gui::EngineBridge::retryArchiveItem);
    archive_->showArchive(bridge_.archive(), bridge_.hasArchive());
    connect(&bridge_, &gui::EngineBridge::healthSampled, health_, &gui::LinkHealthPanel::addSample);
    connect(&bridge_, &gui::EngineBridge::healthSampled, this, &MainWindow::showLaser);
    connect(&bridge_, &gui::EngineBridge::rfReady, rf_, &gui::RfPanel::showTraces);
    connect(rf_, &gui::RfPanel::channelsChosen, this, [this](const QList<int>& channels) { bridge_.setRfChannels(channels); });
}

void MainWindow::onTgc(const std::vector<double>& db) {
    bridge_.setTgcDb(db);
    tgcFade_->stop();
    view_->setTgcCurve(db, 1.0);
    tgcFade_->start();
}

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

void MainWindow::refreshPresets() {
    QStringList names;
    for (const auto& p : imagingPresets(imagingDefaults_)) names << p.name;
    imaging_->setPresets(names);
}

void MainWindow::savePreset(const QString& name) {
    saveImagingPreset({name, imaging_->values()});
    refreshPresets();
    statusBar()->showMessage(tr("Preset %1 kept.").arg(name), 5000);
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
    const auto refuse = [this](const QString& why) {
        problem_->setText(tr("Settings not kept: %1").arg(why));
        problem_->setToolTip(problem_->text());
        problem_->setStyleSheet("color: #d03030");
    };
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
                                                   "the change is recorded with your name.").arg(change),
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
    problem_->setText(tr("The kept settings were not used (Settings… to correct them): %1").arg(reasons));
    problem_->setToolTip(problem_->text());
    problem_->setStyleSheet("color: #b07000");
}

void MainWindow::setReview(const QString& recording, int frames) {
    const auto name = recording.section('/', -1);
    setWindowTitle(tr("SonoLink — Review: %1").arg(name));
    auto* review = new QLabel(frames == 1 ? tr("Review: %1 (1 frame, in a loop)").arg(name) : tr("Review: %1 (%2 frames, in a loop)").arg(name).arg(frames));
    review->setObjectName("reviewLabel");
    review->setToolTip(recording);
    review->setStyleSheet("color: #2060c0; font-weight: bold");
    statusBar()->insertWidget(0, review);
    view_->setPatientBanner(tr("Review of the recording %1 (raw data: no patient)").arg(name));
}

void MainWindow::setExportTarget(const QString& folder, const QString& node) {
    exportFolder_ = folder;
    exportNode_ = node;
}

QString MainWindow::exportFile(const QString& prefix) {
    if (bridge_.exam().empty()) {  // an image filed under no patient is lost in the PACS
        export_->setText(tr("Not exported: start an exam first (Exam…, Ctrl+N)."));
        export_->setStyleSheet("color: #d03030");
        return {};
    }
    const QString name = QStringLiteral("%1_%2.dcm").arg(prefix, QDateTime::currentDateTime().toString("yyyyMMdd_HHmmss_zzz"));
    export_->setText(tr("Exporting…"));
    export_->setStyleSheet({});
    return exportFolder_.isEmpty() ? name : QDir(exportFolder_).filePath(name);
}

void MainWindow::exportCine() {
    const QString file = exportFile(QStringLiteral("cine"));
    if (file.isEmpty()) return;
    bridge_.exportCine(file, exportNode_);
    QString why;
    if (!view_->measurements().isEmpty() && !saveMeasurements(file + QStringLiteral(".measurements.csv"), &why)) export_->setText(why);
}

void MainWindow::exportImage() {
    if (view_->image().image.isNull()) {
        export_->setText(tr("No image to export yet."));
        export_->setStyleSheet("color: #d03030");
        return;
    }
    const QString file = exportFile(QStringLiteral("image"));
    if (file.isEmpty()) return;
    const bool burn = burnIn_ && burnIn_->isChecked() && !view_->measurements().isEmpty();
    bridge_.exportSnapshot(file, exportNode_, view_->image(), burn ? view_->renderImage(true) : QImage(), view_->measurements());
    QString why;
    if (!view_->measurements().isEmpty() && !saveMeasurements(file + QStringLiteral(".measurements.csv"), &why)) export_->setText(why);
}

bool MainWindow::saveMeasurements(const QString& path, QString* why) const {
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *why = tr("The measurements could not be written to %1: %2").arg(path, out.errorString());
        return false;
    }
    QTextStream csv(&out);
    csv << "label,kind,value,unit,points_mm\n";
    for (const auto& m : view_->measurements()) {
        QStringList points;
        for (const auto& p : m.pointsMm) points << QStringLiteral("%1 %2").arg(p.x(), 0, 'f', 3).arg(p.y(), 0, 'f', 3);
        const bool distance = m.kind == gui::MeasurementKind::Distance, ellipse = m.kind == gui::MeasurementKind::Ellipse;
        const QString value = distance ? QString::number(gui::distanceMm(m), 'f', 3) : ellipse ? QString::number(gui::areaMm2(m), 'f', 2)
                                                                                                : QStringLiteral("\"%1\"").arg(QString(m.text).replace('"', "\"\""));
        csv << m.label << ',' << (distance ? "distance" : ellipse ? "ellipse area" : "text") << ',' << value << ','
            << (distance ? "mm" : ellipse ? "mm2" : "") << ',' << points.join(';') << '\n';
        if (ellipse) csv << m.label << ",ellipse circumference," << QString::number(gui::circumferenceMm(m), 'f', 3) << ",mm," << points.join(';') << '\n';
    }
    return true;
}

void MainWindow::toggleRecording() {
    if (!record_->isChecked()) {
        bridge_.stopRecording();
        return;
    }
    const QString name = QStringLiteral("rec_%1.uff").arg(QDateTime::currentDateTime().toString("yyyyMMdd_HHmmss_zzz"));  // the recorder never overwrites: a name of its own
    recording_->setText(tr("Starting the recording…"));
    recording_->setStyleSheet({});
    bridge_.startRecording(exportFolder_.isEmpty() ? name : QDir(exportFolder_).filePath(name));
}

// The recording as it goes: frames and size while it runs, the total when stopped, the reason at
// once when it fails (the action unchecked: it is not recording any more).
void MainWindow::showRecording(const gui::RecordingStatus& r) {
    const QString size = QLocale().formattedDataSize(static_cast<qint64>(r.bytes));
    const bool failed = r.phase == "failed" || !r.error.isEmpty();
    if (r.phase == "started" || r.phase == "progress") {
        recording_->setText(tr("● REC %1 frames, %2").arg(r.frames).arg(size) + (r.framesSkipped ? tr(", %1 never arrived").arg(r.framesSkipped) : QString()));
        record_->setChecked(true);
    } else if (failed) {
        recording_->setText(tr("Recording failed: %1 (%2 frames kept in %3)").arg(r.error).arg(r.frames).arg(r.path));
        record_->setChecked(false);
    } else {
        recording_->setText(tr("Recorded %1 frames, %2, to %3").arg(r.frames).arg(size, r.path));
        record_->setChecked(false);
    }
    recording_->setToolTip(r.path);
    recording_->setStyleSheet(failed || r.phase != "stopped" ? "color: #d03030" : "");
}

// Another study (a new exam, or End exam): nothing of the last one stays on screen: the frozen
// picture, the cine and the measurements go (the engine has let its frames go, and goes live).
void MainWindow::onExamChanged(const gui::ExamEntry& exam) {
    const bool hadPatient = std::exchange(examHasPatient_, !exam.empty());
    if (exam.studyInstanceUid != study_ && hadPatient) {  // as the engine: frames under no patient are the next one's
        view_->clearMeasurements();
        cine_.clear();
        cineBar_->pause();
        cineBar_->hide();
        view_->showImage({});
    }
    study_ = exam.studyInstanceUid;
    showPatient(exam);
}

void MainWindow::showPatient(const gui::ExamEntry& exam) {
    if (exam.empty()) {
        patient_->setText(tr("No exam"));
        view_->setPatientBanner(tr("No exam"));
        return;
    }
    patient_->setText(tr("Patient: %1, %2").arg(gui::displayName(exam), exam.id));
    const QString born = exam.birthDate.isValid() ? tr(", born %1").arg(exam.birthDate.toString("yyyy-MM-dd")) : QString();
    // The body part as DICOM names it (the term every object of the exam carries).
    view_->setPatientBanner(tr("%1   ID %2%3   %4").arg(gui::displayName(exam), exam.id, born, exam.bodyPart.isEmpty() ? QStringLiteral("ABDOMEN") : exam.bodyPart));
}

bool MainWindow::saveImage(const QString& path, QString* why) {
    if (view_->image().image.isNull()) {
        *why = tr("No image to save yet.");
        return false;
    }
    if (!view_->renderImage(burnIn_ && burnIn_->isChecked()).save(path, "PNG")) {
        *why = tr("The image could not be written to %1.").arg(path);
        return false;
    }
    return true;
}

void MainWindow::onState(const QString& state, const QString& reason) {
    reviewCine(state == "frozen");
    state_->setText(reason.isEmpty() ? tr("Engine: %1").arg(stateTitle(state)) : tr("Engine: %1 (%2)").arg(stateTitle(state), reason));
    // Streaming while a failed self-test blocks it would only be refused: the wizard says why.
    // Not after the user's Stop (or a stop for a self-test re-run): Live or Connect start again.
    if (autoStream_ && state == "ready" && bridge_.streamingBlock().isEmpty() && !bridge_.stoppedByUser()) bridge_.startStreaming();
}

// Frozen: the cine held still, shown from its last frame, to scrub and play at the pace it was
// acquired; live again: the bar goes and the frames are let go.
void MainWindow::reviewCine(bool frozen) {
    measurementPanel_->setToolsEnabled(frozen);
    if (!frozen) {
        view_->clearMeasurements();
        cineBar_->pause();
        cineBar_->hide();
        cine_.clear();
        return;
    }
    cine_ = bridge_.cine();
    const double intervalMs = cine_.size() > 1 ? static_cast<double>(cine_.back().readyNs - cine_.front().readyNs) / 1e6 / static_cast<double>(cine_.size() - 1) : 33.0;
    cineBar_->load(static_cast<int>(cine_.size()), intervalMs);
    cineBar_->show();
    if (!cine_.isEmpty()) view_->showImage(cine_.back());
}

void MainWindow::onImage(const gui::BModeImage& image) {
    showPicture(image);
    const auto elapsed = clock_.elapsed();
    if (elapsed >= 1000) {
        const double fps = 1000.0 * static_cast<double>(bridge_.framesShown() - framesAtMark_) / static_cast<double>(elapsed);
        rate_->setText(tr("%1 frames/s, latency %2 ms").arg(fps, 0, 'f', 1).arg(image.latencyMs, 0, 'f', 1));
        framesAtMark_ = bridge_.framesShown();
        clock_.restart();
    }
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
            problem_->setText(tr("Cannot review %1: %2").arg(object, opened.why));
            problem_->setToolTip(problem_->text());
            problem_->setStyleSheet("color: #d03030");
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
