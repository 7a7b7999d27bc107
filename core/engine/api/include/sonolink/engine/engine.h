// Engine: the one API the GUI and the CLI use. It brings the link up (Connecting, SelfTest,
// Ready), streams (Streaming), freezes the display for review (Frozen), reports failures (Error,
// with the reason) and reconnects; records on demand; publishes the latest B-mode image and RF
// traces (mailboxes the GUI pulls at its own rate) and a cine of the last N images; runs DICOM
// export jobs, the PACS queue and the archive's upload queue. Built by the composition root (engine_backends.h), never here.
// Thread contract: every method is thread-safe and returns at once; commands are queued to the
// engine's `ctl` thread and their results come back as events. Sinks run on engine threads (ctl,
// jobs) one event at a time: copy and return, never block, never destroy the Engine from a sink.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sonolink/engine/archive_item.h"
#include "sonolink/engine/display_products.h"
#include "sonolink/engine/engine_stats.h"
#include "sonolink/engine/engine_types.h"
#include "sonolink/engine/exam.h"
#include "sonolink/engine/image_measurement.h"
#include "sonolink/engine/queue_item.h"
#include "sonolink/engine/settings.h"
#include "sonolink/util/result.h"

namespace sonolink::engine {

// The cine exported as a DICOM US Multi-frame object of the current exam, optionally queued for
// a PACS node.
struct CineExportRequest {
    std::string file;
    std::string node;        // empty: not queued
    double frameTimeMs = 0;  // 0: from the frames' timing
};

// One picture exported as a single-frame DICOM US Image of the current exam, optionally queued
// for a PACS node: the frame shown (session and frameId, found in the cine or the latest one),
// grey as acquired, or with the user's measurements burnt in (Burned In Annotation YES); the
// measurements, when given, also as a DICOM measurement report (a Comprehensive SR, TID 1500)
// beside it ("<file>_measurements.dcm"), of the same study, referencing the image, queued with it.
struct SnapshotExportRequest {
    std::string file;
    std::string node;           // empty: not queued
    std::uint64_t session = 0;  // the frame's link session and id (DisplayFrame)
    std::uint32_t frameId = 0;
    std::vector<std::uint8_t> burnedInRgb;       // empty: the grey picture; else rows x columns x (R, G, B)
    std::vector<ImageMeasurement> measurements;  // not empty: also written and queued as a measurement report (SR)
    // Dual mode: the laser shot (its frame id, of the same session) laid over the picture: the
    // overlay is exported in colour (composed here, at the photoacoustic settings, unless
    // burnedInRgb already holds it), as a derived image in a series that says so.
    std::optional<std::uint32_t> shotFrameId;
};

// A DICOM node as the user typed it (Settings…), verified before it is configured: the station's
// association settings, with the AE title and TLS files given here where not empty.
struct NodeToVerify {
    std::string name;     // for the messages
    std::string aeTitle;  // called
    std::string host;
    int port = 104;
    bool tls = false;
    std::string callingAeTitle;                                         // empty: the station's
    std::string tlsCertificate, tlsPrivateKey, tlsTrustedCertificates;  // empty: the station's
};

namespace detail {
class EventHub;
}
class Subscription;
struct EngineConfig;
struct Backends;

class Engine {
public:
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void connect();  // Idle or Error -> Connecting -> SelfTest -> Ready
    // Ready or Frozen -> Streaming; frames > 0: the front end acquires that many, then ends the
    // session (the engine brings it up again, or goes Idle, as configured).
    void startStreaming(std::uint32_t frames = 0);
    void freeze();         // Streaming -> Frozen: the image and the cine stop; the link streams on
    void stopStreaming();  // Streaming or Frozen -> Ready (the front end is stopped and brought up again)
    void disconnect();     // -> Idle
    // A failed start-up self-test blocks streaming (startStreaming is refused, naming the step
    // and its figures); an engineer's override, with its reason (empty is refused), lets the
    // station stream until the next connect. A SelfTestOverridden event records who and why.
    void overrideSelfTest(std::string reason);
    // An engineer changed a setting that affects safety (the start-up self-test's policy): logged
    // and audited (110113/110129) with the station user, what changed and the reason given.
    void recordPolicyChange(std::string subject, std::string change, std::string reason);
    // Stops the running start-up self-test: the step under way (stats().selfTest) fails as
    // cancelled, naming who, the steps after it do not run, and the station comes Ready with
    // streaming blocked (connect again, or override). Refused when no self-test runs.
    void cancelSelfTest();
    // Runs the start-up self-test again (an engineer re-running a step), only these steps
    // (kSelfTestSteps' names, or "station: <check>"; empty: every configured step), from Ready,
    // Idle or Error: the session closes, the steps run as at connect, the station comes Ready.
    // The steps run replace their earlier verdicts in what blocks streaming; the others' stand.
    // Refused while streaming, frozen or testing, for an unknown step, or with no self-test set up.
    void runSelfTest(std::vector<std::string> steps = {});
    // Every frame, losslessly, until stopRecording() or a failure (RecordingChanged events).
    void startRecording(std::string path);
    void stopRecording();

    // Channels whose RF traces latestRf() shows (out-of-range ones are ignored); none by default.
    void setRfChannels(std::vector<int> channels);
    // Run-time settings, validated on ctl and applied or refused with the reasons (a
    // SettingsChanged event either way): imaging from the next frame; acquisition at the next
    // connect (stopStreaming or a reconnect brings it in), the imager rebuilt for it.
    void setImaging(ImagingSettings settings);
    void setAcquisition(AcquisitionSettings settings);
    [[nodiscard]] ImagingSettings imaging() const;          // as applied last
    [[nodiscard]] AcquisitionSettings acquisition() const;  // as the current (or next) session runs
    // How laser shots are shown (view, colour map, gain, dynamic range, threshold, opacity, energy
    // normalisation): validated on ctl, from the next shot (a SettingsChanged event either way).
    void setPhotoacoustic(PhotoacousticSettings settings);
    [[nodiscard]] PhotoacousticSettings photoacoustic() const;

    // The exam every export names from now on (the next exportCine() included), checked as
    // DICOM values (a refusal is an EngineError, origin Command, and the exam stays as it was).
    // Without a Study Instance UID it gets one.
    void setExam(Exam exam);
    [[nodiscard]] Exam exam() const;
    // A cine export job: the cine and the exam as they are now, written, then (request.node) queued and followed
    // until the PACS has it. cancel() stops it between steps and withdraws its queue item (one
    // being sent once the attempt ends, if it failed); one already at the PACS stays (the job says
    // so). Jobs never wait on one another.
    [[nodiscard]] JobId exportCine(CineExportRequest request);
    // A snapshot export job, the same way; fails at once (its JobUpdate says why) when the frame
    // is no longer held or the burnt-in picture's size is not the frame's.
    [[nodiscard]] JobId exportSnapshot(SnapshotExportRequest request);
    void cancel(JobId job);
    // A worklist query job on its own thread (a slow server holds up no export): a
    // WorklistResult event with the scheduled exams, then its JobUpdate; audited (110112).
    [[nodiscard]] JobId queryWorklist(WorklistQuery query);
    // A verification job (C-ECHO) on the same thread: can this station reach the configured node
    // (address, TLS, AE titles)? Its JobUpdate says so, or what failed and why (code).
    [[nodiscard]] JobId verifyNode(std::string node);
    // The same for a node not (yet) configured; its values are checked first (a bad AE title,
    // no host or a port out of range fails the job, saying which).
    [[nodiscard]] JobId verifyNode(NodeToVerify node);
    // A user's decisions on PACS queue items: send a failed one again; take a queued one out.
    // Refusals come back as EngineError events (origin Command).
    void retryQueueItem(std::string id);
    void withdrawQueueItem(std::string id);
    // The archive: a failed upload queued again (refusals come back as EngineError events).
    void retryArchiveItem(std::int64_t id);

    using EventSink = std::function<void(const EngineEvent&)>;
    [[nodiscard]] Subscription subscribe(EventSink sink);

    [[nodiscard]] EngineState state() const;
    [[nodiscard]] std::shared_ptr<const DisplayFrame> latestFrame() const;
    [[nodiscard]] std::vector<std::shared_ptr<const DisplayFrame>> cine() const;  // oldest first
    [[nodiscard]] std::shared_ptr<const RfLines> latestRf() const;
    // Dual mode (acquisition.laser_rate_hz): the laser shots' pictures, on the B-mode's raster
    // (their own levels: the colour map is the viewer's), newest and cine; none without a laser.
    [[nodiscard]] bool firesLaser() const;
    [[nodiscard]] std::shared_ptr<const DisplayFrame> latestShot() const;
    [[nodiscard]] std::vector<std::shared_ptr<const DisplayFrame>> shotCine() const;  // oldest first
    // Cumulative counters with their time: any number of readers, none disturbing another.
    [[nodiscard]] EngineStats stats() const;
    // The PACS queue, item by item (empty when DICOM is off).
    [[nodiscard]] std::vector<QueueItem> dicomQueue() const;
    // The archive's upload queue, item by item (empty when no archive is configured): finished
    // recordings and exported studies are queued as they are written and uploaded in the
    // background, verified, and their local files kept as the retention rule says.
    [[nodiscard]] std::vector<ArchiveItem> archiveQueue() const;
    // Whether the station has an archive at all (archive.endpoint was set).
    [[nodiscard]] bool hasArchive() const;

private:
    struct Impl;
    friend Result<std::unique_ptr<Engine>> createEngine(EngineConfig config, Backends backends);
    explicit Engine(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<Impl> impl_;
};

// Ends a subscription when destroyed: from another thread it waits for a running call of the
// sink, which is then never called again; from inside a sink (its own or another) it returns at
// once and the dropped sink hears no further event.
class Subscription {
public:
    Subscription() = default;
    Subscription(std::weak_ptr<detail::EventHub> hub, std::uint64_t id) : hub_(std::move(hub)), id_(id) {}
    Subscription(Subscription&& other) noexcept : hub_(std::move(other.hub_)), id_(std::exchange(other.id_, 0)) {}
    Subscription& operator=(Subscription&& other) noexcept;
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    ~Subscription();

private:
    std::weak_ptr<detail::EventHub> hub_;
    std::uint64_t id_ = 0;
};

}  // namespace sonolink::engine
