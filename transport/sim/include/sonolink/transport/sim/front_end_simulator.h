// FrontEndSimulator: the FPGA front end in software. It speaks the control protocol through a
// FrontEndPort (shared memory or verbs) (Hello, RingAdvert, Configure, Start/Stop, credits, BER test, time sync,
// status heartbeats), pre-generates what it sends (RF of the standard phantom for plane-wave or
// photoacoustic frames, PRBS-7/15/23/31 or counter patterns) so that generation never limits
// throughput, writes blocks into the host's ring only while it holds credits, and injects the
// faults of its FaultPlan, counting each. Paced at the configured frame rate, it drops whole
// frames when out of credits, as the FPGA does; unpaced, it waits for credits. Laser shots (the
// host's Triggers in dual mode, its own frame times photoacoustic-only) fire through its Laser
// model: each is reported (ShotReport) and, when it fired, followed by its photoacoustic frame,
// stamped with the pulse's time and energy and scaled by that energy.
// Thread contract: run() on one thread; the accessors only after run() returned.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sonolink/transport/sim/channel_faults.h"
#include "sonolink/transport/sim/fault_injector.h"
#include "sonolink/transport/sim/frame_layout.h"
#include "sonolink/transport/sim/laser_model.h"
#include "sonolink/transport/front_end_port.h"

namespace sonolink::transport::sim {

class RfScene;

// Replay: frames to send instead of the phantom (e.g. a recording), each layout.frameBytes of
// little-endian int16, waves x channels x samples. Read as they are sent (a few buffers in
// memory, whatever the source holds) unless all of them fit FrontEndOptions::replayResidentBytes,
// in which case they are read once at Configure.
// Thread contract: called on the front end's thread only.
class FrameSource {
public:
    virtual ~FrameSource() = default;
    // How many frames the source holds, once it has checked that they fit configure; an error
    // is reported to the host as the reason its Configure was refused.
    [[nodiscard]] virtual Result<std::uint32_t> frameCount(const Configure& configure, const FrameLayout& layout) = 0;
    // Frame index (< frameCount) into out (layout.frameBytes).
    [[nodiscard]] virtual Status readFrame(std::uint32_t index, std::span<std::byte> out) = 0;
};

struct FrontEndOptions {
    std::string serial = "SIM-0001";
    std::string firmware = "sonolink-sim 1";
    Capabilities capabilities;
    FaultPlan faults;
    LaserModel laser;              // photoacoustic shots: jitter, misfires, pulse energy
    ChannelFaults channelFaults;   // elements made to fail in every RF frame (the element check's proof)
    int postBatch = 8;             // writes per doorbell (completion moderation)
    bool payloadResident = false;  // bench: payloads preloaded, each write carries the header only
    std::chrono::milliseconds statusInterval{100};
    std::chrono::milliseconds handshakeTimeout{5000};
    std::uint64_t seed = 1;  // speckle and noise
    // Replay: when set, RF frames come from here instead of the phantom; read once when all of
    // them fit replayResidentBytes, else as they are sent.
    std::shared_ptr<FrameSource> frameSource;
    // Replay, dual mode: the laser shots' frames (one receive-only wave each) the laser sends in
    // turn instead of the phantom's, as recorded (the laser's model still times and reports them).
    std::shared_ptr<FrameSource> shotSource;
    std::uint64_t replayResidentBytes = 256u << 20;
    // Told once the host's Configure is accepted and the frames are ready (the simulator's thread).
    std::function<void(const FrameLayout&)> onConfigured;
};

struct FrontEndCounters {
    std::uint64_t framesAcquired = 0;  // frame ids used (sent or dropped)
    std::uint64_t framesDroppedNoCredit = 0;
    std::uint64_t blocksSent = 0;  // distinct blocks that left (duplicates not counted)
    std::uint64_t writes = 0;      // NIC writes (duplicates counted)
    std::uint64_t shotsFired = 0;  // laser shots, by outcome
    std::uint64_t shotsMissed = 0;
    std::uint64_t shotsLate = 0;
};

class FrontEndSimulator {
public:
    FrontEndSimulator(FrontEndPort& port, FrontEndOptions options);
    ~FrontEndSimulator();

    // Until stop is set (ok), the host closes the link (Cancelled), the host goes away or an
    // injected disconnect (Unavailable).
    [[nodiscard]] Status run(const std::atomic<bool>& stop);

    [[nodiscard]] const FaultCounts& faults() const noexcept { return injector_.counts(); }
    [[nodiscard]] const FrontEndCounters& counters() const noexcept { return counters_; }
    [[nodiscard]] const FrameLayout& layout() const noexcept { return layout_; }
    // The payload bytes frame frameId carried (what an intact delivery must equal); empty for a
    // replayed frame no longer in the simulator's buffers.
    [[nodiscard]] std::span<const std::byte> framePayload(std::uint32_t frameId) const noexcept;

private:
    struct PendingWrite;
    Status handshake();
    Status handle(const ControlMessage& message, bool& streaming);
    Status acceptConfigure(const Configure& configure);
    Status startBerTest(const BerStart& start, bool& streaming);
    void beginRun(bool& streaming, std::uint32_t frameLimit);
    Status sendErrorReport(ErrorCode code, MessageType about, std::string text);
    Status prepare(const Configure& configure);
    Status serviceControl(std::chrono::milliseconds wait, bool& streaming);
    // What one frame sends: its layout, payload bytes and their block CRCs, time, flags, energy.
    struct FrameSend {
        const FrameLayout* layout = nullptr;
        std::span<const std::byte> payload;
        std::span<const std::uint32_t> crcs;
        std::uint64_t timeNs = 0;
        std::uint16_t flags = 0;
        std::uint32_t energyMicroJ = 0;
    };
    Status sendFrame(bool& streaming);
    Status sendBlocks(bool& streaming, const FrameSend& frame);
    [[nodiscard]] BlockHeader blockHeaderFor(const FrameSend& frame, std::uint32_t b, std::uint32_t blockCount) const noexcept;
    Status injectLinkFaults(bool& streaming);
    // Photoacoustic shots (front_end_shots.cpp).
    Status prepareShots(const Configure& configure);
    Status loadShotSources(const Configure& shot);
    Status acceptTrigger(const Trigger& trigger);
    Status fireShot(bool& streaming, const Trigger& trigger);
    [[nodiscard]] std::chrono::steady_clock::time_point steadyAt(std::uint64_t frontEndTimeNs) const noexcept;
    [[nodiscard]] std::vector<std::vector<std::byte>> renderRf(const Configure& configure, const FrameLayout& layout, std::size_t variantCount) const;
    Status writeBlock(std::span<const std::byte> header, std::span<const std::byte> payload, std::uint32_t immediate, std::span<const std::uint32_t> flips);
    Status waitForCredit(bool& streaming);
    Status preloadPayloads();
    void computeCrcs(std::size_t variant);
    [[nodiscard]] std::uint64_t creditsAvailable() const noexcept;
    void maybeSendStatus(bool streaming);
    // Replay (front_end_replay.cpp).
    Status prepareReplay();
    Status loadReplayFrame(std::size_t variant, std::uint64_t index);

    FrontEndPort& port_;
    FrontEndOptions options_;
    FaultInjector injector_;
    FrontEndCounters counters_;
    std::optional<RingAdvert> ring_;
    std::uint64_t freedThrough_ = 0;
    std::uint64_t writeCursor_ = 0;
    std::uint32_t pendingDoorbell_ = 0;
    Configure configure_;
    FrameLayout layout_;
    std::vector<std::vector<std::byte>> variants_;  // pre-generated frame payloads
    std::vector<std::vector<std::uint32_t>> crcs_;  // payload CRC per variant and block
    std::vector<std::uint32_t> slotFlips_;          // a write into the corrupt slot: its flips
    Laser laser_;
    FrameLayout shotLayout_;                           // a photoacoustic frame's (dual mode and photoacoustic-only)
    std::vector<std::vector<std::byte>> shotSources_;  // dual mode: its RF at the nominal energy (photoacoustic-only: variants_)
    bool shotsReplayed_ = false;                       // shotSources_ are recorded shots: sent as they are
    std::vector<std::vector<std::byte>> shotBuffers_;  // each shot's RF scaled by its energy, in turn
    std::vector<std::vector<std::uint32_t>> shotCrcs_;
    std::vector<std::uint64_t> shotBufferLastWrite_;  // writes posted when each was last sent
    std::vector<std::uint32_t> shotBufferFrame_;      // the frame each holds
    std::size_t nextShotBuffer_ = 0;
    std::deque<Trigger> pendingShots_;             // dual mode: scheduled, in fire-time order
    std::uint32_t ownShotId_ = 0;                  // photoacoustic-only: the shots it times itself
    std::uint32_t replayFrames_ = 0;               // replay: the source's frame count (0: no replay)
    std::vector<std::uint32_t> replayHeld_;        // replay: the source frame each variant holds
    std::vector<std::uint64_t> variantLastWrite_;  // replay: writes posted when each variant was last sent
    std::uint64_t writesCompleteThrough_ = 0;      // replay: writes known complete (awaitWrites)
    std::uint64_t sequence_ = 0;
    std::uint32_t frameId_ = 0;
    std::uint64_t ultrasoundFrames_ = 0;  // frames sent (or dropped) of the configured geometry, shots apart
    std::uint32_t frameLimit_ = 0;
    std::uint32_t framesThisRun_ = 0;  // frames towards the frame limit (dual mode: ultrasound ones)
    std::uint32_t ticksThisRun_ = 0;   // frame times passed (a misfired shot's included)
    std::chrono::steady_clock::time_point runStart_;
    std::uint64_t ptpEpochNs_ = 0;
    std::chrono::steady_clock::time_point lastStatus_;
    bool resident_ = false;
    bool stalled_ = false;
};

}  // namespace sonolink::transport::sim
