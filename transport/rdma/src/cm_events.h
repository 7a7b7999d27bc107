// waitCmEvent(): the next rdma_cm event of a channel, with a timeout, copied out and acked.
// Private to sonolink_transport_rdma. Thread contract: the thread that owns the channel.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "verbs_objects.h"

namespace sonolink::transport::rdma {

struct CmEvent {
    rdma_cm_event_type type = RDMA_CM_EVENT_ADDR_ERROR;
    rdma_cm_id* id = nullptr;
    int status = 0;
    char tag = 0;  // first byte of the private data ('C' control, 'D' data)
};

// nullopt after timeout (0 = do not wait).
[[nodiscard]] Result<std::optional<CmEvent>> waitCmEvent(rdma_event_channel* channel, std::chrono::milliseconds timeout);
// Waits for `expected` on id; any other event for it is an error naming both.
[[nodiscard]] Status expectCmEvent(rdma_event_channel* channel, rdma_cm_id* id, rdma_cm_event_type expected, std::chrono::milliseconds timeout,
                                   std::string_view step);

}  // namespace sonolink::transport::rdma
