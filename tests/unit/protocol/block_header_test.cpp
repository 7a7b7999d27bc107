#include "sonolink/transport/protocol/block_header.h"

#include <algorithm>
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "sonolink/transport/protocol/byte_codec.h"
#include "sonolink/util/crc32c.h"

namespace sonolink::transport {
namespace {

std::span<const std::byte> asBytes(std::string_view s) { return {reinterpret_cast<const std::byte*>(s.data()), s.size()}; }

TEST(Crc32cTest, StandardCheckValue) {
    EXPECT_EQ(crc32c(asBytes("123456789")), 0xE3069283u);
    EXPECT_EQ(crc32c({}), 0u);
}

TEST(Crc32cTest, StreamingEqualsOneShot) {
    const std::string_view text = "SonoLink streams RF blocks";
    auto state = crc32cUpdate(crc32cBegin(), asBytes(text.substr(0, 7)));
    state = crc32cUpdate(state, asBytes(text.substr(7)));
    EXPECT_EQ(crc32cEnd(state), crc32c(asBytes(text)));
}

BlockHeader sampleHeader() {
    BlockHeader h;
    h.flags = block_flags::kFirstOfFrame | block_flags::kPhotoacoustic;
    h.sequence = 0x0123456789ABCDEFull;
    h.frameId = 0xDEADBEEF;
    h.blockIndex = 3;
    h.blockCount = 8;
    h.firstChannel = 96;
    h.channelCount = 32;
    h.firstSample = 0x11223344;
    h.sampleCount = 1024;
    h.waveIndex = 2;
    h.payloadKind = PayloadKind::Rf;
    h.timestampNs = 0x1122334455667788ull;
    h.payloadBytes = 32 * 1024 * 2;
    h.payloadCrc = 0xCAFEF00D;
    return h;
}

std::vector<std::byte> slotWith(const BlockHeader& h, std::size_t slotBytes = 128 * 1024) {
    std::vector<std::byte> slot(slotBytes);
    encodeBlockHeader(h, slot);
    return slot;
}

// Re-encodes the header CRC after a test has changed a field's raw bytes.
void fixHeaderCrc(std::vector<std::byte>& slot) {
    ByteWriter w{std::span(slot).subspan(60, 4)};
    w.u32(crc32c(std::span(slot).first(60)));
}

TEST(BlockHeaderTest, RoundTripsEveryField) {
    const auto h = sampleHeader();
    auto slot = slotWith(h);
    BlockHeader out;
    ASSERT_EQ(checkBlockHeader(slot, out), HeaderCheck::Ok);
    EXPECT_EQ(out.flags, h.flags);
    EXPECT_EQ(out.sequence, h.sequence);
    EXPECT_EQ(out.frameId, h.frameId);
    EXPECT_EQ(out.blockIndex, h.blockIndex);
    EXPECT_EQ(out.blockCount, h.blockCount);
    EXPECT_EQ(out.firstChannel, h.firstChannel);
    EXPECT_EQ(out.channelCount, h.channelCount);
    EXPECT_EQ(out.firstSample, h.firstSample);
    EXPECT_EQ(out.sampleCount, h.sampleCount);
    EXPECT_EQ(out.waveIndex, h.waveIndex);
    EXPECT_EQ(out.payloadKind, h.payloadKind);
    EXPECT_EQ(out.timestampNs, h.timestampNs);
    EXPECT_EQ(out.payloadBytes, h.payloadBytes);
    EXPECT_EQ(out.payloadCrc, h.payloadCrc);
}

TEST(BlockHeaderTest, LayoutMatchesTheSpecification) {
    auto slot = slotWith(sampleHeader());
    ByteReader r(slot);
    EXPECT_EQ(r.u32(), 0x4B424C53u);  // offset 0: magic "SLBK"
    EXPECT_EQ(static_cast<char>(slot[0]), 'S');
    EXPECT_EQ(r.u8(), 1);                                   // 4: version
    EXPECT_EQ(r.u8(), 64);                                  // 5: header size
    EXPECT_EQ(r.u16(), 0x0009);                             // 6: flags
    EXPECT_EQ(r.u64(), 0x0123456789ABCDEFull);              // 8: sequence
    EXPECT_EQ(r.u32(), 0xDEADBEEFu);                        // 16: frame id
    r.skip(16);                                             // 20..35 ranges
    EXPECT_EQ(r.u8(), 2);                                   // 36: wave index
    EXPECT_EQ(r.u8(), 0);                                   // 37: payload kind
    EXPECT_EQ(r.u16(), 0);                                  // 38: reserved
    EXPECT_EQ(r.u64(), 0x1122334455667788ull);              // 40: timestamp
    EXPECT_EQ(r.u32(), 65536u);                             // 48: payload bytes
    EXPECT_EQ(r.u32(), 0xCAFEF00Du);                        // 52: payload CRC
    EXPECT_EQ(r.u32(), 0u);                                 // 56: reserved
    EXPECT_EQ(r.u32(), crc32c(std::span(slot).first(60)));  // 60: header CRC
}

TEST(BlockHeaderTest, EveryFlippedBitIsCaught) {
    const auto clean = slotWith(sampleHeader());
    for (std::size_t bit = 0; bit < 64 * 8; ++bit) {
        auto slot = clean;
        slot[bit / 8] ^= std::byte(1u << (bit % 8));
        BlockHeader out;
        const auto check = checkBlockHeader(slot, out);
        EXPECT_TRUE(check == HeaderCheck::BadHeaderCrc || check == HeaderCheck::BadMagic) << "bit " << bit;
    }
}

TEST(BlockHeaderTest, RejectsShortInput) {
    auto slot = slotWith(sampleHeader());
    BlockHeader out;
    EXPECT_EQ(checkBlockHeader(std::span(slot).first(63), out), HeaderCheck::TooShort);
    EXPECT_EQ(checkBlockHeader({}, out), HeaderCheck::TooShort);
}

TEST(BlockHeaderTest, RejectsNeverWrittenSlot) {
    std::vector<std::byte> slot(4096);
    BlockHeader out;
    EXPECT_EQ(checkBlockHeader(slot, out), HeaderCheck::BadMagic);
}

TEST(BlockHeaderTest, RejectsUnsupportedVersionAndHeaderSize) {
    auto slot = slotWith(sampleHeader());
    slot[4] = std::byte{2};
    fixHeaderCrc(slot);
    BlockHeader out;
    EXPECT_EQ(checkBlockHeader(slot, out), HeaderCheck::UnsupportedVersion);
    slot = slotWith(sampleHeader());
    slot[5] = std::byte{32};
    fixHeaderCrc(slot);
    EXPECT_EQ(checkBlockHeader(slot, out), HeaderCheck::BadHeaderSize);
}

TEST(BlockHeaderTest, RejectsPayloadPastSlot) {
    auto h = sampleHeader();
    BlockHeader out;
    auto slot = slotWith(h, 64 + h.payloadBytes);
    EXPECT_EQ(checkBlockHeader(slot, out), HeaderCheck::Ok);  // exactly fits
    slot = slotWith(h, 64 + h.payloadBytes - 1);
    EXPECT_EQ(checkBlockHeader(slot, out), HeaderCheck::PayloadPastSlot);
    h.payloadBytes = 0xFFFFFFFF;
    slot = slotWith(h);
    EXPECT_EQ(checkBlockHeader(slot, out), HeaderCheck::PayloadPastSlot);
}

TEST(BlockHeaderTest, RejectsBadIndexKindGeometryAndFlags) {
    BlockHeader out;
    auto h = sampleHeader();
    h.blockIndex = 8;
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::BadBlockIndex);
    h = sampleHeader();
    h.blockCount = 0;
    h.blockIndex = 0;
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::BadBlockIndex);
    h = sampleHeader();
    h.payloadKind = static_cast<PayloadKind>(9);
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::BadPayloadKind);
    h = sampleHeader();
    h.sampleCount = 1000;  // 32 x 1000 x 2 != 65536
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::BadRfGeometry);
    h = sampleHeader();
    h.channelCount = 0;
    h.payloadBytes = 0;
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::BadRfGeometry);
    h = sampleHeader();
    h.flags = 0x0100;
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::UnknownFlags);
}

TEST(BlockHeaderTest, TestPatternPayloadNeedsNoRfGeometry) {
    auto h = sampleHeader();
    h.payloadKind = PayloadKind::Prbs31;
    h.flags = block_flags::kTestPattern;
    h.payloadBytes = 1000;
    BlockHeader out;
    EXPECT_EQ(checkBlockHeader(slotWith(h), out), HeaderCheck::Ok);
}

TEST(BlockHeaderTest, EveryCheckHasADescription) {
    for (int c = 0; c < kHeaderCheckCount; ++c) {
        EXPECT_NE(describe(static_cast<HeaderCheck>(c)), "unknown header check") << c;
    }
}

}  // namespace
}  // namespace sonolink::transport

namespace sonolink::transport {
namespace {

TEST(Crc32cTest, LargeBuffersMatchAPlainBitwiseCrc) {
    // ISA-L's kernel for this CPU against a bitwise CRC-32C, on a buffer of pages and a ragged tail,
    // whole and streamed in uneven parts.
    std::vector<std::byte> data(5 * 4096 + 123);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>((i * 131 + 7) & 0xFF);
    std::uint32_t reference = 0xFFFFFFFFu;
    for (auto b : data) {
        reference ^= std::to_integer<std::uint32_t>(b);
        for (int k = 0; k < 8; ++k) reference = (reference >> 1) ^ (0x82F63B78u & (0u - (reference & 1u)));
    }
    EXPECT_EQ(crc32c(data), ~reference);
    std::uint32_t streamed = crc32cBegin();
    for (std::size_t offset = 0, part = 1; offset < data.size(); offset += part, part = part * 3 + 1) {
        streamed = crc32cUpdate(streamed, std::span<const std::byte>(data).subspan(offset, std::min(part, data.size() - offset)));
    }
    EXPECT_EQ(crc32cEnd(streamed), ~reference);
}

}  // namespace
}  // namespace sonolink::transport
