// Link: the host's end of the connection to a front end, whatever carries it (sim = shared
// memory, verbs = RDMA). The front end writes blocks into the host's ring with RDMA WRITE WITH
// IMMEDIATE semantics: the k-th completion since the ring was advertised is for slot
// k % slotCount, its immediate is the low 32 bits of the block sequence. Control messages
// (protocol/control_messages.h) travel beside the data, never behind it.
// Thread contract: pollCompletions() from one thread (rx); everything else from one other
// thread (ctl) or the same one; sendControl() is safe from both (credit returns come from rx).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "sonolink/transport/protocol/control_messages.h"
#include "sonolink/util/result.h"

namespace sonolink::transport {

// The host memory the front end writes into: slotCount slots of slotBytes, 4 KiB-aligned.
struct RingView {
    std::byte* base = nullptr;
    std::uint32_t slotBytes = 0;
    std::uint32_t slotCount = 0;
    [[nodiscard]] std::span<std::byte> slot(std::uint64_t completionIndex) const noexcept {
        return {base + (completionIndex % slotCount) * slotBytes, slotBytes};
    }
};

enum class CompletionStatus : std::uint8_t {
    Ok = 0,
    RemoteAccessError,  // the writer used a wrong rkey or wrote outside the ring
};

struct Completion {
    std::uint32_t immediate = 0;  // low 32 bits of the block sequence
    std::uint32_t byteCount = 0;  // bytes written into the slot
    CompletionStatus status = CompletionStatus::Ok;
    std::uint64_t writtenNs = 0;  // steady-clock time the write completed (latency measurements)
};

// What the link's hardware can do, probed when the link is created (empty for the sim link).
struct LinkCapabilities {
    std::string device;  // "mlx5_0", "rxe0"
    std::string firmware;
    std::uint32_t maxQueuePairWorkRequests = 0;
    std::uint32_t maxCompletionQueueEntries = 0;
    std::uint32_t maxScatterGatherEntries = 0;
    std::uint64_t maxMemoryRegionBytes = 0;
    bool completionModeration = false;
    bool completionTimestamps = false;
    int activeMtuBytes = 0;
    std::string linkLayer;  // "Ethernet" (RoCE), "InfiniBand"
    std::string rate;       // "100 Gb/sec (4X EDR)"
};

struct LinkInfo {
    std::string backend;            // "sim-shm", "sim-inprocess", "verbs"
    std::string peer;               // "pid 1234", "192.168.1.10:18515"
    std::string localDevice;        // the RDMA device the link uses ("mlx5_0", "rxe0"); "" for sim
    LinkCapabilities capabilities;  // probed at creation (verbs)
    std::uint16_t protocolVersion = 0;
    Hello peerHello;
};

// Control messages that could not be decoded: counted, reported with the reason, skipped.
struct ControlStats {
    std::uint64_t received = 0;
    std::uint64_t malformed = 0;
    std::string lastError;
};

class Link {
public:
    virtual ~Link() = default;

    // Waits for a front end, exchanges Hello/HelloAck. Unavailable when none came in time;
    // Cancelled once interrupt() was called.
    [[nodiscard]] virtual Result<LinkInfo> accept(std::chrono::milliseconds timeout) = 0;
    // From any thread: a waiting accept() returns Cancelled within a few milliseconds (a user
    // who stops while no front end has come yet), and so does every later one until reset().
    virtual void interrupt() noexcept = 0;
    // The ring the front end writes into (owned by the link, valid until it is destroyed).
    [[nodiscard]] virtual RingView ring() const noexcept = 0;
    // Sends RingAdvert for the whole ring with every slot credited.
    [[nodiscard]] virtual Status advertiseRing() = 0;

    [[nodiscard]] virtual Status sendControl(const ControlMessage& message) = 0;
    // The next control message from the front end, or nullopt after timeout. A malformed one
    // is counted in controlStats() and skipped. Also checks the peer is alive: Unavailable
    // (with the reason) once it is gone.
    [[nodiscard]] virtual Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout) = 0;

    [[nodiscard]] virtual ControlStats controlStats() const = 0;

    // Moves up to out.size() completions into out; waits up to timeout when there are none.
    // Returns how many were written; 0 after a timeout. No allocation, no lock.
    [[nodiscard]] virtual std::size_t pollCompletions(std::span<Completion> out, std::chrono::microseconds timeout) = 0;

    // Tells the front end every slot before freedThrough (cumulative count) is free again.
    // Non-allocating; called from rx in batches.
    [[nodiscard]] virtual Status returnCredits(std::uint64_t freedThrough) = 0;

    // Drops the session (front end lost or stopping) and prepares a fresh one: accept() may be
    // called again. ring() may point elsewhere afterwards.
    [[nodiscard]] virtual Status reset() = 0;
};

}  // namespace sonolink::transport
