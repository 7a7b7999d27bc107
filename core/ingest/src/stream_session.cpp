#include "sonolink/ingest/stream_session.h"

#include <fmt/format.h>

#include "sonolink/util/log.h"

namespace sonolink::ingest {
namespace {
log::Category& sessionLog() { return log::category("ingest"); }
}  // namespace

Result<std::unique_ptr<StreamSession>> StreamSession::open(transport::Link& link, SessionOptions options) {
    auto info = link.accept(options.acceptTimeout);
    if (!info) return fail(std::move(info.error()));
    log::info(sessionLog(), "front end {} (firmware {}), {}, protocol {}", info->peerHello.serial, info->peerHello.firmware, info->peer, info->protocolVersion);
    if (auto advertised = link.advertiseRing(); !advertised) return fail(std::move(advertised.error()));
    if (auto sent = link.sendControl(options.configure); !sent) return fail(std::move(sent.error()));
    const auto deadline = std::chrono::steady_clock::now() + options.replyTimeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return fail(ErrorCode::DeadlineExceeded, "the front end did not acknowledge Configure in time");
        auto reply = link.receiveControl(left);
        if (!reply) return fail(std::move(reply.error()).addContext("configuring the front end"));
        if (!*reply) continue;
        if (const auto* error = std::get_if<transport::ErrorReport>(&**reply)) {
            return fail(ErrorCode::FailedPrecondition, "the front end refused the configuration: " + error->text);
        }
        if (const auto* ack = std::get_if<transport::ConfigureAck>(&**reply)) {
            options.ingest.maxBlocksPerFrame = ack->blocksPerFrame;
            auto ingest = IngestEngine::create(link, options.ingest);
            if (!ingest) return fail(std::move(ingest.error()));
            auto session =
                std::unique_ptr<StreamSession>(new StreamSession(link, std::move(*info), *ack, std::move(*ingest), options.configure.laserRateMilliHz));
            session->onFrontEndError_ = std::move(options.onFrontEndError);
            return session;
        }
        // Status heartbeats may come first; anything else waits for the session.
    }
}

StreamSession::StreamSession(transport::Link& link, transport::LinkInfo info, transport::ConfigureAck ack, std::unique_ptr<IngestEngine> ingest,
                             std::uint32_t laserRateMilliHz)
    : link_(link), info_(std::move(info)), ack_(ack), ingest_(std::move(ingest)), laser_(laserRateMilliHz) {
    ingest_->addSink(shotStamps_);
}

// Dual mode: every Trigger due, once the front end's clock is known (the first TimeSync answered).
Status StreamSession::sendDueTriggers() {
    if (laser_.periodNs() == 0 || summary_.clock.exchanges == 0) return {};
    const auto frontEndNow = static_cast<std::uint64_t>(static_cast<std::int64_t>(hostRealtimeNs()) + summary_.clock.offsetNs);
    while (const auto trigger = laser_.due(frontEndNow)) {
        if (auto sent = link_.sendControl(*trigger); !sent) return sent;
    }
    summary_.laser = laser_.counts();
    return {};
}

Result<SessionSummary> StreamSession::run(std::uint32_t frameLimit, const std::atomic<bool>& stop, const std::function<void(const SessionSummary&)>& progress) {
    if (auto started = link_.sendControl(transport::Start{frameLimit}); !started) return fail(std::move(started.error()));
    const auto start = std::chrono::steady_clock::now();
    auto lastControl = start, lastProgress = start, lastSync = start - kClockSyncEvery;
    bool stopSent = false;
    while (true) {
        if (auto polled = ingest_->poll(std::chrono::milliseconds(1)); !polled) return fail(std::move(polled.error()));
        const auto now = std::chrono::steady_clock::now();
        if (!stopSent) {
            if (auto sent = sendDueTriggers(); !sent) return fail(std::move(sent.error()).addContext("scheduling laser shots"));
        }
        if (stop.load(std::memory_order_relaxed) && !stopSent) {
            if (auto sent = link_.sendControl(transport::Stop{}); !sent) return fail(std::move(sent.error()));
            stopSent = true;
        }
        // The control plane every 5 ms, and at every turn while a TimeSync is out: its reply's
        // arrival time (t4) is only as good as how soon it is read.
        if (now - lastControl < std::chrono::milliseconds(5) && summary_.clock.pendingT1Ns == 0) continue;
        lastControl = now;
        // The front end's clock, once a second (an unanswered exchange is given up for the next).
        if (!stopSent && now - lastSync >= kClockSyncEvery) {
            lastSync = now;
            summary_.clock.pendingT1Ns = hostRealtimeNs();
            if (auto sent = link_.sendControl(transport::TimeSync{summary_.clock.pendingT1Ns, 0, 0}); !sent) return fail(std::move(sent.error()));
        }
        // Control plane: drain what is there.
        while (true) {
            auto message = link_.receiveControl(std::chrono::milliseconds(0));
            if (!message) return fail(std::move(message.error()).addContext("streaming"));
            if (!*message) break;
            if (const auto* status = std::get_if<transport::StatusReport>(&**message)) {
                summary_.frontEnd = *status;
                const bool done =
                    status->state != transport::FrontEndState::Streaming && ((frameLimit != 0 && status->framesAcquired >= frameLimit) || stopSent);
                if (done) return endSession(*status, start);
            } else if (const auto* sync = std::get_if<transport::TimeSync>(&**message)) {
                (void)summary_.clock.answer(*sync, hostRealtimeNs());
            } else if (const auto* shot = std::get_if<transport::ShotReport>(&**message)) {
                if (!laser_.account(*shot)) log::warn(sessionLog(), "shot report for shot {} answers no shot scheduled: not used", shot->shotId);
                summary_.laser = laser_.counts();
            } else if (const auto* error = std::get_if<transport::ErrorReport>(&**message)) {
                log::warn(sessionLog(), "front end reports error {}: {}", error->code, error->text);
                if (onFrontEndError_) onFrontEndError_(*error);
            }
        }
        if (progress && now - lastProgress >= std::chrono::milliseconds(200)) {
            lastProgress = now;
            summary_.stats = ingest_->stats();
            summary_.latency = ingest_->latency();
            summary_.control = link_.controlStats();
            summary_.elapsed = now - start;
            progress(summary_);
        }
    }
}

// The session's end, at the front end's final status: the blocks still queued taken in, every
// pending sequence and frame resolved, and the summary completed.
Result<SessionSummary> StreamSession::endSession(const transport::StatusReport& status, std::chrono::steady_clock::time_point start) {
    // Everything written before the final status is in the queue already.
    while (true) {
        auto drained = ingest_->poll(std::chrono::microseconds(0));
        if (!drained) return fail(std::move(drained.error()));
        if (*drained == 0) break;
    }
    ingest_->finish(status.blocksSent, status.framesAcquired);
    laser_.withdrawPending();
    summary_.laser = laser_.counts();
    summary_.stats = ingest_->stats();
    summary_.latency = ingest_->latency();
    summary_.control = link_.controlStats();
    summary_.elapsed = std::chrono::steady_clock::now() - start;
    return summary_;
}

SessionSummary StreamSession::accounting() const {
    auto summary = summary_;
    summary.stats = ingest_->stats();
    summary.latency = ingest_->latency();
    summary.control = link_.controlStats();
    summary.rejections.clear();
    for (const auto& r : ingest_->recentRejections()) summary.rejections.push_back(r.describe());
    return summary;
}

}  // namespace sonolink::ingest
