#include "session_tally.h"

namespace sonolink::engine {

std::string SessionTotals::joinedSelfTestBlocks() const {
    std::string joined;
    for (const auto& [step, why] : selfTestBlocks) joined += (joined.empty() ? "" : "; ") + why;
    return joined;
}

std::uint64_t SessionTally::beginSession() {
    MutexLock lock(mutex_);
    return ++totals_.sessions;
}

void SessionTally::progress(const ingest::SessionSummary& progress) {
    MutexLock lock(mutex_);
    totals_.current = progress;
}

void SessionTally::account(const ingest::SessionSummary& accounted) {
    MutexLock lock(mutex_);
    auto& t = totals_;
    t.finished += accounted.stats;
    t.finishedElapsed += accounted.elapsed;
    for (std::size_t i = 0; i < accounted.latency.counts.size(); ++i) t.finishedLatency.counts[i] += accounted.latency.counts[i];
    t.finishedLatency.total += accounted.latency.total;
    t.finishedLaser.scheduled += accounted.laser.scheduled;
    t.finishedLaser.fired += accounted.laser.fired;
    t.finishedLaser.missed += accounted.laser.missed;
    t.finishedLaser.late += accounted.laser.late;
    t.finishedLaser.shotFrames += accounted.laser.shotFrames;
    t.lastFrontEndStatus = accounted.frontEnd;
    if (accounted.laser.fired > 0) {  // the last session's energies, until the next fires
        t.finishedLaser.lastEnergyMicroJ = accounted.laser.lastEnergyMicroJ;
        t.finishedLaser.meanEnergyMicroJ = accounted.laser.meanEnergyMicroJ;
        t.finishedLaser.energyM2 = accounted.laser.energyM2;
        t.finishedLaser.worstFireErrorNs = accounted.laser.worstFireErrorNs;
        t.finishedLaser.worstStampErrorNs = accounted.laser.worstStampErrorNs;
    }
    t.finishedMalformed += accounted.control.malformed;
    t.lastRejections = accounted.rejections;
    t.current = {};
}

void SessionTally::frontEndError(std::string text) {
    MutexLock lock(mutex_);
    ++totals_.frontEndErrors;
    totals_.lastFrontEndError = std::move(text);
}

void SessionTally::underWay(SelfTestProgress step) {
    MutexLock lock(mutex_);
    totals_.selfTestUnderWay = std::move(step);
}

void SessionTally::clearSelfTestBlocks() {
    MutexLock lock(mutex_);
    totals_.selfTestBlocks.clear();
}

std::string SessionTally::streamingBlock() const {
    MutexLock lock(mutex_);
    return totals_.joinedSelfTestBlocks();
}

}  // namespace sonolink::engine
