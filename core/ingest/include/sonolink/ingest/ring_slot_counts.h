// RingSlotCounts: where in the DMA ring the front end's test pattern landed and where it came
// back wrong, slot by slot. A fault in one slot's memory or in its DMA path shows as errors that
// repeat in that slot and not elsewhere; line noise spreads over every slot (repeatedFaults()
// tells them apart). Thread contract: plain snapshot values; copy freely.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace sonolink::ingest {

// One ring slot's test-pattern blocks.
struct SlotErrors {
    std::uint32_t slot = 0;
    std::uint32_t blocks = 0;         // test-pattern blocks checked in place in it
    std::uint32_t erroredBlocks = 0;  // of those, with bit errors or a loss of lock
    std::uint64_t bitErrors = 0;
};

struct RingSlotCounts {
    static constexpr std::size_t kWorst = 8;
    std::uint32_t slots = 0;         // in the ring
    std::uint32_t slotsReached = 0;  // that held at least one test-pattern block
    std::uint64_t blocks = 0;
    std::uint64_t erroredBlocks = 0;
    std::array<SlotErrors, kWorst> worst{};  // the slots with the most errored blocks, most first
    std::uint32_t worstCount = 0;

    // The slots whose errors repeat there: at least two errored blocks, an eighth of the slot's
    // blocks or more (a bit stuck at 1 errs wherever a 0 was sent: about half the blocks), and at
    // least four times the rate of the rest of the ring.
    [[nodiscard]] std::vector<SlotErrors> repeatedFaults() const;
    // Adds another session's counts (a stream that reconnected onto a ring of the same size).
    RingSlotCounts& operator+=(const RingSlotCounts& other) noexcept;
};

}  // namespace sonolink::ingest
