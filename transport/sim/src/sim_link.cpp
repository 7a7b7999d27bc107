#include "sonolink/transport/sim/sim_link.h"

#include <array>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "shared_region.h"
#include "sonolink/transport/host_handshake.h"
#include "sonolink/util/log.h"

namespace sonolink::transport::sim {

Result<std::unique_ptr<SimLink>> SimLink::create(const SimLinkOptions& options) {
    auto region = SharedRegion::create(options.name, options.slotBytes, options.slotCount);
    if (!region) return fail(std::move(region.error()).addContext("creating the simulated link"));
    return std::unique_ptr<SimLink>(new SimLink(options, std::move(*region)));
}

SimLink::SimLink(SimLinkOptions options, std::shared_ptr<SharedRegion> region) : options_(std::move(options)), region_(std::move(region)) { startSession(); }

SimLink::~SimLink() {
    heartbeat_.reset();
    region_->header().closed.store(1);
}

void SimLink::startSession() {
    auto& h = region_->header();
    h.hostPid.store(::getpid());
    std::random_device random;
    h.sessionId.store((std::uint64_t(random()) << 32) | random());
    heartbeat_ = std::make_unique<HeartbeatThread>(h.hostHeartbeatNs);
    sendSequence_ = 0;
    creditSequence_ = 0;
}

RingView SimLink::ring() const noexcept { return region_->ring(); }

Status SimLink::checkPeerAlive() {
    auto& h = region_->header();
    const auto now = steadyNowNs();
    const auto pid = h.frontEndPid.load();
    if (pid == 0) return fail(ErrorCode::Unavailable, "the front end detached from the link");
    if (pid != ::getpid() && !processAlive(pid)) {
        return fail(ErrorCode::Unavailable, fmt::format("the front end process (pid {}) is gone", pid));
    }
    const auto beat = h.frontEndHeartbeatNs.load(std::memory_order_relaxed);
    const auto limit = std::uint64_t(std::chrono::nanoseconds(options_.heartbeatTimeout).count());
    if (beat != 0 && now > beat && now - beat > limit) {
        return fail(ErrorCode::Unavailable, fmt::format("the front end (pid {}) sent no heartbeat for {:.1f} s", pid, double(now - beat) / 1e9));
    }
    return {};
}

Result<LinkInfo> SimLink::accept(std::chrono::milliseconds timeout) {
    auto& h = region_->header();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (h.frontEndPid.load() == 0) {
        if (interrupted_.load()) return fail(ErrorCode::Cancelled, "stopped while waiting for the front end");
        if (std::chrono::steady_clock::now() >= deadline) {
            return fail(ErrorCode::Unavailable, options_.name.empty()
                                                    ? std::string("no front end attached to the in-process link")
                                                    : fmt::format("no front end attached to /dev/shm/{} within {} ms (start sonolink-fe-sim --link-name {})",
                                                                  options_.name, timeout.count(), options_.name));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto hello = answerHello(*this, h.sessionId.load(), std::max(left, std::chrono::milliseconds(1)));
    if (!hello) return fail(std::move(hello.error()));
    LinkInfo info;
    info.backend = options_.name.empty() ? "sim-inprocess" : "sim-shm";
    info.peer = options_.name.empty() ? "in-process front end" : fmt::format("pid {} via /dev/shm/{}", h.frontEndPid.load(), options_.name);
    info.protocolVersion = hello->version;
    info.peerHello = hello->peer;
    return info;
}

Status SimLink::advertiseRing() {
    auto& h = region_->header();
    std::random_device random;
    std::uint32_t rkey = random();
    if (rkey == 0) rkey = 1;
    h.registeredRkey.store(rkey);
    const auto view = ring();
    return sendControl(RingAdvert{kRingDeviceAddress + region_->ringOffset(), rkey, view.slotBytes, view.slotCount, view.slotCount});
}

Status SimLink::sendControl(const ControlMessage& message) {
    std::array<std::byte, kMaxControlMessage> buffer{};
    const auto length = encodeControlMessageInto(message, ++sendSequence_, buffer);
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (push(region_->header().toFrontEnd, region_->header().frontEndBell, std::span(buffer).first(length))) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return fail(ErrorCode::Unavailable,
                fmt::format("control channel to the front end is full: {} not sent (front end not reading)", toString(typeOf(message))));
}

Result<std::optional<ControlMessage>> SimLink::receiveControl(std::chrono::milliseconds timeout) {
    auto& channel = region_->header().toHost;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::array<std::byte, kMaxControlMessage> buffer{};
    while (true) {
        if (auto length = pop(channel, buffer)) {
            ++controlStats_.received;
            auto decoded = decodeControlMessage(std::span(buffer).first(*length));
            if (decoded) return std::optional<ControlMessage>(std::move(decoded->message));
            // Rejected, counted and reported; the session goes on.
            ++controlStats_.malformed;
            controlStats_.lastError = decoded.error().message();
            log::warn(log::category("link"), "rejected a control message from the front end: {}", controlStats_.lastError);
            (void)sendControl(
                ErrorReport{static_cast<std::uint16_t>(decoded.error().code()), 0, "rejected your control message: " + decoded.error().message()});
            continue;
        }
        if (auto alive = checkPeerAlive(); !alive) return fail(std::move(alive.error()));
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return std::optional<ControlMessage>{};
        const auto wait = std::min<std::chrono::microseconds>(kControlWaitSlice, std::chrono::duration_cast<std::chrono::microseconds>(deadline - now));
        waitFor(region_->header().hostBell, wait, [&] { return !empty(channel); });
    }
}

std::size_t SimLink::pollCompletions(std::span<Completion> out, std::chrono::microseconds timeout) {
    auto& cq = region_->completionQueue();
    const auto* entries = region_->completionEntries();
    const auto capacity = region_->completionCapacity();  // ours, not the shared header's
    auto available = [&] { return cq.head.load(std::memory_order_acquire) - cq.tail.load(std::memory_order_relaxed); };
    if (available() == 0) waitFor(cq.doorbell, timeout, [&] { return available() != 0; });
    const auto tail = cq.tail.load(std::memory_order_relaxed);
    const auto count = std::min<std::uint64_t>(available(), out.size());
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto& e = entries[(tail + i) % capacity];
        out[i] = Completion{e.immediate, e.byteCount, static_cast<CompletionStatus>(e.status), e.writtenNs};
    }
    cq.tail.store(tail + count, std::memory_order_release);
    return count;
}

Status SimLink::returnCredits(std::uint64_t freedThrough) {
    std::array<std::byte, kMaxControlMessage> buffer{};
    const auto length = encodeControlMessageInto(CreditReturn{freedThrough}, ++creditSequence_, buffer);
    if (!push(region_->header().credits, region_->header().frontEndBell, std::span(buffer).first(length))) {
        return fail(ErrorCode::Unavailable, "credit lane full: the front end is not reading credits");
    }
    return {};
}

Status SimLink::reset() {
    interrupted_.store(false);
    region_->header().closed.store(1);
    auto fresh = SharedRegion::create(options_.name, options_.slotBytes, options_.slotCount);
    if (!fresh) return fail(std::move(fresh.error()).addContext("resetting the simulated link"));
    heartbeat_.reset();
    region_ = std::move(*fresh);
    startSession();
    return {};
}

}  // namespace sonolink::transport::sim
