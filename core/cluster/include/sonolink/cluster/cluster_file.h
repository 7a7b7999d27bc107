// The cluster file an engineer writes (JSON; docs/cluster.md): where the coordinator listens, the
// UCX transports, the timing (frame rate, deadline, heartbeat, host-loss bound, policy for an
// incomplete frame), the simulated acquisition the hosts' front ends run, the imaging, and the
// hosts with their addresses and channel ranges. From it comes the one ClusterPlan.
// Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sonolink/cluster/cluster_plan.h"
#include "sonolink/cluster/frame_joiner.h"
#include "sonolink/util/result.h"

namespace sonolink::cluster {

struct ClusterHost {
    std::string name;
    std::string address;  // where it connects from; "" = anywhere
    int firstChannel = 0;
    int channelCount = 0;
};

struct ClusterTiming {
    double frameRateHz = 10;
    double deadlineFrames = 2;  // a frame waits this many frame periods after its first part
    int heartbeatMs = 20;
    int hostLostMs = 80;  // no word from a host for this long: lost
    IncompletePolicy incomplete = IncompletePolicy::ShowFlagged;
    [[nodiscard]] std::int64_t periodNs() const noexcept { return static_cast<std::int64_t>(1e9 / frameRateHz); }
    [[nodiscard]] std::int64_t deadlineNs() const noexcept { return static_cast<std::int64_t>(deadlineFrames * 1e9 / frameRateHz); }
};

// The front ends' simulated scene (transport/sim's standard phantom), the same on every host.
struct SimulatedScene {
    double pitchM = 0.3e-3;
    double centerFrequencyHz = 5e6;
    double samplingRateHz = 40e6;
    int samples = 1600;
    double soundSpeedMps = 1540;
    int distinctFrames = 4;  // frames rendered once, then cycled by trigger
};

struct ClusterFile {
    std::string coordinatorAddress = "127.0.0.1";
    std::uint16_t coordinatorPort = 0;
    std::string ucxTransports = "tcp";
    std::string ucxNetDevices;
    ClusterTiming timing;
    SimulatedScene scene;
    std::vector<ClusterHost> hosts;
    ClusterPlan plan;  // built from the acquisition, imaging, hosts and timing
};

// InvalidArgument "cluster file <where>: <field>: <what is wrong>"; NotFound for a missing file.
[[nodiscard]] Result<ClusterFile> parseClusterFile(std::string_view json, std::string_view where);
[[nodiscard]] Result<ClusterFile> readClusterFile(const std::filesystem::path& path);

}  // namespace sonolink::cluster
