// FakeLink: a Link whose ring is plain memory and whose completions the test queues by hand,
// to drive the ingest engine through exact sequences of good and bad blocks.
#pragma once

#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "sonolink/transport/link.h"
#include "sonolink/util/crc32c.h"

namespace sonolink::test {

class FakeLink final : public transport::Link {
public:
    FakeLink(std::uint32_t slotBytes, std::uint32_t slotCount)
        : memory_(static_cast<std::byte*>(std::aligned_alloc(4096, std::size_t(slotBytes) * slotCount)), &std::free), ring_{memory_.get(), slotBytes,
                                                                                                                            slotCount} {
        std::memset(memory_.get(), 0, std::size_t(slotBytes) * slotCount);
    }

    // Writes a block into the next slot and queues its completion, as the NIC would.
    void writeBlock(transport::BlockHeader header, std::span<const std::byte> payload, transport::CompletionStatus status = transport::CompletionStatus::Ok) {
        header.payloadBytes = static_cast<std::uint32_t>(payload.size());
        header.payloadCrc = crc32c(payload);
        auto slot = ring_.slot(written_);
        transport::encodeBlockHeader(header, slot);
        std::memcpy(slot.data() + transport::kBlockHeaderSize, payload.data(), payload.size());
        queue(transport::Completion{static_cast<std::uint32_t>(header.sequence), static_cast<std::uint32_t>(transport::kBlockHeaderSize + payload.size()),
                                    status, 1});
    }
    // The slot the next completion refers to (to damage a block after writeBlock, use lastSlot()).
    std::span<std::byte> lastSlot() { return ring_.slot(written_ - 1); }
    void queue(transport::Completion completion) {
        completions_.push_back(completion);
        ++written_;
    }
    transport::Completion& lastCompletion() { return completions_.back(); }

    Result<transport::LinkInfo> accept(std::chrono::milliseconds) override {
        if (interrupted_) return fail(ErrorCode::Cancelled, "interrupted");
        return transport::LinkInfo{};
    }
    void interrupt() noexcept override { interrupted_ = true; }
    transport::RingView ring() const noexcept override { return ring_; }
    bool interrupted_ = false;
    Status advertiseRing() override { return {}; }
    Status sendControl(const transport::ControlMessage&) override { return {}; }
    Result<std::optional<transport::ControlMessage>> receiveControl(std::chrono::milliseconds) override { return std::optional<transport::ControlMessage>{}; }
    transport::ControlStats controlStats() const override { return {}; }
    std::size_t pollCompletions(std::span<transport::Completion> out, std::chrono::microseconds) override {
        std::size_t n = 0;
        while (n < out.size() && !completions_.empty()) {
            out[n++] = completions_.front();
            completions_.pop_front();
        }
        return n;
    }
    Status returnCredits(std::uint64_t freedThrough) override {
        creditsReturned = freedThrough;
        return {};
    }
    Status reset() override { return {}; }

    std::uint64_t creditsReturned = 0;

private:
    std::unique_ptr<std::byte, decltype(&std::free)> memory_;
    transport::RingView ring_;
    std::deque<transport::Completion> completions_;
    std::uint64_t written_ = 0;
};

}  // namespace sonolink::test
