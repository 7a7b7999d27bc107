// FabricEngine: the state behind a Fabric. Callers' threads post requests (listen, connect, send,
// close, describe) to a queue and wake the UCX worker; the progress thread owns the UCX context,
// worker, listeners and endpoints and makes every ucp_* call. UCX's C callbacks only record what
// happened (a message, a connection request, an endpoint error); the loop acts on it after
// ucp_worker_progress returns, so user callbacks never run inside UCX.
// Payload buffers are recycled through a BufferPool (buffer_pool.h).
// Thread contract: the "any thread" section may be called concurrently; the rest is the progress
// thread's, except peers_ (peersMutex_), requests_ (requestMutex_) and buffers_ (its own mutex).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <ucp/api/ucp.h>

#include "buffer_pool.h"
#include "sonolink/transport/ucx/ucx_fabric.h"
#include "sonolink/util/log.h"
#include "sonolink/util/result.h"

namespace sonolink::transport::ucx::detail {

using Clock = std::chrono::steady_clock;

inline constexpr const char* kShuttingDown = "the UCX fabric is shutting down";

struct ListenRequest {
    std::string address;
    std::uint16_t port;
    std::promise<Result<std::uint16_t>> result;
};
struct ConnectRequest {
    std::string address;
    std::uint16_t port;
    std::promise<Result<PeerId>> result;
};
struct SendRequest {
    PeerId peer;
    std::uint16_t kind;
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
};
struct CloseRequest {
    PeerId peer;
};
struct DescribeRequest {
    PeerId peer;
    std::promise<Result<std::string>> result;
};
using Request = std::variant<ListenRequest, ConnectRequest, SendRequest, CloseRequest, DescribeRequest>;

// What callers see of a peer. Connecting peers are not handed out yet.
enum class PeerState { Connecting, Open, Lost, Closed };
struct PeerRecord {
    PeerState state;
    std::string address;
    std::string lossReason;
    PeerTraffic traffic;
};

// A received message, handed to onMessage after ucp_worker_progress returns.
struct Delivery {
    PeerId peer;
    std::uint16_t kind;
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
};

// The progress thread's endpoint: Connecting (a flush waits for the wire-up), Open, Flushing (our
// close: sends in flight get the grace), Failing (an operation failed: waiting for UCX's error
// handler before closing), ForceClosing (ucp_ep_close_nbx FORCE in flight).
enum class EndpointPhase { Connecting, Open, Flushing, Failing, ForceClosing };
struct Endpoint {
    ucp_ep_h handle;
    std::string address;
    EndpointPhase phase;
    Clock::time_point deadline;                                 // Connecting: connectTimeout; Flushing: closeGrace; Failing
    std::optional<std::promise<Result<PeerId>>> connectResult;  // while Connecting
    std::vector<Delivery> held;                                 // arrived while Connecting: delivered once connect() has its answer
};

class FabricEngine;

log::Category& ucxLog();  // the "ucx" log category

// Logs the exception being handled, naming what threw ("the send callback").
void reportException(const char* what) noexcept;

// Runs work that no exception may leave (a UCX C callback, the progress thread): one is logged.
template <typename Work> void containExceptions(const char* what, Work&& work) noexcept {
    try {
        std::forward<Work>(work)();
    } catch (...) {
        reportException(what);
    }
}

// What a UCX operation's callback needs; owned by an InFlight registry until it completes.
struct MessageOp {  // a send, or a rendezvous receive: UCX reads or writes these vectors until then
    FabricEngine* engine;
    PeerId peer;
    std::uint16_t kind;
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
};
struct EndpointOp {  // a flush (connect, graceful close) or a force-close
    FabricEngine* engine;
    PeerId peer;
};
struct KindHandler {  // the argument of the AM handler of one kind
    FabricEngine* engine;
    std::uint16_t kind;
};
struct Listener {
    FabricEngine* engine;
    ucp_listener_h handle;
    std::string address;
};

struct PendingAccept {
    Listener* listener;
    ucp_conn_request_h request;
};
struct EndpointFailure {
    ucp_ep_h handle;
    ucs_status_t status;
};

// Owns the state of UCX operations in flight, found again by the pointer UCX hands back as user data.
template <typename Op> class InFlight {
public:
    Op* add(Op op) {
        auto owned = std::make_unique<Op>(std::move(op));
        Op* raw = owned.get();
        ops_.emplace(raw, std::move(owned));
        return raw;
    }
    std::unique_ptr<Op> take(void* raw) {
        auto node = ops_.extract(static_cast<Op*>(raw));
        return node.empty() ? nullptr : std::move(node.mapped());
    }
    bool empty() const { return ops_.empty(); }
    std::size_t size() const { return ops_.size(); }

private:
    std::unordered_map<Op*, std::unique_ptr<Op>> ops_;
};

class FabricEngine {
public:
    FabricEngine(FabricOptions options, FabricCallbacks callbacks);
    ~FabricEngine();  // stops the progress thread (see shutdown())
    FabricEngine(const FabricEngine&) = delete;
    FabricEngine& operator=(const FabricEngine&) = delete;

    // --- any thread (ucx_fabric.cpp) ---
    Status start();  // starts the progress thread; returns once UCX is up, or why it is not
    Result<std::uint16_t> listen(const std::string& address, std::uint16_t port);
    Result<PeerId> connect(const std::string& address, std::uint16_t port);
    Status send(PeerId peer, std::uint16_t kind, std::vector<std::byte> header, std::vector<std::byte> payload);
    std::vector<std::byte> buffer(std::size_t size);
    void recycle(std::vector<std::byte> payload);
    void close(PeerId peer);
    PeerTraffic traffic(PeerId peer) const;
    std::size_t pendingSends() const { return pendingSends_.load(std::memory_order_relaxed); }
    std::size_t maxHeaderBytes() const { return maxHeaderBytes_; }
    Result<std::string> describeTransport(PeerId peer);

    // --- UCX callbacks (progress thread): record, act later ---
    static void onConnectionRequest(ucp_conn_request_h request, void* listener) noexcept;
    static void onEndpointError(void* engine, ucp_ep_h handle, ucs_status_t status) noexcept;
    static ucs_status_t onActiveMessage(void* handler, const void* header, std::size_t headerLength, void* data, std::size_t length,
                                        const ucp_am_recv_param_t* param) noexcept;
    static void onSendComplete(void* request, ucs_status_t status, void* op) noexcept;
    static void onReceiveComplete(void* request, ucs_status_t status, std::size_t length, void* op) noexcept;
    static void onConnectFlushed(void* request, ucs_status_t status, void* op) noexcept;
    static void onCloseFlushed(void* request, ucs_status_t status, void* op) noexcept;
    static void onEndpointClosed(void* request, ucs_status_t status, void* op) noexcept;

private:
    bool post(Request request);
    // Posts a request that carries a promise and waits for the progress thread's answer.
    template <typename T, typename RequestType> Result<T> ask(RequestType request);
    bool movePeer(PeerId peer, PeerState from, PeerState to, std::string reason = {});  // under peersMutex_; false if not in `from`
    bool onProgressThread() const { return std::this_thread::get_id() == thread_.get_id(); }
    std::string transportNote() const;  // "UCX_TLS=tcp" (and UCX_NET_DEVICES), for error messages

    // --- progress thread: fabric_progress.cpp ---
    void run(std::promise<Status> ready);
    Status openUcx();
    Status applySettings(ucp_config_t* config) const;
    Status createContext();
    Status createWorker();
    void closeUcx();
    void loop();
    bool progress();  // a batch of ucp_worker_progress calls and the work they leave; true if UCX may have more
    void idle();
    void waitForEvents();
    void runRequests();
    void handle(ListenRequest& request);
    void handle(ConnectRequest& request);
    void handle(SendRequest& request);
    void handle(CloseRequest& request);
    void handle(DescribeRequest& request);
    void runDeferredWork();
    void deliverMessages();
    void notifyAccepted(PeerId peer, const std::string& address);
    void notifyLost(PeerId peer, const std::string& reason);
    void expireDeadlines();
    void shutdown();
    void refuseRequests();
    void closeEverything();
    template <typename Function> void invokeCallback(const char* name, Function&& function);

    // --- progress thread: fabric_peers.cpp ---
    Result<std::uint16_t> startListener(const std::string& address, std::uint16_t port);
    void acceptPending();
    void accept(const PendingAccept& pending);
    void startConnect(ConnectRequest& request);
    void finishConnect(PeerId peer, ucs_status_t status);
    void failConnect(PeerId peer, Error error);  // answers connect(); the caller decides the endpoint's fate
    void awaitErrorHandler(PeerId peer);
    void handleFailures();
    void handleFailure(const EndpointFailure& failure);
    void beginClose(PeerId peer);
    void forceClose(PeerId peer);
    void releaseEndpoint(PeerId peer);
    PeerId addEndpoint(ucp_ep_h handle, std::string address, EndpointPhase phase);
    // Flushes the peer's endpoint: nullopt while in flight (callback follows), else how it completed.
    std::optional<ucs_status_t> startEndpointFlush(PeerId peer, ucp_send_nbx_callback_t callback);
    ucp_err_handler_t errorHandler() { return {.cb = &FabricEngine::onEndpointError, .arg = this}; }
    Endpoint* findEndpoint(PeerId peer);

    // --- progress thread: fabric_messages.cpp ---
    Status registerMessageHandlers();
    void startSend(SendRequest& request);
    void finishSend(void* op, ucs_status_t status);
    ucs_status_t receive(std::uint16_t kind, const void* header, std::size_t headerLength, void* data, std::size_t length, const ucp_am_recv_param_t& param);
    ucs_status_t startRendezvousReceive(PeerId peer, std::uint16_t kind, std::vector<std::byte> header, void* descriptor, std::size_t length);
    void finishReceive(void* op, ucs_status_t status);
    PeerId senderOf(const ucp_am_recv_param_t& param) const;

    const FabricOptions options_;
    const FabricCallbacks callbacks_;
    BufferPool buffers_;

    std::mutex requestMutex_;
    std::deque<Request> requests_;    // guarded by requestMutex_
    bool acceptingRequests_ = false;  // guarded by requestMutex_; true while the worker may be signalled
    bool sleeping_ = false;           // guarded by requestMutex_; the progress thread may be waiting for events: post() signals
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> pendingSends_{0};
    std::size_t maxHeaderBytes_ = 0;  // set before start() returns
    std::thread thread_;

    mutable std::mutex peersMutex_;
    std::unordered_map<PeerId, PeerRecord> peers_;  // guarded by peersMutex_

    // Progress thread only.
    ucp_context_h context_ = nullptr;
    ucp_worker_h worker_ = nullptr;
    int eventFd_ = -1;
    bool wakeUpFailed_ = false;  // ucp_worker_arm failed once (logged): the loop polls every kIdleWakeMs
    std::vector<KindHandler> kindHandlers_;
    std::vector<std::unique_ptr<Listener>> listeners_;
    std::unordered_map<PeerId, Endpoint> endpoints_;
    std::unordered_map<ucp_ep_h, PeerId> peerByHandle_;
    PeerId nextPeer_ = 1;
    InFlight<MessageOp> sends_;
    InFlight<MessageOp> receives_;
    InFlight<EndpointOp> endpointOps_;
    std::vector<PendingAccept> pendingAccepts_;
    std::vector<EndpointFailure> failures_;
    std::vector<Delivery> deliveries_;
    Clock::time_point lastActive_{};  // the last time UCX made progress, a request came or the thread woke up
};

}  // namespace sonolink::transport::ucx::detail
