#include "frame_assembler.h"

#include <algorithm>

#include "sonolink/util/assert.h"

namespace sonolink::ingest {

FrameAssembler::FrameAssembler(std::uint16_t maxBlocks, std::uint32_t poolSize, std::uint32_t depth, Events events)
    : depth_(std::max<std::uint32_t>(depth, 1)), events_(std::move(events)) {
    pool_.reserve(poolSize);
    free_.reserve(poolSize);
    active_.reserve(poolSize);
    for (std::uint32_t i = 0; i < poolSize; ++i) {
        pool_.push_back(std::unique_ptr<Frame>(new Frame(maxBlocks)));
        free_.push_back(pool_.back().get());
    }
    dropped_.fill(~std::uint64_t(0));
}

bool FrameAssembler::wasDropped(std::uint64_t frameId) const noexcept { return std::find(dropped_.begin(), dropped_.end(), frameId) != dropped_.end(); }

FrameAssembler::Added FrameAssembler::add(const FrameBlock& block, std::uint64_t writtenNs) {
    const std::uint64_t id = block.header.frameId;
    if (wasDropped(id)) return Added::NoBuffer;
    if (id < nextFrameId_) return Added::Late;
    auto it = std::lower_bound(active_.begin(), active_.end(), id, [](const Frame* f, std::uint64_t v) { return f->frameId_ < v; });
    Frame* frame = (it != active_.end() && (*it)->frameId_ == id) ? *it : nullptr;
    if (!frame) {
        if (free_.empty() && !active_.empty() && active_.size() >= depth_) evictOldest();
        if (free_.empty()) {
            dropped_[droppedNext_++ % dropped_.size()] = id;
            events_.droppedFrame();
            highestFrameId_ = std::max(highestFrameId_, id);
            any_ = true;
            settle();
            return Added::NoBuffer;
        }
        frame = free_.back();
        free_.pop_back();
        frame->frameId_ = static_cast<std::uint32_t>(id);
        frame->blockCount_ = block.header.blockCount;
        frame->received_ = 0;
        frame->rejected_ = 0;
        frame->lastWriteNs_ = writtenNs;
        for (auto& pending : pendingRejected_) {
            if (pending.frameId == id) {
                frame->rejected_ = pending.count;
                pending = {};
            }
        }
        std::fill(frame->present_.begin(), frame->present_.end(), std::uint8_t{0});
        it = std::lower_bound(active_.begin(), active_.end(), id, [](const Frame* f, std::uint64_t v) { return f->frameId_ < v; });
        active_.insert(it, frame);  // capacity reserved: no allocation
        highestFrameId_ = std::max(highestFrameId_, id);
        any_ = true;
    }
    const auto index = block.header.blockIndex;
    if (block.header.blockCount != frame->blockCount_ || index >= frame->present_.size() || frame->present_[index] != 0) {
        return Added::Inconsistent;
    }
    frame->present_[index] = 1;
    frame->blocks_[index] = block;
    frame->lastWriteNs_ = std::max(frame->lastWriteNs_, writtenNs);
    ++frame->received_;
    settle();
    return Added::Kept;
}

void FrameAssembler::evictOldest() {
    Frame* oldest = active_.front();
    active_.erase(active_.begin());
    while (nextFrameId_ < oldest->frameId_) {
        resolveUnstarted(nextFrameId_);
        ++nextFrameId_;
    }
    nextFrameId_ = oldest->frameId_ + 1ull;
    events_.incomplete(*oldest);
    free_.push_back(oldest);
}

void FrameAssembler::settle() {
    while (any_ && nextFrameId_ <= highestFrameId_) {
        if (!active_.empty() && active_.front()->frameId_ == nextFrameId_) {
            Frame* frame = active_.front();
            if (frame->received_ == frame->blockCount_) {
                active_.erase(active_.begin());
                ++nextFrameId_;
                events_.complete(*frame);
            } else if (highestFrameId_ - nextFrameId_ >= depth_ || frame->received_ + frame->rejected_ >= frame->blockCount_) {
                evictOldest();
            } else {
                return;  // still assembling, young enough to wait for
            }
        } else {
            // Never seen, and a newer frame has started: lost (or dropped at the front end).
            resolveUnstarted(nextFrameId_);
            ++nextFrameId_;
        }
    }
}

void FrameAssembler::resolveUnstarted(std::uint64_t frameId) {
    if (rejectedSeen_[frameId % rejectedSeen_.size()] == frameId + 1) events_.damaged(frameId);
    else if (!wasDropped(frameId)) events_.missing(frameId);
}

void FrameAssembler::addRejected(std::uint32_t frameId, std::uint16_t blockCount) {
    if (frameId < nextFrameId_ || wasDropped(frameId)) return;
    rejectedSeen_[frameId % rejectedSeen_.size()] = std::uint64_t{frameId} + 1;
    for (auto* frame : active_) {
        if (frame->frameId_ == frameId) {
            ++frame->rejected_;
            settle();
            return;
        }
    }
    for (auto& pending : pendingRejected_) {
        if (pending.frameId == frameId) {
            ++pending.count;
            return;
        }
    }
    pendingRejected_[pendingNext_++ % pendingRejected_.size()] = {frameId, 1};
    (void)blockCount;
}

void FrameAssembler::evictStale(std::uint64_t nowNs, std::uint64_t staleNs) {
    bool evicted = false;
    while (!active_.empty() && active_.front()->received_ < active_.front()->blockCount_ && nowNs > active_.front()->lastWriteNs_ + staleNs) {
        evictOldest();
        evicted = true;
    }
    if (evicted) settle();
}

void FrameAssembler::finish(std::uint64_t frameEnd) {
    while (!active_.empty()) {
        Frame* frame = active_.front();
        // Frames before it that never started are missing.
        while (nextFrameId_ < frame->frameId_) {
            resolveUnstarted(nextFrameId_);
            ++nextFrameId_;
        }
        active_.erase(active_.begin());
        nextFrameId_ = frame->frameId_ + 1ull;
        if (frame->received_ == frame->blockCount_) events_.complete(*frame);
        else {
            events_.incomplete(*frame);
            free_.push_back(frame);
        }
    }
    while (nextFrameId_ < frameEnd) {
        resolveUnstarted(nextFrameId_);
        ++nextFrameId_;
    }
    highestFrameId_ = std::max<std::uint64_t>(highestFrameId_, frameEnd == 0 ? 0 : frameEnd - 1);
}

}  // namespace sonolink::ingest
