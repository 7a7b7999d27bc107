// SimLink: the host end of the simulated link, a model of an RDMA NIC over shared memory.
// The front end (SimFrontEndPort, in this process or in sonolink-fe-sim) writes blocks into
// the ring and posts completions exactly as RDMA WRITE WITH IMMEDIATE would; control messages
// travel on their own channels. A named link lives in /dev/shm/<name> for a separate process.
// Liveness: each side stamps a heartbeat; receiveControl() reports a front end whose process
// died or whose heartbeat stopped. Thread contract: as Link (link.h).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "sonolink/transport/link.h"

namespace sonolink::transport::sim {

class SharedRegion;
class HeartbeatThread;

struct SimLinkOptions {
    std::string name;  // "" = in-process only; else /dev/shm/<name>
    std::uint32_t slotBytes = 256 * 1024;
    std::uint32_t slotCount = 256;
    std::chrono::milliseconds heartbeatTimeout{1000};
};

class SimLink final : public Link {
public:
    [[nodiscard]] static Result<std::unique_ptr<SimLink>> create(const SimLinkOptions& options);
    ~SimLink() override;

    Result<LinkInfo> accept(std::chrono::milliseconds timeout) override;
    void interrupt() noexcept override { interrupted_.store(true); }
    RingView ring() const noexcept override;
    Status advertiseRing() override;
    Status sendControl(const ControlMessage& message) override;
    Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout) override;
    ControlStats controlStats() const override { return controlStats_; }
    std::size_t pollCompletions(std::span<Completion> out, std::chrono::microseconds timeout) override;
    Status returnCredits(std::uint64_t freedThrough) override;
    Status reset() override;

    // For an in-process front end (SimFrontEndPort::attach(const SimLink&)).
    [[nodiscard]] std::shared_ptr<SharedRegion> region() const noexcept { return region_; }

private:
    SimLink(SimLinkOptions options, std::shared_ptr<SharedRegion> region);
    Status checkPeerAlive();
    void startSession();

    SimLinkOptions options_;
    std::shared_ptr<SharedRegion> region_;
    std::atomic<bool> interrupted_{false};
    std::uint32_t sendSequence_ = 0;
    std::uint32_t creditSequence_ = 0;
    std::unique_ptr<HeartbeatThread> heartbeat_;
    ControlStats controlStats_;
};

}  // namespace sonolink::transport::sim
