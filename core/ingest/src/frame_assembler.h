// FrameAssembler: collects valid blocks into frames from a fixed pool, in any arrival order,
// and releases complete frames in frame-id order. A frame still missing blocks when it falls
// `depth` frames behind the newest is incomplete; a frame id never seen is missing.
// Private to sonolink_ingest. Thread contract: one thread (rx); no allocation after create.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <functional>
#include <vector>

#include "sonolink/ingest/frame.h"

namespace sonolink::ingest {

class FrameAssembler {
public:
    struct Events {
        std::function<void(Frame&)> complete;    // deliver, then keep until released
        std::function<void(Frame&)> incomplete;  // free its slots and the frame
        std::function<void(std::uint64_t)> missing;
        std::function<void(std::uint64_t)> damaged;  // every block of it that came was rejected: incomplete, not missing
        std::function<void()> droppedFrame;          // no frame buffer free
    };

    FrameAssembler(std::uint16_t maxBlocks, std::uint32_t poolSize, std::uint32_t depth, Events events);

    enum class Added { Kept, Late, NoBuffer, Inconsistent };
    // A valid, non-duplicate block. Anything but Kept: the block is not kept and the caller
    // frees its slot (Late: its frame was already resolved; NoBuffer: its frame is dropped for
    // want of a frame buffer; Inconsistent: block count differs from its frame's, or a repeat).
    Added add(const FrameBlock& block, std::uint64_t writtenNs);
    // A block of this frame was rejected (payload CRC, length): the frame cannot complete, and
    // is resolved as incomplete as soon as all its blocks are accounted for.
    void addRejected(std::uint32_t frameId, std::uint16_t blockCount);
    // Frames with no new block for staleNs are incomplete: the front end went quiet (or is
    // waiting for credits the unfinished frame holds).
    void evictStale(std::uint64_t nowNs, std::uint64_t staleNs);
    // Every frame in assembly is resolved; frame ids below frameEnd never seen are missing.
    void finish(std::uint64_t frameEnd);
    // A delivered frame whose last reference is gone goes back to the pool.
    void recycle(Frame& frame) noexcept { free_.push_back(&frame); }
    [[nodiscard]] std::size_t assembling() const noexcept { return active_.size(); }
    // A frame id this far past every id resolved is a corrupt number, not frames lost: ingest
    // refuses its block (taken, it would count up to 4.29e9 frames missing and end the session).
    static constexpr std::uint64_t kMaxLeap = std::uint64_t(1) << 24;
    [[nodiscard]] bool implausible(std::uint64_t frameId) const noexcept { return frameId >= nextFrameId_ && frameId - nextFrameId_ >= kMaxLeap; }

private:
    void settle();  // deliver complete frames in order, evict those too old
    void evictOldest();
    [[nodiscard]] bool wasDropped(std::uint64_t frameId) const noexcept;
    // A frame id never started: damaged (blocks came, all rejected), dropped, or missing.
    void resolveUnstarted(std::uint64_t frameId);

    std::vector<std::unique_ptr<Frame>> pool_;
    std::vector<Frame*> free_;
    std::vector<Frame*> active_;  // sorted by frame id
    std::uint32_t depth_;
    Events events_;
    std::uint64_t nextFrameId_ = 0;  // every id below is resolved (delivered, incomplete, missing)
    std::uint64_t highestFrameId_ = 0;
    bool any_ = false;
    std::array<std::uint64_t, 8> dropped_{};  // recent frame ids dropped for want of a buffer
    std::size_t droppedNext_ = 0;
    struct PendingRejections {
        std::uint64_t frameId = ~std::uint64_t(0);
        std::uint16_t count = 0;
    };
    std::array<PendingRejections, 8> pendingRejected_{};  // rejected blocks of frames not started yet
    std::size_t pendingNext_ = 0;
    // Frame ids (+1) of which a rejected block came, by id modulo the window: a frame resolved
    // before any good block of it came was damaged, not lost. Far wider than the assembly depth.
    std::array<std::uint64_t, 1024> rejectedSeen_{};
};

}  // namespace sonolink::ingest
