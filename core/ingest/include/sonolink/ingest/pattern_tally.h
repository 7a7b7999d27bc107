// PatternTally: checks the payload of every test-pattern block as it arrives, CRC-good or not
// (the CRC says that a block is damaged, the pattern how many of its bits): PRBS-7/15/23/31 with
// PrbsChecker, each block locked on its own; the 32-bit counter word by word. Its counts are the
// link's payload bit error rate, apart from the blocks' CRC errors; per ring slot, where each
// block was checked in place (RingSlotCounts: a slot's memory or DMA path at fault).
// Thread contract: check() on the ingest thread; counts() and ringSlots() from any thread.
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "sonolink/transport/protocol/block_header.h"
#include "sonolink/ingest/ring_slot_counts.h"
#include "sonolink/transport/protocol/prbs_checker.h"

namespace sonolink::ingest {

class PatternTally {
public:
    explicit PatternTally(std::uint32_t ringSlots = 0) : slots_(ringSlots) {}
    // The payload of a block that landed in ring slot `slot` (< ringSlots, else not tallied by slot).
    void check(transport::PayloadKind kind, std::span<const std::byte> payload, std::uint32_t slot) noexcept;
    [[nodiscard]] transport::PrbsCounts counts() const;
    [[nodiscard]] RingSlotCounts ringSlots() const;

private:
    struct BlockErrors {
        std::uint64_t bitErrors = 0;
        std::uint64_t lockLosses = 0;
        std::uint64_t bitsChecked = 0, bitsOutOfLock = 0;  // a clean block: what it adds
        std::optional<transport::PrbsCounts> total;        // a block with errors: every count again
    };
    // The block's errors and what to publish, checked outside the lock; nullopt for a payload
    // that is no test pattern.
    std::optional<BlockErrors> checkPayload(transport::PayloadKind kind, std::span<const std::byte> payload) noexcept;

    std::array<std::optional<transport::PrbsChecker>, 4> prbs_;  // by kind: PRBS-7, 15, 23, 31
    transport::PrbsCounts counter_;
    mutable std::mutex mutex_;
    transport::PrbsCounts published_;
    std::vector<SlotErrors> slots_;  // by slot, under mutex_
    std::uint32_t slotsReached_ = 0;
    std::uint64_t blocks_ = 0, erroredBlocks_ = 0;
};

}  // namespace sonolink::ingest
