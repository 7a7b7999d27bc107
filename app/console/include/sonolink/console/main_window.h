// MainWindow: the SonoLink console: the live B-mode view in true proportions (zoom and pan, the
// TGC curve shown while adjusted and fading after) with the picture's controls beside it (gain,
// dynamic range, depth, persistence, eight TGC sliders), frozen: the cine to scrub and play and
// calipers and notes to place (listed, exported beside the cine or image, burnt into a saved or
// exported image when asked); the RF view and the link-health strip
// charts in docks; Connect / Live / Freeze / Save image, Record, the exam (entered or picked from the
// worklist, and ended) and the self-test; a status bar with the patient, the engine's state,
// frame rate and latency, and the newest problem with its origin and what to do; Settings….
// Thread contract: GUI thread only.
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointF>
#include <QPointer>
#include <QStringList>

#include <deque>
#include <functional>

#include "sonolink/console/cine_review_window.h"
#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/dialogs/exam_dialog.h"
#include "sonolink/gui/dialogs/settings_dialog.h"
#include "sonolink/gui/dialogs/station_check_dialog.h"
#include "sonolink/gui/views/imaging_panel.h"

class QDockWidget;
class QLabel;
class QVariantAnimation;

namespace sonolink::gui {
class BModeView;
class LinkHealthPanel;
class RfPanel;
class QueueView;
class ArchiveView;
class CineBar;
class MeasurementPanel;
class PhotoacousticPanel;
struct LinkHealth;
}  // namespace sonolink::gui

namespace sonolink::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Streams as soon as the engine is Ready when autoStream.
    MainWindow(gui::EngineBridge& bridge, bool autoStream, QWidget* parent = nullptr);

    [[nodiscard]] gui::BModeView* view() const { return view_; }
    [[nodiscard]] gui::ImagingPanel* imagingPanel() const { return imaging_; }
    [[nodiscard]] gui::RfPanel* rfPanel() const { return rf_; }
    [[nodiscard]] gui::LinkHealthPanel* linkHealth() const { return health_; }
    // The configured DICOM nodes a worklist can be asked of.
    void setDicomNodes(const QStringList& nodes) { nodes_ = nodes; }
    // The station's settings as the station runs them, and the nodes it uses (Settings… edits
    // them, keeps them for the next start, and tests those nodes).
    void setStationSettings(const gui::StationSettings& settings, const QStringList& nodesInUse);
    void openSettings();
    // The group whose members may change the start-up self-test's policy in Settings (re-asked
    // for their password, the change audited); others are refused, the settings not kept.
    void setEngineerGroup(const QString& group) { engineerGroup_ = group; }
    // The kept settings could not be used at this start (the loader's reasons): said in the status bar.
    void showKeptSettingsRefused(const QString& reasons);
    // This console reviews a recording (sonolink --replay): its name in the title, and in the
    // status bar with its frame count, so that nobody takes the picture for a live scan.
    void setReview(const QString& recording, int frames);
    // The picture's current settings kept as the preset of this name (in the list from then on).
    void savePreset(const QString& name);
    [[nodiscard]] gui::SettingsDialog* settingsDialog() const { return settingsDialog_; }
    // Where Export cine writes its file, and the node it queues it for (empty: the file only).
    void setExportTarget(const QString& folder, const QString& node);
    // The cine as a DICOM file under the exam, queued for the export node (Ctrl+E).
    void exportCine();
    // The picture shown now (live, frozen or a cine frame) as a single-frame DICOM image, the same
    // way (Ctrl+I); the measurements burnt in when the View menu says so.
    void exportImage();
    [[nodiscard]] gui::QueueView* queueView() const { return queue_; }
    [[nodiscard]] gui::ArchiveView* archiveView() const { return archive_; }
    // Record (Ctrl+R): every frame into <folder>/rec_<time>.uff, or stop; the status bar follows.
    void toggleRecording();
    [[nodiscard]] gui::CineBar* cineBar() const { return cineBar_; }
    [[nodiscard]] gui::MeasurementPanel* measurementPanel() const { return measurementPanel_; }
    // The measurements beside an export, one quantity per line (CSV: label, kind, value, unit,
    // points in mm): a distance; an ellipse's area and its circumference; a note.
    bool saveMeasurements(const QString& path, QString* why) const;
    // Opens the exam dialog (window-modal, not blocking); the one open now, if any.
    void openExam();
    [[nodiscard]] gui::ExamDialog* examDialog() const { return examDialog_; }
    // The picture shown now, as a PNG at its own pixels (true proportions), the measurements
    // burnt in when the View menu says so; false with why.
    bool saveImage(const QString& path, QString* why);
    // Help > Station check…: the station doctor's checks, run by `check` off the GUI thread (it
    // blocks: a C-ECHO per node) each time the dialog asks; unset, the action is disabled.
    void setStationCheck(std::function<gui::StationCheckReport()> check);
    // File > Review a DICOM cine… (a file, or from the archive): `opener` reads the object off the
    // GUI thread, then a review window of its own opens beside the live picture; unset, the
    // actions are disabled. openCineReview() does what the actions do, for the object given.
    void setCineOpener(CineReviewOpener opener);
    void openCineReview(const QString& object);
    void openStationCheck();
    [[nodiscard]] gui::StationCheckDialog* stationCheckDialog() const { return stationCheckDialog_; }

Q_SIGNALS:
    void selfTestRequested();  // the engineer asked for the self-test wizard
    void cineReviewOpened(sonolink::app::CineReviewWindow* window);

private:
    // The window as built, part by part (main_window.cpp).
    void buildPicture();
    QWidget* controlsColumn();
    void buildImagingControls();
    void buildActions();
    void buildDocks();
    QDockWidget* dockOf(const QString& title, const char* name, QWidget* view);
    void buildFileMenu();
    void buildViewMenu(const QList<QDockWidget*>& docks);
    void buildHelpMenu();
    void buildStatusBar();
    void askForNote(QPointF mm);
    static constexpr const char* kRed = "#d03030";    // an error
    static constexpr const char* kAmber = "#b07000";  // a warning
    void showProblem(const QString& text, const char* colour);
    // The exported file's path (<folder>/<prefix>_<time>.dcm), or empty with the refusal shown.
    QString exportFile(const QString& prefix);
    void onState(const QString& state, const QString& reason);
    void onImage(const gui::BModeImage& image);
    void onTgc(const std::vector<double>& db);
    void onExamChanged(const gui::ExamEntry& exam);
    void showPatient(const gui::ExamEntry& exam);
    void refreshPresets();
    void reviewCine(bool frozen);
    void showRecording(const gui::RecordingStatus& status);
    void keepSettings(const gui::StationSettings& before, const gui::StationSettings& after);
    // Dual mode (main_window_shots.cpp): the shots' controls, the picture with its shot (side by
    // side: the shot in a view of its own), the laser's state in the status bar.
    void buildShotControls();
    void showPicture(const gui::BModeImage& image);
    void showLaser(const gui::LinkHealth& health);

    gui::EngineBridge& bridge_;
    bool autoStream_;
    gui::BModeView* view_;
    gui::ImagingPanel* imaging_;
    gui::RfPanel* rf_;
    gui::LinkHealthPanel* health_;
    gui::QueueView* queue_;
    gui::ArchiveView* archive_;
    gui::CineBar* cineBar_;
    gui::MeasurementPanel* measurementPanel_;
    QAction* burnIn_ = nullptr;
    QList<gui::BModeImage> cine_;  // while frozen: the frames under review
    QLabel* export_;
    QLabel* recording_;
    QAction* record_ = nullptr;
    QString exportFolder_;
    QString exportNode_;
    QLabel* patient_;
    QString study_;  // the study whose pictures are on screen
    bool examHasPatient_ = false;
    QLabel* state_;
    QLabel* rate_;
    QLabel* problem_;
    QVariantAnimation* tgcFade_;
    gui::BModeView* shotView_;  // side by side: the laser shot beside the B-mode
    gui::PhotoacousticPanel* shots_;
    QLabel* laser_;                                        // the laser's state in the status bar
    std::deque<std::pair<double, quint64>> laserSamples_;  // (seconds, shots fired in all) of the last five seconds
    QStringList nodes_;
    QPointer<gui::ExamDialog> examDialog_;
    QPointer<gui::SettingsDialog> settingsDialog_;
    QPointer<gui::StationCheckDialog> stationCheckDialog_;
    std::function<gui::StationCheckReport()> stationCheck_;
    QAction* stationCheckAction_ = nullptr;
    CineReviewOpener cineOpener_;
    QList<QAction*> cineActions_;
    bool stationCheckRunning_ = false;
    gui::StationSettings station_;
    QString engineerGroup_ = "sonolink-engineers";
    QStringList nodesInUse_;
    gui::ImagingValues imagingDefaults_;  // as the station started: the General preset
    QElapsedTimer clock_;
    quint64 framesAtMark_ = 0;
};

}  // namespace sonolink::app
