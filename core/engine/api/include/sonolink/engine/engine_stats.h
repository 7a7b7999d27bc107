// The engine's statistics as the facade shows them: cumulative counters and times with the
// moment they were read, so any number of readers may poll at any rate without disturbing one
// another (stats() keeps no state between calls); rates() turns two snapshots into rates.
// Thread contract: plain values and a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/engine/engine_types.h"
#include "sonolink/util/thread_cpu.h"

namespace sonolink::engine {

// The front end's health, from its status reports and error reports (the last session's).
struct FrontEndHealth {
    std::string serial;  // as its Hello said, of the last session opened ("" before)
    std::string firmware;
    std::string state;                 // "idle", "streaming", ... ("" before the first report)
    std::uint64_t framesAcquired = 0;  // its own count
    std::uint64_t framesDropped = 0;   // whole frames it dropped for want of a credit
    std::uint64_t shotsFired = 0;      // laser shots by its own count (since it started)
    std::uint64_t shotsMissed = 0;
    std::uint64_t shotsLate = 0;
    double temperatureC = 0;
    // Its clock against the host's (PTP should hold both to within microseconds), from the
    // session's TimeSync exchanges, once a second: the newest one's offset and one-way path delay.
    std::uint64_t clockExchanges = 0;  // this session's (0: not measured yet)
    double clockOffsetUs = 0;          // front end minus host
    double clockPathDelayUs = 0;
    std::uint64_t errorReports = 0;  // error reports it sent (all sessions)
    std::string lastError;           // the last one's text
};

// The link's own accounting beyond frames (all sessions): every block intact, rejected with its
// reason, duplicated, late, or missing; control messages; test-pattern bits compared (BER).
struct LinkCounters {
    std::uint64_t blocksOk = 0;
    std::uint64_t lengthMismatches = 0;
    std::uint64_t immediateMismatches = 0;
    std::uint64_t completionErrors = 0;
    std::uint64_t creditViolations = 0;
    std::uint64_t sequenceGaps = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t reordered = 0;
    std::uint64_t lateBlocks = 0;
    std::uint64_t malformedControlMessages = 0;
    std::uint64_t patternBitsChecked = 0;  // test-pattern payloads, CRC-good or not, bit by bit
    std::uint64_t patternBitErrors = 0;
    std::uint64_t patternLockLosses = 0;  // the pattern lost (a quarter of 256 bits wrong) and found again
    std::uint64_t patternBursts = 0;      // runs of bit errors less than 32 bits apart
    std::uint64_t patternLongestBurstBits = 0;
    double latencyP50Us = 0;  // block written -> frame assembled
    double latencyP99Us = 0;
    double latencyP999Us = 0;
    std::string device;                         // the RDMA device of the last session ("" for sim)
    std::string description;                    // its capabilities, in one line
    std::vector<std::string> recentRejections;  // the last session's last rejected blocks, described
};

// Laser shots (dual mode's scheduled ones, photoacoustic-only's self-timed ones): the counts of
// all sessions; the pulse energies of the last session's fired shots.
struct LaserHealth {
    std::uint64_t scheduled = 0;  // triggers sent (dual mode)
    std::uint64_t fired = 0;
    std::uint64_t missed = 0;  // no pulse seen: never imaged
    std::uint64_t late = 0;    // trigger late: not fired
    double lastEnergyMj = 0;
    double meanEnergyMj = 0;
    double energySpreadPercent = 0;  // relative standard deviation
    double worstFireErrorUs = 0;     // largest |fired - scheduled| (dual mode)
    std::uint64_t frames = 0;        // shot frames that arrived
    double worstStampErrorUs = 0;    // largest |a shot frame's timestamp - its scheduled fire time| (dual mode)
    std::uint64_t shown = 0;         // shots imaged and published (dual mode)
    std::uint64_t dark = 0;          // frames that came with no pulse seen: not imaged
    double shotToShownP50Ms = 0;     // the pulse (front end clock) -> its picture published
    double shotToShownP99Ms = 0;
};

// The start-up self-test under way: the step and how far it has come (a wizard's progress bar).
struct SelfTestProgress {
    std::string step;     // as its SelfTestStep will name it; empty: no self-test runs
    double fraction = 0;  // of that step, 0 to 1 (0 while a step cannot tell)
    std::string detail;   // what runs, and what the fraction counts
};

// Several acquisition hosts (docs/cluster.md), seen from the display host: each host's link
// health, partials and their latency, and the frames joined from them.
struct ClusterHostHealth {
    std::string name;
    std::string address;   // where it connected from ("" before it did)
    std::string state;     // waiting, joined, lost, refused, done
    int firstChannel = 0;  // its channels of the whole array, [first, last)
    int lastChannel = 0;
    std::uint64_t partials = 0;       // joined into frames
    std::uint64_t late = 0;           // came after their frame had gone
    std::uint64_t missing = 0;        // frames that went without its part
    std::uint64_t bytesReceived = 0;  // partials: header and values
    std::uint64_t losses = 0;         // times it was seen lost
    double partialLatencyMs = 0;      // beamformed on the host -> in here, the newest
    double heardAgoMs = 0;            // since anything came from it
    std::string lastProblem;          // why it was lost or refused ("" none)
};
struct ClusterHealth {
    std::string file;  // the cluster file ("": this station is no display host of a cluster)
    std::uint32_t epoch = 0;
    std::uint64_t framesComplete = 0;
    std::uint64_t framesIncomplete = 0;  // shown flagged "incomplete aperture: host N"
    std::uint64_t framesDropped = 0;     // lacking a host, dropped by policy
    std::uint64_t framesNeverSeen = 0;   // triggers no host sent a part for
    std::uint64_t partsLate = 0;         // came after their frame had gone
    std::uint64_t partsDuplicate = 0;
    std::uint64_t partsRefused = 0;  // of another plan, epoch or shape
    double addedLatencyMsP50 = 0;    // last partial in -> image ready
    double addedLatencyMsP99 = 0;
    std::vector<ClusterHostHealth> hosts;
};

struct EngineStats {
    std::uint64_t steadyNs = 0;  // steady clock when read
    EngineState state = EngineState::Idle;
    std::string selfTestBlock;          // why streaming is refused (a failed start-up self-test); empty: it is not
    SelfTestProgress selfTest;          // the self-test step under way (state SelfTest)
    std::uint64_t framesDelivered = 0;  // by ingest, intact
    std::uint64_t framesIncomplete = 0;
    std::uint64_t framesMissing = 0;
    std::uint64_t framesDroppedNoBuffer = 0;
    std::uint64_t crcErrors = 0;
    std::uint64_t headerErrors = 0;
    std::uint64_t bytes = 0;
    double streamingSeconds = 0;        // time spent streaming, all sessions
    std::uint64_t framesDisplayed = 0;  // beamformed and published
    std::uint64_t displaySkipped = 0;   // replaced by a newer frame before the beamformer took them (lossy by design)
    std::uint64_t framesRecorded = 0;
    std::uint64_t framesRecordRefused = 0;
    std::uint64_t framesRecordSkipped = 0;  // gaps in the recordings' frame ids (frames that never arrived)
    bool recording = false;
    double displayFps = 0;  // averages over streamingSeconds
    double throughputGbps = 0;
    double latencyP50Us = 0;  // last block written -> display product ready
    double latencyP99Us = 0;
    std::uint64_t sessions = 0;          // link sessions (reconnects add one)
    std::vector<ThreadCpuTime> threads;  // CPU seconds per named thread since it started
    std::string imager;                  // "CPU" or "GPU": who beamforms the display
    double imagerSeconds = 0;            // time the imager has spent on frames
    std::uint64_t imagedFrames = 0;
    std::uint64_t imagingFailures = 0;  // frames the imager could not image (counted, reported once)
    double imagerMsPerFrame = 0;        // mean time to image one frame
    FrontEndHealth frontEnd;
    LinkCounters link;
    LaserHealth laser;
    ClusterHealth cluster;  // a display host's acquisition hosts (empty file: none)
};

// What happened between two snapshots of the same engine (earlier first).
struct EngineRates {
    double seconds = 0;
    double deliveredFps = 0;
    double displayedFps = 0;
    double throughputGbps = 0;
    double imagerBusyPercent = 0;       // share of wall time the imager spent on frames
    std::vector<ThreadCpuUse> threads;  // share of one core per named thread
};
[[nodiscard]] EngineRates rates(const EngineStats& earlier, const EngineStats& later);

}  // namespace sonolink::engine
