#include "sonolink/ingest/laser_schedule.h"

#include <cmath>
#include <cstdlib>

namespace sonolink::ingest {

double LaserCounts::energySdMicroJ() const noexcept { return fired < 2 ? 0.0 : std::sqrt(energyM2 / static_cast<double>(fired - 1)); }

LaserSchedule::LaserSchedule(std::uint32_t rateMilliHz, std::chrono::nanoseconds lead)
    : periodNs_(rateMilliHz == 0 ? 0 : 1'000'000'000'000ull / rateMilliHz), leadNs_(static_cast<std::uint64_t>(lead.count())) {}

std::optional<transport::Trigger> LaserSchedule::due(std::uint64_t frontEndNowNs) noexcept {
    if (periodNs_ == 0) return std::nullopt;
    if (firstNs_ == 0) firstNs_ = frontEndNowNs + leadNs_;
    while (true) {
        const std::uint64_t fireNs = firstNs_ + std::uint64_t(next_) * periodNs_;
        if (fireNs > frontEndNowNs + leadNs_) return std::nullopt;
        auto& record = history_[next_ % kHistory];
        record = ShotRecord{next_, 0, fireNs, 0, 0, false, transport::ShotOutcome::Late};
        const auto shotId = next_++;
        if (fireNs <= frontEndNowNs) {  // its time went by before the host could send it
            record.reported = true;
            ++counts_.late;
            ++counts_.lateBeforeSending;
            continue;
        }
        ++counts_.scheduled;
        return transport::Trigger{0, shotId, fireNs};
    }
}

bool LaserSchedule::account(const transport::ShotReport& report) noexcept {
    auto& record = history_[report.shotId % kHistory];
    if (periodNs_ == 0) record = ShotRecord{report.shotId, 0, report.firedNs, 0, 0, false, report.outcome};  // the front end times its shots
    if ((periodNs_ != 0 && report.shotId >= next_) || record.shotId != report.shotId || record.reported) {
        ++counts_.unmatched;
        return false;
    }
    record.reported = true;
    record.outcome = report.outcome;
    switch (report.outcome) {
        case transport::ShotOutcome::Missed: ++counts_.missed; return true;
        case transport::ShotOutcome::Late: ++counts_.late; return true;
        case transport::ShotOutcome::Fired: break;
    }
    record.frameId = report.frameId;
    record.firedNs = report.firedNs;
    record.energyMicroJ = report.energyMicroJ;
    ++counts_.fired;
    counts_.lastEnergyMicroJ = report.energyMicroJ;
    const double delta = report.energyMicroJ - counts_.meanEnergyMicroJ;
    counts_.meanEnergyMicroJ += delta / static_cast<double>(counts_.fired);
    counts_.energyM2 += delta * (report.energyMicroJ - counts_.meanEnergyMicroJ);
    const auto error = std::llabs(static_cast<long long>(report.firedNs - record.scheduledNs));
    counts_.worstFireErrorNs = std::max<std::int64_t>(counts_.worstFireErrorNs, error);
    return true;
}

void LaserSchedule::checkShotFrame(std::uint64_t timestampNs) noexcept {
    ++counts_.shotFrames;
    if (periodNs_ == 0 || firstNs_ == 0) return;
    const double k = std::round((static_cast<double>(timestampNs) - static_cast<double>(firstNs_)) / static_cast<double>(periodNs_));
    const auto nearest = static_cast<std::int64_t>(firstNs_) + static_cast<std::int64_t>(std::max(0.0, k)) * static_cast<std::int64_t>(periodNs_);
    counts_.worstStampErrorNs = std::max<std::int64_t>(counts_.worstStampErrorNs, std::llabs(static_cast<std::int64_t>(timestampNs) - nearest));
}

void LaserSchedule::withdrawPending() noexcept {
    counts_.withdrawn += counts_.pending();
    for (auto& record : history_) record.reported = true;
}

std::optional<ShotRecord> LaserSchedule::shotOfFrame(std::uint32_t frameId) const noexcept {
    for (const auto& record : history_) {
        if (record.reported && record.outcome == transport::ShotOutcome::Fired && record.frameId == frameId && record.firedNs != 0) return record;
    }
    return std::nullopt;
}

}  // namespace sonolink::ingest
