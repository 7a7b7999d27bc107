// SessionTally: the statistics that outlive a link session: the ingest counters of the sessions
// that ended and of the one streaming, the link and front end as last opened, the recordings'
// totals and the start-up self-test's progress and blocks. Owns them and their lock; callers
// reach them through its methods, or update()/read() for a few lines done under the lock.
// Thread contract: any thread (the rx thread reports progress, ctl the rest, stats() reads);
// no other lock is taken under it but the display's and the recording tap's (their counts).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sonolink/engine/engine_stats.h"
#include "sonolink/ingest/stream_session.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

struct SessionTotals {
    std::uint64_t sessions = 0;      // begun; under the lock, so a snapshot's count matches its time
    ingest::IngestStats finished;    // sessions that ended
    ingest::SessionSummary current;  // the streaming session's last progress
    std::chrono::nanoseconds finishedElapsed{0};
    ingest::LatencyHistogram::Snapshot finishedLatency;
    std::uint64_t finishedMalformed = 0;
    ingest::LaserCounts finishedLaser;           // shots of the sessions that ended (their counts only)
    transport::StatusReport lastFrontEndStatus;  // the front end's final status in the last session that ended
    std::vector<std::string> lastRejections;
    std::string linkDevice;
    std::string linkDescription;
    std::pair<std::string, std::string> frontEndIdentity;  // serial, firmware of the last session opened
    std::uint64_t recordedBefore = 0;                      // frames of the recordings that ended
    std::uint64_t refusedBefore = 0;
    std::uint64_t skippedBefore = 0;
    std::uint64_t frontEndErrors = 0;
    std::string lastFrontEndError;
    // Why streaming is refused, by the failed self-test step that blocks it (in the order they
    // failed); empty: it is not.
    std::vector<std::pair<std::string, std::string>> selfTestBlocks;
    ingest::IngestStats selfTestProgress;   // the running link BER test's counts
    SelfTestProgress selfTestUnderWay;      // the step under way
    std::uint64_t selfTestPlannedBits = 0;  // the link BER test's plan

    [[nodiscard]] std::string joinedSelfTestBlocks() const;  // "" when nothing blocks streaming
};

class SessionTally {
public:
    std::uint64_t beginSession() EXCLUDES(mutex_);                           // its number
    void progress(const ingest::SessionSummary& progress) EXCLUDES(mutex_);  // the streaming session's
    void account(const ingest::SessionSummary& accounted) EXCLUDES(mutex_);  // a session that ends, before its thread does
    void frontEndError(std::string text) EXCLUDES(mutex_);
    void underWay(SelfTestProgress step) EXCLUDES(mutex_);
    void clearSelfTestBlocks() EXCLUDES(mutex_);
    [[nodiscard]] std::string streamingBlock() const EXCLUDES(mutex_);

    // `f(SessionTotals&)` under the lock; what it returns.
    template <typename F> decltype(auto) update(F&& f) EXCLUDES(mutex_) {
        MutexLock lock(mutex_);
        return std::forward<F>(f)(totals_);
    }
    template <typename F> decltype(auto) read(F&& f) const EXCLUDES(mutex_) {
        MutexLock lock(mutex_);
        return std::forward<F>(f)(totals_);
    }

private:
    mutable Mutex mutex_;
    SessionTotals totals_ GUARDED_BY(mutex_);
};

}  // namespace sonolink::engine
