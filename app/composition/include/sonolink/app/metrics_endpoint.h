// MetricsEndpoint: the engine's statistics and PACS queue in Prometheus text format on
// http://127.0.0.1:<port>/metrics, for a lab's monitoring: a client of the facade like the GUI,
// reading stats() and dicomQueue() on each scrape (which disturbs no other reader). Loopback only.
// Thread contract: start/destroy from one thread; destroy it before the engine it reads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sonolink/config/app_config.h"
#include "sonolink/engine/engine.h"

namespace sonolink::app {

class MetricsServer;

// The text /metrics serves for these statistics and queue items (a cluster's display host: its
// hosts' too, clusterPrometheusText).
[[nodiscard]] std::string prometheusText(const engine::EngineStats& stats, const std::vector<engine::QueueItem>& queue, bool queueConfigured);
// A cluster's counts and its hosts' health (sonolink_cluster_*): frames complete, incomplete,
// dropped and never seen; partials late, duplicate and refused; per host whether it is up, its
// partials, missing frames, losses, bytes received and last partial latency; the added latency.
// For the console's endpoint and `sonolink-cli cluster run --metrics-port`.
[[nodiscard]] std::string clusterPrometheusText(const engine::ClusterHealth& health);

class MetricsEndpoint {
public:
    // Binds 127.0.0.1:port (0: any free port); FailedPrecondition naming the port if it cannot.
    [[nodiscard]] static Result<std::unique_ptr<MetricsEndpoint>> start(const engine::Engine& engine, int port, bool queueConfigured);
    // Serves whatever `render` returns (called on the metrics thread at each scrape): the cluster
    // coordinator's, clusterPrometheusText, say.
    [[nodiscard]] static Result<std::unique_ptr<MetricsEndpoint>> serve(int port, std::function<std::string()> render);
    ~MetricsEndpoint();
    MetricsEndpoint(const MetricsEndpoint&) = delete;
    MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;
    [[nodiscard]] int port() const noexcept;

private:
    explicit MetricsEndpoint(std::unique_ptr<MetricsServer> server);
    std::unique_ptr<MetricsServer> server_;
};

// The endpoint the configuration asks for (metrics.prometheus_port), or null when it is off.
[[nodiscard]] Result<std::unique_ptr<MetricsEndpoint>> startMetrics(const config::AppConfig& config, const engine::Engine& engine);

}  // namespace sonolink::app
