// FrontEndSimulator's laser shots: the photoacoustic frame's layout and RF, the host's Triggers
// held until their time, each shot fired through the Laser model, reported, and (when it fired)
// sent as a frame scaled by its pulse energy and stamped with its time and energy.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "sonolink/util/crc32c.h"
#include "sonolink/transport/sim/front_end_simulator.h"
#include "sonolink/util/log.h"

namespace sonolink::transport::sim {
namespace {

constexpr std::size_t kShotBuffers = 4;
constexpr std::uint64_t kMaxTriggerLeadNs = 10'000'000'000;  // a trigger further ahead is a host gone wrong
constexpr std::size_t kMaxPendingShots = 4096;

log::Category& shotLog() { return log::category("fe-sim"); }

std::uint64_t frontEndNowNs(std::chrono::steady_clock::time_point runStart, std::uint64_t ptpEpochNs) {
    return ptpEpochNs + static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - runStart).count());
}

// out = source's int16 samples (little-endian) times gain, rounded and clipped as an ADC would.
void scaleSamples(std::span<const std::byte> source, double gain, std::span<std::byte> out) {
    for (std::size_t i = 0; i + 1 < source.size(); i += 2) {
        std::int16_t v = 0;
        std::memcpy(&v, source.data() + i, 2);
        const auto scaled = static_cast<std::int16_t>(std::clamp<long>(std::lround(v * gain), -32768, 32767));
        std::memcpy(out.data() + i, &scaled, 2);
    }
}

}  // namespace

Status FrontEndSimulator::prepareShots(const Configure& configure) {
    shotLayout_ = {};
    shotSources_.clear();
    shotBuffers_.clear();
    shotCrcs_.clear();
    shotBufferLastWrite_.clear();
    shotBufferFrame_.clear();
    nextShotBuffer_ = 0;
    pendingShots_.clear();
    const bool dual = configure.laserRateMilliHz != 0;
    if (configure.payloadKind != PayloadKind::Rf || (!dual && !configure.photoacoustic)) return {};
    if (configure.photoacoustic) {
        shotLayout_ = layout_;
    } else {
        Configure shot = configure;
        shot.photoacoustic = true;
        shot.laserRateMilliHz = 0;
        auto layout = planFrameLayout(shot, ring_->slotBytes);
        if (!layout) return fail(std::move(layout.error()).addContext("the photoacoustic frame's layout"));
        shotLayout_ = std::move(*layout);
        if (auto loaded = loadShotSources(shot); !loaded) return loaded;
    }
    shotBuffers_.assign(kShotBuffers, std::vector<std::byte>(shotLayout_.frameBytes));
    shotCrcs_.assign(kShotBuffers, {});
    shotBufferLastWrite_.assign(kShotBuffers, 0);
    shotBufferFrame_.assign(kShotBuffers, 0);
    for (const auto& buffer : shotBuffers_) {
        if (auto registered = port_.registerPayloadMemory(buffer); !registered) return registered;
    }
    log::info(shotLog(), "laser: {}, jitter +-{} ns, {} uJ +-{:.0f} %, misfires {}",
              dual ? fmt::format("shots the host schedules, up to {:.1f} Hz", configure.laserRateMilliHz / 1000.0) : std::string("a shot every frame"),
              laser_.model().jitter.count(), laser_.model().energyMicroJ, laser_.model().energySpread * 100,
              laser_.model().missEvery != 0 ? fmt::format("every {} shots", laser_.model().missEvery)
                                            : fmt::format("at probability {}", laser_.model().missProbability));
    return {};
}

// Dual mode: the shots' RF, the phantom's (two frames with noise of their own) or, replaying, the
// recording's (as many as fit the pre-generation budget, in the order recorded).
Status FrontEndSimulator::loadShotSources(const Configure& shot) {
    shotsReplayed_ = false;
    if (!options_.shotSource) {
        shotSources_ = renderRf(shot, shotLayout_, 2);
        return {};
    }
    auto count = options_.shotSource->frameCount(shot, shotLayout_);
    if (!count) return fail(std::move(count.error()).addContext("loading the laser shots to replay"));
    if (*count == 0) return fail(ErrorCode::InvalidArgument, "the replay holds no laser shots");
    const auto fit = std::max<std::size_t>(1, (256u << 20) / std::max<std::size_t>(shotLayout_.frameBytes, 1));
    shotSources_.assign(std::min<std::size_t>(*count, fit), std::vector<std::byte>(shotLayout_.frameBytes));
    for (std::size_t i = 0; i < shotSources_.size(); ++i) {
        if (auto ok = options_.shotSource->readFrame(static_cast<std::uint32_t>(i), shotSources_[i]); !ok) {
            return fail(std::move(ok.error()).addContext(fmt::format("reading laser shot {} to replay", i)));
        }
    }
    shotsReplayed_ = true;
    return {};
}

std::chrono::steady_clock::time_point FrontEndSimulator::steadyAt(std::uint64_t frontEndTimeNs) const noexcept {
    const auto since = static_cast<std::int64_t>(frontEndTimeNs - ptpEpochNs_);
    return runStart_ + std::chrono::nanoseconds(since);
}

Status FrontEndSimulator::acceptTrigger(const Trigger& trigger) {
    if (configure_.laserRateMilliHz == 0 || shotBuffers_.empty()) {
        return port_.sendControl(
            ErrorReport{static_cast<std::uint16_t>(ErrorCode::FailedPrecondition), static_cast<std::uint8_t>(MessageType::Trigger),
                        fmt::format("Trigger for shot {}: not configured for dual mode (no laser rate, or a test pattern)", trigger.shotId)});
    }
    const auto now = frontEndNowNs(runStart_, ptpEpochNs_);
    if (trigger.fireTimeNs > now + kMaxTriggerLeadNs || pendingShots_.size() >= kMaxPendingShots) {  // a host gone wrong: said, not held
        return port_.sendControl(
            ErrorReport{static_cast<std::uint16_t>(ErrorCode::InvalidArgument), static_cast<std::uint8_t>(MessageType::Trigger),
                        fmt::format("Trigger for shot {}: {}", trigger.shotId,
                                    pendingShots_.size() >= kMaxPendingShots ? fmt::format("{} shots are pending already", kMaxPendingShots)
                                                                             : std::string("its fire time is over 10 s ahead"))});
    }
    if (trigger.fireTimeNs <= now) {  // too late to fire on time: not at all
        ++counters_.shotsLate;
        return port_.sendControl(ShotReport{trigger.shotId, 0, ShotOutcome::Late, 0, 0});
    }
    const auto at =
        std::upper_bound(pendingShots_.begin(), pendingShots_.end(), trigger, [](const Trigger& a, const Trigger& b) { return a.fireTimeNs < b.fireTimeNs; });
    pendingShots_.insert(at, trigger);
    return {};
}

Status FrontEndSimulator::fireShot(bool& streaming, const Trigger& trigger) {
    const auto shot = laser_.fire(trigger.shotId, trigger.fireTimeNs);
    if (shot.outcome != ShotOutcome::Fired) {
        ++counters_.shotsMissed;
        return port_.sendControl(ShotReport{trigger.shotId, 0, shot.outcome, 0, 0});
    }
    ++counters_.shotsFired;
    if (auto sent = port_.sendControl(ShotReport{trigger.shotId, frameId_, ShotOutcome::Fired, shot.firedNs, shot.energyMicroJ}); !sent) return sent;
    if (creditsAvailable() < shotLayout_.blocks.size()) {  // the laser does not wait: the frame is dropped
        ++counters_.framesDroppedNoCredit;
        ++counters_.framesAcquired;
        ++frameId_;
        return {};
    }
    const auto b = nextShotBuffer_;
    nextShotBuffer_ = (nextShotBuffer_ + 1) % shotBuffers_.size();
    if (writesCompleteThrough_ < shotBufferLastWrite_[b]) {  // its last frame's writes still in flight
        if (auto ok = port_.awaitWrites(); !ok) return ok;
        pendingDoorbell_ = 0;
        writesCompleteThrough_ = counters_.writes;
    }
    const auto variant = frameId_ % variants_.size();
    if (configure_.photoacoustic) {  // photoacoustic-only: the frame's own (a replay's read in as sent)
        if (auto loaded = loadReplayFrame(variant, frameId_); !loaded) return loaded;
    }
    const auto& source = configure_.photoacoustic ? variants_[variant]
                         : shotsReplayed_         ? shotSources_[(counters_.shotsFired - 1) % shotSources_.size()]  // in the order recorded
                                                  : shotSources_[frameId_ % shotSources_.size()];
    const bool recorded = shotsReplayed_ || (configure_.photoacoustic && replayFrames_ != 0);  // sent as recorded, not scaled again
    scaleSamples(source, recorded ? 1.0 : shot.amplitude(laser_.model()), shotBuffers_[b]);
    shotCrcs_[b].clear();
    for (const auto& block : shotLayout_.blocks) {
        shotCrcs_[b].push_back(crc32c(std::span<const std::byte>(shotBuffers_[b]).subspan(block.frameOffset, block.payloadBytes)));
    }
    shotBufferFrame_[b] = frameId_;
    if (auto sent = sendBlocks(streaming, {&shotLayout_, shotBuffers_[b], shotCrcs_[b], shot.firedNs, block_flags::kPhotoacoustic, shot.energyMicroJ}); !sent) {
        return sent;
    }
    shotBufferLastWrite_[b] = counters_.writes;
    return {};
}

}  // namespace sonolink::transport::sim
