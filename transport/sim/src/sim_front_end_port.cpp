#include "sonolink/transport/sim/sim_front_end_port.h"

#include <array>
#include <cstring>

#include <fmt/format.h>
#include <unistd.h>

#include "shared_region.h"
#include "sonolink/transport/protocol/block_header.h"
#include "sonolink/transport/sim/sim_link.h"

namespace sonolink::transport::sim {
namespace {
constexpr auto kHostSilenceLimitNs = 2'000'000'000ull;
}

Result<std::unique_ptr<SimFrontEndPort>> SimFrontEndPort::attach(const std::string& linkName) {
    auto region = SharedRegion::open(linkName);
    if (!region) return fail(std::move(region.error()));
    auto& h = (*region)->header();
    if (h.closed.load() != 0) return fail(ErrorCode::Unavailable, fmt::format("link /dev/shm/{} was closed by its host", linkName));
    if (!processAlive(h.hostPid.load())) {
        return fail(ErrorCode::Unavailable, fmt::format("the host of /dev/shm/{} (pid {}) is not running", linkName, h.hostPid.load()));
    }
    std::int32_t current = h.frontEndPid.load();
    const std::int32_t self = ::getpid();
    if (current != 0 && processAlive(current) && current != self) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("another front end (pid {}) is attached to /dev/shm/{}", current, linkName));
    }
    if (!h.frontEndPid.compare_exchange_strong(current, self)) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("another front end attached to /dev/shm/{} at the same time", linkName));
    }
    return std::unique_ptr<SimFrontEndPort>(new SimFrontEndPort(std::move(*region)));
}

Result<std::unique_ptr<SimFrontEndPort>> SimFrontEndPort::attach(const SimLink& link) {
    auto region = link.region();
    std::int32_t expected = 0;
    if (!region->header().frontEndPid.compare_exchange_strong(expected, ::getpid())) {
        return fail(ErrorCode::FailedPrecondition, "a front end is already attached to this in-process link");
    }
    return std::unique_ptr<SimFrontEndPort>(new SimFrontEndPort(std::move(region)));
}

SimFrontEndPort::SimFrontEndPort(std::shared_ptr<SharedRegion> region)
    : region_(std::move(region)), heartbeat_(std::make_unique<HeartbeatThread>(region_->header().frontEndHeartbeatNs)) {}

SimFrontEndPort::~SimFrontEndPort() {
    heartbeat_.reset();
    if (!abandoned_) region_->header().frontEndPid.store(0);
}

void SimFrontEndPort::abandon() noexcept {
    heartbeat_.reset();
    abandoned_ = true;
}

std::uint64_t SimFrontEndPort::sessionId() const noexcept { return region_->header().sessionId.load(); }

Status SimFrontEndPort::checkHostAlive() {
    auto& h = region_->header();
    if (h.closed.load() != 0) return fail(ErrorCode::Cancelled, "the host closed the link");
    const auto pid = h.hostPid.load();
    if (pid != ::getpid() && !processAlive(pid)) return fail(ErrorCode::Unavailable, fmt::format("the host process (pid {}) is gone", pid));
    const auto beat = h.hostHeartbeatNs.load(std::memory_order_relaxed);
    const auto now = steadyNowNs();
    if (now > beat && now - beat > kHostSilenceLimitNs) {
        return fail(ErrorCode::Unavailable, fmt::format("the host (pid {}) sent no heartbeat for {:.1f} s", pid, double(now - beat) / 1e9));
    }
    return {};
}

Status SimFrontEndPort::sendControl(const ControlMessage& message) {
    std::array<std::byte, kMaxControlMessage> buffer{};
    const auto length = encodeControlMessageInto(message, ++sendSequence_, buffer);
    if (!push(region_->header().toHost, region_->header().hostBell, std::span(buffer).first(length))) {
        return fail(ErrorCode::Unavailable, fmt::format("control channel to the host is full: {} not sent", toString(typeOf(message))));
    }
    return {};
}

Status SimFrontEndPort::sendRawControl(std::span<const std::byte> bytes) {
    if (!push(region_->header().toHost, region_->header().hostBell, bytes)) return fail(ErrorCode::Unavailable, "control channel to the host is full");
    return {};
}

Result<std::optional<ControlMessage>> SimFrontEndPort::decode(std::span<const std::byte> bytes) {
    ++controlStats_.received;
    auto decoded = decodeControlMessage(bytes);
    if (decoded) return std::optional<ControlMessage>(std::move(decoded->message));
    // Rejected, counted and answered with an ErrorReport; the front end goes on.
    ++controlStats_.malformed;
    controlStats_.lastError = decoded.error().message();
    (void)sendControl(ErrorReport{static_cast<std::uint16_t>(decoded.error().code()), 0, "rejected your control message: " + decoded.error().message()});
    return std::optional<ControlMessage>{};
}

Result<std::optional<ControlMessage>> SimFrontEndPort::receiveControl(std::chrono::milliseconds timeout) {
    auto& h = region_->header();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::array<std::byte, kMaxControlMessage> buffer{};
    while (true) {
        if (auto length = pop(h.credits, buffer)) return decode(std::span(buffer).first(*length));
        if (auto length = pop(h.toFrontEnd, buffer)) return decode(std::span(buffer).first(*length));
        if (auto alive = checkHostAlive(); !alive) return fail(std::move(alive.error()));
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return std::optional<ControlMessage>{};
        const auto wait = std::min<std::chrono::microseconds>(kControlWaitSlice, std::chrono::duration_cast<std::chrono::microseconds>(deadline - now));
        waitFor(h.frontEndBell, wait, [&] { return !empty(h.credits) || !empty(h.toFrontEnd); });
    }
}

Status SimFrontEndPort::postWrite(const NicWrite& write) {
    auto& h = region_->header();
    auto& cq = region_->completionQueue();
    const auto view = region_->ring();
    const auto ringStart = kRingDeviceAddress + region_->ringOffset();
    const auto length = write.header.size() + write.payload.size();
    CompletionStatus status = CompletionStatus::Ok;
    if (write.rkey != h.registeredRkey.load(std::memory_order_relaxed) || write.remoteAddress < ringStart ||
        write.remoteAddress + length > ringStart + std::uint64_t(view.slotBytes) * view.slotCount) {
        status = CompletionStatus::RemoteAccessError;
    }
    const auto head = cq.head.load(std::memory_order_relaxed) + pendingCompletions_;
    if (write.withImmediate && head - cq.tail.load(std::memory_order_acquire) >= region_->completionCapacity()) {
        return fail(ErrorCode::ResourceExhausted, "completion queue overrun: the front end wrote more blocks than it holds credits for");
    }
    if (status == CompletionStatus::Ok) {
        std::byte* target = view.base + (write.remoteAddress - ringStart);
        std::memcpy(target, write.header.data(), write.header.size());
        if (!write.payloadResident) std::memcpy(target + write.header.size(), write.payload.data(), write.payload.size());
        for (auto bit : write.flipBits) {
            if (bit / 8 < length) target[bit / 8] ^= std::byte(1u << (bit % 8));
        }
    }
    if (!write.withImmediate && status == CompletionStatus::Ok) return {};
    auto& entry = region_->completionEntries()[head % region_->completionCapacity()];
    entry = CompletionEntry{write.immediate, static_cast<std::uint32_t>(length), static_cast<std::uint32_t>(status), 0, steadyNowNs()};
    ++pendingCompletions_;
    if (status != CompletionStatus::Ok) {
        (void)ringDoorbell();
        return fail(ErrorCode::FailedPrecondition,
                    fmt::format("remote access error: write of {} bytes at 0x{:x} with rkey 0x{:08x} is outside the registered ring or uses the wrong key",
                                length, write.remoteAddress, write.rkey));
    }
    return {};
}

Status SimFrontEndPort::ringDoorbell() {
    if (pendingCompletions_ == 0) return {};
    auto& cq = region_->completionQueue();
    cq.head.store(cq.head.load(std::memory_order_relaxed) + pendingCompletions_, std::memory_order_release);
    pendingCompletions_ = 0;
    ring(cq.doorbell);
    return {};
}

}  // namespace sonolink::transport::sim
