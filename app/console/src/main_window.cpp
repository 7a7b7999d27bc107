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
#include "dock_presenters.h"
#include "image_watch.h"
#include "sonolink/gui/dialogs/reauthentication_dialog.h"
#include "sonolink/util/station_user.h"
#include "sonolink/gui/views/hosts_panel.h"
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

}  // namespace

MainWindow::MainWindow(gui::EngineBridge& bridge, bool autoStream, QWidget* parent)
    : QMainWindow(parent), bridge_(bridge), autoStream_(autoStream), view_(new gui::BModeView), imaging_(new gui::ImagingPanel(bridge.imaging())),
      rf_(new gui::RfPanel(bridge.channelCount())), health_(new gui::LinkHealthPanel), queue_(new gui::QueueView), archive_(new gui::ArchiveView),
      cineBar_(new gui::CineBar), measurementPanel_(new gui::MeasurementPanel(*view_)), export_(new QLabel), recording_(new QLabel), patient_(new QLabel),
      state_(new QLabel), rate_(new QLabel), problem_(new QLabel), tgcFade_(new QVariantAnimation(this)), shotView_(new gui::BModeView),
      shots_(new gui::PhotoacousticPanel(bridge.display().shotDisplay())), laser_(new QLabel) {
    setObjectName("mainWindow");
    setWindowTitle(tr("SonoLink"));
    buildPicture();
    buildImagingControls();
    buildActions();
    buildDocks();
    buildShotControls();
    buildStatusBar();
    onState(bridge_.stateName(), {});
    clock_.start();
    // The whole of a screen smaller than the console's own size (a laptop, a cart's 1366 x 768).
    const QSize room = screen()->availableGeometry().size();
    resize(room.width() < 1400 || room.height() < 950 ? room : QSize(1280, 900));
}

// The picture in the middle (dual mode's shots beside it when side by side, the cine bar under
// it while frozen) and the controls in a column at its right.
void MainWindow::buildPicture() {
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
    connect(cineBar_, &gui::CineBar::frameChosen, this, [this](int i) {
        if (i >= 0 && i < cine_.size()) showPicture(cine_[i]);
    });
    layout->addWidget(controlsColumn());
    view_->setMinimumSize(360, 240);
    connect(view_, &gui::BModeView::textRequested, this, &MainWindow::askForNote);
    setCentralWidget(central);
}

// The controls scroll rather than squash when the screen is short (1366 x 768, 1280 x 720): each
// slider keeps its height, the picture keeps its proportions beside them.
QWidget* MainWindow::controlsColumn() {
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
    return controlsScroll;
}

// A note placed on the picture: its text asked for (not blocking), then drawn where it was placed.
void MainWindow::askForNote(QPointF mm) {
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
}

// The picture's controls to the engine (each change as the panel's values, in one imaging
// change), the presets, and the TGC curve: fully shown while adjusted, held a second, faded over the next.
void MainWindow::buildImagingControls() {
    const auto changed = [this] { bridge_.setImaging(imaging_->values()); };
    connect(imaging_, &gui::ImagingPanel::gainChanged, this, changed);
    connect(imaging_, &gui::ImagingPanel::dynamicRangeChanged, this, changed);
    connect(imaging_, &gui::ImagingPanel::depthEndChanged, this, changed);
    connect(imaging_, &gui::ImagingPanel::persistenceChanged, this, changed);
    connect(imaging_, &gui::ImagingPanel::tgcChanged, this, &MainWindow::onTgc);
    connect(imaging_, &gui::ImagingPanel::valuesApplied, this, [this](const gui::ImagingValues& v) {
        bridge_.setImaging(v);
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
        connect(ask, &QInputDialog::textValueSelected, this, [this](const QString& name) {
            if (!name.trimmed().isEmpty()) savePreset(name.trimmed());
        });
        ask->open();
    });
    tgcFade_->setDuration(2000);
    tgcFade_->setKeyValues({{0.0, 1.0}, {0.5, 1.0}, {1.0, 0.0}});
    connect(tgcFade_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) { view_->setTgcCurve(imaging_->tgcDb(), v.toDouble()); });
    view_->setTgcCurve(imaging_->tgcDb(), 0);
}

// The status bar: the patient, the engine's state, the frame rate (or why no image comes), the
// laser, the recording, the export, and the newest problem with what to do.
void MainWindow::buildStatusBar() {
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
    for (auto* label : {state_, rate_, laser_, recording_, export_}) statusBar()->addWidget(label);
    statusBar()->addPermanentWidget(problem_, 1);
    connect(&bridge_, &gui::EngineBridge::stateChanged, this, &MainWindow::onState);
    connect(&bridge_.display(), &gui::DisplayFeed::imageReady, this, &MainWindow::onImage);
    auto* watch = new ImageWatch(bridge_, *view_, 750, this);  // said on the image within a second
    connect(watch, &ImageWatch::stalled, this, [this](double seconds, const QString& why) {
        if (seconds <= 0) return rate_->setStyleSheet({});
        rate_->setText(tr("0 frames/s: no new image for %1 s").arg(seconds, 0, 'f', 0));
        rate_->setToolTip(why);
        rate_->setStyleSheet("color: #d03030");
    });
    connect(&bridge_, &gui::EngineBridge::problem, this, [this](const QString& text, bool isError) { showProblem(text, isError ? kRed : kAmber); });
    // A self-test step that did not pass, in the status bar too (the wizard has them all): its figures and fix.
    connect(&bridge_, &gui::EngineBridge::selfTestStepEnded, this, [this](const gui::SelfTestResult& r) {
        if (r.verdict == "pass") return;
        showProblem(tr("Self-test, %1: %2: %3%4")
                        .arg(gui::stepTitle(r.step), gui::verdictText(r.verdict), r.figures, r.fix.isEmpty() ? QString() : tr(" What to do: %1").arg(r.fix)),
                    r.verdict == "fail" ? kRed : kAmber);
    });
}

// A problem in the status bar, whole in its tooltip where the bar cuts it short.
void MainWindow::showProblem(const QString& text, const char* colour) {
    problem_->setText(text);
    problem_->setToolTip(text);
    problem_->setStyleSheet(QStringLiteral("color: %1").arg(QLatin1String(colour)));
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

// The engineer's docks, tabbed under the image: the link's health first (a cluster's hosts before
// it on its display host), the RF beside it; each
// view with its presenter.
void MainWindow::buildDocks() {
    new LinkHealthPresenter(bridge_, *health_);
    new RfPresenter(bridge_, *rf_);
    new QueuePresenter(bridge_, *queue_);
    new ArchivePresenter(bridge_, *archive_);
    QList<QDockWidget*> docks{dockOf(tr("Link health"), "linkHealthDock", health_), dockOf(tr("RF"), "rfDock", rf_),
                              dockOf(tr("PACS queue"), "queueDock", queue_), dockOf(tr("Archive"), "archiveDock", archive_)};
    if (bridge_.isClusterHost()) {  // the display host of a cluster: its hosts first
        auto* hosts = new gui::HostsPanel;
        new HostsPresenter(bridge_, *hosts);
        docks.prepend(dockOf(tr("Hosts"), "hostsDock", hosts));
    }
    for (auto* dock : docks) addDockWidget(Qt::BottomDockWidgetArea, dock);
    for (qsizetype i = 1; i < docks.size(); ++i) tabifyDockWidget(docks[i - 1], docks[i]);
    docks.front()->raise();
    resizeDocks({docks.front()}, {250}, Qt::Vertical);  // the image keeps most of the height
    // On a short screen (1366 x 768, 1280 x 720) the image takes the height: the engineer's docks
    // start hidden (View brings each back; a problem still shows in the status bar and on the image).
    if (screen()->availableGeometry().height() < 800) {
        for (auto* dock : docks) dock->hide();
    }
    buildFileMenu();
    buildViewMenu(docks);
    buildHelpMenu();
}

QDockWidget* MainWindow::dockOf(const QString& title, const char* name, QWidget* view) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(view);
    return dock;
}

void MainWindow::buildFileMenu() {
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
}

// The docks to bring back, burning measurements in, and the language (kept for the next start:
// every window is built in it).
void MainWindow::buildViewMenu(const QList<QDockWidget*>& docks) {
    auto* viewMenu = menuBar()->addMenu(tr("View"));
    for (auto* dock : docks) viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addSeparator();
    burnIn_ = viewMenu->addAction(tr("Burn measurements into saved and exported images"));
    burnIn_->setObjectName("burnInAction");
    burnIn_->setCheckable(true);
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
}

void MainWindow::buildHelpMenu() {
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
}

void MainWindow::onTgc(const std::vector<double>& db) {
    bridge_.setImaging(imaging_->values());
    tgcFade_->stop();
    view_->setTgcCurve(db, 1.0);
    tgcFade_->start();
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
    view_->setPatientBanner(
        tr("%1   ID %2%3   %4").arg(gui::displayName(exam), exam.id, born, exam.bodyPart.isEmpty() ? QStringLiteral("ABDOMEN") : exam.bodyPart));
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
    cine_ = bridge_.display().cine();
    const double intervalMs =
        cine_.size() > 1 ? static_cast<double>(cine_.back().readyNs - cine_.front().readyNs) / 1e6 / static_cast<double>(cine_.size() - 1) : 33.0;
    cineBar_->load(static_cast<int>(cine_.size()), intervalMs);
    cineBar_->show();
    if (!cine_.isEmpty()) view_->showImage(cine_.back());
}

void MainWindow::onImage(const gui::BModeImage& image) {
    showPicture(image);
    const auto elapsed = clock_.elapsed();
    if (elapsed >= 1000) {
        const double fps = 1000.0 * static_cast<double>(bridge_.display().framesShown() - framesAtMark_) / static_cast<double>(elapsed);
        rate_->setText(tr("%1 frames/s, latency %2 ms").arg(fps, 0, 'f', 1).arg(image.latencyMs, 0, 'f', 1));
        framesAtMark_ = bridge_.display().framesShown();
        clock_.restart();
    }
}

}  // namespace sonolink::app
