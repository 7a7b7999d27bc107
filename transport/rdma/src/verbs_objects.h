// RAII for rdma-core objects: each verbs object in a unique_ptr with its destroy function, so a
// class that declares them in creation order destroys them in reverse, as rc_pingpong's
// cleanup ladder does by hand. Plus the errno -> Error translation, one place for verbs.
// Private to sonolink_transport_rdma. Thread contract: plain owners.
#pragma once

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "sonolink/util/result.h"

namespace sonolink::transport::rdma {

struct EventChannelDeleter {
    void operator()(rdma_event_channel* c) const noexcept { rdma_destroy_event_channel(c); }
};
struct CmIdDeleter {
    void operator()(rdma_cm_id* id) const noexcept {
        if (id->qp) rdma_destroy_qp(id);
        rdma_destroy_id(id);
    }
};
struct PdDeleter {
    void operator()(ibv_pd* pd) const noexcept { ibv_dealloc_pd(pd); }
};
struct MrDeleter {
    void operator()(ibv_mr* mr) const noexcept { ibv_dereg_mr(mr); }
};
struct CompChannelDeleter {
    void operator()(ibv_comp_channel* c) const noexcept { ibv_destroy_comp_channel(c); }
};
struct CqDeleter {
    void operator()(ibv_cq* cq) const noexcept { ibv_destroy_cq(cq); }
};

using EventChannel = std::unique_ptr<rdma_event_channel, EventChannelDeleter>;
using CmId = std::unique_ptr<rdma_cm_id, CmIdDeleter>;
using ProtectionDomain = std::unique_ptr<ibv_pd, PdDeleter>;
using MemoryRegion = std::unique_ptr<ibv_mr, MrDeleter>;
using CompletionChannel = std::unique_ptr<ibv_comp_channel, CompChannelDeleter>;
using CompletionQueue = std::unique_ptr<ibv_cq, CqDeleter>;

// "what failed: strerror (errno N); check: hint"
[[nodiscard]] inline Error verbsError(ErrorCode code, std::string_view what, int err, std::string_view check = {}) {
    return Error(code, fmt::format("{} failed: {} (errno {}){}{}", what, std::strerror(err), err, check.empty() ? "" : "; check: ", check));
}

}  // namespace sonolink::transport::rdma
