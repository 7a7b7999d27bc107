// What `sonolink-cli cluster run` prints: each coordinator event as a JSON line, and the summary
// (frames complete, incomplete, dropped and never seen; each host's health; the added latency,
// last part in -> image ready; the bytes on the wire per frame against the partial's size).
// Thread contract: the coordinator's thread (its callbacks) only.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "sonolink/cluster/cluster_coordinator.h"

namespace sonolink::cli {

struct FrameTally {
    std::uint64_t shown = 0, complete = 0, incomplete = 0;
    std::int64_t firstReadyNs = 0, lastReadyNs = 0;
    void add(const cluster::FinishedFrame& frame);
};

[[nodiscard]] nlohmann::json eventJson(const cluster::CoordinatorEvent& event);
void printSummary(const cluster::ClusterFile& file, const cluster::CoordinatorSummary& summary, const FrameTally& tally, bool asJson);

}  // namespace sonolink::cli
