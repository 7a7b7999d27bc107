#include "sonolink/transport/sim/fault_injector.h"

#include <cmath>
#include <limits>

#include "sonolink/transport/protocol/block_header.h"

namespace sonolink::transport::sim {

FaultInjector::FaultInjector(FaultPlan plan) : plan_(plan), random_(plan.seed) {
    flips_.reserve(64);
    bitsToNextFlip_ = nextFlipGap();
}

std::uint64_t FaultInjector::nextFlipGap() {
    if (plan_.bitErrorRate <= 0) return std::numeric_limits<std::uint64_t>::max();
    // Bits until the next error are geometric: floor(log U / log(1 - p)).
    const double u = std::max(uniform_(random_), 1e-300);
    const double gap = std::floor(std::log(u) / std::log1p(-plan_.bitErrorRate));
    return gap >= 1e18 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(gap);
}

BlockFault FaultInjector::decide(std::uint64_t blockBits, bool canReorder, bool structuralAllowed) {
    flips_.clear();
    // Bit errors land where the geometric process puts them, independent of other faults.
    while (bitsToNextFlip_ < blockBits) {
        if (flips_.size() < flips_.capacity()) flips_.push_back(static_cast<std::uint32_t>(bitsToNextFlip_));
        const auto gap = nextFlipGap();
        bitsToNextFlip_ = gap == std::numeric_limits<std::uint64_t>::max() ? gap : bitsToNextFlip_ + gap + 1;
    }
    if (bitsToNextFlip_ != std::numeric_limits<std::uint64_t>::max()) bitsToNextFlip_ -= blockBits;
    if (!flips_.empty()) {
        counts_.bitsFlipped += flips_.size();
        const bool inHeader = flips_.front() < kBlockHeaderSize * 8;  // flips are in ascending order
        ++(inHeader ? counts_.headersCorrupted : counts_.payloadsCorrupted);
        return BlockFault::Corrupt;
    }
    if (!structuralAllowed) return BlockFault::None;
    const double u = uniform_(random_);
    if (u < plan_.dropRate) {
        ++counts_.blocksDropped;
        return BlockFault::Drop;
    }
    if (u < plan_.dropRate + plan_.duplicateRate) {
        ++counts_.blocksDuplicated;
        return BlockFault::Duplicate;
    }
    if (canReorder && u < plan_.dropRate + plan_.duplicateRate + plan_.reorderRate) {
        ++counts_.blocksReordered;
        return BlockFault::Reorder;
    }
    return BlockFault::None;
}

void FaultInjector::frameDone(std::uint32_t intactBlocks, std::uint32_t blockCount) noexcept {
    if (intactBlocks == 0) ++counts_.framesLostWhole;
    else if (intactBlocks < blockCount) ++counts_.framesLostPart;
}

}  // namespace sonolink::transport::sim
