// Active messages on the progress thread. Every kind 0..kMessageKinds-1 has a handler; every send
// carries UCP_AM_SEND_FLAG_REPLY so the receiver learns the sender's endpoint (param->reply_ep),
// which names the peer. Eager data is copied in the handler; rendezvous data is fetched with
// ucp_am_recv_data_nbx into the message's own vector, started inside the handler (UCX 1.13 allows
// it: the handler then returns UCS_OK and UCX keeps the descriptor until the receive completes).
// The protocol is UCX's choice (no UCP_AM_SEND_FLAG_EAGER/RNDV): large payloads go zero-copy.
#include <fmt/format.h>

#include "fabric_engine.h"
#include "sonolink/util/log.h"

namespace sonolink::transport::ucx::detail {
namespace {

std::vector<std::byte> copyBytes(const void* data, std::size_t length) {
    const auto* begin = static_cast<const std::byte*>(data);
    return length == 0 ? std::vector<std::byte>{} : std::vector<std::byte>(begin, begin + length);
}

}  // namespace

Status FabricEngine::registerMessageHandlers() {
    kindHandlers_.reserve(kMessageKinds);  // stable addresses: each is a handler's argument
    for (std::uint16_t kind = 0; kind < kMessageKinds; ++kind) {
        kindHandlers_.push_back(KindHandler{.engine = this, .kind = kind});
        ucp_am_handler_param_t param{};
        param.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG | UCP_AM_HANDLER_PARAM_FIELD_FLAGS;
        param.id = kind;
        param.flags = UCP_AM_FLAG_WHOLE_MSG;
        param.cb = &FabricEngine::onActiveMessage;
        param.arg = &kindHandlers_.back();
        if (ucs_status_t status = ucp_worker_set_am_recv_handler(worker_, &param); status != UCS_OK) {
            return fail(ErrorCode::Unavailable, fmt::format("UCX could not register the handler of message kind {}: {}", kind, ucs_status_string(status)));
        }
    }
    return {};
}

void FabricEngine::startSend(SendRequest& request) {
    Endpoint* endpoint = findEndpoint(request.peer);
    if (endpoint == nullptr || endpoint->phase != EndpointPhase::Open) {
        log::warn(ucxLog(), "dropped a message of kind {} ({} bytes) for UCX peer {}: the peer was lost or closed after the send was queued", request.kind,
                  request.header.size() + request.payload.size(), request.peer);
        pendingSends_.fetch_sub(1, std::memory_order_relaxed);
        return;
    }
    MessageOp* op = sends_.add(
        MessageOp{.engine = this, .peer = request.peer, .kind = request.kind, .header = std::move(request.header), .payload = std::move(request.payload)});
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_MEMORY_TYPE;
    param.cb.send = &FabricEngine::onSendComplete;
    param.user_data = op;
    param.flags = UCP_AM_SEND_FLAG_REPLY;
    param.memory_type = UCS_MEMORY_TYPE_HOST;
    ucs_status_ptr_t sending =
        ucp_am_send_nbx(endpoint->handle, op->kind, op->header.data(), op->header.size(), op->payload.data(), op->payload.size(), &param);
    if (sending == nullptr || UCS_PTR_IS_ERR(sending)) finishSend(op, UCS_PTR_STATUS(sending));
}

void FabricEngine::onSendComplete(void* request, ucs_status_t status, void* opArg) noexcept {
    ucp_request_free(request);
    FabricEngine* engine = static_cast<MessageOp*>(opArg)->engine;
    containExceptions("the send callback", [&] { engine->finishSend(opArg, status); });
}

void FabricEngine::finishSend(void* opArg, ucs_status_t status) {
    std::unique_ptr<MessageOp> op = sends_.take(opArg);
    const std::size_t bytes = op->header.size() + op->payload.size();
    if (buffers_.used()) buffers_.give(std::move(op->payload));  // before the count drops: a caller waiting on it may take it at once
    pendingSends_.fetch_sub(1, std::memory_order_relaxed);
    if (status != UCS_OK) {
        log::warn(ucxLog(), "a message of kind {} ({} bytes) to UCX peer {} was not delivered: {}", op->kind, bytes, op->peer, ucs_status_string(status));
        return;
    }
    std::lock_guard lock(peersMutex_);
    if (auto found = peers_.find(op->peer); found != peers_.end()) {
        found->second.traffic.messagesSent += 1;
        found->second.traffic.bytesSent += bytes;
    }
}

ucs_status_t FabricEngine::onActiveMessage(void* handlerArg, const void* header, std::size_t headerLength, void* data, std::size_t length,
                                           const ucp_am_recv_param_t* param) noexcept {
    const auto* handler = static_cast<const KindHandler*>(handlerArg);
    try {
        return handler->engine->receive(handler->kind, header, headerLength, data, length, *param);
    } catch (...) {
        reportException("the active message handler");
        // A rendezvous sender learns of the failure; an eager message is simply dropped.
        return (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0 ? UCS_ERR_NO_MEMORY : UCS_OK;
    }
}

ucs_status_t FabricEngine::receive(std::uint16_t kind, const void* header, std::size_t headerLength, void* data, std::size_t length,
                                   const ucp_am_recv_param_t& param) {
    const bool rendezvous = (param.recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
    const PeerId peer = senderOf(param);
    if (peer == 0) {
        log::warn(ucxLog(), "dropped a message of kind {} ({} bytes) from an endpoint that is not an open peer", kind, headerLength + length);
        return rendezvous ? UCS_ERR_NOT_CONNECTED : UCS_OK;  // a rendezvous sender's send fails with it
    }
    std::vector<std::byte> headerCopy = copyBytes(header, headerLength);
    if (rendezvous) return startRendezvousReceive(peer, kind, std::move(headerCopy), data, length);
    deliveries_.push_back(Delivery{.peer = peer, .kind = kind, .header = std::move(headerCopy), .payload = copyBytes(data, length)});
    return UCS_OK;
}

PeerId FabricEngine::senderOf(const ucp_am_recv_param_t& param) const {
    if ((param.recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) == 0 || param.reply_ep == nullptr) return 0;
    auto found = peerByHandle_.find(param.reply_ep);
    if (found == peerByHandle_.end()) return 0;
    auto endpoint = endpoints_.find(found->second);
    if (endpoint == endpoints_.end()) return 0;
    const EndpointPhase phase = endpoint->second.phase;
    return phase == EndpointPhase::Open || phase == EndpointPhase::Connecting ? found->second : 0;
}

ucs_status_t FabricEngine::startRendezvousReceive(PeerId peer, std::uint16_t kind, std::vector<std::byte> header, void* descriptor, std::size_t length) {
    MessageOp* op = receives_.add(MessageOp{.engine = this, .peer = peer, .kind = kind, .header = std::move(header), .payload = buffers_.take(length)});
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_MEMORY_TYPE;
    param.cb.recv_am = &FabricEngine::onReceiveComplete;
    param.user_data = op;
    param.memory_type = UCS_MEMORY_TYPE_HOST;
    ucs_status_ptr_t receiving = ucp_am_recv_data_nbx(worker_, descriptor, op->payload.data(), length, &param);
    if (receiving == nullptr || UCS_PTR_IS_ERR(receiving)) {
        containExceptions("the rendezvous receive", [&] { finishReceive(op, UCS_PTR_STATUS(receiving)); });  // no error status once started
    }
    return UCS_OK;  // UCX owns the descriptor once the receive has started
}

void FabricEngine::onReceiveComplete(void* request, ucs_status_t status, std::size_t, void* opArg) noexcept {
    ucp_request_free(request);
    FabricEngine* engine = static_cast<MessageOp*>(opArg)->engine;
    containExceptions("the receive callback", [&] { engine->finishReceive(opArg, status); });
}

void FabricEngine::finishReceive(void* opArg, ucs_status_t status) {
    std::unique_ptr<MessageOp> op = receives_.take(opArg);
    if (status != UCS_OK) {
        log::warn(ucxLog(), "a message of kind {} ({} bytes) from UCX peer {} was lost in transfer: {}", op->kind, op->header.size() + op->payload.size(),
                  op->peer, ucs_status_string(status));
        return;
    }
    deliveries_.push_back(Delivery{.peer = op->peer, .kind = op->kind, .header = std::move(op->header), .payload = std::move(op->payload)});
}

}  // namespace sonolink::transport::ucx::detail
