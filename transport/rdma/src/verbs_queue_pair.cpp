#include "verbs_queue_pair.h"

#include <array>

#include <poll.h>

namespace sonolink::transport::rdma {
namespace {

Result<CompletionQueue> createCq(ibv_context* context, ibv_comp_channel* channel, int depth) {
    CompletionQueue cq(ibv_create_cq(context, depth, nullptr, channel, 0));
    if (!cq) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_create_cq", errno, "the device's max_cqe (ibv_devinfo -v)"));
    if (ibv_req_notify_cq(cq.get(), 0) != 0) return fail(verbsError(ErrorCode::Internal, "ibv_req_notify_cq", errno));
    return cq;
}

}  // namespace

Result<std::unique_ptr<VerbsQueuePair>> VerbsQueuePair::create(CmId id, ibv_pd* pd, int sendDepth, int receiveDepth, int maxSge) {
    std::unique_ptr<VerbsQueuePair> qp(new VerbsQueuePair(std::move(id)));
    ibv_context* context = qp->id_->verbs;
    for (auto* c : {&qp->send_, &qp->receive_}) {
        c->channel.reset(ibv_create_comp_channel(context));
        if (!c->channel) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_create_comp_channel", errno));
    }
    auto sendCq = createCq(context, qp->send_.channel.get(), sendDepth);
    if (!sendCq) return fail(std::move(sendCq.error()));
    qp->send_.cq = std::move(*sendCq);
    auto receiveCq = createCq(context, qp->receive_.channel.get(), receiveDepth);
    if (!receiveCq) return fail(std::move(receiveCq.error()));
    qp->receive_.cq = std::move(*receiveCq);
    ibv_qp_init_attr attr{};
    attr.send_cq = qp->send_.cq.get();
    attr.recv_cq = qp->receive_.cq.get();
    attr.qp_type = IBV_QPT_RC;
    attr.cap.max_send_wr = static_cast<std::uint32_t>(sendDepth);
    attr.cap.max_recv_wr = static_cast<std::uint32_t>(receiveDepth);
    attr.cap.max_send_sge = static_cast<std::uint32_t>(maxSge);
    attr.cap.max_recv_sge = 1;
    if (rdma_create_qp(qp->id_.get(), pd, &attr) != 0) {
        return fail(verbsError(ErrorCode::ResourceExhausted, "rdma_create_qp (ibv_create_qp)", errno,
                               "queue depths against the device's max_qp_wr, and the memlock limit (ulimit -l)"));
    }
    return qp;
}

VerbsQueuePair::~VerbsQueuePair() {
    if (id_ && id_->qp) rdma_destroy_qp(id_.get());  // before the CQs it uses
}

Status VerbsQueuePair::moderateReceive(std::uint16_t count, std::uint16_t periodUs) {
    ibv_modify_cq_attr attr{};
    attr.attr_mask = IBV_CQ_ATTR_MODERATE;
    attr.moderate.cq_count = count;
    attr.moderate.cq_period = periodUs;
    if (const int rc = ibv_modify_cq(receive_.cq.get(), &attr); rc != 0) {
        return fail(verbsError(ErrorCode::Unimplemented, "ibv_modify_cq (CQ moderation)", rc));
    }
    return {};
}

int VerbsQueuePair::poll(Queue queue, std::span<ibv_wc> out, std::chrono::microseconds timeout, bool busyPoll) {
    auto& c = queue == Queue::Send ? send_ : receive_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const int n = ibv_poll_cq(c.cq.get(), static_cast<int>(out.size()), out.data());
        if (n != 0) return n;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return 0;
        if (busyPoll) continue;
        // Arm, re-check (a completion may have arrived before arming), then sleep on the fd.
        if (ibv_req_notify_cq(c.cq.get(), 0) != 0) return -1;
        const int again = ibv_poll_cq(c.cq.get(), static_cast<int>(out.size()), out.data());
        if (again != 0) return again;
        pollfd fd{c.channel->fd, POLLIN, 0};
        const auto waitMs = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
        if (::poll(&fd, 1, static_cast<int>(waitMs)) > 0) {
            ibv_cq* cq = nullptr;
            void* context = nullptr;
            if (ibv_get_cq_event(c.channel.get(), &cq, &context) == 0) ibv_ack_cq_events(cq, 1);
        }
    }
}

Result<std::unique_ptr<ControlEndpoint>> ControlEndpoint::create(std::unique_ptr<VerbsQueuePair> qp, ibv_pd* pd) {
    std::unique_ptr<ControlEndpoint> endpoint(new ControlEndpoint(std::move(qp)));
    endpoint->buffers_.resize(std::size_t(kReceiveSlots + kSendSlots) * kMaxControlMessage);
    endpoint->mr_.reset(ibv_reg_mr(pd, endpoint->buffers_.data(), endpoint->buffers_.size(), IBV_ACCESS_LOCAL_WRITE));
    if (!endpoint->mr_) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_reg_mr (control buffers)", errno, "the memlock limit (ulimit -l)"));
    for (int slot = 0; slot < kReceiveSlots; ++slot) {
        if (auto posted = endpoint->postReceive(slot); !posted) return fail(std::move(posted.error()));
    }
    return endpoint;
}

Status ControlEndpoint::postReceive(int slot) {
    ibv_sge sge{reinterpret_cast<std::uint64_t>(buffers_.data() + std::size_t(slot) * kMaxControlMessage), static_cast<std::uint32_t>(kMaxControlMessage),
                mr_->lkey};
    ibv_recv_wr wr{};
    wr.wr_id = static_cast<std::uint64_t>(slot);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (const int rc = ibv_post_recv(qp_->qp(), &wr, &bad); rc != 0) return fail(verbsError(ErrorCode::Internal, "ibv_post_recv (control)", rc));
    return {};
}

Status ControlEndpoint::reapSends(std::chrono::milliseconds timeout) {
    std::array<ibv_wc, 16> wc{};
    const int n = qp_->poll(VerbsQueuePair::Queue::Send, wc, timeout, false);
    if (n < 0) return fail(ErrorCode::Internal, "polling the control send queue failed");
    for (int i = 0; i < n; ++i) {
        --sendsInFlight_;
        if (wc[static_cast<std::size_t>(i)].status != IBV_WC_SUCCESS) {
            return fail(ErrorCode::Unavailable, fmt::format("control message not delivered: {} (the peer is gone or the connection failed)",
                                                            ibv_wc_status_str(wc[static_cast<std::size_t>(i)].status)));
        }
    }
    return {};
}

Status ControlEndpoint::send(const ControlMessage& message) {
    while (sendsInFlight_ >= kSendSlots) {
        if (auto reaped = reapSends(std::chrono::milliseconds(100)); !reaped) return reaped;
    }
    if (sendsInFlight_ > 0) {  // take what completed, without waiting
        if (auto reaped = reapSends(std::chrono::milliseconds(0)); !reaped) return reaped;
    }
    const int slot = kReceiveSlots + nextSend_;
    nextSend_ = (nextSend_ + 1) % kSendSlots;
    auto* bytes = buffers_.data() + std::size_t(slot) * kMaxControlMessage;
    const auto length = encodeControlMessageInto(message, ++sequence_, std::span<std::byte, kMaxControlMessage>(bytes, kMaxControlMessage));
    ibv_sge sge{reinterpret_cast<std::uint64_t>(bytes), static_cast<std::uint32_t>(length), mr_->lkey};
    ibv_send_wr wr{};
    wr.wr_id = static_cast<std::uint64_t>(slot);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND;
    wr.send_flags = IBV_SEND_SIGNALED;
    ibv_send_wr* bad = nullptr;
    if (const int rc = ibv_post_send(qp_->qp(), &wr, &bad); rc != 0) {
        return fail(verbsError(ErrorCode::Unavailable, "ibv_post_send (control)", rc, "the connection state"));
    }
    ++sendsInFlight_;
    return {};
}

Result<std::optional<ControlMessage>> ControlEndpoint::receive(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        std::array<ibv_wc, 1> wc{};
        const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - std::chrono::steady_clock::now());
        const int n = qp_->poll(VerbsQueuePair::Queue::Receive, wc, std::max(left, std::chrono::microseconds(0)), false);
        if (n < 0) return fail(ErrorCode::Internal, "polling the control receive queue failed");
        if (n == 0) return std::optional<ControlMessage>{};
        const auto& c = wc[0];
        if (c.status != IBV_WC_SUCCESS) {
            return fail(ErrorCode::Unavailable, fmt::format("control connection failed: {}", ibv_wc_status_str(c.status)));
        }
        const int slot = static_cast<int>(c.wr_id);
        ++stats_.received;
        auto decoded = decodeControlMessage(std::span<const std::byte>(buffers_.data() + std::size_t(slot) * kMaxControlMessage, c.byte_len));
        if (auto reposted = postReceive(slot); !reposted) return fail(std::move(reposted.error()));
        if (decoded) return std::optional<ControlMessage>(std::move(decoded->message));
        ++stats_.malformed;
        stats_.lastError = decoded.error().message();
        (void)send(ErrorReport{static_cast<std::uint16_t>(decoded.error().code()), 0, "rejected your control message: " + decoded.error().message()});
    }
}

Status keepQueuePair(bool isControl, std::unique_ptr<VerbsQueuePair> qp, ibv_pd* pd, std::unique_ptr<ControlEndpoint>& control,
                     std::unique_ptr<VerbsQueuePair>& data) {
    if (!isControl) {
        data = std::move(qp);
        return {};
    }
    auto endpoint = ControlEndpoint::create(std::move(qp), pd);
    if (!endpoint) return fail(std::move(endpoint.error()));
    control = std::move(*endpoint);
    return {};
}

}  // namespace sonolink::transport::rdma
