#include "sonolink/transport/protocol/test_patterns.h"

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
    for (auto& byte : out) {
        std::uint32_t value = 0;
        for (int i = 0; i < 8; ++i) value = (value << 1) | (nextBit() ? 1u : 0u);
        byte = static_cast<std::byte>(value);
    }
}

void PrbsChecker::check(std::span<const std::byte> received) noexcept {
    for (auto byte : received) {
        for (int i = 7; i >= 0; --i) {
            const bool bit = ((std::to_integer<unsigned>(byte) >> i) & 1u) != 0;
            if (!locked()) {
                // The generator's output bits are its register contents: n received bits are a state.
                lockState_ = (lockState_ << 1) | ((bit != spec_.inverted) ? 1u : 0u);
                if (++lockBits_ == spec_.order) generator_.setState(lockState_);
                continue;
            }
            ++bitsChecked_;
            if (generator_.nextBit() != bit) ++bitErrors_;
        }
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
