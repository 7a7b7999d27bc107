// LaserSchedule: the host's side of dual-mode laser shots. It schedules shot k at first + k /
// rate on the front end's PTP clock and hands out each Trigger a lead time ahead of its fire
// time (a shot whose time passed before it could go is counted late, not sent); it accounts the
// front end's ShotReports (fired, missed, late; the pulse energies; how far each pulse left from
// its scheduled time) and remembers the recent shots, so a photoacoustic frame can be matched
// to the shot it carries. At rate 0 (photoacoustic-only: the front end times its own shots) it
// only accounts. Thread contract: one thread (the session's).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>

#include "sonolink/transport/protocol/control_messages.h"

namespace sonolink::ingest {

struct LaserCounts {
    std::uint64_t scheduled = 0;  // Triggers sent
    std::uint64_t fired = 0;
    std::uint64_t missed = 0;     // the front end saw no pulse
    std::uint64_t late = 0;       // not fired: the trigger was late (host or front end side)
    std::uint64_t unmatched = 0;  // reports for no shot scheduled (or a second for one), not used
    std::uint32_t lastEnergyMicroJ = 0;
    double meanEnergyMicroJ = 0;  // of the fired shots (running mean and deviation)
    double energyM2 = 0;
    std::uint64_t lateBeforeSending = 0;  // of late: the host's own (never sent)
    std::uint64_t withdrawn = 0;          // sent, then the session stopped before their time
    std::int64_t worstFireErrorNs = 0;    // largest |fired - scheduled|
    std::uint64_t shotFrames = 0;         // photoacoustic frames that arrived (dual mode)
    std::int64_t worstStampErrorNs = 0;   // largest |a shot frame's timestamp - its scheduled fire time|
    [[nodiscard]] double energySdMicroJ() const noexcept;
    // Sent and not yet answered.
    [[nodiscard]] std::uint64_t pending() const noexcept { return scheduled - fired - missed - (late - lateBeforeSending) - withdrawn; }
};

struct ShotRecord {
    std::uint32_t shotId = 0;
    std::uint32_t frameId = 0;
    std::uint64_t scheduledNs = 0;
    std::uint64_t firedNs = 0;
    std::uint32_t energyMicroJ = 0;
    bool reported = false;
    transport::ShotOutcome outcome = transport::ShotOutcome::Fired;
};

class LaserSchedule {
public:
    static constexpr std::size_t kHistory = 4096;
    explicit LaserSchedule(std::uint32_t rateMilliHz, std::chrono::nanoseconds lead = std::chrono::milliseconds(100));

    // The next Trigger to send while the front end's clock reads frontEndNowNs; none while the
    // next shot is further than the lead ahead. Call until it returns none.
    [[nodiscard]] std::optional<transport::Trigger> due(std::uint64_t frontEndNowNs) noexcept;
    // False for a report that answers no shot sent (counted in unmatched).
    bool account(const transport::ShotReport& report) noexcept;
    // The session stopped and the front end said its last: the shots still unanswered were
    // withdrawn (a front end drops its pending shots at Stop).
    void withdrawPending() noexcept;
    [[nodiscard]] const LaserCounts& counts() const noexcept { return counts_; }
    [[nodiscard]] std::uint64_t periodNs() const noexcept { return periodNs_; }
    // A photoacoustic frame arrived with this timestamp: how far it is from the nearest fire time
    // scheduled (shots are on a fixed grid, so no report is needed to find it), counted.
    void checkShotFrame(std::uint64_t timestampNs) noexcept;
    // The fired shot frameId carries, while it is among the last kHistory shots.
    [[nodiscard]] std::optional<ShotRecord> shotOfFrame(std::uint32_t frameId) const noexcept;

private:
    std::uint64_t periodNs_;
    std::uint64_t leadNs_;
    std::uint64_t firstNs_ = 0;  // shot 0's fire time (0: not yet placed)
    std::uint32_t next_ = 0;     // the next shot to schedule
    LaserCounts counts_;
    std::array<ShotRecord, kHistory> history_{};  // shot id % kHistory
};

}  // namespace sonolink::ingest
