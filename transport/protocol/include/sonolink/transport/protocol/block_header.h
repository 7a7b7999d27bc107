// BlockHeader: the 64-byte header that starts every data block the front end writes into a
// ring slot (layout in docs/protocol.md, "Block header"). encodeBlockHeader() fills the header
// CRC; checkBlockHeader() decodes untrusted bytes field by field and validates magic, header
// CRC, version, lengths and ranges, returning why a header was rejected without allocating.
// Thread contract: pure functions, thread-safe; no allocation (safe on the ingest hot path).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sonolink::transport {

inline constexpr std::uint32_t kBlockMagic = 0x4B424C53;  // "SLBK" in little-endian byte order
inline constexpr std::uint8_t kBlockVersion = 1;
inline constexpr std::size_t kBlockHeaderSize = 64;

namespace block_flags {
inline constexpr std::uint16_t kFirstOfFrame = 1u << 0;
inline constexpr std::uint16_t kLastOfFrame = 1u << 1;
inline constexpr std::uint16_t kTestPattern = 1u << 2;    // payload is a BER/counter pattern
inline constexpr std::uint16_t kPhotoacoustic = 1u << 3;  // receive-only frame after a laser trigger
inline constexpr std::uint16_t kKnown = 0x000F;
}  // namespace block_flags

// What the payload holds. RF = int16 samples, channel-major ([channel][sample]).
enum class PayloadKind : std::uint8_t { Rf = 0, Prbs7 = 1, Prbs15 = 2, Prbs23 = 3, Prbs31 = 4, Counter = 5 };
inline constexpr std::uint8_t kPayloadKindCount = 6;

struct BlockHeader {
    std::uint16_t flags = 0;
    std::uint64_t sequence = 0;    // every block the front end sends, from 0, no gaps
    std::uint32_t frameId = 0;     // every frame the front end acquires, dropped ones included
    std::uint16_t blockIndex = 0;  // 0 .. blockCount-1 within the frame
    std::uint16_t blockCount = 1;
    std::uint16_t firstChannel = 0;
    std::uint16_t channelCount = 0;
    std::uint32_t firstSample = 0;
    std::uint32_t sampleCount = 0;
    std::uint8_t waveIndex = 0;  // transmit (plane-wave angle) index within the frame
    PayloadKind payloadKind = PayloadKind::Rf;
    std::uint64_t timestampNs = 0;  // PTP time of the transmit (or laser trigger), ns
    std::uint32_t payloadBytes = 0;
    std::uint32_t payloadCrc = 0;         // CRC-32C of the payload bytes
    std::uint32_t laserEnergyMicroJ = 0;  // photoacoustic: the shot's photodiode energy (0: none seen)
};

enum class HeaderCheck : std::uint8_t {
    Ok = 0,
    TooShort,      // fewer than 64 bytes available
    BadMagic,      // not a block header (slot never written, or garbage)
    BadHeaderCrc,  // header damaged in flight or in memory
    UnsupportedVersion,
    BadHeaderSize,
    PayloadPastSlot,  // payload_bytes does not fit in the slot after the header
    BadBlockIndex,    // block_count == 0 or block_index >= block_count
    BadPayloadKind,
    BadRfGeometry,  // RF payload length != channel_count * sample_count * 2, or 0 channels
    UnknownFlags,
    // Checked by ingest, against the stream so far: a sequence or frame id leaping far past what is
    // expected (a header corrupted in a way its CRC did not catch, or a front end gone wrong).
    ImplausibleLeap,
};
inline constexpr int kHeaderCheckCount = 12;

[[nodiscard]] std::string_view describe(HeaderCheck check) noexcept;

// Writes the 64 header bytes into out (which must hold at least 64 bytes); computes the header CRC.
void encodeBlockHeader(const BlockHeader& header, std::span<std::byte> out) noexcept;

// Decodes and validates the header at the start of slot; slot.size() bounds the payload.
[[nodiscard]] HeaderCheck checkBlockHeader(std::span<const std::byte> slot, BlockHeader& out) noexcept;

}  // namespace sonolink::transport
