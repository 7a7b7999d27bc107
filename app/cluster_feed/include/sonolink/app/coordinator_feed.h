// CoordinatorFeed: the engine's ClusterFeed over the cluster's coordinator (docs/cluster.md):
// start() reads nothing new, it listens where the cluster file says and runs the coordinator on
// a thread of its own until stop(), which ends the hosts' session; each frame's envelope goes to
// the engine with its plan's grid and its flag, and health() is the coordinator's count per host.
// Thread contract: start() and stop() from one thread (the engine's ctl); health() from any.
#pragma once

#include <filesystem>
#include <memory>

#include "sonolink/cluster/cluster_coordinator.h"
#include "sonolink/engine/engine_backends.h"

namespace sonolink::app {

// The feed for this cluster file, or why not (the file's own errors, naming the field).
[[nodiscard]] Result<std::shared_ptr<engine::ClusterFeed>> coordinatorFeed(const std::filesystem::path& clusterFile);

// The coordinator's counts as the facade shows them: one row per host of the file, in its order
// (stats null: before any session, every host waiting).
[[nodiscard]] engine::ClusterHealth clusterHealthOf(const cluster::ClusterFile& file, const std::string& fileName, const cluster::CoordinatorStats* stats);

}  // namespace sonolink::app
