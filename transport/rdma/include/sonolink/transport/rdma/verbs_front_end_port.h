// VerbsFrontEndPort: the front end's end of the verbs link, i.e. what the FPGA's embedded RDMA
// NIC does: connects to the host with librdmacm (a control and a data RC connection),
// exchanges control messages by SEND/RECV, and writes blocks into the host's ring with
// RDMA WRITE WITH IMMEDIATE (header and payload gathered from registered memory), posting
// work requests in batches with one signaled completion per batch. Lets sonolink-fe-sim and
// tests play the front end over a real RDMA device (rxe, ConnectX).
// Thread contract: one thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "sonolink/transport/front_end_port.h"

namespace sonolink::transport::rdma {

struct VerbsFrontEndOptions {
    std::string hostAddress;  // the host's IP on the RDMA network
    int port = 18515;
    std::chrono::milliseconds timeout{5000};
    int sendQueueDepth = 256;
};

class VerbsFrontEndPort final : public FrontEndPort {
public:
    [[nodiscard]] static Result<std::unique_ptr<VerbsFrontEndPort>> connect(const VerbsFrontEndOptions& options);
    ~VerbsFrontEndPort() override;

    Status sendControl(const ControlMessage& message) override;
    Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout) override;
    const ControlStats& controlStats() const noexcept override;
    Status registerPayloadMemory(std::span<const std::byte> memory) override;
    Status postWrite(const NicWrite& write) override;
    Status awaitWrites() override;
    Status ringDoorbell() override;
    void abandon() noexcept override;
    std::uint64_t sessionId() const noexcept override { return 0; }

private:
    struct State;
    explicit VerbsFrontEndPort(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::transport::rdma
