// The progress thread's peers: listeners and the connections they accept, client connections,
// endpoint errors, and closing (a flush with a grace, then a force-close).
#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "fabric_addresses.h"
#include "fabric_engine.h"
#include "sonolink/util/log.h"

namespace sonolink::transport::ucx::detail {
namespace {

constexpr std::chrono::milliseconds kErrorHandlerWait{500};  // UCX calls it in the same progress pass, in practice

std::string connectProblem(ucs_status_t status) {
    const bool unanswered =
        status == UCS_ERR_NOT_CONNECTED || status == UCS_ERR_UNREACHABLE || status == UCS_ERR_REJECTED || status == UCS_ERR_CONNECTION_RESET;
    if (unanswered) return fmt::format("{} (is a fabric listening there?)", ucs_status_string(status));
    return ucs_status_string(status);
}

std::string listenProblem(ucs_status_t status) {
    if (status == UCS_ERR_BUSY) return fmt::format("{} (is the port in use?)", ucs_status_string(status));
    return ucs_status_string(status);
}

}  // namespace

Result<std::uint16_t> FabricEngine::startListener(const std::string& address, std::uint16_t port) {
    auto where = resolveAddress(address, port);
    if (!where) return fail(std::move(where.error()));
    auto listener = std::make_unique<Listener>(Listener{.engine = this, .handle = nullptr, .address = hostPort(address, port)});
    ucp_listener_params_t params{};
    params.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER;
    params.sockaddr.addr = reinterpret_cast<const sockaddr*>(&where->storage);
    params.sockaddr.addrlen = where->length;
    params.conn_handler.cb = &FabricEngine::onConnectionRequest;
    params.conn_handler.arg = listener.get();
    if (ucs_status_t status = ucp_listener_create(worker_, &params, &listener->handle); status != UCS_OK) {
        return fail(ErrorCode::Unavailable, fmt::format("UCX could not listen on {}: {} ({})", listener->address, listenProblem(status), transportNote()));
    }
    ucp_listener_attr_t attributes{};
    attributes.field_mask = UCP_LISTENER_ATTR_FIELD_SOCKADDR;
    if (ucs_status_t status = ucp_listener_query(listener->handle, &attributes); status != UCS_OK) {
        ucp_listener_destroy(listener->handle);
        return fail(ErrorCode::Unavailable, fmt::format("UCX listens on {} but cannot say on which port: {}", listener->address, ucs_status_string(status)));
    }
    const std::uint16_t bound = portOf(attributes.sockaddr);
    listener->address = hostPort(address, bound);
    log::info(ucxLog(), "UCX listens on {} ({})", listener->address, transportNote());
    listeners_.push_back(std::move(listener));
    return bound;
}

void FabricEngine::onConnectionRequest(ucp_conn_request_h request, void* listenerArg) noexcept {
    auto* listener = static_cast<Listener*>(listenerArg);
    try {
        listener->engine->pendingAccepts_.push_back(PendingAccept{.listener = listener, .request = request});
    } catch (...) {
        ucp_listener_reject(listener->handle, request);
    }
}

void FabricEngine::acceptPending() {
    if (pendingAccepts_.empty()) return;
    std::vector<PendingAccept> batch;
    batch.swap(pendingAccepts_);
    for (const PendingAccept& pending : batch) {
        if (stopping_.load()) {
            ucp_listener_reject(pending.listener->handle, pending.request);
        } else {
            accept(pending);
        }
    }
}

void FabricEngine::accept(const PendingAccept& pending) {
    ucp_conn_request_attr_t attributes{};
    attributes.field_mask = UCP_CONN_REQUEST_ATTR_FIELD_CLIENT_ADDR;
    std::string address = ucp_conn_request_query(pending.request, &attributes) == UCS_OK ? formatAddress(attributes.client_address) : "an unknown address";
    ucp_ep_params_t params{};
    params.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER;
    params.conn_request = pending.request;
    params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    params.err_handler = errorHandler();
    ucp_ep_h handle = nullptr;
    if (ucs_status_t status = ucp_ep_create(worker_, &params, &handle); status != UCS_OK) {
        log::warn(ucxLog(), "UCX could not accept a connection from {} on {}: {} ({})", address, pending.listener->address, ucs_status_string(status),
                  transportNote());
        return;
    }
    const PeerId peer = addEndpoint(handle, address, EndpointPhase::Open);
    log::info(ucxLog(), "UCX accepted peer {} from {} on {}", peer, address, pending.listener->address);
    notifyAccepted(peer, address);
}

void FabricEngine::startConnect(ConnectRequest& request) {
    auto where = resolveAddress(request.address, request.port);
    if (!where) {
        request.result.set_value(fail(std::move(where.error())));
        return;
    }
    std::string address = hostPort(request.address, request.port);
    ucp_ep_params_t params{};
    params.field_mask = UCP_EP_PARAM_FIELD_FLAGS | UCP_EP_PARAM_FIELD_SOCK_ADDR | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER;
    params.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER;
    params.sockaddr.addr = reinterpret_cast<const sockaddr*>(&where->storage);
    params.sockaddr.addrlen = where->length;
    params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    params.err_handler = errorHandler();
    ucp_ep_h handle = nullptr;
    if (ucs_status_t status = ucp_ep_create(worker_, &params, &handle); status != UCS_OK) {
        request.result.set_value(
            fail(ErrorCode::Unavailable, fmt::format("UCX could not connect to {}: {} ({})", address, ucs_status_string(status), transportNote())));
        return;
    }
    const PeerId peer = addEndpoint(handle, std::move(address), EndpointPhase::Connecting);
    Endpoint& endpoint = endpoints_.at(peer);
    endpoint.deadline = Clock::now() + options_.connectTimeout;
    endpoint.connectResult = std::move(request.result);
    // The flush completes once the wire-up is done (or fails with the reason the connection failed).
    if (auto completed = startEndpointFlush(peer, &FabricEngine::onConnectFlushed)) finishConnect(peer, *completed);
}

void FabricEngine::onConnectFlushed(void* request, ucs_status_t status, void* opArg) noexcept {
    ucp_request_free(request);
    FabricEngine* engine = static_cast<EndpointOp*>(opArg)->engine;
    containExceptions("the connect flush callback", [&] {
        auto op = engine->endpointOps_.take(opArg);
        engine->finishConnect(op->peer, status);
    });
}

void FabricEngine::finishConnect(PeerId peer, ucs_status_t status) {
    Endpoint* endpoint = findEndpoint(peer);
    if (endpoint == nullptr || endpoint->phase != EndpointPhase::Connecting) return;  // failed or timed out meanwhile
    if (status != UCS_OK) {
        failConnect(peer, Error(ErrorCode::Unavailable,
                                fmt::format("UCX could not connect to {}: {} ({})", endpoint->address, connectProblem(status), transportNote())));
        awaitErrorHandler(peer);
        return;
    }
    endpoint->phase = EndpointPhase::Open;
    movePeer(peer, PeerState::Connecting, PeerState::Open);
    log::info(ucxLog(), "UCX connected to {} as peer {}", endpoint->address, peer);
    endpoint->connectResult->set_value(peer);
    endpoint->connectResult.reset();
    std::move(endpoint->held.begin(), endpoint->held.end(), std::back_inserter(deliveries_));
    endpoint->held.clear();
}

void FabricEngine::failConnect(PeerId peer, Error error) {
    Endpoint* endpoint = findEndpoint(peer);
    if (endpoint == nullptr || !endpoint->connectResult) return;
    std::promise<Result<PeerId>> result = std::move(*endpoint->connectResult);
    endpoint->connectResult.reset();
    movePeer(peer, PeerState::Connecting, PeerState::Lost, error.message());
    result.set_value(fail(std::move(error)));
}

void FabricEngine::onEndpointError(void* engineArg, ucp_ep_h handle, ucs_status_t status) noexcept {
    auto* engine = static_cast<FabricEngine*>(engineArg);
    containExceptions("the endpoint error handler", [&] { engine->failures_.push_back(EndpointFailure{.handle = handle, .status = status}); });
}

void FabricEngine::handleFailures() {
    if (failures_.empty()) return;
    std::vector<EndpointFailure> batch;
    batch.swap(failures_);
    for (const EndpointFailure& failure : batch) handleFailure(failure);
}

void FabricEngine::handleFailure(const EndpointFailure& failure) {
    auto found = peerByHandle_.find(failure.handle);
    if (found == peerByHandle_.end()) return;  // already released
    const PeerId peer = found->second;
    const Endpoint& endpoint = endpoints_.at(peer);
    switch (endpoint.phase) {
        case EndpointPhase::Connecting:
            failConnect(peer, Error(ErrorCode::Unavailable,
                                    fmt::format("UCX could not connect to {}: {} ({})", endpoint.address, connectProblem(failure.status), transportNote())));
            forceClose(peer);
            return;
        case EndpointPhase::Open: {
            std::string reason = fmt::format("UCX reported '{}' on the connection to {}", ucs_status_string(failure.status), endpoint.address);
            const bool lost = movePeer(peer, PeerState::Open, PeerState::Lost, reason);  // false if the user closed it meanwhile
            forceClose(peer);
            if (lost) notifyLost(peer, reason);
            return;
        }
        case EndpointPhase::Flushing:
        case EndpointPhase::Failing: forceClose(peer); return;
        case EndpointPhase::ForceClosing: return;
    }
}

void FabricEngine::beginClose(PeerId peer) {
    Endpoint* endpoint = findEndpoint(peer);
    if (endpoint == nullptr || endpoint->phase != EndpointPhase::Open) return;
    endpoint->phase = EndpointPhase::Flushing;
    endpoint->deadline = Clock::now() + options_.closeGrace;
    if (auto completed = startEndpointFlush(peer, &FabricEngine::onCloseFlushed)) {
        if (*completed == UCS_OK) {
            forceClose(peer);
        } else {
            awaitErrorHandler(peer);
        }
    }
}

void FabricEngine::onCloseFlushed(void* request, ucs_status_t status, void* opArg) noexcept {
    ucp_request_free(request);
    FabricEngine* engine = static_cast<EndpointOp*>(opArg)->engine;
    containExceptions("the close flush callback", [&] {
        auto op = engine->endpointOps_.take(opArg);
        const Endpoint* endpoint = engine->findEndpoint(op->peer);
        if (endpoint == nullptr || endpoint->phase != EndpointPhase::Flushing) return;
        if (status == UCS_OK) {
            engine->forceClose(op->peer);
        } else {
            engine->awaitErrorHandler(op->peer);
        }
    });
}

// UCX 1.13 asserts (wireup_ep.c: "async->signal.tid == ucs_get_tid()") when an endpoint is closed
// after an operation on it failed but before its error handler ran: wait for the handler first.
void FabricEngine::awaitErrorHandler(PeerId peer) {
    Endpoint* endpoint = findEndpoint(peer);
    if (endpoint == nullptr || endpoint->phase == EndpointPhase::ForceClosing) return;
    endpoint->phase = EndpointPhase::Failing;
    endpoint->deadline = Clock::now() + kErrorHandlerWait;
}

// Force mode: releases the endpoint at once, without waiting for the peer (which may be stopped or dead).
void FabricEngine::forceClose(PeerId peer) {
    Endpoint* endpoint = findEndpoint(peer);
    if (endpoint == nullptr || endpoint->phase == EndpointPhase::ForceClosing) return;
    endpoint->phase = EndpointPhase::ForceClosing;
    EndpointOp* op = endpointOps_.add(EndpointOp{.engine = this, .peer = peer});
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    param.cb.send = &FabricEngine::onEndpointClosed;
    param.user_data = op;
    ucs_status_ptr_t request = ucp_ep_close_nbx(endpoint->handle, &param);
    if (request == nullptr || UCS_PTR_IS_ERR(request)) {
        endpointOps_.take(op);
        releaseEndpoint(peer);
    }
}

void FabricEngine::onEndpointClosed(void* request, ucs_status_t, void* opArg) noexcept {
    ucp_request_free(request);
    FabricEngine* engine = static_cast<EndpointOp*>(opArg)->engine;
    containExceptions("the endpoint close callback", [&] {
        auto op = engine->endpointOps_.take(opArg);
        engine->releaseEndpoint(op->peer);
    });
}

void FabricEngine::releaseEndpoint(PeerId peer) {
    auto found = endpoints_.find(peer);
    if (found == endpoints_.end()) return;
    peerByHandle_.erase(found->second.handle);
    endpoints_.erase(found);
}

PeerId FabricEngine::addEndpoint(ucp_ep_h handle, std::string address, EndpointPhase phase) {
    const PeerId peer = nextPeer_++;
    const PeerState state = phase == EndpointPhase::Open ? PeerState::Open : PeerState::Connecting;
    {
        std::lock_guard lock(peersMutex_);
        peers_.emplace(peer, PeerRecord{.state = state, .address = address, .lossReason = {}, .traffic = {}});
    }
    peerByHandle_.emplace(handle, peer);
    endpoints_.emplace(peer, Endpoint{.handle = handle, .address = std::move(address), .phase = phase, .deadline = {}, .connectResult = {}, .held = {}});
    return peer;
}

std::optional<ucs_status_t> FabricEngine::startEndpointFlush(PeerId peer, ucp_send_nbx_callback_t callback) {
    EndpointOp* op = endpointOps_.add(EndpointOp{.engine = this, .peer = peer});
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param.cb.send = callback;
    param.user_data = op;
    ucs_status_ptr_t request = ucp_ep_flush_nbx(endpoints_.at(peer).handle, &param);
    if (request != nullptr && !UCS_PTR_IS_ERR(request)) return std::nullopt;
    endpointOps_.take(op);
    return UCS_PTR_STATUS(request);
}

Endpoint* FabricEngine::findEndpoint(PeerId peer) {
    auto found = endpoints_.find(peer);
    return found == endpoints_.end() ? nullptr : &found->second;
}

}  // namespace sonolink::transport::ucx::detail
