// The summary of a stream, record or replay run (stream_command.cpp): what its sessions came to
// (StreamOutcome), the summary as JSON (--json) and as text, each block, frame and error accounted.
// Thread contract: main thread only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "sonolink/engine/engine_stats.h"

namespace sonolink::cli {

// What the run's sessions came to: the exit code, how many sessions, the start-up self-test's
// frames, and each link error on the way.
struct StreamOutcome {
    int exitCode = kExitOk;
    int sessions = 0;
    std::uint64_t selfTestFrames = 0;     // the start-up self-test's (test-pattern frames, never recorded)
    std::uint64_t selfTestDelivered = 0;  // of those, delivered whole
    std::vector<std::string> linkErrors;
};

// The run's summary from the engine's final stats: frames (the self-test's apart), blocks, link
// errors, BER, laser, latency; `recording` (null: none) and the NIC's `portCounters` as given.
[[nodiscard]] nlohmann::json streamSummaryJson(const engine::EngineStats& s, const StreamOutcome& out, const nlohmann::json& recording,
                                               const nlohmann::json& portCounters);
// The same summary as text on stdout, for the engineer; recordFile names the recording.
void printStreamSummary(const nlohmann::json& j, const std::string& recordFile);

}  // namespace sonolink::cli
