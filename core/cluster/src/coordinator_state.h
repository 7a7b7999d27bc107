// The coordinator's state on its own thread (cluster_coordinator.h): the fabric and inbox, the
// hosts and their peers, the joiner, the epoch and the shared clock, and the summary's tallies.
// Thread contract: everything but `health` (guarded by healthMutex) and `stopping` belongs to
// the thread in run().
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <optional>

#include "inbox.h"
#include "sonolink/cluster/cluster_coordinator.h"
#include "sonolink/transport/ucx/ucx_fabric.h"

namespace sonolink::cluster {

using transport::ucx::Fabric;
using transport::ucx::PeerId;

struct ClusterCoordinator::Impl {
    explicit Impl(CoordinatorOptions o);

    CoordinatorOptions options;
    const ClusterFile& file;
    ClusterPlan plan;  // the plan in effect now (the file's, then each change's)
    std::uint64_t hash;
    std::map<std::uint32_t, ClusterPlan> plans;  // by epoch: a frame is finished by its own
    std::size_t changesMade = 0;
    Inbox inbox;
    std::unique_ptr<Fabric> fabric;
    std::atomic<bool> stopping{false};
    mutable std::mutex healthMutex;
    std::vector<HostHealth> health;             // guarded by healthMutex
    JoinerCounts countsNow;                     // guarded by healthMutex: the joiner's, after each pass
    std::vector<double> recentLatencyMs;        // guarded by healthMutex: the last 1,024 frames'
    std::uint32_t epochNow = 0;                 // guarded by healthMutex
    std::map<PeerId, std::string> addresses;    // accepted peers
    std::map<PeerId, int> hostOf;               // admitted peers
    std::vector<std::optional<PeerId>> peerOf;  // per host: its connection now
    std::map<PeerId, std::uint64_t> partsFrom;  // every part a connection sent, whatever became of it
    std::map<PeerId, HostCounts> byes;
    FrameJoiner joiner;
    std::uint32_t epoch = 0;
    bool started = false;
    std::int64_t originNs = 0;
    std::int64_t lastHeartbeatNs = 0;
    CoordinatorSummary summary;

    void emit(CoordinatorEvent event);
    template <typename F> void withHealth(int host, F change) {
        std::lock_guard lock(healthMutex);
        change(health[static_cast<std::size_t>(host)]);
    }
    [[nodiscard]] std::uint64_t triggerAt(std::int64_t ns) const noexcept;
    void send(PeerId peer, MessageKind kind, std::vector<std::byte> header, std::vector<std::byte> payload = {});
    void sendPlan(PeerId peer, std::uint64_t fromTrigger);
    void start();
    void newEpoch(std::string why);
    void changePlans(std::int64_t nowNs);
    void handle(Inbound& item);
    void admit(const Inbound& item);
    void refuse(PeerId peer, int host, std::string reason);
    void takePartial(Inbound& item);
    void takePlanAnswer(const Inbound& item, int host);
    void hostHeard(PeerId peer, int host, std::int64_t atNs);
    void lose(int host, std::string reason);
    void finish(std::vector<JoinedFrame> frames);
    void keepTime(std::int64_t nowNs);
    void publishStats();
    void pump(std::int64_t untilNs);
    void end();
    void checkCounts();
};

}  // namespace sonolink::cluster
