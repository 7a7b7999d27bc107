// Engine::Impl: composes the engine's services (SessionTally, SettingsBoard, JobsDesk, the
// SelfTestRunner, the display pipelines, the recording tap, the archive service, the work
// queues), each owning its state and lock (docs/architecture.md), and keeps the ctl thread's
// own: the state machine and the acquisition's life. Split over engine.cpp (commands, states,
// sessions), cluster_control.cpp (a cluster's display host), recording_control.cpp, export_job.cpp, node_jobs.cpp, settings_control.cpp,
// engine_stats.cpp.
// Thread contract: members say which thread or service; ctl-only members need no lock.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <string>

#include "acquisition.h"
#include "frame_capture.h"
#include "jobs_desk.h"
#include "session_tally.h"
#include "settings_board.h"
#include "display_pipeline.h"
#include "event_hub.h"
#include "recording_tap.h"
#include "archive_service.h"
#include "work_queue.h"
#include "sonolink/dicom/pacs_station.h"
#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/engine/engine_backends.h"
#include "sonolink/util/log.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

log::Category& engineLog();

struct Engine::Impl : std::enable_shared_from_this<Impl> {
    Impl();
    ~Impl();  // engine.cpp, where the services it holds by pointer are complete
    EngineConfig config;
    Backends backends;
    std::atomic<EngineState> state{EngineState::Idle};
    std::shared_ptr<detail::EventHub> hub = std::make_shared<detail::EventHub>();

    std::unique_ptr<DisplayPipeline> display;
    std::unique_ptr<DisplayPipeline> shots;          // the laser shots' pictures (dual mode; idle otherwise)
    std::atomic<bool> dualMode{false};               // config.shotGeometry is set (read from any thread)
    SettingsBoard settingsBoard;                     // as the facade reports them (written on ctl)
    std::optional<AcquisitionPlan> nextAcquisition;  // ctl thread: applied at the next connect
    RecordingTap recording;
    std::optional<LinkHandle> link;   // ctl thread only: kept between sessions when reusable
    bool clusterFeedRunning = false;  // ctl thread: backends.clusterFeed started (cluster_control.cpp)
    void openClusterSession();
    void startClusterFeed();
    void stopClusterFeed();
    bool linkFresh = false;  // ctl thread: made or reset since its last session
    class SelfTestRunner;    // self_test_runner.h
    // The start-up self-test (ctl thread; declared before acquisition: its captures outlive it).
    std::unique_ptr<SelfTestRunner> selfTest;
    std::unique_ptr<Acquisition> acquisition;  // ctl thread only (declared after the link: goes first)
    std::uint64_t generation = 0;              // of the acquisition; callbacks of older ones are stale

    SessionTally tally;  // the counters that outlive a session, the self-test's progress and blocks (its own lock)

    // Recording (ctl thread): which one is on, and whether its failure was reported already.
    std::uint64_t recordingGeneration = 0;
    bool recordingFailureReported = false;
    std::string recordingPath;
    std::optional<Error> lastRecordingError;

    std::unique_ptr<dicom::AuditTrail> audit;    // before the station: it outlives it
    std::unique_ptr<dicom::PacsStation> pacs;    // the queue, its forwarder and listener (when configured)
    dicom::StoreQueue* queue = nullptr;          // pacs->queue(), or null
    dicom::StoreForwarder* forwarder = nullptr;  // pacs->forwarder(), or null
    std::optional<dicom::UidGenerator> uids;
    std::uint64_t queueVersionSeen = 0;       // ctl thread: the last version announced
    std::unique_ptr<ArchiveService> archive;  // the upload queue and its thread (when configured)
    // A written recording or study queued for the archive (when it has one, and this kind goes);
    // a refusal is reported, the file stays where it is.
    void archiveFile(const std::string& file, const std::string& kind);

    JobsDesk jobsDesk;                 // job ids, cancel flags, the exam exports name, the front end's serial
    std::atomic<bool> closing{false};  // the engine goes: queued items stay queued for the next start

    // Declared last: destroyed first, so no work runs on the members above once they go.
    std::unique_ptr<WorkQueue> queries;  // questions to PACS nodes (worklist, verification): a slow server holds up no export
    std::unique_ptr<WorkQueue> jobs;
    std::unique_ptr<WorkQueue> ctl;

    void emit(const EngineEvent& event) { hub->emit(event); }
    void setState(EngineState to, std::string reason);
    // An error event: logged once here, with its origin, severity and the Error's context and details.
    void report(ErrorOrigin origin, Severity severity, const Error& error, std::string source = {});
    void refuse(std::string command, ErrorCode code, std::string message) {
        report(ErrorOrigin::Command, Severity::Error, Error(code, std::move(message)), std::move(command));
    }

    // ctl thread from here on.
    void openSession();
    Result<transport::Link*> sessionLink();
    void onOpened(std::uint64_t gen, const Result<transport::LinkInfo>& opened);
    void onEnded(std::uint64_t gen, const Result<ingest::SessionSummary>& ended);
    void closeSession();
    void watchQueue();
    void applyImaging(const ImagingSettings& settings);
    void applyAcquisition(const AcquisitionSettings& settings);
    std::unique_ptr<FrameImager> imagerFor(const ImagingSetup& setup);
    std::unique_ptr<FrameImager> imagerFor(const beamform::AcquisitionGeometry& geometry, const ImagingSetup& setup);
    // Laser shots (shot_display.cpp): their pipeline for the geometry, on the B-mode's grid with
    // their own picture; the settings applied or refused.
    [[nodiscard]] ImagingSetup shotSetupFor(const ImagingSettings& imaging, const PhotoacousticSettings& shown) const;
    void reconfigureShots(const ImagingSettings& imaging, bool newImager);
    void applyPhotoacoustic(const PhotoacousticSettings& settings);
    Status startPacsSide();  // announces queue changes (QueueChanged), every 100 ms while the engine runs

    // Recording (recording_control.cpp).
    void startRecording(const std::string& path);
    void stopRecording();
    void onRecordingFailed(std::uint64_t gen, const std::string& path, const Error& error);
    void recordingProgress(std::uint64_t gen);
    std::optional<RecordingChanged> finishRecording();

    // Export jobs (jobs thread, export_job.cpp): write and queue, then follow the item in short
    // delayed checks, so that a job waiting on a PACS never holds up the jobs queued after it.
    void runExport(JobId id, const CineExportRequest& request, const Exam& examOfJob, const std::vector<std::shared_ptr<const DisplayFrame>>& frames,
                   std::shared_ptr<std::atomic<bool>> cancelled);
    // A snapshot's pictures, held when it was asked for: the frame, the laser shot laid over it
    // (dual mode; none otherwise) and how shots were shown then.
    struct SnapshotPictures {
        std::shared_ptr<const DisplayFrame> frame;
        std::shared_ptr<const DisplayFrame> shot;
        PhotoacousticSettings shown;
    };
    void runSnapshot(JobId id, const SnapshotExportRequest& request, const Exam& examOfJob, const SnapshotPictures& pictures,
                     std::shared_ptr<std::atomic<bool>> cancelled);
    [[nodiscard]] dicom::InstanceContext instanceContext(const Exam& examOfJob);
    Result<std::string> writeMeasurementReport(const std::string& imageFile, const dicom::UsImageObject& image, const DisplayFrame& frame,
                                               const std::vector<ImageMeasurement>& measurements);
    void queueExport(JobId id, std::vector<std::string> files, const std::string& node, std::shared_ptr<std::atomic<bool>> cancelled);
    void followDelivery(JobId id, std::string files, std::vector<std::string> itemIds, std::shared_ptr<std::atomic<bool>> cancelled);
    void auditExport(const std::string& file, const std::optional<Error>& failure);
    // Jobs that ask a configured PACS node something (node_jobs.cpp, on `queries`).
    JobId postQuery(std::function<void(JobId)> job);
    void runWorklistQuery(JobId id, const WorklistQuery& query);
    void runNodeVerification(JobId id, const std::string& node);
    void runEcho(JobId id, const dicom::PacsNode& node, const dicom::AssociationSettings& settings);
    void jobUpdate(JobId id, JobStatus status, double progress, std::string message, JobKind kind = JobKind::DicomExport, ErrorCode code = ErrorCode::Ok) {
        emit(JobUpdate{id, kind, status, progress, std::move(message), code});
    }
    void jobFinish(JobId id, JobStatus status, double progress, std::string message, JobKind kind = JobKind::DicomExport, ErrorCode code = ErrorCode::Ok) {
        jobUpdate(id, status, progress, std::move(message), kind, code);
        jobsDesk.finish(id);
    }

    [[nodiscard]] EngineStats snapshot() const;  // engine_stats.cpp
};

}  // namespace sonolink::engine
