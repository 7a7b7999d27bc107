// StreamSession: one acquisition session on a link, from the host's side: accept the front
// end, advertise the ring, configure it (ConfigureAck sizes frame assembly), start, and run
// ingest while watching the control plane (status heartbeats, shot reports, errors, a lost peer,
// the front end's clock asked once a second), sending dual mode's laser Triggers ahead of time
// on the front end's clock
// until the front end has sent its frame limit or the caller stops it. The engine runs it whole
// on its rx thread. Thread contract: one thread; ingest().stats() may be read from others.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/ingest/clock_offset.h"
#include "sonolink/ingest/ingest_engine.h"
#include "sonolink/ingest/laser_schedule.h"
#include "sonolink/transport/link.h"

namespace sonolink::ingest {

struct SessionOptions {
    transport::Configure configure;
    std::chrono::milliseconds acceptTimeout{10'000};
    std::chrono::milliseconds replyTimeout{10'000};  // Configure -> ConfigureAck (pre-generation)
    IngestOptions ingest;                            // maxBlocksPerFrame comes from the front end
    // The front end's own error reports while streaming (on the session's thread; copy and return).
    std::function<void(const transport::ErrorReport&)> onFrontEndError;
};

struct SessionSummary {
    IngestStats stats;
    transport::StatusReport frontEnd;  // the front end's last status (its own counts)
    LaserCounts laser;                 // laser shots scheduled and what became of them
    transport::ControlStats control;   // control messages received / rejected as malformed
    ClockOffset clock;                 // the front end's clock against the host's (TimeSync once a second)
    std::chrono::nanoseconds elapsed{0};
    LatencyHistogram::Snapshot latency;   // block written -> frame ready
    std::vector<std::string> rejections;  // the last blocks rejected, described (accounting() only: run() allocates nothing)
};

class StreamSession {
public:
    static constexpr std::chrono::seconds kClockSyncEvery{1};
    [[nodiscard]] static Result<std::unique_ptr<StreamSession>> open(transport::Link& link, SessionOptions options);

    [[nodiscard]] IngestEngine& ingest() noexcept { return *ingest_; }
    [[nodiscard]] const transport::LinkInfo& linkInfo() const noexcept { return info_; }
    [[nodiscard]] const transport::ConfigureAck& layout() const noexcept { return ack_; }
    // The shots scheduled and reported (on the session's thread: from a FrameSink, say).
    [[nodiscard]] const LaserSchedule& laser() const noexcept { return laser_; }

    // Starts streaming frameLimit frames (0 = until stop) and runs until they are all accounted
    // for, stop is set, or the link fails (the error says why: front end lost, protocol error).
    // progress is called about every 200 ms.
    [[nodiscard]] Result<SessionSummary> run(std::uint32_t frameLimit, const std::atomic<bool>& stop,
                                             const std::function<void(const SessionSummary&)>& progress = {});

    // Everything counted so far, also after run() failed: the ingest counters as they are now,
    // the latency, the recent rejections and the front end's last status.
    [[nodiscard]] SessionSummary accounting() const;

private:
    StreamSession(transport::Link& link, transport::LinkInfo info, transport::ConfigureAck ack, std::unique_ptr<IngestEngine> ingest,
                  std::uint32_t laserRateMilliHz);
    Status sendDueTriggers();
    // run()'s end at the front end's final status: drained, finished, summed up.
    Result<SessionSummary> endSession(const transport::StatusReport& status, std::chrono::steady_clock::time_point start);

    transport::Link& link_;
    transport::LinkInfo info_;
    transport::ConfigureAck ack_;
    std::unique_ptr<IngestEngine> ingest_;
    SessionSummary summary_;
    LaserSchedule laser_;
    // Every laser shot's frame, its timestamp held against the schedule (first of the sinks).
    struct ShotStamps final : FrameSink {
        explicit ShotStamps(LaserSchedule& schedule) : laser(schedule) {}
        void onFrame(const FrameRef& frame) noexcept override {
            if (frame->isPhotoacoustic()) laser.checkShotFrame(frame->timestampNs());
        }
        LaserSchedule& laser;
    } shotStamps_{laser_};
    std::function<void(const transport::ErrorReport&)> onFrontEndError_;
};

}  // namespace sonolink::ingest
