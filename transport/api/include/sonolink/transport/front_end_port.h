// FrontEndPort: the front end's end of a link, whatever carries it: its control channel and
// its NIC. postWrite() is RDMA WRITE WITH IMMEDIATE of one block (header + payload) into the
// host's ring; ringDoorbell() posts what was queued as one batch. The simulated front end
// (transport/sim) speaks only to this interface, so it runs over shared memory or real verbs.
// Thread contract: one thread (the front end's).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "sonolink/transport/link.h"
#include "sonolink/transport/protocol/control_messages.h"
#include "sonolink/util/result.h"

namespace sonolink::transport {

struct NicWrite {
    std::uint64_t remoteAddress = 0;
    std::uint32_t rkey = 0;
    std::span<const std::byte> header;   // 64 bytes written at remoteAddress
    std::span<const std::byte> payload;  // written right after the header
    std::uint32_t immediate = 0;
    std::span<const std::uint32_t> flipBits;  // fault injection: bits flipped in flight
    bool payloadResident = false;             // payload already in place: write the header only
    bool withImmediate = true;                // false: plain RDMA WRITE, no completion at the host
};

class FrontEndPort {
public:
    virtual ~FrontEndPort() = default;

    [[nodiscard]] virtual Status sendControl(const ControlMessage& message) = 0;
    // The next control message from the host, or nullopt after timeout; a malformed one is
    // counted, answered with ErrorReport and skipped. Reports a host that closed the session
    // (Cancelled), died or went silent (Unavailable).
    [[nodiscard]] virtual Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout) = 0;
    [[nodiscard]] virtual const ControlStats& controlStats() const noexcept = 0;

    // Memory that payloads will be written from (a NIC must register it); before postWrite.
    [[nodiscard]] virtual Status registerPayloadMemory(std::span<const std::byte> memory) = 0;
    [[nodiscard]] virtual Status postWrite(const NicWrite& write) = 0;
    // Posts the writes queued since the last call as one batch. An error if a write failed.
    [[nodiscard]] virtual Status ringDoorbell() = 0;
    // Posts what is queued and waits until every write has completed: the payload memory they
    // were written from may then be rewritten (a replay's buffers).
    [[nodiscard]] virtual Status awaitWrites() = 0;

    // Simulates a crash: the peer must notice by itself.
    virtual void abandon() noexcept = 0;
    [[nodiscard]] virtual std::uint64_t sessionId() const noexcept = 0;
};

}  // namespace sonolink::transport
