// The engine facade's value types: states and their changes, events (state, jobs, errors),
// display products (the latest B-mode image), statistics and the DICOM queue as the facade
// shows them. Plain values only, so the GUI, the CLI and a later out-of-process engine can hold
// them. Thread contract: plain values, copy freely.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sonolink/util/error.h"
#include "sonolink/util/thread_cpu.h"

namespace sonolink::engine {

// Idle -> Connecting -> SelfTest -> Ready -> Streaming <-> Frozen; any -> Error (with the
// reason); Error -> Connecting (reconnect); Ready/Streaming/Frozen/Error -> Idle (disconnect).
enum class EngineState { Idle, Connecting, SelfTest, Ready, Streaming, Frozen, Error };
std::string_view toString(EngineState state);

struct StateChanged {
    EngineState from = EngineState::Idle;
    EngineState to = EngineState::Idle;
    std::string reason;
};

using JobId = std::uint64_t;
enum class JobStatus { Running, Done, Failed, Cancelled };
std::string_view toString(JobStatus status);

struct JobUpdate {
    JobId id = 0;
    std::string kind;            // "dicom-export"
    JobStatus status = JobStatus::Running;
    double progress = 0;         // 0..1
    std::string message;         // the result (files written) or what failed
};

struct EngineError {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
};

using EngineEvent = std::variant<StateChanged, JobUpdate, EngineError>;

// The latest B-mode image: 8-bit, rows along depth, calibrated.
struct DisplayFrame {
    std::uint64_t session = 0;   // the link session (a reconnect starts the next)
    std::uint32_t frameId = 0;   // the front end's frame id: increasing within a session, never repeated
    int rows = 0;
    int columns = 0;
    std::vector<std::uint8_t> pixels;  // rows x columns, row-major
    double cmPerPixelX = 0;
    double cmPerPixelY = 0;
    std::uint64_t readyNs = 0;          // steady clock, when published
    double latencyUs = 0;               // last block of the frame written -> published
};

// RF traces of selected channels of the newest frame shown (first transmit), for the engineer's
// RF view: channels.size() traces of samplesPerChannel ADC counts each.
struct RfLines {
    std::uint64_t session = 0;
    std::uint32_t frameId = 0;
    std::vector<int> channels;
    int samplesPerChannel = 0;
    std::vector<std::int16_t> samples;  // channel-major
};

struct EngineStats {
    EngineState state = EngineState::Idle;
    std::uint64_t framesDelivered = 0;   // by ingest, intact
    std::uint64_t framesIncomplete = 0;
    std::uint64_t framesMissing = 0;
    std::uint64_t framesDroppedNoBuffer = 0;
    std::uint64_t crcErrors = 0;
    std::uint64_t headerErrors = 0;
    std::uint64_t bytes = 0;
    std::uint64_t framesDisplayed = 0;   // beamformed and published
    std::uint64_t displaySkipped = 0;    // replaced by a newer frame before the beamformer took them (lossy by design)
    std::uint64_t framesRecorded = 0;
    std::uint64_t framesRecordRefused = 0;
    double displayFps = 0;
    double throughputGbps = 0;
    double latencyP50Us = 0;             // last block written -> display product ready
    double latencyP99Us = 0;
    std::uint64_t sessions = 0;          // link sessions (reconnects add one)
    std::vector<ThreadCpuUse> threads;   // share of one core per named thread since the last stats()
    std::string imager;                  // "CPU" or "GPU": who beamforms the display
    double imagerBusyPercent = 0;        // share of wall time the imager spent on frames (on the GPU: its use by the display)
    double imagerMsPerFrame = 0;         // mean time to image one frame
};

}  // namespace sonolink::engine
