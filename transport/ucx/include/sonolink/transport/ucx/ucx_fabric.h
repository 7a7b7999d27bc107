// Fabric: UCX (UCP active messages) between the acquisition nodes and the coordinator. listen()
// accepts peers, connect() opens one, send() queues a message (a small header and a payload of
// any size: UCX picks eager or rendezvous) and peer failures are reported once per peer.
// Thread contract: every method may be called from any thread. One internal progress thread makes
// every UCX call and runs every callback, one at a time; a callback must return quickly and must
// not call connect(), listen() or describeTransport() (they wait on that thread), nor destroy the Fabric.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::transport::ucx {

struct FabricOptions {
    // UCX_TLS of this fabric's UCX context only. UCX makes every connection over a socket (its TCP
    // connection manager, or rdmacm on RDMA hosts), so keep "tcp" in the list: "tcp"; "tcp,shm,self"
    // for peers on the same host (UCX 1.13: eager messages go through shared memory, rendezvous
    // payloads through TCP loopback); "tcp,rc_verbs" or "tcp,ud_verbs" on InfiniBand/RoCE hosts.
    std::string transports = "tcp";
    std::string netDevices;                               // UCX_NET_DEVICES, e.g. "eth0" or "mlx5_0:1"; empty: UCX's choice
    std::chrono::milliseconds connectTimeout{5000};       // connect() gives up after this long
    std::chrono::milliseconds closeGrace{200};            // close() and the destructor: time for sends in flight before the force-close
    std::size_t bufferPoolBytes = std::size_t{64} << 20;  // recycled payload buffers kept for buffer() and receives; 0: none
};

using PeerId = std::uint64_t;  // assigned by the fabric from 1, never reused

inline constexpr std::uint16_t kMessageKinds = 32;  // a message's kind is 0..31

// A message is counted when UCX completes its send, and when it is handed to onMessage.
struct PeerTraffic {
    std::uint64_t messagesSent = 0;
    std::uint64_t bytesSent = 0;  // header + payload
    std::uint64_t messagesReceived = 0;
    std::uint64_t bytesReceived = 0;  // header + payload
};

// Every callback runs on the fabric's progress thread; none starts once the destructor has begun.
struct FabricCallbacks {
    std::function<void(PeerId peer, std::uint16_t kind, std::span<const std::byte> header, std::vector<std::byte> payload)> onMessage;
    std::function<void(PeerId peer, std::string address)> onPeerAccepted;  // a connection accepted by listen(); address "ip:port"
    std::function<void(PeerId peer, std::string reason)> onPeerLost;       // the peer failed or closed its side; once per peer
};

namespace detail {
class FabricEngine;
}

class Fabric {
public:
    // Starts UCX (this context's UCX_TLS / UCX_NET_DEVICES from options) and the progress thread.
    [[nodiscard]] static Result<std::unique_ptr<Fabric>> create(FabricOptions options, FabricCallbacks callbacks);
    // Stops accepting, gives sends in flight closeGrace, force-closes every endpoint and stops the
    // thread; bounded even when a peer is stopped or dead.
    ~Fabric();
    Fabric(const Fabric&) = delete;
    Fabric& operator=(const Fabric&) = delete;

    // Listens on address ("0.0.0.0" for every interface); port 0 picks a free port. Returns the bound port.
    [[nodiscard]] Result<std::uint16_t> listen(const std::string& address, std::uint16_t port);
    // Opens a connection and waits until it is usable (or failed, or connectTimeout passed). What the
    // peer sends meanwhile is held and handed to onMessage once connect() has its answer, possibly
    // before connect() has returned to its caller.
    [[nodiscard]] Result<PeerId> connect(const std::string& address, std::uint16_t port);
    // Queues one message and returns at once. InvalidArgument for a kind >= kMessageKinds or a header
    // over maxHeaderBytes(); FailedPrecondition when the peer is unknown, lost or closed. A send that
    // fails later (the peer is lost meanwhile) is logged, and not counted in traffic().
    [[nodiscard]] Status send(PeerId peer, std::uint16_t kind, std::vector<std::byte> header, std::vector<std::byte> payload);
    // Payload buffers without a fresh allocation (page faults) and zero-fill per message, for large
    // payloads sent or received at a steady rate: buffer() gives a vector of `size` bytes to fill
    // and send(), recycled from an earlier payload when one fits (its bytes are stale), else
    // zero-filled; recycle() hands back a payload onMessage gave (or any vector) for reuse, by
    // buffer() and by the receives of large messages. Once buffer() or recycle() has been called,
    // the payloads of completed sends are recycled too. Payloads under 64 KiB are not kept.
    [[nodiscard]] std::vector<std::byte> buffer(std::size_t size);
    void recycle(std::vector<std::byte> payload);
    // Closes our side: sends in flight get closeGrace, then the endpoint is force-closed. No onPeerLost.
    void close(PeerId peer);

    [[nodiscard]] PeerTraffic traffic(PeerId peer) const;  // zeros for an unknown peer
    [[nodiscard]] std::size_t pendingSends() const;        // messages queued or in flight, for back-pressure
    [[nodiscard]] std::size_t maxHeaderBytes() const;      // the largest header UCX carries with these transports
    // UCX's description of the peer's endpoint: its lanes, transports and devices (ucp_ep_print_info).
    [[nodiscard]] Result<std::string> describeTransport(PeerId peer) const;

private:
    explicit Fabric(std::unique_ptr<detail::FabricEngine> engine);
    std::unique_ptr<detail::FabricEngine> engine_;
};

}  // namespace sonolink::transport::ucx
