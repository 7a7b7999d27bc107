// SimFrontEndPort: the front end's end of a simulated link: its control channel and its
// embedded NIC. postWrite() is RDMA WRITE WITH IMMEDIATE: the NIC checks the memory key and
// bounds like real hardware (a bad key or address is a remote access error seen by both
// sides), copies the block into the host's ring and queues a completion; ringDoorbell()
// publishes a batch with at most one wake-up. It attaches to a named link (another process)
// or to a SimLink in this process; a heartbeat thread of its own keeps it visibly alive.
// Thread contract: one thread (the front end's).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "sonolink/transport/link.h"
#include "sonolink/transport/protocol/control_messages.h"
#include "sonolink/util/result.h"

namespace sonolink::transport::sim {

class SharedRegion;
class SimLink;
class HeartbeatThread;

struct NicWrite {
    std::uint64_t remoteAddress = 0;
    std::uint32_t rkey = 0;
    std::span<const std::byte> header;     // 64 bytes written at remoteAddress
    std::span<const std::byte> payload;    // written right after the header
    std::uint32_t immediate = 0;
    std::span<const std::uint32_t> flipBits;  // fault injection: bits flipped in flight
    bool payloadResident = false;          // payload already in place: write the header only
    bool withImmediate = true;             // false: plain RDMA WRITE, no completion at the host
};

class SimFrontEndPort {
public:
    [[nodiscard]] static Result<std::unique_ptr<SimFrontEndPort>> attach(const std::string& linkName);
    [[nodiscard]] static Result<std::unique_ptr<SimFrontEndPort>> attach(const SimLink& link);
    ~SimFrontEndPort();  // detaches cleanly unless abandon() was called
    SimFrontEndPort(const SimFrontEndPort&) = delete;
    SimFrontEndPort& operator=(const SimFrontEndPort&) = delete;

    [[nodiscard]] Status sendControl(const ControlMessage& message);
    // Credits first, then other control messages; nullopt after timeout. Stamps our heartbeat
    // and reports a host that closed the session (Cancelled), died or went silent (Unavailable).
    [[nodiscard]] Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout);

    // Sends bytes as they are (protocol conformance tests: malformed messages).
    [[nodiscard]] Status sendRawControl(std::span<const std::byte> bytes);
    [[nodiscard]] const ControlStats& controlStats() const noexcept { return controlStats_; }

    [[nodiscard]] Status postWrite(const NicWrite& write);
    void ringDoorbell() noexcept;
    [[nodiscard]] Status checkHostAlive();

    // Simulates a crash: stops the heartbeat and leaves without detaching.
    void abandon() noexcept;
    [[nodiscard]] std::uint64_t sessionId() const noexcept;

private:
    explicit SimFrontEndPort(std::shared_ptr<SharedRegion> region);
    Result<std::optional<ControlMessage>> decode(std::span<const std::byte> bytes);

    std::shared_ptr<SharedRegion> region_;
    std::uint32_t sendSequence_ = 0;
    std::uint64_t pendingCompletions_ = 0;  // posted, not yet published by ringDoorbell()
    std::unique_ptr<HeartbeatThread> heartbeat_;
    bool abandoned_ = false;
    ControlStats controlStats_;
};

}  // namespace sonolink::transport::sim
