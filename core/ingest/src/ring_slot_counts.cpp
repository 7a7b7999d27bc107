#include "sonolink/ingest/ring_slot_counts.h"

#include <algorithm>

namespace sonolink::ingest {

std::vector<SlotErrors> RingSlotCounts::repeatedFaults() const {
    std::vector<SlotErrors> out;
    for (std::uint32_t i = 0; i < worstCount; ++i) {
        const auto& s = worst[i];
        if (s.erroredBlocks < 2 || 8 * std::uint64_t{s.erroredBlocks} < s.blocks) continue;
        const double here = static_cast<double>(s.erroredBlocks) / s.blocks;
        const auto restBlocks = blocks - s.blocks;
        const double rest = restBlocks > 0 ? static_cast<double>(erroredBlocks - s.erroredBlocks) / static_cast<double>(restBlocks) : 0.0;
        if (here >= 4 * rest) out.push_back(s);
    }
    return out;
}

RingSlotCounts& RingSlotCounts::operator+=(const RingSlotCounts& o) noexcept {
    std::array<SlotErrors, 2 * kWorst> merged{};
    std::copy_n(worst.begin(), worstCount, merged.begin());
    auto end = merged.begin() + worstCount;
    for (std::uint32_t i = 0; i < o.worstCount; ++i) {
        const auto& s = o.worst[i];
        auto same = std::find_if(merged.begin(), end, [&](const SlotErrors& m) { return m.slot == s.slot; });
        if (same == end) {
            *end++ = s;
        } else {
            same->blocks += s.blocks;
            same->erroredBlocks += s.erroredBlocks;
            same->bitErrors += s.bitErrors;
        }
    }
    std::stable_sort(merged.begin(), end, [](const SlotErrors& a, const SlotErrors& b) { return a.erroredBlocks > b.erroredBlocks; });
    worstCount = static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(end - merged.begin(), kWorst));
    std::copy_n(merged.begin(), worstCount, worst.begin());
    slots = std::max(slots, o.slots);
    slotsReached = std::max(slotsReached, o.slotsReached);
    blocks += o.blocks;
    erroredBlocks += o.erroredBlocks;
    return *this;
}

}  // namespace sonolink::ingest
