// VerbsLink: the host end of the production link over rdma-core: librdmacm listens and
// accepts the front end's two RC connections (control, data), the ring is registered with
// ibv_reg_mr (4 KiB-aligned) and advertised with its rkey, receive work requests are kept
// posted for the front end's RDMA WRITE WITH IMMEDIATE, and completions are taken event-driven
// (completion channel) or by busy polling. A front end that disconnects, dies or goes silent is
// reported with the reason; reset() returns to listening.
// Thread contract: as Link (link.h); sendControl() and returnCredits() serialise on a mutex.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "sonolink/transport/link.h"

namespace sonolink::transport::rdma {

struct VerbsLinkOptions {
    std::string address;  // local IP to listen on (of the RDMA netdev)
    int port = 18515;
    std::uint32_t slotBytes = 256 * 1024;
    std::uint32_t slotCount = 256;
    bool busyPoll = false;  // spin on the CQ instead of sleeping on its channel
    std::chrono::milliseconds heartbeatTimeout{1000};
    bool hugePages = false;                   // back the ring with huge pages (reserved in /proc/sys/vm/nr_hugepages)
    std::uint16_t cqModerationCount = 16;     // event mode: one event per 16 completions...
    std::uint16_t cqModerationPeriodUs = 16;  // ...or 16 us, where the device supports moderation
};

class VerbsLink final : public Link {
public:
    // Checks the memlock limit, allocates and registers the ring, listens. Errors say what to fix.
    [[nodiscard]] static Result<std::unique_ptr<VerbsLink>> create(const VerbsLinkOptions& options);
    ~VerbsLink() override;

    Result<LinkInfo> accept(std::chrono::milliseconds timeout) override;
    void interrupt() noexcept override;
    RingView ring() const noexcept override;
    Status advertiseRing() override;
    Status sendControl(const ControlMessage& message) override;
    Result<std::optional<ControlMessage>> receiveControl(std::chrono::milliseconds timeout) override;
    ControlStats controlStats() const override;
    std::size_t pollCompletions(std::span<Completion> out, std::chrono::microseconds timeout) override;
    Status returnCredits(std::uint64_t freedThrough) override;
    Status reset() override;
    // The device's capabilities, probed when the link was created (ibv_query_device_ex, port).
    [[nodiscard]] const LinkCapabilities& capabilities() const noexcept;

private:
    struct State;
    explicit VerbsLink(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::transport::rdma
