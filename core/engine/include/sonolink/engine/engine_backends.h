// How the composition root builds the Engine: its configuration (the Configure sent to the front
// end, the acquisition geometry, the display grid and imaging, the PACS side), the backends it
// cannot choose itself (the link, the display's imager) and createEngine(). Only app/ includes
// this header; the GUI sees engine.h alone. Thread contract: plain values; FrameImager is used on
// the display thread only; makeLink is called on the ctl thread.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sonolink/archive/archive_uploader.h"
#include "sonolink/beamform/acquisition_geometry.h"
#include "sonolink/beamform/beamform_types.h"
#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/store_forwarder.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/engine/engine.h"
#include "sonolink/ingest/frame.h"
#include "sonolink/ingest/stream_session.h"
#include "sonolink/selftest/element_check.h"
#include "sonolink/selftest/hardware_diagnostics.h"
#include "sonolink/selftest/memory_tests.h"
#include "sonolink/selftest/phantom_check.h"
#include "sonolink/transport/link.h"

namespace sonolink::engine {

// How frames become images on the display: the grid and the beamformer's parameters, as
// imagingSetupFor() derives them from the facade's ImagingSettings, and those settings
// themselves (the picture: TGC, gain, dynamic range, persistence, grey map, display raster).
struct ImagingSetup {
    beamform::PixelGrid grid;
    beamform::BeamformParams params;
    unsigned beamformThreads = 0;  // 0: one per hardware thread
    ImagingSettings settings;
    bool normaliseShotEnergy = false;  // laser shots: each scaled by the session's mean pulse energy over its own
};
// The grid spans the settings' width (or the probe's aperture) and depths, with the settings'
// columns and at least their rows: more where the depth step would exceed a seventh of the
// centre wavelength. A coarser step aliases the RF along depth and its envelope shows dark
// streaks (docs/performance.md, "Envelope aliasing"); the picture is resampled onto the display
// raster whatever the grid's rows.
[[nodiscard]] ImagingSetup imagingSetupFor(const ImagingSettings& settings, const beamform::AcquisitionGeometry& geometry, unsigned threads,
                                           double centerFrequencyHz);
// The depths to beamform from depth0 to depth1: rows, or more so that the step is at most
// c / (7 f0).
[[nodiscard]] std::size_t depthRowsFor(double depth0M, double depth1M, int rows, double soundSpeedMps, double centerFrequencyHz);

// The PACS side: the queue, its nodes and the station's identity. Off when queueDirectory is empty.
struct DicomSetup {
    std::string stationAeTitle = "SONOLINK";  // this station: audit messages, commitment reports
    std::string queueDirectory;
    dicom::RetryPolicy retry;
    dicom::ForwarderSettings forwarder;
    std::string uidRoot;     // empty: 2.25 UUID-derived UIDs
    int listenPort = 11112;  // storage commitment reports
    dicom::AuditSettings audit;
    dicom::Equipment equipment;
};

// The start-up link BER test: the front end sends the pattern as fast as the link takes it until
// the bits that show `limit` at `confidence` are compared (selftest::bitsToShow), or `timeout`.
struct LinkBerTest {
    transport::PayloadKind pattern = transport::PayloadKind::Prbs31;
    double limit = 1e-10;
    double confidence = 0.95;
    std::chrono::milliseconds timeout{120'000};
};

// The element check, after the link BER test: a short session of the front end's phantom (RF),
// its first frames' channels checked (selftest/element_check.h); then the phantom check: the
// first frame beamformed by the display's imager against Backends::phantomReference
// (selftest/phantom_check.h). A flagged channel or a mismatch fails its step and blocks streaming.
struct ElementCheckSetup {
    std::uint32_t frames = 4;  // frames of the phantom (their noise differs: SNR)
    selftest::ElementLimits limits;
    selftest::PhantomLimits phantom;            // the phantom check's, on the first frame (with Backends::phantomReference)
    std::chrono::milliseconds timeout{20'000};  // no frames by then: the step fails, saying so
};

// The station's set-up, checked at connect before the link comes up, each check a SelfTestStep
// "station: <check>" (selftest/station_diagnostics.h). A failed memlock or huge-page check
// blocks streaming (the ring could not be registered), and so does an RDMA port that is not up;
// a warning, a full disk, a folder that cannot be written or the other hardware checks do not:
// live imaging goes on, and recording says why it cannot.
struct StationCheck {
    std::uint64_t ringBytes = 0;  // the DMA ring the link registers
    bool ringLocked = false;      // locked, registered memory (verbs): memlock applies
    bool ringHugePages = false;
    std::uint64_t recordingBytesNeeded = 0;                              // free disk for a minute of recording
    std::vector<std::pair<std::string, std::filesystem::path>> folders;  // (what, where) to write; the first holds recordings
    // The station's hardware (GPU, RDMA ports, NUMA, PTP), read at each check; null: not checked.
    std::function<selftest::HardwareFacts()> readHardware;
    bool rdmaLink = false;    // a verbs link: its RDMA port is checked
    std::string linkAddress;  // its local address (empty: any; the first port that is up)
};

// The station's checks (selftest/station_diagnostics.h, hardware_diagnostics.h) of `check`, in
// the self-test's order, each with whether its failure blocks streaming. On a ring that is not
// locked memory (the simulated link) a memlock failure is a warning: a verbs link's would fail.
// The start-up self-test's station steps and `sonolink-cli doctor` both take them from here.
struct StationDiagnostic {
    selftest::Diagnostic diagnostic;
    bool blocksStreaming = false;
};
[[nodiscard]] std::vector<StationDiagnostic> stationDiagnostics(const StationCheck& check);

// The steps' names: kSelfTestSteps (engine_types.h).
// Whether a step named `step` runs when only `selected` do (empty: every step).
[[nodiscard]] bool selfTestStepWanted(const std::vector<std::string>& selected, std::string_view step);

// The archive side: the upload queue, its passes and what goes into it. Off without a client.
struct ArchiveSetup {
    std::string queueDirectory;  // empty: this engine runs no archive queue
    archive::ArchiveRetry retry;
    archive::PassSettings pass;  // journals, retention
    std::string auditFile;
    std::string bucket;  // keys: prefix + "recordings/" or "studies/" + the file's name
    std::string prefix;
    bool recordings = true;  // finished recordings are queued
    bool studies = true;     // exported DICOM objects are queued
};

struct EngineConfig {
    ingest::SessionOptions session;  // the Configure sent to the front end
    int rxCpu = -1;                  // >= 0: the rx thread pinned to this CPU
    // A session the front end ends itself (its frame limit reached): brought up again, Ready for
    // the next (true: an interactive station), or the engine goes Idle (false: a timed run).
    bool reopenAfterSession = true;
    beamform::AcquisitionGeometry geometry;  // what each frame is (app::geometryOf(configure))
    // Dual mode (configure.laserRateMilliHz > 0): what a laser shot's frame is; none otherwise.
    std::optional<beamform::AcquisitionGeometry> shotGeometry;
    PhotoacousticSettings photoacoustic;  // how the shots are shown
    AcquisitionSettings acquisition;      // what the Configure and the geometry stand for (acquisition())
    bool display = true;                  // false: no display products (link and recording only)
    ImagingSettings imaging;
    unsigned beamformThreads = 0;  // the CPU imager's; 0: one per hardware thread
    std::size_t cineFrames = 64;
    DicomSetup dicom;
    ArchiveSetup archive;
    // Run at every connect() before Ready (none: no start-up self-test); a failure blocks streaming
    // until overrideSelfTest().
    std::optional<LinkBerTest> selfTest;
    std::optional<StationCheck> station;            // checked with the self-test (none: not checked)
    std::vector<std::string> selfTestSteps;         // only these run (kSelfTestSteps' names); empty: all
    std::map<std::string, bool> selfTestBlocking;   // whether a step's failure blocks streaming, where the site says (the steps file); else the engine's own
    std::optional<ElementCheckSetup> elementCheck;  // run with the self-test (none: not run)
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

// A link and whatever must live as long as it (the built-in front end's thread). A reusable link
// (a NIC, a shared-memory region a front end process attaches to) is kept from session to
// session and reset() before the next; one that is not (a built-in front end that ends with its
// session) is made anew for each.
struct LinkHandle {
    std::unique_ptr<transport::Link> link;
    std::shared_ptr<void> keepAlive;
    bool reusable = false;
};
// An acquisition planned from settings: the Configure for the front end and what its frames are.
struct AcquisitionPlan {
    transport::Configure configure;
    beamform::AcquisitionGeometry geometry;
    std::optional<beamform::AcquisitionGeometry> shotGeometry;  // dual mode
};

struct PhantomReference {
    beamform::BeamformedImage envelope;             // column-major ([x][z]) on the grid
    std::vector<std::pair<double, double>> points;  // the point targets, (x, z) in metres
    // Dual mode: a laser shot of the phantom (its absorbers are the point targets), received only.
    std::optional<beamform::BeamformedImage> shotEnvelope;
};

// One GPU's memory test at connect: the block tested and the result, or why it could not run.
struct GpuMemoryOutcome {
    std::string gpu;                                   // "GPU 0 (NVIDIA H200)"
    std::optional<selftest::MemoryTestResult> result;  // none: it could not run (error)
    std::string error;
};

// The display host's side of several acquisition hosts (docs/cluster.md): images joined from
// the hosts' partials, their envelopes taken after the full sum. With a feed the engine is that
// display host: it has no link or self-test of its own; streaming starts and stops the feed,
// whose images go to the display, the cine and the facade's statistics.
// Thread contract: start() and stop() on the ctl thread; onImage on the feed's own thread, never
// after stop() returns; health() from any thread.
struct JoinedImage {
    std::uint64_t triggerSequence = 0;
    beamform::PixelGrid grid;            // the plan's
    beamform::BeamformedImage envelope;  // on the grid
    std::string incompleteAperture;      // "" or "incomplete aperture: host N"
    std::uint64_t readyNs = 0;           // steady clock: the last partial in
};
class ClusterFeed {
public:
    virtual ~ClusterFeed() = default;
    // Listens for the hosts and joins their partials; Unavailable when it cannot listen.
    [[nodiscard]] virtual Status start(std::function<void(JoinedImage)> onImage) = 0;
    virtual void stop() = 0;
    [[nodiscard]] virtual ClusterHealth health() const = 0;
};

struct Backends {
    // Called when a session needs a link (the first connect, and whenever the last one cannot
    // be reused), on the ctl thread.
    std::function<Result<LinkHandle>()> makeLink;
    // The display's imager for a geometry and imaging (the CUDA beamformer where it works);
    // null, or a null result: the CPU reference. Called at the start and whenever either
    // changes, on the ctl thread.
    std::function<std::unique_ptr<FrameImager>(const beamform::AcquisitionGeometry&, const ImagingSetup&)> makeImager;
    // The reference image of the front end's test phantom, computed from its definition, on the
    // imaging's grid, and its point targets (x, z in metres), for the phantom check after the
    // element check. Null: no phantom check. Called at connect, on the ctl thread.
    std::function<Result<PhantomReference>(const transport::Configure&, const beamform::AcquisitionGeometry&, const ImagingSetup&,
                                           const std::optional<beamform::AcquisitionGeometry>& shotGeometry)>
        phantomReference;
    // The plan for new acquisition settings, or why not (InvalidArgument). Null: the
    // acquisition cannot change at run time.
    std::function<Result<AcquisitionPlan>(const AcquisitionSettings&)> planAcquisition;
    // The GPU memory test at connect (March C- by CUDA kernels over a block of each GPU's
    // memory, in the composition root), before the link comes up. Null: no GPU to test (the
    // station's GPU check says why). Called on the ctl thread.
    std::function<std::vector<GpuMemoryOutcome>()> gpuMemoryTest;
    // The archive's S3 client (credentials resolved by the composition root); null: no archive.
    std::shared_ptr<archive::S3Client> archiveClient;
    // Set: this station is the display host of a cluster (makeLink may then be null).
    std::shared_ptr<ClusterFeed> clusterFeed;
};

// The engine, its threads started, Idle. InvalidArgument for a configuration it cannot run
// (no link backend, a bad grid or UID root); the PACS queue's own errors as they are.
[[nodiscard]] Result<std::unique_ptr<Engine>> createEngine(EngineConfig config, Backends backends);

}  // namespace sonolink::engine
