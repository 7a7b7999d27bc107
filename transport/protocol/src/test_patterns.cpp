#include "sonolink/transport/protocol/test_patterns.h"

#include <cstring>

#include "prbs_words.h"

namespace sonolink::transport {

PrbsSpec prbsSpec(PayloadKind kind) noexcept {
    switch (kind) {
        case PayloadKind::Prbs7: return {7, 6, false};
        case PayloadKind::Prbs15: return {15, 14, true};
        case PayloadKind::Prbs23: return {23, 18, true};
        case PayloadKind::Prbs31: return {31, 28, true};
        default: return {0, 0, false};
    }
}

bool isPrbs(PayloadKind kind) noexcept { return prbsSpec(kind).order != 0; }

PrbsGenerator::PrbsGenerator(PrbsSpec spec, std::uint32_t seed) noexcept
    : spec_(spec), mask_(spec.order >= 32 ? 0xFFFFFFFFu : ((1u << spec.order) - 1)), state_(seed & mask_) {
    if (state_ == 0) state_ = 1;  // the all-zero state never leaves itself
}

bool PrbsGenerator::nextBit() noexcept {
    // Fibonacci LFSR: the new bit is the XOR of stages n and tap; it is also the output.
    const std::uint32_t bit = ((state_ >> (spec_.order - 1)) ^ (state_ >> (spec_.tap - 1))) & 1u;
    state_ = ((state_ << 1) | bit) & mask_;
    return (bit != 0) != spec_.inverted;
}

void PrbsGenerator::fill(std::span<std::byte> out) noexcept {
    // Whole words 64 bits at a time from the register (its bits are the last `order` sent, before
    // inversion), then the bytes left bit by bit.
    const std::uint64_t invert = spec_.inverted ? ~0ull : 0;
    const std::size_t words = out.size() / 8;
    std::uint64_t history = static_cast<std::uint64_t>(state_) ^ invert;
    for (std::size_t w = 0; w < words; ++w) {
        history = nextPrbsWord(history, spec_.order, spec_.tap, invert);
        const std::uint64_t bigEndian = __builtin_bswap64(history);
        std::memcpy(out.data() + 8 * w, &bigEndian, 8);
    }
    if (words > 0) state_ = static_cast<std::uint32_t>(history ^ invert) & mask_;
    for (auto& byte : out.subspan(8 * words)) {
        std::uint32_t value = 0;
        for (int i = 0; i < 8; ++i) value = (value << 1) | (nextBit() ? 1u : 0u);
        byte = static_cast<std::byte>(value);
    }
}

std::uint32_t fillCounter(std::span<std::byte> out, std::uint32_t first) noexcept {
    std::uint32_t value = first;
    std::size_t i = 0;
    for (; i + 4 <= out.size(); i += 4, ++value) {
        for (int b = 0; b < 4; ++b) out[i + b] = static_cast<std::byte>(value >> (8 * b));
    }
    for (int b = 0; i < out.size(); ++i, ++b) out[i] = static_cast<std::byte>(value >> (8 * b));
    return value;
}

}  // namespace sonolink::transport
