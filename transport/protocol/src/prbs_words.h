// Private to sonolink_transport_protocol: a PRBS 64 bits at a time. The sequence obeys
// r[n] = r[n - order] ^ r[n - tap] (^ 1 when sent inverted: three inverted bits); a word's bits
// follow from the `order` bits before it, `tap` more of them right with each pass.
#pragma once

#include <cstdint>

namespace sonolink::transport {

// Each bit of `word` replaced by the bit k earlier in the stream (prev: the word before); bits
// first in time at bit 63.
inline std::uint64_t delayedBits(std::uint64_t prev, std::uint64_t word, int k) noexcept { return (word >> k) | (prev << (64 - k)); }

// The 64 bits that follow `history` (its low `order` bits: the last bits sent, the latest at bit 0).
inline std::uint64_t nextPrbsWord(std::uint64_t history, int order, int tap, std::uint64_t invert) noexcept {
    std::uint64_t e = 0;
    for (int covered = 0; covered < 64; covered += tap) e = delayedBits(history, e, order) ^ delayedBits(history, e, tap) ^ invert;
    return e;
}

}  // namespace sonolink::transport
