// Link test patterns: pseudo-random binary sequences PRBS-7/15/23/31 as in ITU-T O.150
// (polynomials x^7+x^6+1, x^15+x^14+1, x^23+x^18+1, x^31+x^28+1; the 15, 23 and 31 sequences
// are sent inverted, as O.150 specifies), bits packed MSB first; and a 32-bit little-endian
// counter. The checker of a received sequence is PrbsChecker (prbs_checker.h).
// Thread contract: plain values, one thread each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sonolink/transport/protocol/block_header.h"

namespace sonolink::transport {

struct PrbsSpec {
    int order;  // register length n: period 2^n - 1
    int tap;    // the second tap (x^tap)
    bool inverted;
};
// The spec for a PRBS payload kind; PayloadKind::Rf and Counter are not PRBS.
[[nodiscard]] PrbsSpec prbsSpec(PayloadKind kind) noexcept;
[[nodiscard]] bool isPrbs(PayloadKind kind) noexcept;

class PrbsGenerator {
public:
    explicit PrbsGenerator(PrbsSpec spec, std::uint32_t seed = 0xFFFFFFFFu) noexcept;
    [[nodiscard]] bool nextBit() noexcept;
    void fill(std::span<std::byte> out) noexcept;  // continues the sequence
    [[nodiscard]] std::uint32_t state() const noexcept { return state_; }
    void setState(std::uint32_t state) noexcept { state_ = state & mask_; }

private:
    PrbsSpec spec_;
    std::uint32_t mask_;
    std::uint32_t state_;
};

// Fills out with 32-bit little-endian counter values starting at first; returns the next value.
std::uint32_t fillCounter(std::span<std::byte> out, std::uint32_t first) noexcept;

}  // namespace sonolink::transport
