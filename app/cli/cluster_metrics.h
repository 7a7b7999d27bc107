// The cluster coordinator's counts and its hosts' health in Prometheus text format, for
// `sonolink-cli cluster run --metrics-port P` (served by MetricsEndpoint::serve): frames complete,
// incomplete, dropped and never seen; partials late, duplicate and refused; per host whether it is
// up, its partials, missing frames, losses, bytes received and last partial latency; the added
// latency's p50 and p99. Thread contract: a pure function of the snapshot it is given.
#pragma once

#include <string>

#include "sonolink/cluster/cluster_coordinator.h"

namespace sonolink::cli {

[[nodiscard]] std::string clusterPrometheusText(const cluster::CoordinatorStats& stats);

}  // namespace sonolink::cli
