// The engine facade's states and events: the state machine's states and changes, jobs, errors
// (origin, severity, context chain, details; the front end's own reports are errors of origin
// FrontEnd), recording, the PACS queue, settings applied or refused, worklist answers. Plain
// values only, so the GUI, the CLI and a later out-of-process engine can hold them.
// Thread contract: plain values, copy freely.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sonolink/engine/exam.h"
#include "sonolink/util/error.h"

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
enum class JobKind { DicomExport, WorklistQuery, NodeVerification };
std::string_view toString(JobKind kind);
enum class JobStatus { Running, Done, Failed, Cancelled };
std::string_view toString(JobStatus status);

struct JobUpdate {
    JobId id = 0;
    JobKind kind = JobKind::DicomExport;
    JobStatus status = JobStatus::Running;
    double progress = 0;             // 0..1
    std::string message;             // the result (files written) or what failed
    ErrorCode code = ErrorCode::Ok;  // Failed: why (Unavailable: the node could not be reached; a retry may help)
};

// Where an error came from: a command the user gave (a modal dialog is fit only for these), the
// link, the front end's own report, the recorder, a PACS node, an export, the imager, or the
// engine itself (a thread that failed).
enum class ErrorOrigin { Command, Link, FrontEnd, Recorder, Pacs, Export, Imager, Engine };
std::string_view toString(ErrorOrigin origin);
enum class Severity { Warning, Error, Critical };
std::string_view toString(Severity severity);

struct EngineError {
    ErrorOrigin origin = ErrorOrigin::Engine;
    Severity severity = Severity::Error;
    ErrorCode code = ErrorCode::Internal;
    std::string message;
    std::string source;                          // which command, file, PACS node or thread
    std::vector<std::string> context;            // what was being done, innermost first ("while ...")
    std::vector<std::string> details;            // independent findings behind it
    [[nodiscard]] std::string describe() const;  // one line, origin and source first, then details
};

// Recording: started, its progress about twice a second, stopped (with the totals) or failed
// (at once, with the reason; the frames written before stay readable).
enum class RecordingPhase { Started, Progress, Stopped, Failed };
std::string_view toString(RecordingPhase phase);
struct RecordingChanged {
    RecordingPhase phase = RecordingPhase::Started;
    std::string path;
    std::uint64_t frames = 0;  // written so far
    std::uint64_t bytes = 0;   // samples written so far
    std::uint64_t framesRefused = 0;
    std::uint64_t framesSkipped = 0;  // ids the front end numbered that never arrived: gaps in the file's frame ids
    std::string error;                // Failed (and Stopped after a failure): why
};

// The PACS queue changed (an item added, sent, failed, committed, withdrawn, retried); read it
// again with dicomQueue(). version only grows.
struct QueueChanged {
    std::uint64_t version = 0;
};

// The answer of a worklist query job (its JobUpdate follows: Done, or Failed with the reason).
struct WorklistResult {
    JobId job = 0;
    std::vector<ScheduledExam> exams;
};

// A run-time setting applied (from the next frame, or the next connect) or refused with the reason.
struct SettingsChanged {
    std::string what;  // "imaging"
    bool applied = false;
    std::string reason;  // refused: why; applied: when it takes effect
};

// A start-up self-test step's outcome (ring memory, link BER, PACS): what was measured, the
// limit, the verdict and, when it did not pass, what to check. A failed step that blocks
// streaming does so until the next connect passes or an engineer overrides it
// (overrideSelfTest, with the reason: SelfTestOverridden); a PACS that does not answer does not
// (studies wait in the store-and-forward queue).
enum class SelfTestVerdict { Pass, Warn, Fail };
// The start-up self-test's steps in the order they run, as EngineConfig::selfTestSteps and
// selftest.steps name them ("station" for all of the station's, or one as "station: <check>").
inline constexpr std::array<std::string_view, 8> kSelfTestSteps{"station",       "GPU memory",    "ring memory", "link BER", "ring slots (DMA path)",
                                                                "element check", "phantom check", "PACS"};
[[nodiscard]] constexpr bool isSelfTestStepName(std::string_view name) {
    if (name.starts_with("station: ") && name.size() > 9) return true;
    for (const auto step : kSelfTestSteps) {
        if (step == name) return true;
    }
    return false;
}
std::string_view toString(SelfTestVerdict verdict);
// One channel's figures in the element check.
struct ElementFigures {
    double rms = 0;                   // ADC counts
    double snrDb = 0;                 // 0: not measured
    double neighbourCorrelation = 0;  // of its envelope, with the better neighbour
    std::string fault;                // "ok", "dead", "weak", "noisy", "swapped", "uncorrelated"
    int swappedWith = -1;
};
struct SelfTestStep {
    std::string step;  // "link BER"
    SelfTestVerdict verdict = SelfTestVerdict::Pass;
    std::string figures;          // the measurement, in one line
    std::string limit;            // what it was held to
    std::string fix;              // not passed: what to check
    bool blocksStreaming = true;  // a failure of this step blocks streaming
    std::uint64_t bitsChecked = 0;
    std::uint64_t bitErrors = 0;
    std::uint64_t lockLosses = 0;
    std::uint64_t crcErrors = 0;  // blocks, apart from payload bit errors
    double ber = 0;
    double berUpperBound = 0;  // at the confidence
    double seconds = 0;
    std::vector<ElementFigures> elements;  // the element check: by channel, from 0 as the front end numbers them
};
struct SelfTestOverridden {
    std::string reason;
    std::string by;       // the station user who gave it
    std::string blocked;  // what it overrides
};

using EngineEvent =
    std::variant<StateChanged, JobUpdate, EngineError, RecordingChanged, QueueChanged, SettingsChanged, WorklistResult, SelfTestStep, SelfTestOverridden>;

}  // namespace sonolink::engine
