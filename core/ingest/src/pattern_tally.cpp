#include "sonolink/ingest/pattern_tally.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace sonolink::ingest {
namespace {

// Little-endian 32-bit words, each one more than the one before (the first sets the count).
void checkCounter(std::span<const std::byte> payload, transport::PrbsCounts& c) noexcept {
    if (payload.size() < 4) return;
    std::uint32_t expected = 0;
    std::memcpy(&expected, payload.data(), 4);
    c.bitsOutOfLock += 32;
    ++expected;
    for (std::size_t i = 4; i + 4 <= payload.size(); i += 4, ++expected) {
        std::uint32_t word;
        std::memcpy(&word, payload.data() + i, 4);
        c.bitsChecked += 32;
        c.bitErrors += static_cast<std::uint64_t>(std::popcount(word ^ expected));
    }
}

}  // namespace

void PatternTally::check(transport::PayloadKind kind, std::span<const std::byte> payload, std::uint32_t slot) noexcept {
    auto found = checkPayload(kind, payload);
    if (!found) return;
    const bool errored = found->bitErrors > 0 || found->lockLosses > 0;
    std::lock_guard lock(mutex_);  // one lock a block: the counts and the slot's together
    if (found->total) {
        published_ = *found->total;
    } else {
        published_.bitsChecked += found->bitsChecked;
        published_.bitsOutOfLock += found->bitsOutOfLock;
    }
    ++blocks_;
    erroredBlocks_ += errored ? 1 : 0;
    if (slot < slots_.size()) {
        auto& s = slots_[slot];
        slotsReached_ += s.blocks == 0 ? 1 : 0;
        ++s.blocks;
        s.erroredBlocks += errored ? 1 : 0;
        s.bitErrors += found->bitErrors;
    }
}

std::optional<PatternTally::BlockErrors> PatternTally::checkPayload(transport::PayloadKind kind, std::span<const std::byte> payload) noexcept {
    BlockErrors found;
    if (transport::isPrbs(kind)) {
        auto& checker = prbs_[static_cast<std::size_t>(kind) - static_cast<std::size_t>(transport::PayloadKind::Prbs7)];
        if (!checker) checker.emplace(transport::prbsSpec(kind));
        const auto checked = checker->counts().bitsChecked, outOfLock = checker->counts().bitsOutOfLock;
        const auto errors = checker->counts().bitErrors, losses = checker->counts().lockLosses;
        checker->check(payload);
        checker->restart();  // each block on its own: a damaged or lost block cannot unlock the next
        const auto& c = checker->counts();
        found.bitErrors = c.bitErrors - errors;
        found.lockLosses = c.lockLosses - losses;
        if (found.bitErrors == 0 && found.lockLosses == 0) {  // a clean block (the usual one): its bits only
            found.bitsChecked = c.bitsChecked - checked;
            found.bitsOutOfLock = c.bitsOutOfLock - outOfLock;
            return found;
        }
    } else if (kind == transport::PayloadKind::Counter) {
        const auto errors = counter_.bitErrors;
        checkCounter(payload, counter_);
        found.bitErrors = counter_.bitErrors - errors;
    } else {
        return std::nullopt;
    }
    found.total = counter_;  // errors: every count and histogram again
    for (const auto& checker : prbs_) {
        if (checker) *found.total += checker->counts();
    }
    return found;
}

transport::PrbsCounts PatternTally::counts() const {
    std::lock_guard lock(mutex_);
    return published_;
}

RingSlotCounts PatternTally::ringSlots() const {
    RingSlotCounts r;
    std::lock_guard lock(mutex_);
    r.slots = static_cast<std::uint32_t>(slots_.size());
    r.slotsReached = slotsReached_;
    r.blocks = blocks_;
    r.erroredBlocks = erroredBlocks_;
    // The most errored slots, most first (the lower slot first of equals): an insertion into a short list.
    std::array<SlotErrors, RingSlotCounts::kWorst + 1> top{};
    for (std::uint32_t i = 0; i < slots_.size(); ++i) {
        if (slots_[i].erroredBlocks == 0) continue;
        SlotErrors s = slots_[i];
        s.slot = i;
        std::size_t at = r.worstCount;
        while (at > 0 && top[at - 1].erroredBlocks < s.erroredBlocks) {
            top[at] = top[at - 1];
            --at;
        }
        top[at] = s;
        r.worstCount = std::min<std::uint32_t>(r.worstCount + 1, RingSlotCounts::kWorst);
    }
    std::copy_n(top.begin(), r.worstCount, r.worst.begin());
    return r;
}

}  // namespace sonolink::ingest
