// InProcessFrontEnd: runs a FrontEndSimulator on its own thread against an in-process SimLink,
// for tests and benchmarks. The destructor stops and joins it.
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include "sonolink/transport/sim/front_end_simulator.h"
#include "sonolink/transport/sim/sim_front_end_port.h"
#include "sonolink/transport/sim/sim_link.h"

namespace sonolink::test {

class InProcessFrontEnd {
public:
    InProcessFrontEnd(const transport::sim::SimLink& link, transport::sim::FrontEndOptions options) {
        auto port = transport::sim::SimFrontEndPort::attach(link);
        if (!port) throw std::runtime_error(port.error().describe());
        port_ = std::move(*port);
        simulator_ = std::make_unique<transport::sim::FrontEndSimulator>(*port_, std::move(options));
        thread_ = std::thread([this] { result_ = simulator_->run(stop_); });
    }
    ~InProcessFrontEnd() { join(); }
    void join() {
        stop_.store(true);
        if (thread_.joinable()) thread_.join();
    }
    // After join():
    [[nodiscard]] const transport::sim::FrontEndSimulator& simulator() const { return *simulator_; }
    [[nodiscard]] const Status& result() const { return result_; }

private:
    std::unique_ptr<transport::sim::SimFrontEndPort> port_;
    std::unique_ptr<transport::sim::FrontEndSimulator> simulator_;
    std::atomic<bool> stop_{false};
    Status result_;
    std::thread thread_;
};

}  // namespace sonolink::test
