#include "sonolink/transport/protocol/test_patterns.h"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::transport {
namespace {

TEST(PrbsTest, PeriodsAreMaximal) {
    for (auto kind : {PayloadKind::Prbs7, PayloadKind::Prbs15}) {
        const auto spec = prbsSpec(kind);
        PrbsGenerator g(spec, 1);
        const auto start = g.state();
        std::uint64_t period = 0;
        do {
            (void)g.nextBit();
            ++period;
        } while (g.state() != start && period < (1u << 20));
        EXPECT_EQ(period, (1ull << spec.order) - 1) << "order " << spec.order;
    }
}

TEST(PrbsTest, Prbs7KnownStart) {
    // x^7 + x^6 + 1 from the all-ones state: the first 14 bits are 0000001000001 1 (a well-known start).
    PrbsGenerator g(prbsSpec(PayloadKind::Prbs7), 0x7F);
    std::string bits;
    for (int i = 0; i < 14; ++i) bits += g.nextBit() ? '1' : '0';
    EXPECT_EQ(bits, "00000010000011");
}

TEST(PrbsTest, InvertedSequencesAreTheComplement) {
    auto spec = prbsSpec(PayloadKind::Prbs23);
    ASSERT_TRUE(spec.inverted);
    PrbsGenerator inverted(spec, 12345);
    spec.inverted = false;
    PrbsGenerator plain(spec, 12345);
    for (int i = 0; i < 1000; ++i) EXPECT_NE(inverted.nextBit(), plain.nextBit());
}

TEST(PrbsTest, FillIsTheSequenceBitByBitInPiecesOfAnySize) {
    for (auto kind : {PayloadKind::Prbs7, PayloadKind::Prbs15, PayloadKind::Prbs23, PayloadKind::Prbs31}) {
        PrbsGenerator serial(prbsSpec(kind), 0x1234567u), filled(prbsSpec(kind), 0x1234567u);
        std::vector<std::byte> expected(5000), actual(5000);
        for (auto& byte : expected) {
            unsigned value = 0;
            for (int i = 0; i < 8; ++i) value = (value << 1) | (serial.nextBit() ? 1u : 0u);
            byte = static_cast<std::byte>(value);
        }
        std::size_t at = 0;
        for (std::size_t piece : {3u, 16u, 5u, 1000u, 8u, 1u, 4000u}) {
            const auto n = std::min(piece, actual.size() - at);
            filled.fill(std::span(actual).subspan(at, n));
            at += n;
        }
        EXPECT_EQ(actual, expected) << "order " << prbsSpec(kind).order;
        EXPECT_EQ(filled.state(), serial.state());
    }
}

TEST(CounterPatternTest, LittleEndianWordsContinue) {
    std::vector<std::byte> data(10);
    const auto next = fillCounter(data, 0x01020304);
    EXPECT_EQ(next, 0x01020306u);
    EXPECT_EQ(data[0], std::byte{0x04});
    EXPECT_EQ(data[3], std::byte{0x01});
    EXPECT_EQ(data[4], std::byte{0x05});
    EXPECT_EQ(data[8], std::byte{0x06});  // partial last word
}

}  // namespace
}  // namespace sonolink::transport
