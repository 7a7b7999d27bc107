// SequenceTracker: accounts for every block sequence number exactly once: new, new but out of
// order (a later block came first), duplicate, or late (after it was already declared missing);
// a sequence not seen by the time the window of 64 has moved past it is a gap (missing block).
// finish(end) resolves everything below end. No allocation; O(1) per block.
// Thread contract: one thread (rx).
#pragma once

#include <cstdint>

namespace sonolink::ingest {

class SequenceTracker {
public:
    enum class Verdict { New, Reordered, Duplicate, Late };
    static constexpr std::uint64_t kWindow = 64;
    // Further ahead than this (16.7 M blocks, seconds of a full link) is no gap but a corrupt
    // number: ingest refuses the block rather than count millions missing.
    static constexpr std::uint64_t kMaxLeap = std::uint64_t(1) << 24;
    [[nodiscard]] bool implausible(std::uint64_t sequence) const noexcept { return sequence >= expected_ && sequence - expected_ >= kMaxLeap; }

    Verdict observe(std::uint64_t sequence) noexcept;
    // The full 64-bit sequence whose low 32 bits are `low`, nearest to what is expected now.
    [[nodiscard]] std::uint64_t widen(std::uint32_t low) const noexcept;
    // Declares every sequence below end that was never seen as missing.
    void finish(std::uint64_t end) noexcept;

    [[nodiscard]] std::uint64_t gaps() const noexcept { return gaps_; }
    [[nodiscard]] std::uint64_t expected() const noexcept { return expected_; }

private:
    void advance() noexcept;                     // resolves `expected_` (seen or missing) and moves on
    void skipTo(std::uint64_t target) noexcept;  // resolves everything below target, O(64)

    std::uint64_t expected_ = 0;  // lowest sequence not yet resolved
    std::uint64_t highest_ = 0;   // one past the highest sequence seen
    std::uint64_t window_ = 0;    // bit i: expected_ + i seen
    std::uint64_t history_ = 0;   // bit i: expected_ - 1 - i seen
    std::uint64_t gaps_ = 0;
};

}  // namespace sonolink::ingest
