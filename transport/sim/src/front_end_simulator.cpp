#include "sonolink/transport/sim/front_end_simulator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <numbers>
#include <thread>

#include <fmt/format.h>

#include "sonolink/util/crc32c.h"
#include "sonolink/transport/sim/rf_scene.h"
#include "sonolink/transport/protocol/test_patterns.h"
#include "sonolink/util/log.h"

namespace sonolink::transport::sim {
namespace {

constexpr std::size_t kMaxPregeneratedBytes = 256u << 20;
constexpr std::uint64_t kWaveIntervalNs = 100'000;  // 10 kHz pulse repetition

std::uint64_t realtimeNs() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return std::uint64_t(ts.tv_sec) * 1'000'000'000ull + std::uint64_t(ts.tv_nsec);
}

// The front end's own clock: the host's, off by the fault plan's clock offset.
std::uint64_t frontEndNs(const FaultInjector& faults) {
    return realtimeNs() + static_cast<std::uint64_t>(std::chrono::nanoseconds(faults.plan().clockOffset).count());
}

log::Category& simLog() { return log::category("fe-sim"); }

}  // namespace

FrontEndSimulator::FrontEndSimulator(FrontEndPort& port, FrontEndOptions options)
    : port_(port), options_(std::move(options)), injector_(options_.faults), laser_(options_.laser, options_.seed) {}

FrontEndSimulator::~FrontEndSimulator() = default;

std::span<const std::byte> FrontEndSimulator::framePayload(std::uint32_t frameId) const noexcept {
    if (variants_.empty()) return {};
    for (std::size_t b = 0; b < shotBuffers_.size(); ++b) {
        if (shotBufferFrame_[b] == frameId && shotBufferLastWrite_[b] != 0) return shotBuffers_[b];
    }
    if (configure_.photoacoustic || configure_.laserRateMilliHz != 0) return {};  // a shot no longer held, or ids shared with shots
    const auto variant = frameId % variants_.size();
    if (replayFrames_ != 0 && replayHeld_[variant] != frameId % replayFrames_) return {};
    return variants_[variant];
}

std::uint64_t FrontEndSimulator::creditsAvailable() const noexcept {
    if (!ring_) return 0;
    return ring_->initialCredits + freedThrough_ - writeCursor_;
}

Status FrontEndSimulator::handshake() {
    Hello hello;
    hello.role = Role::FrontEnd;
    hello.capabilities = options_.capabilities;
    hello.serial = options_.serial;
    hello.firmware = options_.firmware;
    if (auto sent = port_.sendControl(hello); !sent) return sent;
    auto reply = port_.receiveControl(options_.handshakeTimeout);
    if (!reply) return fail(std::move(reply.error()));
    if (!*reply) return fail(ErrorCode::DeadlineExceeded, "the host did not answer Hello");
    if (const auto* error = std::get_if<ErrorReport>(&**reply)) {
        return fail(ErrorCode::FailedPrecondition, "the host refused the connection: " + error->text);
    }
    if (!std::holds_alternative<HelloAck>(**reply)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("expected HelloAck, got {}", toString(typeOf(**reply))));
    }
    log::info(simLog(), "connected: protocol version {}, session {:016x}", std::get<HelloAck>(**reply).version, port_.sessionId());
    return {};
}

Status FrontEndSimulator::prepare(const Configure& configure) {
    if (!ring_) return fail(ErrorCode::FailedPrecondition, "Configure before RingAdvert: no ring to size blocks for");
    auto layout = planFrameLayout(configure, ring_->slotBytes);
    if (!layout) return fail(std::move(layout.error()));
    configure_ = configure;
    layout_ = std::move(*layout);
    resident_ = options_.payloadResident && !options_.faults.any() && !configure.photoacoustic && configure.laserRateMilliHz == 0 &&
                ring_->slotCount % layout_.blocks.size() == 0;
    const std::size_t variantCount = resident_ ? 1 : std::clamp<std::size_t>(kMaxPregeneratedBytes / std::max<std::size_t>(layout_.frameBytes, 1), 1, 4);
    variants_.assign(variantCount, std::vector<std::byte>(layout_.frameBytes));
    replayFrames_ = 0;
    if (options_.frameSource && configure.payloadKind == PayloadKind::Rf) {
        if (auto ok = prepareReplay(); !ok) return ok;
    } else if (configure.payloadKind == PayloadKind::Rf) {
        variants_ = renderRf(configure, layout_, variantCount);
    } else if (isPrbs(configure.payloadKind)) {
        PrbsGenerator generator(prbsSpec(configure.payloadKind));
        for (auto& variant : variants_) generator.fill(variant);
    } else {
        std::uint32_t next = 0;
        for (auto& variant : variants_) next = fillCounter(variant, next);
    }
    crcs_.assign(variants_.size(), {});
    for (std::size_t v = 0; v < variants_.size(); ++v) computeCrcs(v);
    for (const auto& variant : variants_) {
        if (auto registered = port_.registerPayloadMemory(variant); !registered) return registered;
    }
    if (resident_) {
        if (auto preloaded = preloadPayloads(); !preloaded) return preloaded;
    }
    if (auto shots = prepareShots(configure); !shots) return shots;
    const auto frames = replayFrames_ == 0 ? fmt::format("{} pre-generated frames", variants_.size())
                        : replayFrames_ == variants_.size()
                            ? fmt::format("{} frames to replay, read once", replayFrames_)
                            : fmt::format("{} frames to replay, read as sent through {} buffers", replayFrames_, variants_.size());
    log::info(simLog(), "configured: {} channels x {} samples, {} waves, {} blocks/frame of up to {} bytes, {}{}", layout_.channels, layout_.samples,
              layout_.waves, layout_.blocks.size(), layout_.maxPayloadBytes, frames, resident_ ? ", payloads resident in the ring" : "");
    if (options_.onConfigured) options_.onConfigured(layout_);
    return {};
}

// variantCount frames of the standard phantom in layout (plane waves at the configured angles,
// or one photoacoustic wave), each with noise of its own, the channel faults applied, as
// little-endian int16.
std::vector<std::vector<std::byte>> FrontEndSimulator::renderRf(const Configure& configure, const FrameLayout& layout, std::size_t variantCount) const {
    const RfScene scene(SceneSpec::standardPhantom(configure.channelCount, configure.pitchNm * 1e-9, configure.centerFrequencyHz, configure.samplingRateHz,
                                                   static_cast<int>(configure.samplesPerChannel), configure.soundSpeedMmPerS * 1e-3));
    const std::size_t waveSamples = std::size_t(layout.channels) * layout.samples;
    const auto& f = options_.channelFaults;
    std::vector<std::uint16_t> named(f.dead.begin(), f.dead.end());
    named.insert(named.end(), f.weak.begin(), f.weak.end());
    named.insert(named.end(), f.noisy.begin(), f.noisy.end());
    for (const auto& [a, b] : f.swapped) named.insert(named.end(), {a, b});
    for (const auto c : named) {
        if (c >= layout.channels)
            log::warn(simLog(), "channel fault on channel {}: the host configured {} channels (0 to {}); it has no effect", c, layout.channels,
                      layout.channels - 1);
    }
    std::vector<std::vector<std::byte>> frames(variantCount, std::vector<std::byte>(layout.frameBytes));
    // Every variant's wave at once: the echoes computed once, each variant with noise of its own.
    std::vector<std::vector<std::int16_t>> waves(variantCount, std::vector<std::int16_t>(waveSamples));
    const std::vector<std::span<std::int16_t>> outs(waves.begin(), waves.end());
    std::vector<std::uint64_t> seeds(variantCount);
    for (std::uint16_t w = 0; w < layout.waves; ++w) {
        for (std::size_t v = 0; v < variantCount; ++v) seeds[v] = options_.seed * 1000 + v * 64 + w;
        if (configure.photoacoustic) scene.renderPhotoacoustics(seeds, outs);
        else scene.renderPlaneWaves(configure.anglesMilliDeg[w] * 1e-3 * std::numbers::pi / 180, seeds, outs);
        for (std::size_t v = 0; v < variantCount; ++v) {
            applyChannelFaults(options_.channelFaults, waves[v], layout.channels, static_cast<int>(layout.samples), scene.spec().noiseRms, seeds[v]);
            auto* out = frames[v].data() + w * waveSamples * 2;
            for (std::size_t i = 0; i < waveSamples; ++i) {  // little-endian int16 on the wire
                const auto u = static_cast<std::uint16_t>(waves[v][i]);
                out[2 * i] = static_cast<std::byte>(u & 0xFF);
                out[2 * i + 1] = static_cast<std::byte>(u >> 8);
            }
        }
    }
    return frames;
}

void FrontEndSimulator::computeCrcs(std::size_t variant) {
    crcs_[variant].clear();
    for (const auto& block : layout_.blocks) {
        crcs_[variant].push_back(crc32c(std::span<const std::byte>(variants_[variant]).subspan(block.frameOffset, block.payloadBytes)));
    }
}

Status FrontEndSimulator::preloadPayloads() {
    // Every slot gets the payload of the block that will always land in it (slotCount is a
    // multiple of blocks per frame), so each later write carries only the 64-byte header.
    for (std::uint64_t slot = 0; slot < ring_->slotCount; ++slot) {
        const auto& block = layout_.blocks[slot % layout_.blocks.size()];
        NicWrite write;
        write.remoteAddress = ring_->address + slot * ring_->slotBytes + kBlockHeaderSize;
        write.rkey = ring_->rkey;
        write.payload = std::span<const std::byte>(variants_[0]).subspan(block.frameOffset, block.payloadBytes);
        write.withImmediate = false;
        if (auto written = port_.postWrite(write); !written) return written;
    }
    return {};
}

Status FrontEndSimulator::handle(const ControlMessage& message, bool& streaming) {
    return std::visit(
        [&](const auto& m) -> Status {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, CreditReturn>) {
                freedThrough_ = std::max(freedThrough_, m.freedThrough);
            } else if constexpr (std::is_same_v<T, RingAdvert>) {
                ring_ = m;
                freedThrough_ = 0;
                writeCursor_ = 0;
            } else if constexpr (std::is_same_v<T, Configure>) {
                return acceptConfigure(m);
            } else if constexpr (std::is_same_v<T, Start>) {
                if (layout_.blocks.empty()) return sendErrorReport(ErrorCode::FailedPrecondition, MessageType::Start, "Start before a successful Configure");
                pendingShots_.clear();
                beginRun(streaming, m.frameLimit);
            } else if constexpr (std::is_same_v<T, Stop> || std::is_same_v<T, BerStop>) {
                streaming = false;
                pendingShots_.clear();  // withdrawn: never fired, never reported
                return port_.ringDoorbell();
            } else if constexpr (std::is_same_v<T, BerStart>) {
                return startBerTest(m, streaming);
            } else if constexpr (std::is_same_v<T, Trigger>) {
                if (!streaming) {
                    return sendErrorReport(ErrorCode::FailedPrecondition, MessageType::Trigger,
                                           fmt::format("Trigger for shot {} while not streaming", m.shotId));
                }
                return acceptTrigger(m);
            } else if constexpr (std::is_same_v<T, TimeSync>) {
                TimeSync reply = m;
                reply.t2FrontEndReceiveNs = frontEndNs(injector_);
                reply.t3FrontEndSendNs = frontEndNs(injector_);
                return port_.sendControl(reply);
            } else if constexpr (std::is_same_v<T, ErrorReport>) {
                log::warn(simLog(), "host reported error {}: {}", m.code, m.text);
            } else {
                return sendErrorReport(ErrorCode::InvalidArgument, typeOf(message),
                                       fmt::format("{} is not a message a front end accepts", toString(typeOf(message))));
            }
            return {};
        },
        message);
}

// Configure: the frames prepared and acknowledged, or the reason sent back as an ErrorReport.
Status FrontEndSimulator::acceptConfigure(const Configure& configure) {
    if (auto prepared = prepare(configure); !prepared) {
        (void)sendErrorReport(prepared.error().code(), MessageType::Configure, prepared.error().message());
        return {};  // the host decides; the front end stays up
    }
    const auto blocks = std::max(layout_.blocks.size(), shotLayout_.blocks.size());
    return port_.sendControl(
        ConfigureAck{layout_.channelsPerBlock, static_cast<std::uint16_t>(blocks), std::max(layout_.maxPayloadBytes, shotLayout_.maxPayloadBytes)});
}

// BerStart: the configured geometry with the test pattern for payload and no laser, streamed
// until blockLimit blocks (rounded up to whole frames; 0: until BerStop).
Status FrontEndSimulator::startBerTest(const BerStart& start, bool& streaming) {
    Configure pattern = configure_;
    pattern.payloadKind = start.pattern;
    pattern.photoacoustic = false;
    pattern.laserRateMilliHz = 0;
    if (auto prepared = prepare(pattern); !prepared) {
        return sendErrorReport(prepared.error().code(), MessageType::BerStart, prepared.error().message());
    }
    beginRun(streaming, start.blockLimit == 0 ? 0 : static_cast<std::uint32_t>((start.blockLimit + layout_.blocks.size() - 1) / layout_.blocks.size()));
    return {};
}

// A run starts: streaming, its frame count and frame times from zero, its clocks from now.
void FrontEndSimulator::beginRun(bool& streaming, std::uint32_t frameLimit) {
    streaming = true;
    frameLimit_ = frameLimit;
    framesThisRun_ = 0;
    ticksThisRun_ = 0;
    runStart_ = std::chrono::steady_clock::now();
    ptpEpochNs_ = frontEndNs(injector_);
}

// An ErrorReport to the host: why its message (of type about) was refused.
Status FrontEndSimulator::sendErrorReport(ErrorCode code, MessageType about, std::string text) {
    return port_.sendControl(ErrorReport{static_cast<std::uint16_t>(code), static_cast<std::uint8_t>(about), std::move(text)});
}

Status FrontEndSimulator::serviceControl(std::chrono::milliseconds wait, bool& streaming) {
    auto message = port_.receiveControl(wait);
    if (!message) return fail(std::move(message.error()));
    if (*message) {
        if (auto handled = handle(**message, streaming); !handled) return handled;
    }
    maybeSendStatus(streaming);
    return {};
}

void FrontEndSimulator::maybeSendStatus(bool streaming) {
    const auto now = std::chrono::steady_clock::now();
    if (now - lastStatus_ < options_.statusInterval) return;
    lastStatus_ = now;
    const auto state = stalled_                 ? FrontEndState::Stalled
                       : streaming              ? FrontEndState::Streaming
                       : layout_.blocks.empty() ? FrontEndState::Idle
                                                : FrontEndState::Configured;
    (void)port_.sendControl(StatusReport{state, counters_.framesAcquired, counters_.framesDroppedNoCredit, counters_.blocksSent,
                                         static_cast<std::uint32_t>(creditsAvailable()), 41'500, static_cast<std::uint32_t>(counters_.shotsFired),
                                         static_cast<std::uint32_t>(counters_.shotsMissed), static_cast<std::uint32_t>(counters_.shotsLate)});
}

Status FrontEndSimulator::waitForCredit(bool& streaming) {
    while (creditsAvailable() == 0) {
        if (auto rung = port_.ringDoorbell(); !rung) return rung;
        pendingDoorbell_ = 0;
        if (auto serviced = serviceControl(std::chrono::milliseconds(1), streaming); !serviced) return serviced;
    }
    return {};
}

Status FrontEndSimulator::writeBlock(std::span<const std::byte> header, std::span<const std::byte> payload, std::uint32_t immediate,
                                     std::span<const std::uint32_t> flips) {
    const auto slot = writeCursor_ % ring_->slotCount;
    if (options_.faults.corruptSlot == slot && !payload.empty()) {        // its stuck bit: set, whatever was sent
        const auto bit = static_cast<std::uint32_t>(payload.size() * 4);  // the payload's middle bit
        const auto at = static_cast<std::uint32_t>(kBlockHeaderSize * 8) + bit;
        const bool flipped = std::find(flips.begin(), flips.end(), at) != flips.end();
        const bool sent = ((std::to_integer<unsigned>(payload[bit / 8]) >> (bit % 8)) & 1u) != 0;
        if (sent == flipped) {  // it would arrive as 0
            slotFlips_.assign(flips.begin(), flips.end());
            slotFlips_.push_back(at);
            flips = slotFlips_;
        }
    }
    NicWrite write{ring_->address + slot * ring_->slotBytes, ring_->rkey, header, payload, immediate, flips, resident_};
    auto posted = port_.postWrite(write);
    ++writeCursor_;
    ++counters_.writes;
    if (!posted) return posted;
    if (++pendingDoorbell_ >= static_cast<std::uint32_t>(options_.postBatch)) {
        pendingDoorbell_ = 0;
        return port_.ringDoorbell();
    }
    return {};
}

Status FrontEndSimulator::sendFrame(bool& streaming) {
    const bool paced = configure_.frameRateMilliHz != 0;
    const std::uint64_t frameTimeNs =
        paced ? ptpEpochNs_ + std::uint64_t(ticksThisRun_) * 1'000'000'000'000ull / configure_.frameRateMilliHz : frontEndNs(injector_);
    const bool testPattern = configure_.payloadKind != PayloadKind::Rf;
    if (configure_.photoacoustic && !testPattern) return fireShot(streaming, Trigger{0, ownShotId_++, frameTimeNs});
    const auto blockCount = static_cast<std::uint32_t>(layout_.blocks.size());
    const auto index = ultrasoundFrames_++;  // the ultrasound frames' own count: a replay's frames in order, shots between them or not
    if (paced && creditsAvailable() < blockCount) {
        ++counters_.framesDroppedNoCredit;  // whole frame, as the FPGA does; the host sees the id gap
        ++counters_.framesAcquired;
        ++frameId_;
        return {};
    }
    const std::size_t variant = index % variants_.size();
    if (auto loaded = loadReplayFrame(variant, index); !loaded) return loaded;
    if (auto sent =
            sendBlocks(streaming, {&layout_, variants_[variant], crcs_[variant], frameTimeNs, testPattern ? block_flags::kTestPattern : std::uint16_t(0), 0});
        !sent) {
        return sent;
    }
    if (replayFrames_ != 0) variantLastWrite_[variant] = counters_.writes;
    return {};
}

Status FrontEndSimulator::sendBlocks(bool& streaming, const FrameSend& frame) {
    const auto blockCount = static_cast<std::uint32_t>(frame.layout->blocks.size());
    struct Held {
        std::array<std::byte, kBlockHeaderSize> header;
        std::span<const std::byte> payload;
        std::uint32_t immediate;
    };
    std::optional<Held> held;
    std::uint32_t intact = 0;
    std::array<std::byte, kBlockHeaderSize> header{};
    for (std::uint32_t b = 0; b < blockCount; ++b) {
        const auto& block = frame.layout->blocks[b];
        encodeBlockHeader(blockHeaderFor(frame, b, blockCount), header);
        const auto payload = frame.payload.subspan(block.frameOffset, block.payloadBytes);
        const auto immediate = static_cast<std::uint32_t>(sequence_);
        ++sequence_;
        ++counters_.blocksSent;
        const auto fault = injector_.decide((kBlockHeaderSize + block.payloadBytes) * 8ull, b + 1 < blockCount && !held, !held);
        if (fault == BlockFault::Drop) continue;
        if (fault == BlockFault::Reorder) {
            held = Held{header, payload, immediate};
            ++intact;
            continue;
        }
        if (fault != BlockFault::Corrupt) ++intact;
        if (auto ok = waitForCredit(streaming); !ok) return ok;
        if (auto ok = writeBlock(header, payload, immediate, fault == BlockFault::Corrupt ? std::span(injector_.flipBits()) : std::span<const std::uint32_t>{});
            !ok)
            return ok;
        if (fault == BlockFault::Duplicate) {
            if (auto ok = waitForCredit(streaming); !ok) return ok;
            if (auto ok = writeBlock(header, payload, immediate, {}); !ok) return ok;
        }
        if (held) {
            if (auto ok = waitForCredit(streaming); !ok) return ok;
            if (auto ok = writeBlock(held->header, held->payload, held->immediate, {}); !ok) return ok;
            held.reset();
        }
        if (auto ok = injectLinkFaults(streaming); !ok) return ok;
    }
    injector_.frameDone(intact, blockCount);
    ++counters_.framesAcquired;
    ++frameId_;
    return {};
}

// Block b's header: its place in the frame, the next sequence number, the frame's id, and the
// time of its wave's transmit.
BlockHeader FrontEndSimulator::blockHeaderFor(const FrameSend& frame, std::uint32_t b, std::uint32_t blockCount) const noexcept {
    const auto& block = frame.layout->blocks[b];
    BlockHeader h;
    h.flags = static_cast<std::uint16_t>((b == 0 ? block_flags::kFirstOfFrame : 0) | (b + 1 == blockCount ? block_flags::kLastOfFrame : 0) | frame.flags);
    h.sequence = sequence_;
    h.frameId = frameId_;
    h.blockIndex = static_cast<std::uint16_t>(b);
    h.blockCount = static_cast<std::uint16_t>(blockCount);
    h.firstChannel = block.firstChannel;
    h.channelCount = block.channelCount;
    h.firstSample = block.firstSample;
    h.sampleCount = block.sampleCount;
    h.waveIndex = block.wave;
    h.payloadKind = configure_.payloadKind;
    h.timestampNs = frame.timeNs + block.wave * kWaveIntervalNs;
    h.payloadBytes = block.payloadBytes;
    h.payloadCrc = frame.crcs[b];
    h.laserEnergyMicroJ = frame.energyMicroJ;
    return h;
}

// After each block sent, the fault plan's link faults: the injected disconnect (the front end
// vanishes without a word), or every stallEveryBlocks blocks a stall, control still serviced.
Status FrontEndSimulator::injectLinkFaults(bool& streaming) {
    const auto& plan = injector_.plan();
    if (plan.disconnectAfterBlocks != 0 && counters_.blocksSent >= plan.disconnectAfterBlocks) {
        (void)port_.ringDoorbell();
        port_.abandon();
        return fail(ErrorCode::Unavailable, fmt::format("disconnect injected after {} blocks", counters_.blocksSent));
    }
    if (plan.stallEveryBlocks != 0 && counters_.blocksSent % plan.stallEveryBlocks == 0) {
        if (auto rung = port_.ringDoorbell(); !rung) return rung;
        pendingDoorbell_ = 0;
        injector_.noteStall();
        stalled_ = true;
        const auto until = std::chrono::steady_clock::now() + plan.stallDuration;
        while (std::chrono::steady_clock::now() < until) {
            if (auto ok = serviceControl(std::chrono::milliseconds(5), streaming); !ok) return ok;
        }
        stalled_ = false;
    }
    return {};
}

Status FrontEndSimulator::run(const std::atomic<bool>& stop) {
    if (auto connected = handshake(); !connected) return connected;
    bool streaming = false;
    while (!stop.load(std::memory_order_relaxed)) {
        if (!streaming) {
            if (auto rung = port_.ringDoorbell(); !rung) return rung;
            if (auto ok = serviceControl(std::chrono::milliseconds(20), streaming); !ok) return ok;
            continue;
        }
        // Streaming: drain control without waiting, then the next frame when it is due.
        if (auto ok = serviceControl(std::chrono::milliseconds(0), streaming); !ok) return ok;
        if (!streaming) continue;
        // A scheduled shot whose time has come goes first: the laser does not wait.
        const auto now = std::chrono::steady_clock::now();
        if (!pendingShots_.empty() && steadyAt(pendingShots_.front().fireTimeNs) <= now) {
            const auto shot = pendingShots_.front();
            pendingShots_.pop_front();
            if (auto fired = fireShot(streaming, shot); !fired) return fired;
            continue;
        }
        if (configure_.frameRateMilliHz != 0) {
            const auto due = runStart_ + std::chrono::nanoseconds(std::uint64_t(ticksThisRun_) * 1'000'000'000'000ull / configure_.frameRateMilliHz);
            if (now < due) {
                const auto wake = pendingShots_.empty() ? due : std::min(due, steadyAt(pendingShots_.front().fireTimeNs));
                if (auto rung = port_.ringDoorbell(); !rung) return rung;
                pendingDoorbell_ = 0;
                const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now);
                if (auto ok = serviceControl(std::min(wait, std::chrono::milliseconds(20)), streaming); !ok) return ok;
                continue;
            }
        }
        const auto acquiredBefore = counters_.framesAcquired;
        if (auto sent = sendFrame(streaming); !sent) return sent;
        ++ticksThisRun_;
        if (counters_.framesAcquired != acquiredBefore) ++framesThisRun_;  // a misfired shot brings no frame
        if (frameLimit_ != 0 && framesThisRun_ >= frameLimit_) {
            streaming = false;
            if (auto rung = port_.ringDoorbell(); !rung) return rung;
            pendingDoorbell_ = 0;
            lastStatus_ = {};
            maybeSendStatus(false);  // the final counts, at once
        }
    }
    return port_.ringDoorbell();
}

}  // namespace sonolink::transport::sim
