// InProcessFrontEnd: a FrontEndSimulator on its own thread of this process, attached to an
// in-process SimLink: the built-in front end of the demo, of `sonolink-cli stream --in-process`
// and of the benchmarks and tests. Destruction stops and joins it.
// Thread contract: create/destroy on one thread; simulator() and result() after join().
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include "sonolink/transport/sim/front_end_simulator.h"
#include "sonolink/transport/sim/sim_front_end_port.h"
#include "sonolink/transport/sim/sim_link.h"

namespace sonolink::transport::sim {

class InProcessFrontEnd {
public:
    [[nodiscard]] static Result<std::unique_ptr<InProcessFrontEnd>> start(const SimLink& link, FrontEndOptions options);
    ~InProcessFrontEnd();
    InProcessFrontEnd(const InProcessFrontEnd&) = delete;
    InProcessFrontEnd& operator=(const InProcessFrontEnd&) = delete;

    void join();
    [[nodiscard]] const FrontEndSimulator& simulator() const noexcept { return *simulator_; }
    [[nodiscard]] const Status& result() const noexcept { return result_; }

private:
    InProcessFrontEnd(std::unique_ptr<SimFrontEndPort> port, FrontEndOptions options);
    std::unique_ptr<SimFrontEndPort> port_;
    std::unique_ptr<FrontEndSimulator> simulator_;
    std::atomic<bool> stop_{false};
    Status result_;
    std::thread thread_;
};

}  // namespace sonolink::transport::sim
