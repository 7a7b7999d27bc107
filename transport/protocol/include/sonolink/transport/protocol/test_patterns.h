// Link test patterns: pseudo-random binary sequences PRBS-7/15/23/31 as in ITU-T O.150
// (polynomials x^7+x^6+1, x^15+x^14+1, x^23+x^18+1, x^31+x^28+1; the 15, 23 and 31 sequences
// are sent inverted, as O.150 specifies), bits packed MSB first; and a 32-bit little-endian
// counter. PrbsChecker locks onto a received sequence and counts bit errors exactly (one per
// flipped bit: it runs its own generator after locking, it does not re-seed from the line).
// Thread contract: plain values, one thread each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sonolink/transport/protocol/block_header.h"

namespace sonolink::transport {

struct PrbsSpec {
    int order;       // register length n: period 2^n - 1
    int tap;         // the second tap (x^tap)
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

class PrbsChecker {
public:
    explicit PrbsChecker(PrbsSpec spec) noexcept : spec_(spec), generator_(spec) {}
    // Checks the next bytes of the received stream; the first `order` bits lock the checker.
    void check(std::span<const std::byte> received) noexcept;
    [[nodiscard]] bool locked() const noexcept { return lockBits_ >= spec_.order; }
    [[nodiscard]] std::uint64_t bitsChecked() const noexcept { return bitsChecked_; }
    [[nodiscard]] std::uint64_t bitErrors() const noexcept { return bitErrors_; }

private:
    PrbsSpec spec_;
    PrbsGenerator generator_;
    std::uint32_t lockState_ = 0;
    int lockBits_ = 0;
    std::uint64_t bitsChecked_ = 0;
    std::uint64_t bitErrors_ = 0;
};

// Fills out with 32-bit little-endian counter values starting at first; returns the next value.
std::uint32_t fillCounter(std::span<std::byte> out, std::uint32_t first) noexcept;

}  // namespace sonolink::transport
