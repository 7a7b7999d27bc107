// Engine: the one API the GUI and the CLI use. It brings the link up (Connecting, SelfTest,
// Ready), streams (Streaming), freezes the display for review (Frozen), reports failures
// (Error, with the reason) and reconnects; records on demand; beamforms the newest frame into
// the latest B-mode image (a mailbox the GUI pulls at its own rate) and keeps a cine of the last
// N images; runs DICOM export jobs with progress and cancel, and the PACS store-and-forward
// queue, whose items it shows. Backends (link, front end) come from the composition root.
// Thread contract: every method is thread-safe and returns at once: commands are queued to the
// engine's `ctl` thread; results and state changes arrive as events. Event sinks run on engine
// threads: copy and return, never block, never call back into the engine from a sink.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/store_forwarder.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/engine/engine_types.h"
#include "sonolink/ingest/frame.h"
#include "sonolink/ingest/stream_session.h"
#include "sonolink/record/uff_channel_data.h"
#include "sonolink/transport/link.h"

namespace sonolink::engine {

// How frames become images: the acquisition's geometry (from the composition root) and the grid.
struct ImagingSetup {
    bool enabled = true;               // false: no display products (link and recording only)
    beamform::PixelGrid grid;
    beamform::BeamformParams params;
    double dynamicRangeDb = 60;
    double gainDb = 0;
    unsigned beamformThreads = 0;      // 0: one per hardware thread
};

// The PACS side: the queue, its nodes and the station's identity. Off when queueDirectory is empty.
struct DicomSetup {
    std::string queueDirectory;
    dicom::RetryPolicy retry;
    dicom::ForwarderSettings forwarder;
    std::string uidRoot;               // empty: 2.25 UUID-derived UIDs
    int listenPort = 11112;            // storage commitment reports
    dicom::AuditSettings audit;
    dicom::Equipment equipment;
};

struct EngineConfig {
    ingest::SessionOptions session;          // the Configure sent to the front end
    record::UffChannelData geometry;         // probe, waves, sampling (recordingMetadataFor(configure))
    ImagingSetup imaging;
    std::size_t cineFrames = 64;
    DicomSetup dicom;
    int metricsPort = -1;                    // Prometheus text on 127.0.0.1:<port>/metrics; -1: off, 0: any free port
};

// Turns one frame into its envelope image on the display grid: the CPU reference by default;
// the composition root may hand in another (the CUDA beamformer). Called on the bf thread only.
class FrameImager {
public:
    virtual ~FrameImager() = default;
    [[nodiscard]] virtual std::string name() const = 0;
    // Takes the frame's samples in (after this, the frame's ring slots may go).
    [[nodiscard]] virtual Status load(const ingest::Frame& frame) = 0;
    // The envelope of the frame last loaded, column-major ([x][z]) on the grid.
    [[nodiscard]] virtual Result<beamform::BeamformedImage> envelope() = 0;
};

// A link and whatever must live as long as it (the built-in front end's thread).
struct LinkHandle {
    std::unique_ptr<transport::Link> link;
    std::shared_ptr<void> keepAlive;
};
struct Backends {
    std::function<Result<LinkHandle>()> makeLink;  // called on each (re)connect, on the ctl thread
    std::unique_ptr<FrameImager> imager;           // null: the CPU reference beamformer
};

// A cine exported as a DICOM US Multi-frame object, optionally queued for a PACS node.
struct CineExportRequest {
    std::string file;
    dicom::Patient patient;
    std::string node;                 // empty: not queued
    double frameTimeMs = 0;           // 0: from the frames' timing
};

class Subscription;

class Engine {
public:
    [[nodiscard]] static Result<std::unique_ptr<Engine>> create(EngineConfig config, Backends backends);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void connect();          // Idle or Error -> Connecting -> SelfTest -> Ready
    void startStreaming();   // Ready or Frozen -> Streaming
    void freeze();           // Streaming -> Frozen: the image and the cine stop; the link streams on
    void stopStreaming();    // Streaming or Frozen -> Ready (the front end is stopped and brought up again)
    void disconnect();       // -> Idle
    void startRecording(std::string path);  // every frame, losslessly, or an error event
    void stopRecording();

    // Channels whose RF traces latestRf() shows (out-of-range ones are ignored); none by default.
    void setRfChannels(std::vector<int> channels);

    // A cine export job: written, then (request.node) queued and followed until the PACS has it.
    // cancel() stops it between steps and withdraws its queue item (one being sent once the
    // attempt ends, if it failed); one already at the PACS stays (the job says so). Jobs never
    // wait on one another.
    [[nodiscard]] JobId exportCine(CineExportRequest request);
    void cancel(JobId job);

    using EventSink = std::function<void(const EngineEvent&)>;
    [[nodiscard]] Subscription subscribe(EventSink sink);

    [[nodiscard]] EngineState state() const;
    [[nodiscard]] std::shared_ptr<const DisplayFrame> latestFrame() const;
    [[nodiscard]] std::vector<std::shared_ptr<const DisplayFrame>> cine() const;  // oldest first
    [[nodiscard]] std::shared_ptr<const RfLines> latestRf() const;
    [[nodiscard]] EngineStats stats() const;
    // The statistics in Prometheus text format (what /metrics serves); the port it listens on, if any.
    [[nodiscard]] std::string metricsText() const;
    [[nodiscard]] std::optional<int> metricsPort() const;
    // The PACS queue, item by item (empty when DICOM is off).
    [[nodiscard]] std::vector<dicom::QueueItem> dicomQueue() const;

    struct Impl;

private:
    explicit Engine(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<Impl> impl_;
};

// Ends a subscription when destroyed: from another thread it waits for a running call of the
// sink, which is then never called again; from inside a sink (its own or another) it returns at
// once and the dropped sink hears no further event.
class Subscription {
public:
    Subscription() = default;
    Subscription(std::weak_ptr<Engine::Impl> impl, std::uint64_t id) : impl_(std::move(impl)), id_(id) {}
    Subscription(Subscription&& other) noexcept : impl_(std::move(other.impl_)), id_(std::exchange(other.id_, 0)) {}
    Subscription& operator=(Subscription&& other) noexcept;
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    ~Subscription();

private:
    std::weak_ptr<Engine::Impl> impl_;
    std::uint64_t id_ = 0;
};

}  // namespace sonolink::engine
