// makeLink(): the composition root's choice of link backend: the simulated link (shared memory
// for sonolink-fe-sim, or with the built-in front end on a thread of this process) or the
// rdma-core verbs link when it was built. Nothing else in the product names a backend.
// Thread contract: call from one thread; the returned objects follow their own contracts.
#pragma once

#include <memory>
#include <string>

#include "sonolink/transport/link.h"
#include "sonolink/transport/sim/in_process_front_end.h"

namespace sonolink::app {

struct LinkChoice {
    enum class Backend { SimShared, SimInProcess, Verbs };
    Backend backend = Backend::SimInProcess;
    std::string name = "sonolink0";  // SimShared: /dev/shm/<name>
    std::string address;             // Verbs: local IP to listen on
    int port = 18515;                // Verbs
    bool busyPoll = false;           // Verbs
    bool hugePages = false;          // Verbs
    std::uint32_t slotBytes = 256 * 1024;
    std::uint32_t slotCount = 256;
    transport::sim::FrontEndOptions frontEnd;  // SimInProcess: the built-in front end (e.g. replaying)
};

struct LinkParts {
    std::unique_ptr<transport::Link> link;
    std::unique_ptr<transport::sim::InProcessFrontEnd> frontEnd;  // SimInProcess only
};

[[nodiscard]] Result<LinkParts> makeLink(const LinkChoice& choice);

}  // namespace sonolink::app
