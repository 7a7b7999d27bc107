// Frame: one acquired frame as zero-copy views of the ring slots its blocks landed in, handed
// to consumers (beamformer, recorder, RF plot) through FrameRef, a reference-counted handle.
// While any FrameRef to a frame lives, its slots stay untouched; when the last one goes, the
// ingest thread frees the slots and returns their credits to the front end.
// Thread contract: a Frame is immutable once delivered; FrameRef may be copied, moved and
// destroyed on any thread (atomic count). FrameSink::onFrame runs on the ingest thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "sonolink/transport/protocol/block_header.h"

namespace sonolink::ingest {

struct FrameBlock {
    transport::BlockHeader header;
    std::span<const std::byte> payload;  // inside the ring
    std::uint64_t completionIndex = 0;
};

class Frame {
public:
    [[nodiscard]] std::uint32_t frameId() const noexcept { return frameId_; }
    [[nodiscard]] std::uint64_t timestampNs() const noexcept { return blocks_[0].header.timestampNs; }
    [[nodiscard]] std::uint16_t blockCount() const noexcept { return blockCount_; }
    // Blocks in block-index order (0 .. blockCount-1).
    [[nodiscard]] const FrameBlock& block(std::uint16_t index) const noexcept { return blocks_[index]; }
    [[nodiscard]] transport::PayloadKind payloadKind() const noexcept { return blocks_[0].header.payloadKind; }
    [[nodiscard]] bool isPhotoacoustic() const noexcept { return (blocks_[0].header.flags & transport::block_flags::kPhotoacoustic) != 0; }
    [[nodiscard]] std::uint64_t readyNs() const noexcept { return readyNs_; }  // steady clock

private:
    friend class FrameRef;
    friend class FrameAssembler;
    friend class IngestEngine;

    explicit Frame(std::uint16_t maxBlocks) : blocks_(maxBlocks), present_(maxBlocks, 0) {}
    std::vector<FrameBlock> blocks_;
    std::vector<std::uint8_t> present_;
    std::uint32_t frameId_ = 0;
    std::uint16_t blockCount_ = 0;
    std::uint16_t received_ = 0;
    std::uint16_t rejected_ = 0;  // blocks known lost (rejected with a trusted header)
    std::uint64_t lastWriteNs_ = 0;
    std::uint64_t readyNs_ = 0;
    std::atomic<int> refs_{0};
};

class FrameRef {
public:
    FrameRef() noexcept = default;
    explicit FrameRef(Frame* frame) noexcept : frame_(frame) {
        if (frame_) frame_->refs_.fetch_add(1, std::memory_order_relaxed);
    }
    FrameRef(const FrameRef& other) noexcept : FrameRef(other.frame_) {}
    FrameRef(FrameRef&& other) noexcept : frame_(std::exchange(other.frame_, nullptr)) {}
    FrameRef& operator=(FrameRef other) noexcept {
        std::swap(frame_, other.frame_);
        return *this;
    }
    ~FrameRef() {
        if (frame_) frame_->refs_.fetch_sub(1, std::memory_order_release);
    }
    [[nodiscard]] const Frame* operator->() const noexcept { return frame_; }
    [[nodiscard]] const Frame& operator*() const noexcept { return *frame_; }
    [[nodiscard]] explicit operator bool() const noexcept { return frame_ != nullptr; }

private:
    Frame* frame_ = nullptr;
};

class FrameSink {
public:
    virtual ~FrameSink() = default;
    // Called on the ingest thread for every complete frame, in frame-id order. Keep a copy of
    // the ref to hold the frame; never block here.
    virtual void onFrame(const FrameRef& frame) noexcept = 0;
};

}  // namespace sonolink::ingest
