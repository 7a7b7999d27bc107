#include "cm_events.h"

#include <poll.h>

namespace sonolink::transport::rdma {

Result<std::optional<CmEvent>> waitCmEvent(rdma_event_channel* channel, std::chrono::milliseconds timeout) {
    pollfd fd{channel->fd, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(timeout.count()));
    if (ready < 0) return fail(verbsError(ErrorCode::Internal, "poll on the rdma_cm event channel", errno));
    if (ready == 0) return std::optional<CmEvent>{};
    rdma_cm_event* event = nullptr;
    if (rdma_get_cm_event(channel, &event) != 0) {
        if (errno == EAGAIN) return std::optional<CmEvent>{};
        return fail(verbsError(ErrorCode::Internal, "rdma_get_cm_event", errno));
    }
    CmEvent copy{event->event, event->id, event->status, 0};
    if (event->param.conn.private_data && event->param.conn.private_data_len > 0) {
        copy.tag = *static_cast<const char*>(event->param.conn.private_data);
    }
    rdma_ack_cm_event(event);
    return std::optional<CmEvent>(copy);
}

Status expectCmEvent(rdma_event_channel* channel, rdma_cm_id* id, rdma_cm_event_type expected, std::chrono::milliseconds timeout, std::string_view step) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return fail(ErrorCode::DeadlineExceeded, fmt::format("{}: no {} within {} ms", step, rdma_event_str(expected), timeout.count()));
        auto event = waitCmEvent(channel, left);
        if (!event) return fail(std::move(event.error()));
        if (!*event || (*event)->id != id) continue;
        if ((*event)->type == expected) return {};
        const auto type = (*event)->type;
        std::string hint;
        if (type == RDMA_CM_EVENT_ADDR_ERROR) hint = "; check: the address is on an RDMA-capable interface (rdma link show)";
        if (type == RDMA_CM_EVENT_ROUTE_ERROR) hint = "; check: the GID table and the interface's IP address (ibv_devinfo -v)";
        if (type == RDMA_CM_EVENT_REJECTED) hint = "; check: the host is listening on that address and port";
        if (type == RDMA_CM_EVENT_UNREACHABLE) hint = "; check: the peer is up and the link is ACTIVE";
        return fail(ErrorCode::Unavailable,
                    fmt::format("{}: got {} (status {}) instead of {}{}", step, rdma_event_str(type), (*event)->status, rdma_event_str(expected), hint));
    }
}

}  // namespace sonolink::transport::rdma
