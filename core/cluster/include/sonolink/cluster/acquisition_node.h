// AcquisitionNode: one acquisition host of a cluster. It connects to the coordinator over UCX,
// says which host it is, takes the plan (refusing, with the reason, one of another software
// version or whose hash is not the one it computes or was told to expect), then at each trigger
// of the shared clock beamforms its own channels into a partial and sends it; a new epoch's plan
// applies from its first trigger. Heartbeats carry its counts; Stop ends it with a Bye.
// Thread contract: run() blocks its caller until the end; stop() may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "sonolink/cluster/cluster_messages.h"
#include "sonolink/cluster/cluster_plan.h"
#include "sonolink/util/result.h"

namespace sonolink::cluster {

struct NodeOptions {
    std::uint32_t host = 0;
    std::string coordinatorAddress = "127.0.0.1";
    std::uint16_t coordinatorPort = 0;
    std::string ucxTransports = "tcp";
    std::string ucxNetDevices;
    int heartbeatMs = 20;
    int coordinatorLostMs = 500;                  // no word from the coordinator this long: end
    int connectWaitMs = 30000;                    // a coordinator not listening yet: try again until then
    std::optional<std::uint64_t> expectPlanHash;  // refuse any other plan
    std::string softwareVersion;                  // what this host runs (its build's)
    std::size_t mostSendsInFlight = 4;            // past this a trigger is skipped, not queued
};

// The host's channels for one trigger (waves x its channels x samples of the plan's geometry),
// valid until the next call. The front end: the link, or the simulator.
using ChannelSource = std::function<std::span<const std::int16_t>(const ClusterPlan& plan, std::uint64_t trigger)>;

struct NodeSummary {
    HostCounts counts;
    std::uint32_t lastEpoch = 0;
    std::string endReason;  // "stopped by the coordinator", "coordinator lost: ...", "plan refused: ..."
    bool refusedPlan = false;
};

class AcquisitionNode {
public:
    AcquisitionNode(NodeOptions options, ChannelSource source);
    ~AcquisitionNode();
    AcquisitionNode(const AcquisitionNode&) = delete;
    AcquisitionNode& operator=(const AcquisitionNode&) = delete;

    // Until the coordinator says Stop, is lost, or stop() is called. An error when it cannot
    // connect or is turned away.
    [[nodiscard]] Result<NodeSummary> run();
    void stop() noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sonolink::cluster
