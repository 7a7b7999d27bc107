// The progress thread: UCX set-up and tear-down, the loop that drives the worker, the requests
// callers post, the work UCX callbacks leave behind, and deadlines.
//
// Waiting: the loop calls ucp_worker_progress until it finds nothing to do (looking at the
// callers' requests every kProgressBatch calls meanwhile). Within kSpinAfterActivity of the last
// activity (UCX progress, a request, a wake-up) it polls again, yielding the core between passes:
// a message's next fragment and the next message follow within microseconds, and a sleep and a
// wake-up for each cost large messages a good part of their throughput on a small host. Past
// that, it arms the worker (ucp_worker_arm) and sleeps in poll() on the worker's event fd; UCX
// wakes it on network or shared-memory activity, and callers wake it with ucp_worker_signal (only
// when it may be asleep: one signal per burst of requests, not one per message). Idle, the thread
// takes no CPU; poll()'s timeout only paces the deadlines (connect timeout, close grace).
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <poll.h>
#include <sched.h>

#include <fmt/format.h>

#include "fabric_engine.h"
#include "sonolink/util/log.h"

namespace sonolink::transport::ucx::detail {
namespace {

constexpr int kIdleWakeMs = 10;                              // deadlines are checked at least this often
constexpr int kProgressBatch = 64;                           // ucp_worker_progress calls between two looks at the requests
constexpr std::chrono::microseconds kSpinAfterActivity{50};  // polling goes on this long after the last activity, then the thread sleeps
constexpr std::chrono::milliseconds kForceCloseWait{1000};   // after the grace: how long force-closes may take

// Whether a UCX_TLS value lets UCX pick a shared-memory transport ("shm", "sm", "mm", "posix",
// "sysv", "all", or an exclusion list "^..." that does not exclude shm as a whole).
bool mayUseSharedMemory(std::string_view transports) {
    const bool excluding = transports.starts_with('^');
    if (excluding) transports.remove_prefix(1);
    bool namesSharedMemory = false;
    bool namesAll = false;
    while (!transports.empty()) {
        const std::size_t comma = transports.find(',');
        const std::string_view name = transports.substr(0, comma);
        namesSharedMemory = namesSharedMemory || name == "shm" || name == "sm" || name == "mm" || (!excluding && (name == "posix" || name == "sysv"));
        namesAll = namesAll || name == "all";
        transports = comma == std::string_view::npos ? std::string_view{} : transports.substr(comma + 1);
    }
    return excluding ? !namesSharedMemory : namesSharedMemory || namesAll;
}

}  // namespace

log::Category& ucxLog() { return log::category("ucx"); }

void reportException(const char* callback) noexcept {
    try {
        throw;
    } catch (const std::exception& e) {
        log::error(ucxLog(), "{} of the UCX fabric failed: {}", callback, e.what());
    } catch (...) {
        log::error(ucxLog(), "{} of the UCX fabric failed with a non-standard exception", callback);
    }
}

void FabricEngine::run(std::promise<Status> ready) {
    Status opened = fail(ErrorCode::Internal, "UCX set-up threw");
    containExceptions("the UCX set-up", [&] { opened = openUcx(); });
    if (!opened) {
        closeUcx();
        ready.set_value(std::move(opened));
        return;
    }
    {
        std::lock_guard lock(requestMutex_);
        acceptingRequests_ = true;
    }
    ready.set_value({});
    loop();
    containExceptions("the UCX shut-down", [this] { shutdown(); });
}

Status FabricEngine::openUcx() {
    if (Status created = createContext(); !created) return created;
    if (Status created = createWorker(); !created) return created;
    return registerMessageHandlers();
}

// UCX_TLS and UCX_NET_DEVICES for this context only, two settings UCX 1.13 needs, and one for speed:
// - MM_ERROR_HANDLING: shared memory (posix, sysv) goes on an endpoint with peer-failure handling
//   only when those transports expose it; without it "tcp,shm,self" carries every message over TCP.
// - PROTO_ENABLE=n: the protocols that are experimental before UCX 1.15 abort in libucp on this
//   traffic (stack smashing, stubs.c assertion) when UCX_PROTO_ENABLE=y is in the environment.
// - UCX_TCP_TX_SEG_SIZE=64K (unless set in the environment): a message up to 64 KiB goes eager in
//   one segment, where the default 8 KiB segment sends anything past 8 KiB as rendezvous (a
//   request, a reply, then the data): about 3x the throughput at 24 KiB over TCP loopback. UCP
//   hands names it does not know to every transport's table, unprefixed: "TX_SEG_SIZE" (only
//   tcp has it; "TCP_TX_SEG_SIZE" would be silently ignored, checked with ucp_ep_print_info).
Status FabricEngine::applySettings(ucp_config_t* config) const {
    std::vector<std::pair<const char*, std::string>> settings{{"TLS", options_.transports}};
    if (std::getenv("UCX_TCP_TX_SEG_SIZE") == nullptr) settings.emplace_back("TX_SEG_SIZE", "64K");
    if (mayUseSharedMemory(options_.transports)) settings.emplace_back("MM_ERROR_HANDLING", "y");  // else UCX warns it is unused
    if (!options_.netDevices.empty()) settings.emplace_back("NET_DEVICES", options_.netDevices);
    unsigned major = 0, minor = 0, release = 0;
    ucp_get_version(&major, &minor, &release);
    if (major == 1 && minor < 15) settings.emplace_back("PROTO_ENABLE", "n");
    for (const auto& [name, value] : settings) {
        if (ucs_status_t status = ucp_config_modify(config, name, value.c_str()); status != UCS_OK) {
            return fail(ErrorCode::InvalidArgument, fmt::format("UCX rejected UCX_{}={}: {}", name, value, ucs_status_string(status)));
        }
    }
    return {};
}

Status FabricEngine::createContext() {
    ucp_config_t* config = nullptr;
    if (ucs_status_t status = ucp_config_read(nullptr, nullptr, &config); status != UCS_OK) {
        return fail(ErrorCode::Unavailable, fmt::format("UCX could not read its configuration: {}", ucs_status_string(status)));
    }
    if (Status applied = applySettings(config); !applied) {
        ucp_config_release(config);
        return applied;
    }
    ucp_params_t params{};
    params.field_mask = UCP_PARAM_FIELD_FEATURES;
    params.features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
    const ucs_status_t status = ucp_init(&params, config, &context_);
    ucp_config_release(config);
    if (status != UCS_OK) {
        context_ = nullptr;
        return fail(ErrorCode::Unavailable,
                    fmt::format("UCX could not start with {}: {} (ucx_info -d lists this host's transports)", transportNote(), ucs_status_string(status)));
    }
    return {};
}

Status FabricEngine::createWorker() {
    ucp_worker_params_t params{};
    params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    params.thread_mode = UCS_THREAD_MODE_SINGLE;  // only the progress thread touches it
    if (ucs_status_t status = ucp_worker_create(context_, &params, &worker_); status != UCS_OK) {
        worker_ = nullptr;
        return fail(ErrorCode::Unavailable, fmt::format("UCX could not create a worker ({}): {}", transportNote(), ucs_status_string(status)));
    }
    if (ucs_status_t status = ucp_worker_get_efd(worker_, &eventFd_); status != UCS_OK) {
        return fail(ErrorCode::Unavailable, fmt::format("UCX gave no wake-up fd ({}): {}", transportNote(), ucs_status_string(status)));
    }
    ucp_worker_attr_t attributes{};
    attributes.field_mask = UCP_WORKER_ATTR_FIELD_MAX_AM_HEADER;
    if (ucs_status_t status = ucp_worker_query(worker_, &attributes); status != UCS_OK) {
        return fail(ErrorCode::Unavailable, fmt::format("UCX could not describe its worker ({}): {}", transportNote(), ucs_status_string(status)));
    }
    maxHeaderBytes_ = attributes.max_am_header;
    return {};
}

void FabricEngine::closeUcx() {
    if (worker_ != nullptr) ucp_worker_destroy(worker_);
    if (context_ != nullptr) ucp_cleanup(context_);
    worker_ = nullptr;
    context_ = nullptr;
}

void FabricEngine::loop() {
    while (!stopping_.load()) {
        containExceptions("the progress loop", [this] {
            const bool busy = progress();
            runRequests();
            expireDeadlines();
            runDeferredWork();
            if (!busy) idle();
        });
    }
}

// Bounded, so that a steady stream of incoming messages cannot hold up the callers' requests.
bool FabricEngine::progress() {
    for (int call = 0; call < kProgressBatch; ++call) {
        const bool progressed = ucp_worker_progress(worker_) != 0;
        runDeferredWork();
        if (!progressed) return false;
        lastActive_ = Clock::now();
    }
    return true;
}

// Nothing to do right now: while UCX or a caller was active moments ago, the next event is likely
// close (the next fragment, the next message), so poll again, yielding the core to any other
// thread that is ready; else sleep until an event.
void FabricEngine::idle() {
    if (Clock::now() - lastActive_ < kSpinAfterActivity) {
        ::sched_yield();
        return;
    }
    waitForEvents();
}

void FabricEngine::waitForEvents() {
    {
        std::lock_guard lock(requestMutex_);
        if (!requests_.empty()) return;
        sleeping_ = true;  // from here on, post() signals the worker
    }
    const ucs_status_t armed = ucp_worker_arm(worker_);
    if (armed == UCS_ERR_BUSY) return;  // events came in meanwhile: progress them first
    if (armed != UCS_OK && !wakeUpFailed_) {
        wakeUpFailed_ = true;
        log::warn(ucxLog(), "UCX could not arm its worker for wake-up ({}): {}; polling every {} ms", transportNote(), ucs_status_string(armed), kIdleWakeMs);
    }
    pollfd wakeUp{.fd = eventFd_, .events = POLLIN, .revents = 0};
    if (::poll(&wakeUp, 1, kIdleWakeMs) > 0) lastActive_ = Clock::now();
}

void FabricEngine::runRequests() {
    std::deque<Request> batch;
    {
        std::lock_guard lock(requestMutex_);
        batch.swap(requests_);
    }
    if (!batch.empty()) lastActive_ = Clock::now();
    for (Request& request : batch) {
        containExceptions("a request to the progress thread", [&] { std::visit([this](auto& typed) { handle(typed); }, request); });
    }
}

void FabricEngine::handle(ListenRequest& request) { request.result.set_value(startListener(request.address, request.port)); }

void FabricEngine::handle(ConnectRequest& request) { startConnect(request); }

void FabricEngine::handle(SendRequest& request) { startSend(request); }

void FabricEngine::handle(CloseRequest& request) { beginClose(request.peer); }

void FabricEngine::handle(DescribeRequest& request) {
    const Endpoint* endpoint = findEndpoint(request.peer);
    if (endpoint == nullptr || endpoint->phase != EndpointPhase::Open) {
        request.result.set_value(fail(ErrorCode::NotFound, fmt::format("UCX peer {} is not open (unknown, lost or closed)", request.peer)));
        return;
    }
    char* text = nullptr;
    std::size_t length = 0;
    FILE* stream = ::open_memstream(&text, &length);
    if (stream == nullptr) {
        request.result.set_value(fail(ErrorCode::ResourceExhausted, "could not open a memory stream for ucp_ep_print_info"));
        return;
    }
    ucp_ep_print_info(endpoint->handle, stream);
    std::fclose(stream);
    std::string description(text, length);
    std::free(text);
    request.result.set_value(std::move(description));
}

void FabricEngine::runDeferredWork() {
    acceptPending();
    deliverMessages();
    handleFailures();
}

template <typename Function> void FabricEngine::invokeCallback(const char* name, Function&& function) {
    if (!stopping_.load()) containExceptions(name, std::forward<Function>(function));
}

void FabricEngine::deliverMessages() {
    if (deliveries_.empty()) return;
    std::vector<Delivery> batch;
    batch.swap(deliveries_);
    for (Delivery& delivery : batch) {
        if (Endpoint* endpoint = findEndpoint(delivery.peer); endpoint != nullptr && endpoint->phase == EndpointPhase::Connecting) {
            endpoint->held.push_back(std::move(delivery));  // connect() has no answer yet: the peer has no name for the caller
            continue;
        }
        {
            std::lock_guard lock(peersMutex_);
            if (auto found = peers_.find(delivery.peer); found != peers_.end()) {
                found->second.traffic.messagesReceived += 1;
                found->second.traffic.bytesReceived += delivery.header.size() + delivery.payload.size();
            }
        }
        if (callbacks_.onMessage) {
            invokeCallback("the onMessage callback", [&] { callbacks_.onMessage(delivery.peer, delivery.kind, delivery.header, std::move(delivery.payload)); });
        }
    }
}

void FabricEngine::notifyAccepted(PeerId peer, const std::string& address) {
    if (callbacks_.onPeerAccepted) invokeCallback("the onPeerAccepted callback", [&] { callbacks_.onPeerAccepted(peer, address); });
}

void FabricEngine::notifyLost(PeerId peer, const std::string& reason) {
    log::warn(ucxLog(), "UCX peer {} is lost: {}", peer, reason);
    if (callbacks_.onPeerLost) invokeCallback("the onPeerLost callback", [&] { callbacks_.onPeerLost(peer, reason); });
}

void FabricEngine::expireDeadlines() {
    const auto now = Clock::now();
    std::vector<PeerId> expired;
    for (const auto& [peer, endpoint] : endpoints_) {
        const bool waiting =
            endpoint.phase == EndpointPhase::Connecting || endpoint.phase == EndpointPhase::Flushing || endpoint.phase == EndpointPhase::Failing;
        if (waiting && endpoint.deadline <= now) expired.push_back(peer);
    }
    for (PeerId peer : expired) {
        Endpoint* endpoint = findEndpoint(peer);
        if (endpoint == nullptr) continue;
        if (endpoint->phase == EndpointPhase::Connecting) {
            failConnect(peer, Error(ErrorCode::DeadlineExceeded, fmt::format("UCX did not connect to {} within {} ms ({})", endpoint->address,
                                                                             options_.connectTimeout.count(), transportNote())));
        }
        forceClose(peer);
    }
}

// Stops taking requests, refuses what is queued, closes every endpoint (grace, then force) with a
// bounded wait, and destroys the worker and the context. No user callback runs any more.
void FabricEngine::shutdown() {
    refuseRequests();
    closeEverything();
    // Closed endpoints cancel their operations in later progress calls: wait for those too.
    const auto settled = [this] { return endpoints_.empty() && sends_.empty() && receives_.empty(); };
    const auto giveUp = Clock::now() + options_.closeGrace + kForceCloseWait;
    while (!settled() && Clock::now() < giveUp) {
        const bool busy = progress();
        expireDeadlines();
        runDeferredWork();
        if (!busy && !settled()) waitForEvents();
    }
    if (!settled()) {
        log::warn(ucxLog(), "UCX was still closing {} endpoints ({} sends, {} receives) after {} ms; destroying the worker anyway", endpoints_.size(),
                  sends_.size(), receives_.size(), (options_.closeGrace + kForceCloseWait).count());
    }
    closeUcx();
}

void FabricEngine::refuseRequests() {
    std::deque<Request> refused;
    {
        std::lock_guard lock(requestMutex_);
        acceptingRequests_ = false;
        refused.swap(requests_);
    }
    for (Request& request : refused) {
        std::visit(
            [this](auto& typed) {
                using Type = std::decay_t<decltype(typed)>;
                if constexpr (std::is_same_v<Type, SendRequest>) {
                    pendingSends_.fetch_sub(1, std::memory_order_relaxed);
                } else if constexpr (!std::is_same_v<Type, CloseRequest>) {
                    typed.result.set_value(fail(ErrorCode::Unavailable, kShuttingDown));
                }
            },
            request);
    }
}

void FabricEngine::closeEverything() {
    acceptPending();  // stopping_: rejects the connection requests not yet accepted
    for (const auto& listener : listeners_) ucp_listener_destroy(listener->handle);
    listeners_.clear();
    std::vector<PeerId> peers;
    for (const auto& [peer, endpoint] : endpoints_) peers.push_back(peer);
    for (PeerId peer : peers) {
        Endpoint* endpoint = findEndpoint(peer);
        if (endpoint == nullptr) continue;
        if (endpoint->phase == EndpointPhase::Connecting) {
            failConnect(peer, Error(ErrorCode::Unavailable, kShuttingDown));
            forceClose(peer);
        } else {
            beginClose(peer);
        }
    }
}

}  // namespace sonolink::transport::ucx::detail
