#include "sonolink/ingest/sequence_tracker.h"

namespace sonolink::ingest {

void SequenceTracker::advance() noexcept {
    const bool seen = (window_ & 1u) != 0;
    if (!seen) ++gaps_;
    history_ = (history_ << 1) | (seen ? 1u : 0u);
    window_ >>= 1;
    ++expected_;
}

SequenceTracker::Verdict SequenceTracker::observe(std::uint64_t sequence) noexcept {
    if (sequence < expected_) {
        const auto back = expected_ - sequence;
        if (back <= kWindow && ((history_ >> (back - 1)) & 1u) != 0) return Verdict::Duplicate;
        return Verdict::Late;
    }
    if (sequence - expected_ >= kWindow) skipTo(sequence - kWindow + 1);
    const auto bit = std::uint64_t(1) << (sequence - expected_);
    if ((window_ & bit) != 0) return Verdict::Duplicate;
    window_ |= bit;
    const auto verdict = sequence + 1 < highest_ ? Verdict::Reordered : Verdict::New;
    if (sequence + 1 > highest_) highest_ = sequence + 1;
    while ((window_ & 1u) != 0) advance();
    return verdict;
}

std::uint64_t SequenceTracker::widen(std::uint32_t low) const noexcept {
    const auto delta = static_cast<std::int32_t>(low - static_cast<std::uint32_t>(expected_));
    return expected_ + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
}

void SequenceTracker::skipTo(std::uint64_t target) noexcept {
    while (expected_ < target && window_ != 0) advance();
    if (expected_ >= target) return;
    // Nothing seen from here on: resolve the rest as missing in one step.
    const auto n = target - expected_;
    gaps_ += n;
    history_ = n >= 64 ? 0 : history_ << n;
    expected_ = target;
}

void SequenceTracker::finish(std::uint64_t end) noexcept { skipTo(end); }

}  // namespace sonolink::ingest
