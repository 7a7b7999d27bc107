// EngineBridge: the one adapter between the engine's facade and the GUI, as a controller:
// commands go straight to the facade (which queues them and returns at once); engine events
// (from engine threads) become queued Qt signals on the bridge's thread; a slow timer (ten times
// a second) follows the self-test's progress and the archive's queue. The picture (the newest
// frame, the cine, RF and link health at the screen's pace) is its DisplayFeed's, display().
// The only GUI code that includes the facade's headers. Thread contract: GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <vector>

#include "sonolink/engine/engine.h"
#include "sonolink/gui/bridge/display_feed.h"
#include "sonolink/gui/views/bmode_image.h"
#include "sonolink/gui/views/exam_entry.h"
#include "sonolink/gui/views/imaging_values.h"
#include "sonolink/gui/views/measurement.h"
#include "sonolink/gui/views/archive_view.h"
#include "sonolink/gui/views/queue_view.h"
#include "sonolink/gui/views/recording_status.h"
#include "sonolink/gui/views/self_test_result.h"
#include "sonolink/gui/views/station_settings.h"

namespace sonolink::gui {

class EngineBridge : public QObject {
    Q_OBJECT
public:
    // engine must outlive the bridge. intervalMs: how often the newest frame is looked for.
    explicit EngineBridge(engine::Engine& engine, int intervalMs = 8, QObject* parent = nullptr);
    ~EngineBridge() override;

    void connectLink();  // a new start: its self-test's steps replace the last one's
    void startStreaming() {
        stoppedByUser_ = false;
        engine_.startStreaming();
    }
    // Live or frozen -> ready, the link kept; stoppedByUser() until the next start or connect.
    void stopStreaming() {
        stoppedByUser_ = true;
        engine_.stopStreaming();
    }
    [[nodiscard]] bool stoppedByUser() const { return stoppedByUser_; }
    void freeze() { engine_.freeze(); }
    void disconnectLink() { engine_.disconnect(); }
    // Every frame, losslessly, into a UFF file until stopped or a failure: recordingChanged() follows.
    void startRecording(const QString& path) { engine_.startRecording(path.toStdString()); }
    void stopRecording() { engine_.stopRecording(); }
    // The picture's settings, all at once (a control moved or a preset chosen): one change, applied
    // on one frame boundary; a change of the picture only (gain, dynamic range, TGC, persistence)
    // is drawn from the next picture without waiting on the beamformer. imaging(): as asked for last.
    void setImaging(const ImagingValues& values);
    [[nodiscard]] ImagingValues imaging() const;
    // The exam every export names from now on (the engine checks it: a refusal comes back as a
    // problem); end: a blank exam, so nothing more is filed under the last patient. Another
    // study lets the last one's pictures go (cine, frozen frame): examChanged() carries the study
    // the engine filed it under.
    void setExam(const ExamEntry& exam);
    void endExam();
    [[nodiscard]] ExamEntry exam() const;
    // A C-ECHO to a configured node: nodeVerified() says whether it answered, and what it said or why not.
    void verifyNode(const QString& node);
    // The same for a node as typed (not yet kept), with the station's AE title and TLS files as typed.
    void verifyNode(const PacsNodeEntry& node, const StationSettings& station);
    // A Modality Worklist query (US, this date) to the named node: worklistAnswered() follows.
    void queryWorklist(const QString& node, const QString& date);
    // The cine exported as a DICOM file under the current exam, queued for node (empty: the
    // file only); exportUpdate() follows it. The PACS queue: queueChanged() at every change.
    void exportCine(const QString& file, const QString& node);
    // One picture (the one shown: its session and frame id) as a single-frame DICOM image, the
    // same way; burnedIn: the picture with the measurements drawn in, at the frame's own size
    // (null: the grey picture as acquired); measurements (with the values shown for them) also
    // written and queued as the image's measurement report (DICOM SR).
    void exportSnapshot(const QString& file, const QString& node, const BModeImage& shown, const QImage& burnedIn = {},
                        const QList<Measurement>& measurements = {});
    void retryQueueItem(const QString& id) { engine_.retryQueueItem(id.toStdString()); }
    void withdrawQueueItem(const QString& id) { engine_.withdrawQueueItem(id.toStdString()); }
    [[nodiscard]] QList<QueueRow> queue() const;
    // The archive's upload queue (archiveChanged() about once a second when it changed); whether
    // the station has an archive at all.
    [[nodiscard]] QList<ArchiveRow> archive() const;
    [[nodiscard]] bool hasArchive() const { return engine_.hasArchive(); }
    void retryArchiveItem(qint64 id) { engine_.retryArchiveItem(id); }
    [[nodiscard]] int channelCount() const { return engine_.acquisition().elementCount; }
    // The start-up self-test: run again (these steps; empty: all), cancel, override with a reason.
    void runSelfTest(const QStringList& steps = {});
    void cancelSelfTest() { engine_.cancelSelfTest(); }
    void overrideSelfTest(const QString& reason) { engine_.overrideSelfTest(reason.toStdString()); }
    void recordPolicyChange(const QString& subject, const QString& change, const QString& reason) {
        engine_.recordPolicyChange(subject.toStdString(), change.toStdString(), reason.toStdString());
    }

    // Dual mode: whether a laser fires (how its shots are shown: display().setShotDisplay()).
    [[nodiscard]] bool firesLaser() const { return engine_.firesLaser(); }
    // The station is the display host of a cluster (its hosts beamform; the hosts panel shows them).
    [[nodiscard]] bool isClusterHost() const { return !engine_.stats().cluster.file.empty(); }
    // The picture: the newest frame, the cine, RF and the link's health.
    [[nodiscard]] DisplayFeed& display() { return display_; }
    [[nodiscard]] const DisplayFeed& display() const { return display_; }
    [[nodiscard]] QString stateName() const;
    // Why streaming is refused (a failed self-test step); empty: it is not.
    [[nodiscard]] QString streamingBlock() const;
    // The self-test's steps since the last connectLink(), each as it ran last (a re-run replaces its
    // earlier verdict, in place): what the QA report is made from. Engine values, for app code.
    [[nodiscard]] const std::vector<engine::SelfTestStep>& selfTestSteps() const { return selfTestSteps_; }
    [[nodiscard]] engine::EngineStats stats() const { return engine_.stats(); }

Q_SIGNALS:
    void stateChanged(const QString& state, const QString& reason);
    // An error or warning in one line: where it came from, what, and what to do.
    void problem(const QString& description, bool isError);
    // The engine refused a command (e.g. "runSelfTest", "startStreaming"), and why (after problem()).
    void commandRefused(const QString& command, const QString& why);
    // The last worklist query's scheduled exams, or why it failed (error non-empty).
    void worklistAnswered(const QList<sonolink::gui::ScheduledRow>& rows, const QString& error);
    void examChanged(const sonolink::gui::ExamEntry& exam);
    void nodeVerified(const QString& node, bool answered, const QString& message);
    // An export's progress (0 to 1) and what it did or why it failed; done when it ended.
    void exportUpdate(const QString& message, double progress, bool failed, bool done);
    void queueChanged(const QList<sonolink::gui::QueueRow>& rows);
    void archiveChanged(const QList<sonolink::gui::ArchiveRow>& rows, bool configured);
    void recordingChanged(const sonolink::gui::RecordingStatus& status);
    // A start-up self-test step ended: its verdict, figures, limit, fix and numbers.
    void selfTestStepEnded(const sonolink::gui::SelfTestResult& result);
    // While the self-test runs (about ten times a second): the step under way, how far (0 to 1),
    // what it counts. An empty step: none runs any more.
    void selfTestProgress(const QString& step, double fraction, const QString& detail);
    // An engineer's override was taken: by whom, why, and what it let through.
    void selfTestOverridden(const QString& by, const QString& reason, const QString& blocked);

private:
    void subscribe();
    void receive(const engine::EngineEvent& event);  // on the bridge's thread
    void poll();
    void pollSelfTest();
    void onSelfTestStep(const engine::SelfTestStep& step);
    void onJob(const engine::JobUpdate& job);
    void onWorklist(const engine::WorklistResult& result);
    void refreshQueue();
    void refreshArchive();

    engine::Engine& engine_;
    DisplayFeed display_;
    engine::ImagingSettings imaging_;  // as asked for last (the engine applies them later)
    engine::Subscription subscription_;
    QTimer poll_;
    int polls_ = 0;
    bool stoppedByUser_ = false;
    std::vector<engine::SelfTestStep> selfTestSteps_;
    engine::JobId worklistJob_ = 0;
    std::vector<engine::JobId> exportJobs_;
    std::vector<std::pair<engine::JobId, QString>> echoJobs_;
    QList<QueueRow> queueShown_;
    QList<ArchiveRow> archiveShown_;
    QString progressStep_;  // as last announced
    double progressFraction_ = -1;
};

}  // namespace sonolink::gui
