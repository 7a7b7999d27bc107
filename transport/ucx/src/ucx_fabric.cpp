// The Fabric facade and the callers' side of the engine: requests posted to the progress thread.
#include "sonolink/transport/ucx/ucx_fabric.h"

#include <fmt/format.h>

#include "fabric_engine.h"

namespace sonolink::transport::ucx {

Result<std::unique_ptr<Fabric>> Fabric::create(FabricOptions options, FabricCallbacks callbacks) {
    try {
        auto engine = std::make_unique<detail::FabricEngine>(std::move(options), std::move(callbacks));
        if (auto started = engine->start(); !started) return fail(std::move(started.error()));
        return std::unique_ptr<Fabric>(new Fabric(std::move(engine)));
    } catch (const std::exception& e) {
        return fail(ErrorCode::ResourceExhausted, fmt::format("could not start the UCX fabric: {}", e.what()));
    } catch (...) {
        return fail(ErrorCode::Internal, "could not start the UCX fabric: a non-standard exception");
    }
}

Fabric::Fabric(std::unique_ptr<detail::FabricEngine> engine) : engine_(std::move(engine)) {}

Fabric::~Fabric() = default;

Result<std::uint16_t> Fabric::listen(const std::string& address, std::uint16_t port) { return engine_->listen(address, port); }
Result<PeerId> Fabric::connect(const std::string& address, std::uint16_t port) { return engine_->connect(address, port); }
Status Fabric::send(PeerId peer, std::uint16_t kind, std::vector<std::byte> header, std::vector<std::byte> payload) {
    return engine_->send(peer, kind, std::move(header), std::move(payload));
}
std::vector<std::byte> Fabric::buffer(std::size_t size) { return engine_->buffer(size); }
void Fabric::recycle(std::vector<std::byte> payload) { engine_->recycle(std::move(payload)); }
void Fabric::close(PeerId peer) { engine_->close(peer); }
PeerTraffic Fabric::traffic(PeerId peer) const { return engine_->traffic(peer); }
std::size_t Fabric::pendingSends() const { return engine_->pendingSends(); }
std::size_t Fabric::maxHeaderBytes() const { return engine_->maxHeaderBytes(); }
Result<std::string> Fabric::describeTransport(PeerId peer) const { return engine_->describeTransport(peer); }

namespace detail {

template <typename T, typename RequestType> Result<T> FabricEngine::ask(RequestType request) {
    auto answer = request.result.get_future();
    if (!post(std::move(request))) return fail(ErrorCode::Unavailable, kShuttingDown);
    try {
        return answer.get();
    } catch (const std::future_error&) {  // the progress thread failed while handling it (logged there)
        return fail(ErrorCode::Internal, "the UCX fabric's progress thread dropped the request");
    }
}

FabricEngine::FabricEngine(FabricOptions options, FabricCallbacks callbacks)
    : options_(std::move(options)), callbacks_(std::move(callbacks)), buffers_(options_.bufferPoolBytes) {}

FabricEngine::~FabricEngine() {
    {
        std::lock_guard lock(requestMutex_);
        stopping_.store(true);
        if (acceptingRequests_) ucp_worker_signal(worker_);
    }
    if (thread_.joinable()) thread_.join();
}

Status FabricEngine::start() {
    std::promise<Status> ready;
    auto started = ready.get_future();
    thread_ = std::thread([this, promise = std::move(ready)]() mutable { run(std::move(promise)); });
    Status status = started.get();
    if (!status) thread_.join();
    return status;
}

bool FabricEngine::post(Request request) {
    std::lock_guard lock(requestMutex_);
    if (!acceptingRequests_) return false;
    requests_.push_back(std::move(request));
    if (sleeping_) ucp_worker_signal(worker_);  // thread-safe by UCX's contract, whatever the worker's thread mode
    sleeping_ = false;                          // awake, or soon: the next requests need no signal of their own
    return true;
}

std::string FabricEngine::transportNote() const {
    if (options_.netDevices.empty()) return fmt::format("UCX_TLS={}", options_.transports);
    return fmt::format("UCX_TLS={}, UCX_NET_DEVICES={}", options_.transports, options_.netDevices);
}

Result<std::uint16_t> FabricEngine::listen(const std::string& address, std::uint16_t port) {
    if (onProgressThread()) return fail(ErrorCode::FailedPrecondition, "Fabric::listen was called from a fabric callback (it would wait on itself)");
    return ask<std::uint16_t>(ListenRequest{.address = address, .port = port, .result = {}});
}

Result<PeerId> FabricEngine::connect(const std::string& address, std::uint16_t port) {
    if (onProgressThread()) return fail(ErrorCode::FailedPrecondition, "Fabric::connect was called from a fabric callback (it would wait on itself)");
    return ask<PeerId>(ConnectRequest{.address = address, .port = port, .result = {}});
}

Result<std::string> FabricEngine::describeTransport(PeerId peer) {
    if (onProgressThread()) return fail(ErrorCode::FailedPrecondition, "Fabric::describeTransport was called from a fabric callback");
    return ask<std::string>(DescribeRequest{.peer = peer, .result = {}});
}

Status FabricEngine::send(PeerId peer, std::uint16_t kind, std::vector<std::byte> header, std::vector<std::byte> payload) {
    if (kind >= kMessageKinds) return fail(ErrorCode::InvalidArgument, fmt::format("message kind {} is outside 0..{}", kind, kMessageKinds - 1));
    if (header.size() > maxHeaderBytes_) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a {} byte message header is over the {} bytes UCX carries ({})", header.size(), maxHeaderBytes_, transportNote()));
    }
    {
        std::lock_guard lock(peersMutex_);
        auto found = peers_.find(peer);
        if (found == peers_.end() || found->second.state == PeerState::Connecting) {
            return fail(ErrorCode::FailedPrecondition, fmt::format("cannot send to UCX peer {}: no such peer", peer));
        }
        const PeerRecord& record = found->second;
        if (record.state == PeerState::Lost) {
            return fail(ErrorCode::FailedPrecondition,
                        fmt::format("cannot send to UCX peer {} ({}): it was lost: {}", peer, record.address, record.lossReason));
        }
        if (record.state == PeerState::Closed) {
            return fail(ErrorCode::FailedPrecondition, fmt::format("cannot send to UCX peer {} ({}): it was closed", peer, record.address));
        }
    }
    pendingSends_.fetch_add(1, std::memory_order_relaxed);
    if (!post(SendRequest{.peer = peer, .kind = kind, .header = std::move(header), .payload = std::move(payload)})) {
        pendingSends_.fetch_sub(1, std::memory_order_relaxed);
        return fail(ErrorCode::Unavailable, kShuttingDown);
    }
    return {};
}

std::vector<std::byte> FabricEngine::buffer(std::size_t size) {
    buffers_.markUsed();
    return buffers_.take(size);
}

void FabricEngine::recycle(std::vector<std::byte> payload) {
    buffers_.markUsed();
    buffers_.give(std::move(payload));
}

void FabricEngine::close(PeerId peer) {
    if (!movePeer(peer, PeerState::Open, PeerState::Closed)) return;
    post(CloseRequest{.peer = peer});
}

PeerTraffic FabricEngine::traffic(PeerId peer) const {
    std::lock_guard lock(peersMutex_);
    auto found = peers_.find(peer);
    return found == peers_.end() ? PeerTraffic{} : found->second.traffic;
}

bool FabricEngine::movePeer(PeerId peer, PeerState from, PeerState to, std::string reason) {
    std::lock_guard lock(peersMutex_);
    auto found = peers_.find(peer);
    if (found == peers_.end() || found->second.state != from) return false;
    found->second.state = to;
    if (!reason.empty()) found->second.lossReason = std::move(reason);
    return true;
}

}  // namespace detail
}  // namespace sonolink::transport::ucx
