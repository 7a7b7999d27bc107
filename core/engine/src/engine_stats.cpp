// Engine::stats(): one snapshot of cumulative counters and times, read without moving any mark,
// so any number of readers may poll at their own rates.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "engine_impl.h"

namespace sonolink::engine {
namespace {

LaserHealth laserHealth(const ingest::LaserCounts& finished, const ingest::LaserCounts& current) {
    LaserHealth h;
    h.scheduled = finished.scheduled + current.scheduled;
    h.fired = finished.fired + current.fired;
    h.missed = finished.missed + current.missed;
    h.late = finished.late + current.late;
    h.frames = finished.shotFrames + current.shotFrames;
    const auto& energies = current.fired > 0 ? current : finished;
    h.lastEnergyMj = energies.lastEnergyMicroJ / 1000.0;
    h.meanEnergyMj = energies.meanEnergyMicroJ / 1000.0;
    h.energySpreadPercent = energies.meanEnergyMicroJ > 0 ? 100.0 * energies.energySdMicroJ() / energies.meanEnergyMicroJ : 0.0;
    h.worstFireErrorUs = energies.worstFireErrorNs / 1000.0;
    h.worstStampErrorUs = energies.worstStampErrorNs / 1000.0;
    return h;
}

std::string_view frontEndStateName(transport::FrontEndState state) {
    switch (state) {
        case transport::FrontEndState::Idle: return "idle";
        case transport::FrontEndState::Configured: return "configured";
        case transport::FrontEndState::Streaming: return "streaming";
        case transport::FrontEndState::Stalled: return "stalled";
    }
    return "?";
}

// The ingest counters of every session so far: those that ended and the one streaming.
struct IngestSums {
    ingest::IngestStats total;
    std::chrono::nanoseconds elapsed{0};
    ingest::LatencyHistogram::Snapshot latency;
};

// What the tally holds, into `s`; the ingest sums into `sums`.
void readTotals(const SessionTotals& t, EngineStats& s, IngestSums& sums) {
    s.sessions = t.sessions;
    sums.total = t.finished;
    sums.total += t.current.stats;
    sums.elapsed = t.finishedElapsed + t.current.elapsed;
    sums.latency = t.finishedLatency;
    for (std::size_t i = 0; i < sums.latency.counts.size(); ++i) sums.latency.counts[i] += t.current.latency.counts[i];
    sums.latency.total += t.current.latency.total;
    s.laser = laserHealth(t.finishedLaser, t.current.laser);
    s.link.malformedControlMessages = t.finishedMalformed + t.current.control.malformed;
    s.link.recentRejections = t.lastRejections;
    s.link.device = t.linkDevice;
    s.link.description = t.linkDescription;
    s.selfTestBlock = t.joinedSelfTestBlocks();
    s.selfTest = t.selfTestUnderWay;
    if (s.selfTest.step == "link BER" && t.selfTestPlannedBits > 0) {
        const auto bits = static_cast<double>(t.selfTestProgress.patterns.bitsChecked);
        s.selfTest.fraction = std::min(1.0, bits / static_cast<double>(t.selfTestPlannedBits));
        s.selfTest.detail = fmt::format("{:.3g} of {:.3g} bits compared", bits, static_cast<double>(t.selfTestPlannedBits));
    }
    s.framesRecorded = t.recordedBefore;  // the recording under way is added by the caller
    s.framesRecordRefused = t.refusedBefore;
    s.framesRecordSkipped = t.skippedBefore;
}

// The session's front end as it reports now, or as it last reported in the session that ended.
void readFrontEnd(const SessionTotals& t, FrontEndHealth& f) {
    const auto& current = t.current;
    const bool live = current.frontEnd.framesAcquired > 0 || current.frontEnd.state != transport::FrontEndState::Idle;
    const auto& reported = live ? current.frontEnd : t.lastFrontEndStatus;
    f.shotsFired = reported.shotsFired;
    f.shotsMissed = reported.shotsMissed;
    f.shotsLate = reported.shotsLate;
    if (live) {
        f.state = frontEndStateName(current.frontEnd.state);
        f.framesAcquired = current.frontEnd.framesAcquired;
        f.framesDropped = current.frontEnd.framesDropped;
        f.temperatureC = current.frontEnd.temperatureMilliC / 1000.0;
    }
    f.clockExchanges = current.clock.exchanges;
    f.clockOffsetUs = static_cast<double>(current.clock.offsetNs) / 1e3;
    f.clockPathDelayUs = static_cast<double>(current.clock.pathDelayNs) / 1e3;
    f.serial = t.frontEndIdentity.first;
    f.firmware = t.frontEndIdentity.second;
    f.errorReports = t.frontEndErrors;
    f.lastError = t.lastFrontEndError;
}

// The link's counters and rates from the ingest sums.
void readIngest(const IngestSums& sums, EngineStats& s) {
    const auto& total = sums.total;
    s.framesDelivered = total.framesDelivered;
    s.framesIncomplete = total.framesIncomplete;
    s.framesMissing = total.framesMissing;
    s.framesDroppedNoBuffer = total.framesDroppedNoBuffer;
    s.crcErrors = total.payloadCrcErrors;
    s.headerErrors = total.headerErrors;
    s.bytes = total.bytesOk;
    s.link.blocksOk = total.blocksOk;
    s.link.lengthMismatches = total.lengthMismatches;
    s.link.immediateMismatches = total.immediateMismatches;
    s.link.completionErrors = total.completionErrors;
    s.link.creditViolations = total.creditViolations;
    s.link.sequenceGaps = total.sequenceGaps;
    s.link.duplicates = total.duplicates;
    s.link.reordered = total.reordered;
    s.link.lateBlocks = total.lateBlocks;
    s.link.patternBitsChecked = total.patterns.bitsChecked;
    s.link.patternBitErrors = total.patterns.bitErrors;
    s.link.patternLockLosses = total.patterns.lockLosses;
    s.link.patternBursts = total.patterns.bursts;
    s.link.patternLongestBurstBits = total.patterns.longestBurstBits;
    s.link.latencyP50Us = sums.latency.percentile(0.5) / 1e3;
    s.link.latencyP99Us = sums.latency.percentile(0.99) / 1e3;
    s.link.latencyP999Us = sums.latency.percentile(0.999) / 1e3;
    s.streamingSeconds = std::chrono::duration<double>(sums.elapsed).count();
    s.throughputGbps = s.streamingSeconds > 0 ? static_cast<double>(total.bytesOk) * 8 / s.streamingSeconds / 1e9 : 0;
}

}  // namespace

EngineStats Engine::Impl::snapshot() const {
    EngineStats s;
    s.state = state.load();
    IngestSums sums;
    tally.read([&](const SessionTotals& t) {
        s.steadyNs =
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
        readTotals(t, s, sums);
        readFrontEnd(t, s.frontEnd);
        // Read under the lock the rx thread's progress takes, so a reader never sees a display or
        // recording count ahead of a session's total that ended between two reads.
        s.framesDisplayed = display->displayed();
        s.displaySkipped = display->skipped();
        s.imagerSeconds = display->imagerSeconds();
        s.imagedFrames = display->imagedFrames();
        s.imagingFailures = display->imagingFailures();
        s.laser.shown = shots->displayed();
        s.laser.dark = shots->darkShots() + display->darkShots();
        if (auto recorder = recording.current()) {
            s.recording = true;
            s.framesRecorded += recorder->framesRecorded();
            s.framesRecordRefused += recorder->framesRefused();
            s.framesRecordSkipped += recorder->framesSkipped();
        }
    });
    s.threads = threadCpuTimes();  // /proc, outside the lock
    s.imager = display->imagerName();
    if (s.imagedFrames > 0) s.imagerMsPerFrame = 1e3 * s.imagerSeconds / static_cast<double>(s.imagedFrames);
    readIngest(sums, s);
    s.displayFps = s.streamingSeconds > 0 ? static_cast<double>(s.framesDisplayed) / s.streamingSeconds : 0;
    const auto latency = display->latency();
    s.latencyP50Us = latency.percentile(0.5) / 1e3;
    s.latencyP99Us = latency.percentile(0.99) / 1e3;
    const auto shotLatency = dualMode ? shots->shotLatency() : display->shotLatency();
    s.laser.shotToShownP50Ms = shotLatency.percentile(0.5) / 1e6;
    s.laser.shotToShownP99Ms = shotLatency.percentile(0.99) / 1e6;
    if (backends.clusterFeed) {  // a cluster's display host: its hosts beamform, the feed joins
        s.cluster = backends.clusterFeed->health();
        s.imager = "cluster";
    }
    return s;
}

}  // namespace sonolink::engine
