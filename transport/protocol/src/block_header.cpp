#include "sonolink/transport/protocol/block_header.h"

#include "sonolink/transport/protocol/byte_codec.h"
#include "sonolink/util/crc32c.h"

namespace sonolink::transport {
namespace {
constexpr std::size_t kCrcOffset = 60;
}

std::string_view describe(HeaderCheck check) noexcept {
    switch (check) {
        case HeaderCheck::Ok: return "ok";
        case HeaderCheck::TooShort: return "fewer than 64 bytes for the block header";
        case HeaderCheck::BadMagic: return "wrong magic: not a SonoLink block header";
        case HeaderCheck::BadHeaderCrc: return "header CRC-32C mismatch";
        case HeaderCheck::UnsupportedVersion: return "unsupported block header version";
        case HeaderCheck::BadHeaderSize: return "header_size field is not 64";
        case HeaderCheck::PayloadPastSlot: return "payload_bytes runs past the end of the slot";
        case HeaderCheck::BadBlockIndex: return "block_index not below block_count (or block_count 0)";
        case HeaderCheck::BadPayloadKind: return "unknown payload kind";
        case HeaderCheck::BadRfGeometry: return "RF payload length does not match channel_count x sample_count x 2";
        case HeaderCheck::UnknownFlags: return "unknown flag bits set";
        case HeaderCheck::ImplausibleLeap: return "sequence or frame id far past the stream's (over 2^24 ahead)";
    }
    return "unknown header check";
}

void encodeBlockHeader(const BlockHeader& h, std::span<std::byte> out) noexcept {
    ByteWriter w(out.first(kBlockHeaderSize));
    w.u32(kBlockMagic);
    w.u8(kBlockVersion);
    w.u8(static_cast<std::uint8_t>(kBlockHeaderSize));
    w.u16(h.flags);
    w.u64(h.sequence);
    w.u32(h.frameId);
    w.u16(h.blockIndex);
    w.u16(h.blockCount);
    w.u16(h.firstChannel);
    w.u16(h.channelCount);
    w.u32(h.firstSample);
    w.u32(h.sampleCount);
    w.u8(h.waveIndex);
    w.u8(static_cast<std::uint8_t>(h.payloadKind));
    w.u16(0);
    w.u64(h.timestampNs);
    w.u32(h.payloadBytes);
    w.u32(h.payloadCrc);
    w.u32(h.laserEnergyMicroJ);
    w.u32(crc32c(out.first(kCrcOffset)));
}

HeaderCheck checkBlockHeader(std::span<const std::byte> slot, BlockHeader& h) noexcept {
    if (slot.size() < kBlockHeaderSize) return HeaderCheck::TooShort;
    ByteReader r(slot.first(kBlockHeaderSize));
    if (r.u32() != kBlockMagic) return HeaderCheck::BadMagic;
    ByteReader crcField(slot.subspan(kCrcOffset, 4));
    if (crcField.u32() != crc32c(slot.first(kCrcOffset))) return HeaderCheck::BadHeaderCrc;
    if (r.u8() != kBlockVersion) return HeaderCheck::UnsupportedVersion;
    if (r.u8() != kBlockHeaderSize) return HeaderCheck::BadHeaderSize;
    h.flags = r.u16();
    h.sequence = r.u64();
    h.frameId = r.u32();
    h.blockIndex = r.u16();
    h.blockCount = r.u16();
    h.firstChannel = r.u16();
    h.channelCount = r.u16();
    h.firstSample = r.u32();
    h.sampleCount = r.u32();
    h.waveIndex = r.u8();
    const std::uint8_t kind = r.u8();
    r.skip(2);
    h.timestampNs = r.u64();
    h.payloadBytes = r.u32();
    h.payloadCrc = r.u32();
    h.laserEnergyMicroJ = r.u32();
    if ((h.flags & ~block_flags::kKnown) != 0) return HeaderCheck::UnknownFlags;
    if (h.payloadBytes > slot.size() - kBlockHeaderSize) return HeaderCheck::PayloadPastSlot;
    if (h.blockCount == 0 || h.blockIndex >= h.blockCount) return HeaderCheck::BadBlockIndex;
    if (kind >= kPayloadKindCount) return HeaderCheck::BadPayloadKind;
    h.payloadKind = static_cast<PayloadKind>(kind);
    if (h.payloadKind == PayloadKind::Rf && (h.channelCount == 0 || std::uint64_t(h.channelCount) * h.sampleCount * 2 != h.payloadBytes)) {
        return HeaderCheck::BadRfGeometry;
    }
    return HeaderCheck::Ok;
}

}  // namespace sonolink::transport
