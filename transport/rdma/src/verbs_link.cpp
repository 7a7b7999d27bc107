#include "sonolink/transport/rdma/verbs_link.h"

#include <array>
#include <random>

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/mman.h>

#include "cm_events.h"
#include "sonolink/transport/rdma/rdma_devices.h"
#include "sonolink/transport/host_handshake.h"
#include "sonolink/util/log.h"
#include "verbs_queue_pair.h"

namespace sonolink::transport::rdma {
namespace {

constexpr int kMaxCompletionBatch = 64;

Result<sockaddr_in> parseAddress(const std::string& address, int port) {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(port));
    if (inet_pton(AF_INET, address.c_str(), &sa.sin_addr) != 1) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not an IPv4 address", address));
    }
    return sa;
}

struct RingMemory {
    void* base = MAP_FAILED;
    std::size_t bytes = 0;
    ~RingMemory() {
        if (base != MAP_FAILED) ::munmap(base, bytes);
    }

    // Maps ringBytes for the ring, every page populated now (in 2 MiB huge pages when asked,
    // rounded up to whole ones); a failure says what to check.
    Status map(std::size_t ringBytes, bool hugePages) {
        constexpr std::size_t kHugePage = 2u << 20;
        bytes = hugePages ? (ringBytes + kHugePage - 1) / kHugePage * kHugePage : ringBytes;
        const int hugeFlag = hugePages ? MAP_HUGETLB : 0;
        base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | hugeFlag, -1, 0);
        if (base == MAP_FAILED) {
            return fail(verbsError(ErrorCode::ResourceExhausted, fmt::format("mmap of a {} MiB ring{}", ringBytes >> 20, hugePages ? " in huge pages" : ""),
                                   errno,
                                   hugePages ? fmt::format("reserved huge pages: grep Huge /proc/meminfo; reserve {} with "
                                                           "echo {} > /proc/sys/vm/nr_hugepages, or run without huge pages",
                                                           bytes / kHugePage, bytes / kHugePage)
                                             : "free memory"));
        }
        return {};
    }
};

// The device's limits and its port's link, as rdma_devices lists them (nothing where it cannot).
void fillDeviceCapabilities(LinkCapabilities& caps, const std::string& deviceName, int portNumber) {
    auto devices = listRdmaDevices();
    if (!devices) return;
    for (const auto& d : *devices) {
        if (d.name != deviceName) continue;
        caps.firmware = d.caps.firmware;
        caps.maxQueuePairWorkRequests = d.caps.maxQpWr;
        caps.maxCompletionQueueEntries = d.caps.maxCqe;
        caps.maxScatterGatherEntries = d.caps.maxSge;
        caps.maxMemoryRegionBytes = d.caps.maxMrSize;
        caps.completionModeration = d.caps.maxCqModerationCount > 0;
        caps.completionTimestamps = d.caps.completionTimestamps;
        for (const auto& p : d.ports) {
            if (p.portNumber != portNumber) continue;
            caps.activeMtuBytes = p.activeMtuBytes;
            caps.linkLayer = p.linkLayer;
            caps.rate = p.rate;
        }
    }
}

}  // namespace

// Members in creation order: destroyed in reverse (connections before the PD before the channel).
struct VerbsLink::State {
    std::atomic<bool> interrupted{false};
    VerbsLinkOptions options;
    RingMemory ring;
    EventChannel events;
    CmId listener;
    ProtectionDomain pd;
    MemoryRegion ringMr;
    std::unique_ptr<ControlEndpoint> control;
    std::unique_ptr<VerbsQueuePair> data;
    std::mutex sendMutex;
    std::uint64_t lastHeardNs = 0;
    std::string dataError;
    std::vector<ibv_recv_wr> recvWrs;
    LinkCapabilities caps;

    void dropConnections() {
        if (control && control->queuePair().id()) rdma_disconnect(control->queuePair().id());
        if (data && data->id()) rdma_disconnect(data->id());
        data.reset();
        control.reset();
        dataError.clear();
    }
    Status postDataReceives(std::size_t count) {
        if (count == 0) return {};
        for (std::size_t i = 0; i < count; ++i) {
            recvWrs[i] = ibv_recv_wr{};
            recvWrs[i].next = i + 1 < count ? &recvWrs[i + 1] : nullptr;
        }
        ibv_recv_wr* bad = nullptr;
        if (const int rc = ibv_post_recv(data->qp(), recvWrs.data(), &bad); rc != 0) {
            return fail(verbsError(ErrorCode::Internal, "ibv_post_recv (data)", rc));
        }
        return {};
    }
    Status acceptConnection(const CmEvent& e);
};

static std::uint64_t nowNs() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

Result<std::unique_ptr<VerbsLink>> VerbsLink::create(const VerbsLinkOptions& options) {
    auto state = std::make_unique<State>();
    state->options = options;
    if (options.slotBytes < 4096 || options.slotBytes % 4096 != 0 || options.slotCount < 2) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("ring of {} slots of {} bytes: slots must be multiples of 4096, at least 2", options.slotCount, options.slotBytes));
    }
    const std::size_t bytes = std::size_t(options.slotBytes) * options.slotCount;
    if (const auto memlock = checkMemlock(bytes); !memlock.sufficient) return fail(ErrorCode::FailedPrecondition, memlock.advice);
    if (auto mapped = state->ring.map(bytes, options.hugePages); !mapped) return fail(std::move(mapped.error()));
    auto address = parseAddress(options.address, options.port);
    if (!address) return fail(std::move(address.error()));
    state->events.reset(rdma_create_event_channel());
    if (!state->events)
        return fail(verbsError(ErrorCode::Unavailable, "rdma_create_event_channel", errno, "that /dev/infiniband/rdma_cm exists (rdma_ucm loaded)"));
    rdma_cm_id* listener = nullptr;
    if (rdma_create_id(state->events.get(), &listener, nullptr, RDMA_PS_TCP) != 0) return fail(verbsError(ErrorCode::Unavailable, "rdma_create_id", errno));
    state->listener.reset(listener);
    if (rdma_bind_addr(listener, reinterpret_cast<sockaddr*>(&*address)) != 0) {
        return fail(verbsError(ErrorCode::Unavailable, fmt::format("rdma_bind_addr to {}:{}", options.address, options.port), errno,
                               "the address belongs to an RDMA device's netdev (rdma link show) and the port is free"));
    }
    if (!listener->verbs) {
        return fail(ErrorCode::Unavailable, fmt::format("{} is not the address of an RDMA-capable interface (rdma link show; ibv_devinfo)", options.address));
    }
    if (rdma_listen(listener, 4) != 0) return fail(verbsError(ErrorCode::Unavailable, "rdma_listen", errno));
    state->pd.reset(ibv_alloc_pd(listener->verbs));
    if (!state->pd) return fail(verbsError(ErrorCode::ResourceExhausted, "ibv_alloc_pd", errno));
    state->ringMr.reset(ibv_reg_mr(state->pd.get(), state->ring.base, bytes, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
    if (!state->ringMr) {
        return fail(verbsError(ErrorCode::ResourceExhausted, fmt::format("ibv_reg_mr of the {} MiB ring", bytes >> 20), errno,
                               "the memlock limit (ulimit -l) and the device's max_mr_size"));
    }
    state->recvWrs.resize(options.slotCount);
    // Capabilities up front: the engine shows them, and they bound what the link may ask for.
    const std::string deviceName = ibv_get_device_name(listener->verbs->device);
    state->caps.device = deviceName;
    fillDeviceCapabilities(state->caps, deviceName, listener->port_num > 0 ? listener->port_num : 1);
    if (state->caps.maxQueuePairWorkRequests != 0 && options.slotCount > state->caps.maxQueuePairWorkRequests) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} slots need {} receive work requests but {} allows {} per queue pair: use fewer, larger slots",
                                                            options.slotCount, options.slotCount, deviceName, state->caps.maxQueuePairWorkRequests));
    }
    log::info(log::category("link"), "verbs link listening on {}:{} ({}, ring {} x {} KiB, rkey 0x{:08x})", options.address, options.port,
              ibv_get_device_name(listener->verbs->device), options.slotCount, options.slotBytes / 1024, state->ringMr->rkey);
    return std::unique_ptr<VerbsLink>(new VerbsLink(std::move(state)));
}

VerbsLink::VerbsLink(std::unique_ptr<State> state) : state_(std::move(state)) {}

VerbsLink::~VerbsLink() { state_->dropConnections(); }

RingView VerbsLink::ring() const noexcept { return RingView{static_cast<std::byte*>(state_->ring.base), state_->options.slotBytes, state_->options.slotCount}; }

void VerbsLink::interrupt() noexcept { state_->interrupted.store(true); }

// A front end's connect request (tagged 'C' control or 'D' data): its queue pair made (the data
// one with every slot's receive posted, and CQ moderation where asked and supported) and accepted;
// a second of a kind, or another tag, is rejected.
Status VerbsLink::State::acceptConnection(const CmEvent& e) {
    CmId id(e.id);
    const bool isControl = e.tag == 'C';
    if ((e.tag != 'C' && e.tag != 'D') || (isControl ? control != nullptr : data != nullptr)) {
        rdma_reject(id.get(), nullptr, 0);
        return {};
    }
    const int sendDepth = isControl ? ControlEndpoint::kSendSlots : 1;
    const int receiveDepth = isControl ? ControlEndpoint::kReceiveSlots : static_cast<int>(options.slotCount);
    auto qp = VerbsQueuePair::create(std::move(id), pd.get(), sendDepth, receiveDepth, 1);
    if (!qp) return fail(std::move(qp.error()).addContext("accepting the front end"));
    rdma_cm_id* raw = (*qp)->id();
    if (auto kept = keepQueuePair(isControl, std::move(*qp), pd.get(), control, data); !kept) return kept;
    if (!isControl) {
        if (auto posted = postDataReceives(options.slotCount); !posted) return fail(std::move(posted.error()));
        if (!options.busyPoll && options.cqModerationCount > 1) {
            auto moderated = !caps.completionModeration ? Status(fail(ErrorCode::Unimplemented, "not supported"))
                                                        : data->moderateReceive(options.cqModerationCount, options.cqModerationPeriodUs);
            log::info(log::category("link"), "CQ moderation {}",
                      moderated ? fmt::format("on: {} completions or {} us per event", options.cqModerationCount, options.cqModerationPeriodUs)
                                : "not supported by this device: one event per completion burst");
        }
    }
    rdma_conn_param param{};
    param.responder_resources = 1;
    param.initiator_depth = 1;
    param.rnr_retry_count = 7;
    if (rdma_accept(raw, &param) != 0) return fail(verbsError(ErrorCode::Unavailable, "rdma_accept", errno));
    return {};
}

Result<LinkInfo> VerbsLink::accept(std::chrono::milliseconds timeout) {
    auto& s = *state_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool controlUp = false, dataUp = false;
    while (!controlUp || !dataUp) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            s.dropConnections();
            return fail(ErrorCode::Unavailable,
                        fmt::format("no front end connected to {}:{} within {} ms", s.options.address, s.options.port, timeout.count()));
        }
        if (s.interrupted.load()) {
            s.dropConnections();
            return fail(ErrorCode::Cancelled, "stopped while waiting for the front end");
        }
        auto event = waitCmEvent(s.events.get(), std::min(left, std::chrono::milliseconds(50)));  // short waits: interrupt() is seen
        if (!event) return fail(std::move(event.error()));
        if (!*event) continue;
        const auto& e = **event;
        if (e.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
            if (auto accepted = s.acceptConnection(e); !accepted) return fail(std::move(accepted.error()));
        } else if (e.type == RDMA_CM_EVENT_ESTABLISHED) {
            if (s.control && e.id == s.control->queuePair().id()) controlUp = true;
            if (s.data && e.id == s.data->id()) dataUp = true;
        } else if (e.type == RDMA_CM_EVENT_DISCONNECTED || e.type == RDMA_CM_EVENT_CONNECT_ERROR || e.type == RDMA_CM_EVENT_REJECTED) {
            s.dropConnections();
            return fail(ErrorCode::Unavailable, fmt::format("the front end's connection failed while being set up: {}", rdma_event_str(e.type)));
        }
    }
    s.lastHeardNs = nowNs();
    std::random_device random;
    auto hello =
        answerHello(*this, (std::uint64_t(random()) << 32) | random(),
                    std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()) + std::chrono::milliseconds(1000));
    if (!hello) return fail(std::move(hello.error()));
    LinkInfo info;
    info.backend = "verbs";
    char peer[64] = {};
    auto* sa = reinterpret_cast<sockaddr_in*>(rdma_get_peer_addr(s.control->queuePair().id()));
    inet_ntop(AF_INET, &sa->sin_addr, peer, sizeof peer);
    info.peer = fmt::format("{}:{} on {}", peer, ntohs(sa->sin_port), ibv_get_device_name(s.control->queuePair().id()->verbs->device));
    info.localDevice = ibv_get_device_name(s.control->queuePair().id()->verbs->device);
    info.capabilities = s.caps;
    info.protocolVersion = hello->version;
    info.peerHello = hello->peer;
    return info;
}

Status VerbsLink::advertiseRing() {
    const auto view = ring();
    return sendControl(RingAdvert{reinterpret_cast<std::uint64_t>(view.base), state_->ringMr->rkey, view.slotBytes, view.slotCount, view.slotCount});
}

Status VerbsLink::sendControl(const ControlMessage& message) {
    std::lock_guard lock(state_->sendMutex);
    if (!state_->control) return fail(ErrorCode::FailedPrecondition, "no front end connected");
    return state_->control->send(message);
}

Status VerbsLink::returnCredits(std::uint64_t freedThrough) { return sendControl(CreditReturn{freedThrough}); }

ControlStats VerbsLink::controlStats() const { return state_->control ? state_->control->stats() : ControlStats{}; }

Result<std::optional<ControlMessage>> VerbsLink::receiveControl(std::chrono::milliseconds timeout) {
    auto& s = *state_;
    if (!s.control) return fail(ErrorCode::FailedPrecondition, "no front end connected");
    // Connection events first: a front end that closed or died is reported by rdma_cm.
    while (true) {
        auto event = waitCmEvent(s.events.get(), std::chrono::milliseconds(0));
        if (!event) return fail(std::move(event.error()));
        if (!*event) break;
        if ((*event)->type == RDMA_CM_EVENT_DISCONNECTED || (*event)->type == RDMA_CM_EVENT_DEVICE_REMOVAL) {
            return fail(ErrorCode::Unavailable, fmt::format("the front end disconnected (rdma_cm {})", rdma_event_str((*event)->type)));
        }
    }
    if (!s.dataError.empty()) return fail(ErrorCode::Unavailable, s.dataError);
    std::optional<ControlMessage> message;
    {
        std::lock_guard lock(s.sendMutex);  // the endpoint's send and receive share its queue pair
        auto received = s.control->receive(timeout);
        if (!received) return fail(std::move(received.error()));
        message = std::move(*received);
    }
    const auto now = nowNs();
    if (message) {
        s.lastHeardNs = now;
        return message;
    }
    const auto limit = std::uint64_t(std::chrono::nanoseconds(s.options.heartbeatTimeout).count());
    if (now - s.lastHeardNs > limit) {
        return fail(ErrorCode::Unavailable, fmt::format("the front end sent no status for {:.1f} s", double(now - s.lastHeardNs) / 1e9));
    }
    return std::optional<ControlMessage>{};
}

std::size_t VerbsLink::pollCompletions(std::span<Completion> out, std::chrono::microseconds timeout) {
    auto& s = *state_;
    if (!s.data || !s.dataError.empty()) return 0;
    std::array<ibv_wc, kMaxCompletionBatch> wc{};
    const auto want = std::min<std::size_t>(out.size(), wc.size());
    const int n = s.data->poll(VerbsQueuePair::Queue::Receive, std::span(wc).first(want), timeout, s.options.busyPoll);
    if (n <= 0) {
        if (n < 0) s.dataError = "polling the data completion queue failed";
        return 0;
    }
    const auto stamp = nowNs();
    std::size_t good = 0;
    for (int i = 0; i < n; ++i) {
        const auto& c = wc[static_cast<std::size_t>(i)];
        if (c.status != IBV_WC_SUCCESS) {
            // The data QP is in error (e.g. the front end wrote with a wrong key or outside the ring):
            // the remaining receives are flushed, so no later completion maps to a slot any more.
            s.dataError =
                fmt::format("the data connection failed: {} (a write outside the ring or with a wrong rkey puts it in error)", ibv_wc_status_str(c.status));
            log::error(log::category("link"), "{}", s.dataError);
            break;
        }
        out[good++] = Completion{ntohl(c.imm_data), c.byte_len, CompletionStatus::Ok, stamp};
    }
    if (auto reposted = s.postDataReceives(good); !reposted) s.dataError = reposted.error().message();
    return good;
}

const LinkCapabilities& VerbsLink::capabilities() const noexcept { return state_->caps; }

Status VerbsLink::reset() {
    state_->dropConnections();
    state_->interrupted.store(false);
    return {};
}

}  // namespace sonolink::transport::rdma
