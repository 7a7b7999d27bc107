// ClusterCoordinator: the display host's side of a cluster. It listens for the acquisition hosts,
// admits each by the cluster file (its place, address and software version), sends them the plan
// with its hash and the shared clock's origin, joins their partials by trigger within the
// deadline, sums each frame in host order and hands it on, flagged when it lacks a host. A host's
// loss is noticed by UCX's peer error or its silence; a host that comes back rejoins at a new
// epoch. Every part and frame is counted, and the hosts' own counts are checked against them.
// Thread contract: run() blocks its caller, who receives the events and frames on that thread;
// stop() and health() may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/cluster/cluster_file.h"
#include "sonolink/cluster/cluster_messages.h"
#include "sonolink/cluster/frame_joiner.h"
#include "sonolink/util/result.h"

namespace sonolink::cluster {

// Done: it said Bye at the end and left.
enum class HostState { Waiting, Joined, Lost, Refused, Done };
[[nodiscard]] std::string_view toString(HostState state) noexcept;

struct HostHealth {
    std::string name;
    std::string address;  // where it connected from
    HostState state = HostState::Waiting;
    std::string lastProblem;  // why it was lost or refused
    std::uint64_t losses = 0;
    std::uint64_t bytesReceived = 0;  // partials: header and values
    std::int64_t lastHeardNs = 0;
    double partialLatencyMsLast = 0;  // beamformed on the host -> in here
    HostCounts reported;              // its own counts, from its heartbeats and Bye
    bool saidBye = false;
};

struct CoordinatorEvent {
    std::string kind;  // listening, host_joined, host_refused, plan_refused, host_lost, host_back, epoch, started, frame_incomplete, ended
    std::int64_t atNs = 0;
    int host = -1;
    std::uint32_t epoch = 0;
    std::uint64_t trigger = 0;
    std::string text;
};

struct FinishedFrame {
    std::uint64_t triggerSequence = 0;
    std::uint32_t epoch = 0;
    bool complete = false;
    std::vector<std::uint16_t> missingHosts;
    std::vector<float> sum;              // the partials summed in host order
    beamform::BeamformedImage envelope;  // after the full sum only
    std::int64_t lastInNs = 0;
    std::int64_t readyNs = 0;
};

struct CoordinatorSummary {
    JoinerCounts counts;
    std::vector<HostHealth> hosts;
    std::uint64_t firstTrigger = 0, lastTrigger = 0;
    std::vector<double> latencyMs;  // last part in -> image ready, one per frame shown
    double heldMsMax = 0;           // the longest a frame waited, first part in -> let go
    std::uint64_t corrupt = 0;      // parts whose header or values failed their checks
    bool countsAgree = false;       // each host's parts sent = parts here (joined, late, refused, duplicate, corrupt)
    std::string disagreement;
};

// A run-time imaging change: this plan from `afterNs` past the first trigger on, at a new epoch
// (every host takes it on the same frame boundary).
struct PlanChange {
    std::int64_t afterNs = 0;
    ClusterPlan plan;
};

// What the coordinator has counted so far, for a monitor (the Prometheus endpoint) while it runs.
struct CoordinatorStats {
    JoinerCounts counts;
    std::vector<HostHealth> hosts;
    double addedLatencyMsP50 = 0;  // over the last 1,024 frames shown
    double addedLatencyMsP99 = 0;
    std::uint32_t epoch = 0;
};

struct CoordinatorOptions {
    ClusterFile file;
    std::uint64_t session = 0;
    std::int64_t joinTimeoutNs = 10'000'000'000;  // start without the hosts not in by then
    std::int64_t durationNs = 10'000'000'000;
    std::function<void(const CoordinatorEvent&)> onEvent;
    std::function<void(FinishedFrame&)> onFrame;
    std::vector<PlanChange> planChanges;  // in time order
};

class ClusterCoordinator {
public:
    explicit ClusterCoordinator(CoordinatorOptions options);
    ~ClusterCoordinator();
    ClusterCoordinator(const ClusterCoordinator&) = delete;
    ClusterCoordinator& operator=(const ClusterCoordinator&) = delete;

    // Listens; the port bound (the file's, or a free one when it says 0).
    [[nodiscard]] Result<std::uint16_t> listen();
    [[nodiscard]] Result<CoordinatorSummary> run();
    void stop() noexcept;
    [[nodiscard]] std::vector<HostHealth> health() const;
    [[nodiscard]] CoordinatorStats stats() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sonolink::cluster
