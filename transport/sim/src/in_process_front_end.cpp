#include "sonolink/transport/sim/in_process_front_end.h"

#include "sonolink/util/thread_affinity.h"

namespace sonolink::transport::sim {

Result<std::unique_ptr<InProcessFrontEnd>> InProcessFrontEnd::start(const SimLink& link, FrontEndOptions options) {
    auto port = SimFrontEndPort::attach(link);
    if (!port) return fail(std::move(port.error()));
    return std::unique_ptr<InProcessFrontEnd>(new InProcessFrontEnd(std::move(*port), std::move(options)));
}

InProcessFrontEnd::InProcessFrontEnd(std::unique_ptr<SimFrontEndPort> port, FrontEndOptions options)
    : port_(std::move(port)), simulator_(std::make_unique<FrontEndSimulator>(*port_, std::move(options))) {
    thread_ = std::thread([this] {
        nameCurrentThread("fe-sim");  // the front end's own thread: the hardware, not the engine
        try {
            result_ = simulator_->run(stop_);
        } catch (const std::exception& e) {  // the front end "fails": the host sees it go silent
            result_ = fail(ErrorCode::Internal, std::string("simulated front end: ") + e.what());
        }
    });
}

InProcessFrontEnd::~InProcessFrontEnd() { join(); }

void InProcessFrontEnd::join() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
}

}  // namespace sonolink::transport::sim
