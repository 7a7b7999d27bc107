// The facade's value functions: names of states and kinds, an error in one line, and rates
// between two statistics snapshots.
#include <map>

#include <fmt/format.h>

#include "sonolink/engine/engine.h"

namespace sonolink::engine {

std::string_view toString(EngineState state) {
    switch (state) {
        case EngineState::Idle: return "idle";
        case EngineState::Connecting: return "connecting";
        case EngineState::SelfTest: return "self-test";
        case EngineState::Ready: return "ready";
        case EngineState::Streaming: return "streaming";
        case EngineState::Frozen: return "frozen";
        case EngineState::Error: return "error";
    }
    return "?";
}

std::string_view toString(JobKind kind) {
    switch (kind) {
        case JobKind::DicomExport: return "dicom-export";
        case JobKind::WorklistQuery: return "worklist-query";
        case JobKind::NodeVerification: return "node-verification";
    }
    return "?";
}

std::string_view toString(JobStatus status) {
    switch (status) {
        case JobStatus::Running: return "running";
        case JobStatus::Done: return "done";
        case JobStatus::Failed: return "failed";
        case JobStatus::Cancelled: return "cancelled";
    }
    return "?";
}

std::string_view toString(ErrorOrigin origin) {
    switch (origin) {
        case ErrorOrigin::Command: return "command";
        case ErrorOrigin::Link: return "link";
        case ErrorOrigin::FrontEnd: return "front end";
        case ErrorOrigin::Recorder: return "recorder";
        case ErrorOrigin::Pacs: return "PACS";
        case ErrorOrigin::Export: return "export";
        case ErrorOrigin::Imager: return "imager";
        case ErrorOrigin::Engine: return "engine";
    }
    return "?";
}

std::string_view toString(Severity severity) {
    switch (severity) {
        case Severity::Warning: return "warning";
        case Severity::Error: return "error";
        case Severity::Critical: return "critical";
    }
    return "?";
}

std::string_view toString(RecordingPhase phase) {
    switch (phase) {
        case RecordingPhase::Started: return "started";
        case RecordingPhase::Progress: return "progress";
        case RecordingPhase::Stopped: return "stopped";
        case RecordingPhase::Failed: return "failed";
    }
    return "?";
}

std::string_view toString(ArchiveItemState state) {
    switch (state) {
        case ArchiveItemState::Queued: return "queued";
        case ArchiveItemState::Uploading: return "uploading";
        case ArchiveItemState::Verified: return "verified";
        case ArchiveItemState::Failed: return "failed";
    }
    return "queued";
}

std::string_view toString(QueueItemState state) {
    switch (state) {
        case QueueItemState::Queued: return "queued";
        case QueueItemState::Sending: return "sending";
        case QueueItemState::Sent: return "sent";
        case QueueItemState::Committed: return "committed";
        case QueueItemState::Failed: return "failed";
    }
    return "?";
}

std::string EngineError::describe() const {
    auto out = fmt::format("{} {}{}{}: {}: {}", toString(origin), toString(severity), source.empty() ? "" : " in ", source, sonolink::toString(code), message);
    for (const auto& c : context) out += fmt::format(" (while {})", c);
    for (const auto& d : details) out += fmt::format("; {}", d);
    return out;
}

EngineRates rates(const EngineStats& earlier, const EngineStats& later) {
    EngineRates r;
    r.seconds = later.steadyNs > earlier.steadyNs ? static_cast<double>(later.steadyNs - earlier.steadyNs) / 1e9 : 0;
    if (r.seconds <= 0) return r;
    auto perSecond = [&](std::uint64_t a, std::uint64_t b) { return b > a ? static_cast<double>(b - a) / r.seconds : 0.0; };
    r.deliveredFps = perSecond(earlier.framesDelivered, later.framesDelivered);
    r.displayedFps = perSecond(earlier.framesDisplayed, later.framesDisplayed);
    r.throughputGbps = perSecond(earlier.bytes, later.bytes) * 8 / 1e9;
    r.imagerBusyPercent = 100 * (later.imagerSeconds - earlier.imagerSeconds) / r.seconds;
    std::map<std::string, double> before;
    for (const auto& t : earlier.threads) before[t.name] = t.cpuSeconds;
    for (const auto& t : later.threads) {
        const auto it = before.find(t.name);
        // A thread of that name that is newer than the earlier reading (a new session's) counts from its start.
        const double base = it == before.end() || it->second > t.cpuSeconds ? 0 : it->second;
        r.threads.push_back({t.name, 100 * (t.cpuSeconds - base) / r.seconds});
    }
    return r;
}

std::string_view toString(SelfTestVerdict verdict) {
    switch (verdict) {
        case SelfTestVerdict::Pass: return "pass";
        case SelfTestVerdict::Warn: return "warn";
        case SelfTestVerdict::Fail: return "fail";
    }
    return "?";
}

}  // namespace sonolink::engine
