// CRC-32C (Castagnoli, iSCSI; check value 0xE3069283 for "123456789") at memory speed through
// ISA-L. Protects every block payload, block header and control message on the link, and the
// archive's objects (their CRC-32C, combined over parts).
// Thread contract: pure functions, thread-safe; no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace sonolink {

[[nodiscard]] std::uint32_t crc32c(std::span<const std::byte> data) noexcept;

// Streaming form: state = crc32cBegin(); state = crc32cUpdate(state, part)...; crc32cEnd(state).
[[nodiscard]] constexpr std::uint32_t crc32cBegin() noexcept { return 0xFFFFFFFFu; }
[[nodiscard]] std::uint32_t crc32cUpdate(std::uint32_t state, std::span<const std::byte> data) noexcept;
[[nodiscard]] constexpr std::uint32_t crc32cEnd(std::uint32_t state) noexcept { return ~state; }

}  // namespace sonolink
