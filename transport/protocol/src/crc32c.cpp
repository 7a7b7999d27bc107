#include "sonolink/transport/protocol/crc32c.h"

#include <limits>

#include <isa-l/crc.h>

namespace sonolink::transport {

std::uint32_t crc32cUpdate(std::uint32_t state, std::span<const std::byte> data) noexcept {
    // ISA-L takes an int length: feed very large buffers in pieces.
    constexpr std::size_t kMaxPiece = std::numeric_limits<int>::max() / 2;
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    std::size_t left = data.size();
    while (left > 0) {
        const std::size_t piece = left < kMaxPiece ? left : kMaxPiece;
        state = crc32_iscsi(const_cast<unsigned char*>(bytes), static_cast<int>(piece), state);
        bytes += piece;
        left -= piece;
    }
    return state;
}

std::uint32_t crc32c(std::span<const std::byte> data) noexcept {
    return crc32cEnd(crc32cUpdate(crc32cBegin(), data));
}

}  // namespace sonolink::transport
