// VerbsQueuePair: one reliable-connected queue pair of an rdma_cm connection, with a send and a
// receive completion queue, each with its completion channel, and a wait that is either
// event-driven (the channel's fd, no CPU while idle) or busy-polling. Also the small control endpoint built on it:
// registered send/receive buffers for control messages (SEND/RECV).
// Private to sonolink_transport_rdma. Thread contract: one thread at a time.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <vector>

#include "sonolink/transport/link.h"
#include "verbs_objects.h"

namespace sonolink::transport::rdma {

class VerbsQueuePair {
public:
    // Creates CQ, channel and QP on id (which it owns from now on).
    [[nodiscard]] static Result<std::unique_ptr<VerbsQueuePair>> create(CmId id, ibv_pd* pd, int sendDepth, int receiveDepth, int maxSge);
    ~VerbsQueuePair();
    VerbsQueuePair(const VerbsQueuePair&) = delete;
    VerbsQueuePair& operator=(const VerbsQueuePair&) = delete;

    [[nodiscard]] rdma_cm_id* id() const noexcept { return id_.get(); }
    [[nodiscard]] ibv_qp* qp() const noexcept { return id_->qp; }
    enum class Queue { Send, Receive };
    // Up to out.size() completions of one queue; waits up to timeout for the first (event
    // mode) or spins (busyPoll). A negative value is a failure of the CQ itself.
    [[nodiscard]] int poll(Queue queue, std::span<ibv_wc> out, std::chrono::microseconds timeout, bool busyPoll);
    // CQ moderation on the receive queue: one event per `count` completions or `periodUs`.
    // Unimplemented where the device does not support it (rxe).
    [[nodiscard]] Status moderateReceive(std::uint16_t count, std::uint16_t periodUs);

private:
    explicit VerbsQueuePair(CmId id) : id_(std::move(id)) {}
    struct Completions {
        CompletionChannel channel;
        CompletionQueue cq;
    };
    CmId id_;  // destroyed last (its QP is destroyed first, in ~VerbsQueuePair)
    Completions send_;
    Completions receive_;
};

// Control messages over a queue pair: receive buffers kept posted, sends from a small pool.
class ControlEndpoint {
public:
    [[nodiscard]] static Result<std::unique_ptr<ControlEndpoint>> create(std::unique_ptr<VerbsQueuePair> qp, ibv_pd* pd);
    [[nodiscard]] Status send(const ControlMessage& message);
    // The next message, nullopt after timeout; a malformed one is counted and skipped (its
    // reason in stats().lastError) and answered with ErrorReport.
    [[nodiscard]] Result<std::optional<ControlMessage>> receive(std::chrono::milliseconds timeout);
    [[nodiscard]] const ControlStats& stats() const noexcept { return stats_; }
    [[nodiscard]] VerbsQueuePair& queuePair() noexcept { return *qp_; }

    static constexpr int kReceiveSlots = 64;
    static constexpr int kSendSlots = 64;

private:
    explicit ControlEndpoint(std::unique_ptr<VerbsQueuePair> qp) : qp_(std::move(qp)) {}
    Status postReceive(int slot);
    Status reapSends(std::chrono::milliseconds timeout);

    std::unique_ptr<VerbsQueuePair> qp_;
    std::vector<std::byte> buffers_;  // receive slots, then send slots
    MemoryRegion mr_;
    int nextSend_ = 0;
    int sendsInFlight_ = 0;
    std::uint32_t sequence_ = 0;
    ControlStats stats_;
};

// A connection's queue pair kept where its kind says: the control endpoint built on it
// (isControl), or kept as the data queue pair.
[[nodiscard]] Status keepQueuePair(bool isControl, std::unique_ptr<VerbsQueuePair> qp, ibv_pd* pd, std::unique_ptr<ControlEndpoint>& control,
                                   std::unique_ptr<VerbsQueuePair>& data);

}  // namespace sonolink::transport::rdma
