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

#include "sonolink/transport/front_end_port.h"
#include "sonolink/transport/link.h"
#include "sonolink/transport/protocol/control_messages.h"
#include "sonolink/util/result.h"

namespace sonolink::transport::sim {

class SharedRegion;
class SimLink;
class HeartbeatThread;

class SimFrontEndPort final : public FrontEndPort {
public:
    [[nodiscard]] static Result<std::unique_ptr<SimFrontEndPort>> attach(const std::string& linkName);
    [[nodiscard]] static Result<std::unique_ptr<SimFrontEndPort>> attach(const SimLink& link);
    ~SimFrontEndPort();  // detaches cleanly unless abandon() was called
    SimFrontEndPort(const SimFrontEndPort&) = delete;
    SimFrontEndPort& operator=(const SimFrontEndPort&) = delete;

    Status sendControl(const ControlMessage& message) override;
    // Credits first, then other control messages (see FrontEndPort).
    Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout) override;

    // Sends bytes as they are (protocol conformance tests: malformed messages).
    [[nodiscard]] Status sendRawControl(std::span<const std::byte> bytes);
    const ControlStats& controlStats() const noexcept override { return controlStats_; }

    Status registerPayloadMemory(std::span<const std::byte>) override { return {}; }  // shared memory: nothing to pin
    Status postWrite(const NicWrite& write) override;
    Status awaitWrites() override { return ringDoorbell(); }  // writes are copies made at postWrite
    Status ringDoorbell() override;
    [[nodiscard]] Status checkHostAlive();

    // Simulates a crash: stops the heartbeat and leaves without detaching.
    void abandon() noexcept override;
    std::uint64_t sessionId() const noexcept override;

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
