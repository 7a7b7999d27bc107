#include "sonolink/transport/rdma/verbs_front_end_port.h"

#include <array>
#include <cstring>
#include <deque>

#include <arpa/inet.h>

#include "cm_events.h"
#include "sonolink/transport/protocol/block_header.h"
#include "verbs_queue_pair.h"

namespace sonolink::transport::rdma {
namespace {
constexpr std::size_t kHeaderSlots = 1024;
}

struct VerbsFrontEndPort::State {
    VerbsFrontEndOptions options;
    EventChannel events;
    ProtectionDomain pd;
    std::unique_ptr<ControlEndpoint> control;
    std::unique_ptr<VerbsQueuePair> data;
    std::vector<std::byte> headers;  // registered pool the 64-byte headers are sent from
    MemoryRegion headersMr;
    std::vector<std::byte> bounce;  // a block copied here to flip bits "in flight"
    MemoryRegion bounceMr;
    std::vector<MemoryRegion> payloadMrs;
    std::vector<ibv_send_wr> pending;
    std::vector<std::array<ibv_sge, 2>> pendingSge;
    std::deque<int> batches;  // writes per posted batch (one signaled completion each)
    int outstanding = 0;
    std::size_t nextHeader = 0;
    bool abandoned = false;
    ControlStats emptyStats;

    ~State() {
        if (abandoned) return;
        if (data) rdma_disconnect(data->id());
        if (control) rdma_disconnect(control->queuePair().id());
    }
    Result<std::uint32_t> lkeyOf(std::span<const std::byte> memory) const {
        const auto* begin = memory.data();
        for (const auto& mr : payloadMrs) {
            const auto* base = static_cast<const std::byte*>(mr->addr);
            if (begin >= base && begin + memory.size() <= base + mr->length) return mr->lkey;
        }
        return fail(ErrorCode::FailedPrecondition, "payload memory was not registered (registerPayloadMemory)");
    }
    Status reap(bool wait) {
        std::array<ibv_wc, 16> wc{};
        const int n = data->poll(VerbsQueuePair::Queue::Send, wc, wait ? std::chrono::microseconds(100'000) : std::chrono::microseconds(0), false);
        if (n < 0) return fail(ErrorCode::Internal, "polling the data send queue failed");
        for (int i = 0; i < n; ++i) {
            const auto& c = wc[static_cast<std::size_t>(i)];
            if (c.status != IBV_WC_SUCCESS) {
                return fail(ErrorCode::FailedPrecondition,
                            fmt::format("the host rejected a block write: {} (wrong rkey, or outside the registered ring)", ibv_wc_status_str(c.status)));
            }
            if (!batches.empty()) {
                outstanding -= batches.front();
                batches.pop_front();
            }
        }
        return {};
    }

    // One queue pair (tag 'C': control, 'D': data) resolved, created and connected to the host.
    Status connectQueuePair(char tag, sockaddr_in& host, const std::string& where) {
        rdma_cm_id* raw = nullptr;
        if (rdma_create_id(events.get(), &raw, nullptr, RDMA_PS_TCP) != 0) return fail(verbsError(ErrorCode::Unavailable, "rdma_create_id", errno));
        CmId id(raw);
        const int ms = static_cast<int>(options.timeout.count());
        if (rdma_resolve_addr(raw, nullptr, reinterpret_cast<sockaddr*>(&host), ms) != 0) {
            return fail(verbsError(ErrorCode::Unavailable, fmt::format("rdma_resolve_addr of {}", where), errno,
                                   "the host's address is reachable over an RDMA interface"));
        }
        if (auto ok = expectCmEvent(events.get(), raw, RDMA_CM_EVENT_ADDR_RESOLVED, options.timeout, "resolving " + where); !ok)
            return fail(std::move(ok.error()));
        if (rdma_resolve_route(raw, ms) != 0)
            return fail(verbsError(ErrorCode::Unavailable, "rdma_resolve_route", errno, "the GID table (ibv_devinfo -v) and the MTU"));
        if (auto ok = expectCmEvent(events.get(), raw, RDMA_CM_EVENT_ROUTE_RESOLVED, options.timeout, "route to " + where); !ok)
            return fail(std::move(ok.error()));
        if (!pd) {
            pd.reset(ibv_alloc_pd(raw->verbs));
            if (!pd) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_alloc_pd", errno));
        }
        const bool isControl = tag == 'C';
        auto qp = VerbsQueuePair::create(std::move(id), pd.get(), isControl ? ControlEndpoint::kSendSlots : options.sendQueueDepth,
                                         isControl ? ControlEndpoint::kReceiveSlots : 1, 2);
        if (!qp) return fail(std::move(qp.error()));
        rdma_cm_id* connecting = (*qp)->id();
        if (auto kept = keepQueuePair(isControl, std::move(*qp), pd.get(), control, data); !kept) return kept;
        rdma_conn_param param{};
        param.private_data = &tag;
        param.private_data_len = 1;
        param.responder_resources = 1;
        param.initiator_depth = 1;
        param.retry_count = 7;
        param.rnr_retry_count = 7;
        if (rdma_connect(connecting, &param) != 0) return fail(verbsError(ErrorCode::Unavailable, "rdma_connect", errno));
        if (auto ok = expectCmEvent(events.get(), connecting, RDMA_CM_EVENT_ESTABLISHED, options.timeout, "connecting to " + where); !ok) {
            return fail(std::move(ok.error()));
        }
        return {};
    }
};

Result<std::unique_ptr<VerbsFrontEndPort>> VerbsFrontEndPort::connect(const VerbsFrontEndOptions& options) {
    auto state = std::make_unique<State>();
    state->options = options;
    sockaddr_in host{};
    host.sin_family = AF_INET;
    host.sin_port = htons(static_cast<std::uint16_t>(options.port));
    if (inet_pton(AF_INET, options.hostAddress.c_str(), &host.sin_addr) != 1) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not an IPv4 address", options.hostAddress));
    }
    state->events.reset(rdma_create_event_channel());
    if (!state->events)
        return fail(verbsError(ErrorCode::Unavailable, "rdma_create_event_channel", errno, "that /dev/infiniband/rdma_cm exists (rdma_ucm loaded)"));
    const auto where = fmt::format("{}:{}", options.hostAddress, options.port);
    for (char tag : {'C', 'D'}) {
        if (auto ok = state->connectQueuePair(tag, host, where); !ok) return fail(std::move(ok.error()));
    }
    state->headers.resize(kHeaderSlots * kBlockHeaderSize);
    state->headersMr.reset(ibv_reg_mr(state->pd.get(), state->headers.data(), state->headers.size(), IBV_ACCESS_LOCAL_WRITE));
    if (!state->headersMr) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_reg_mr (headers)", errno, "the memlock limit (ulimit -l)"));
    state->pending.reserve(64);
    state->pendingSge.reserve(64);
    return std::unique_ptr<VerbsFrontEndPort>(new VerbsFrontEndPort(std::move(state)));
}

VerbsFrontEndPort::VerbsFrontEndPort(std::unique_ptr<State> state) : state_(std::move(state)) {}
VerbsFrontEndPort::~VerbsFrontEndPort() = default;

const ControlStats& VerbsFrontEndPort::controlStats() const noexcept { return state_->control ? state_->control->stats() : state_->emptyStats; }

Status VerbsFrontEndPort::sendControl(const ControlMessage& message) { return state_->control->send(message); }

Result<std::optional<ControlMessage>> VerbsFrontEndPort::receiveControl(std::chrono::milliseconds timeout) {
    auto& s = *state_;
    while (true) {
        auto event = waitCmEvent(s.events.get(), std::chrono::milliseconds(0));
        if (!event) return fail(std::move(event.error()));
        if (!*event) break;
        // rdma_cm cannot tell a host that closed from one that died: both end the session.
        if ((*event)->type == RDMA_CM_EVENT_DISCONNECTED) return fail(ErrorCode::Cancelled, "the host closed the connection (rdma_cm DISCONNECTED)");
    }
    if (s.outstanding > 0) {
        if (auto reaped = s.reap(false); !reaped) return fail(std::move(reaped.error()));
    }
    return s.control->receive(timeout);
}

Status VerbsFrontEndPort::registerPayloadMemory(std::span<const std::byte> memory) {
    MemoryRegion mr(ibv_reg_mr(state_->pd.get(), const_cast<std::byte*>(memory.data()), memory.size(), IBV_ACCESS_LOCAL_WRITE));
    if (!mr)
        return fail(verbsError(ErrorCode::ResourceExhausted, fmt::format("ibv_reg_mr of {} KiB of frame data", memory.size() / 1024), errno,
                               "the memlock limit (ulimit -l)"));
    state_->payloadMrs.push_back(std::move(mr));
    return {};
}

Status VerbsFrontEndPort::postWrite(const NicWrite& write) {
    auto& s = *state_;
    if (write.payloadResident) return fail(ErrorCode::Unimplemented, "resident payloads are a shared-memory benchmark mode, not a verbs one");
    ibv_send_wr wr{};
    std::array<ibv_sge, 2> sge{};
    int count = 0;
    if (!write.flipBits.empty()) {
        // Bit errors "in flight": send a damaged copy from the bounce buffer, synchronously.
        if (auto flushed = ringDoorbell(); !flushed) return flushed;
        while (s.outstanding > 0) {
            if (auto reaped = s.reap(true); !reaped) return reaped;
        }
        const auto length = write.header.size() + write.payload.size();
        if (s.bounce.size() < length) {
            s.bounceMr.reset();
            s.bounce.resize(length);
            s.bounceMr.reset(ibv_reg_mr(s.pd.get(), s.bounce.data(), s.bounce.size(), IBV_ACCESS_LOCAL_WRITE));
            if (!s.bounceMr) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_reg_mr (bounce buffer)", errno));
        }
        std::memcpy(s.bounce.data(), write.header.data(), write.header.size());
        std::memcpy(s.bounce.data() + write.header.size(), write.payload.data(), write.payload.size());
        for (auto bit : write.flipBits) {
            if (bit / 8 < length) s.bounce[bit / 8] ^= std::byte(1u << (bit % 8));
        }
        sge[count++] = ibv_sge{reinterpret_cast<std::uint64_t>(s.bounce.data()), static_cast<std::uint32_t>(length), s.bounceMr->lkey};
    } else {
        if (!write.header.empty()) {
            auto* slot = s.headers.data() + (s.nextHeader++ % kHeaderSlots) * kBlockHeaderSize;
            std::memcpy(slot, write.header.data(), std::min(write.header.size(), kBlockHeaderSize));
            sge[count++] = ibv_sge{reinterpret_cast<std::uint64_t>(slot), static_cast<std::uint32_t>(write.header.size()), s.headersMr->lkey};
        }
        if (!write.payload.empty()) {
            auto lkey = s.lkeyOf(write.payload);
            if (!lkey) return fail(std::move(lkey.error()));
            sge[count++] = ibv_sge{reinterpret_cast<std::uint64_t>(write.payload.data()), static_cast<std::uint32_t>(write.payload.size()), *lkey};
        }
    }
    s.pendingSge.push_back(sge);
    wr.opcode = write.withImmediate ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
    wr.imm_data = htonl(write.immediate);
    wr.num_sge = count;
    wr.wr.rdma.remote_addr = write.remoteAddress;
    wr.wr.rdma.rkey = write.rkey;
    s.pending.push_back(wr);
    if (!write.flipBits.empty()) return ringDoorbell();
    if (s.pending.size() >= 64) return ringDoorbell();
    return {};
}

Status VerbsFrontEndPort::ringDoorbell() {
    auto& s = *state_;
    if (s.pending.empty()) return {};
    const int n = static_cast<int>(s.pending.size());
    while (s.outstanding + n > s.options.sendQueueDepth) {
        if (auto reaped = s.reap(true); !reaped) return reaped;
    }
    for (int i = 0; i < n; ++i) {
        auto& wr = s.pending[static_cast<std::size_t>(i)];
        wr.sg_list = s.pendingSge[static_cast<std::size_t>(i)].data();
        wr.next = i + 1 < n ? &s.pending[static_cast<std::size_t>(i) + 1] : nullptr;
        wr.send_flags = i + 1 == n ? IBV_SEND_SIGNALED : 0;  // one completion per batch
    }
    ibv_send_wr* bad = nullptr;
    const int rc = ibv_post_send(s.data->qp(), s.pending.data(), &bad);
    s.pending.clear();
    s.pendingSge.clear();
    if (rc != 0) return fail(verbsError(ErrorCode::Unavailable, "ibv_post_send (block writes)", rc, "the connection state; the send queue depth"));
    s.outstanding += n;
    s.batches.push_back(n);
    return s.reap(false);
}

Status VerbsFrontEndPort::awaitWrites() {
    if (auto rung = ringDoorbell(); !rung) return rung;
    while (state_->outstanding > 0) {
        if (auto reaped = state_->reap(true); !reaped) return reaped;
    }
    return {};
}

void VerbsFrontEndPort::abandon() noexcept { state_->abandoned = true; }

}  // namespace sonolink::transport::rdma
