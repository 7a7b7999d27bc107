// MetricsServer: the engine's statistics in Prometheus text format on http://127.0.0.1:<port>/metrics,
// for a lab's monitoring (off unless a port is configured). Loopback only; one small response per
// request; anything else gets 404. Runs on its own `metrics` thread.
// Thread contract: start/destroy from one thread; render is called on the metrics thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "sonolink/util/result.h"

namespace sonolink::app {

class MetricsServer {
public:
    using Render = std::function<std::string()>;
    // Binds 127.0.0.1:port now (FailedPrecondition naming the port if it cannot); port 0 picks one.
    [[nodiscard]] static Result<std::unique_ptr<MetricsServer>> start(int port, Render render);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;
    [[nodiscard]] int port() const noexcept { return port_; }

private:
    MetricsServer(int fd, int port, Render render);
    void run();
    int fd_;
    int port_;
    Render render_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace sonolink::app
