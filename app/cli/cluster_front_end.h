// ClusterFrontEnd: the simulated front ends of a cluster's hosts: transport/sim's standard
// phantom over the whole array of the plan, a few frames rendered once (each with its own noise)
// and cycled by trigger, each host given only its own channels. The same frames on every host and
// in `cluster reference`, so that a distributed image can be checked bit for bit.
// Thread contract: channels() from one thread at a time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sonolink/cluster/cluster_file.h"

namespace sonolink::cli {

class ClusterFrontEnd {
public:
    ClusterFrontEnd(const cluster::SimulatedScene& scene, const cluster::ClusterPlan& plan);
    // Host `host`'s channels at trigger `trigger` (waves x its channels x samples).
    [[nodiscard]] std::span<const std::int16_t> channels(std::size_t host, std::uint64_t trigger);

private:
    cluster::ClusterPlan plan_;
    std::vector<std::vector<std::int16_t>> frames_;  // whole-array frames
    std::vector<std::vector<std::int16_t>> slices_;  // [frame * hosts + host], made when first asked
};

}  // namespace sonolink::cli
