// FaultInjector: decides, block by block, which fault the simulated front end injects: drop,
// duplicate, reorder (swap with the next block) or bit flips at a given bit error rate; and
// counts every injection by kind, plus the frames they cost, so a test can demand that the
// host counts exactly the same. At most one fault per block, so every one is countable.
// Deterministic for a given seed. Thread contract: one thread (the front end's).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace sonolink::transport::sim {

struct FaultPlan {
    double bitErrorRate = 0;  // per bit, over header and payload
    double dropRate = 0;      // per block
    double duplicateRate = 0;
    double reorderRate = 0;
    std::uint64_t stallEveryBlocks = 0;  // 0 = never
    std::chrono::milliseconds stallDuration{0};
    std::uint64_t disconnectAfterBlocks = 0;  // 0 = never: vanish without a word after N blocks
    std::uint64_t seed = 1;
    // A ring slot whose memory on the DMA path holds one bit stuck at 1 (the middle bit of the
    // payload): every block written into it reads back with that bit set.
    std::optional<std::uint32_t> corruptSlot;
    // The front end's clock this far from the host's (a PTP servo not locked): its TimeSync
    // answers and block timestamps carry it.
    std::chrono::microseconds clockOffset{0};
    [[nodiscard]] bool any() const noexcept { return bitErrorRate > 0 || dropRate > 0 || duplicateRate > 0 || reorderRate > 0 || corruptSlot.has_value(); }
};

struct FaultCounts {
    std::uint64_t blocksDropped = 0;
    std::uint64_t blocksDuplicated = 0;
    std::uint64_t blocksReordered = 0;
    std::uint64_t headersCorrupted = 0;   // blocks with at least one flipped header bit
    std::uint64_t payloadsCorrupted = 0;  // blocks with flipped payload bits only
    std::uint64_t bitsFlipped = 0;
    std::uint64_t stalls = 0;
    std::uint64_t framesLostWhole = 0;  // no block arrived intact (the host sees a frame-id gap)
    std::uint64_t framesLostPart = 0;   // some blocks arrived intact (the host sees it incomplete)
};

enum class BlockFault { None, Drop, Duplicate, Reorder, Corrupt };

class FaultInjector {
public:
    explicit FaultInjector(FaultPlan plan);

    // The fault for the next block of blockBits bits. Bit positions to flip (for Corrupt) are
    // left in flipBits(). canReorder: a next block exists in the same frame to swap with.
    // structuralAllowed false: only bit flips (the block a reordered one is swapped with must
    // arrive, or the swap could not be seen).
    [[nodiscard]] BlockFault decide(std::uint64_t blockBits, bool canReorder, bool structuralAllowed = true);
    [[nodiscard]] const std::vector<std::uint32_t>& flipBits() const noexcept { return flips_; }

    // Frame bookkeeping: call once per frame with how many of its blocks arrived intact.
    void frameDone(std::uint32_t intactBlocks, std::uint32_t blockCount) noexcept;
    void noteStall() noexcept { ++counts_.stalls; }

    [[nodiscard]] const FaultPlan& plan() const noexcept { return plan_; }
    [[nodiscard]] const FaultCounts& counts() const noexcept { return counts_; }

private:
    [[nodiscard]] std::uint64_t nextFlipGap();

    FaultPlan plan_;
    FaultCounts counts_;
    std::mt19937_64 random_;
    std::uniform_real_distribution<double> uniform_{0.0, 1.0};
    std::uint64_t bitsToNextFlip_ = 0;
    std::vector<std::uint32_t> flips_;
};

}  // namespace sonolink::transport::sim
