// The word-parallel PRBS checker against the bit-by-bit truth: every PRBS of O.150, clean and
// with flipped bits, in pieces of any size; errors counted once each, where they are (error-free
// intervals, bursts); a slipped or foreign stream is a loss of lock, not a flood of bit errors.
#include "sonolink/transport/protocol/prbs_checker.h"

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::transport {
namespace {

constexpr PayloadKind kKinds[] = {PayloadKind::Prbs7, PayloadKind::Prbs15, PayloadKind::Prbs23, PayloadKind::Prbs31};

std::vector<std::byte> sequence(PayloadKind kind, std::size_t bytes, std::uint32_t seed = 0xFFFFFFFFu) {
    std::vector<std::byte> data(bytes);
    PrbsGenerator g(prbsSpec(kind), seed);
    g.fill(data);
    return data;
}

void flip(std::vector<std::byte>& data, std::uint64_t bit) { data[bit / 8] ^= std::byte(0x80u >> (bit % 8)); }

// Checks in pieces of the given sizes (cycled), then finishes; with every kernel, which must
// agree to the last count.
PrbsCounts checkInPieces(PayloadKind kind, const std::vector<std::byte>& data, std::vector<std::size_t> pieces) {
    std::vector<PrbsCounts> byKernel;
    for (auto kernel : {PrbsKernel::Best, PrbsKernel::Avx2, PrbsKernel::Scalar}) {
        PrbsChecker checker(prbsSpec(kind), kernel);
        std::size_t at = 0;
        for (std::size_t k = 0; at < data.size(); ++k) {
            const auto n = std::min(pieces[k % pieces.size()], data.size() - at);
            checker.check(std::span(data).subspan(at, n));
            at += n;
        }
        checker.finish();
        byKernel.push_back(checker.counts());
    }
    for (std::size_t k = 1; k < byKernel.size(); ++k) {
        EXPECT_EQ(byKernel[k].bitsChecked, byKernel[0].bitsChecked) << "kernel " << k;
        EXPECT_EQ(byKernel[k].bitErrors, byKernel[0].bitErrors) << "kernel " << k;
        EXPECT_EQ(byKernel[k].lockLosses, byKernel[0].lockLosses) << "kernel " << k;
        EXPECT_EQ(byKernel[k].errorFreeIntervals, byKernel[0].errorFreeIntervals) << "kernel " << k;
        EXPECT_EQ(byKernel[k].burstLengths, byKernel[0].burstLengths) << "kernel " << k;
    }
    return byKernel[0];
}

TEST(PrbsCheckerTest, CleanStreamsOfEveryPatternInPiecesOfAnySize) {
    for (auto kind : kKinds) {
        const auto data = sequence(kind, 100'003);  // not a whole number of words
        for (const auto& pieces : std::vector<std::vector<std::size_t>>{{100'003}, {1}, {7, 13, 64, 4096, 3}, {8}, {65536}}) {
            const auto c = checkInPieces(kind, data, pieces);
            EXPECT_EQ(c.bitErrors, 0u) << "order " << prbsSpec(kind).order;
            EXPECT_EQ(c.lockLosses, 0u);
            EXPECT_EQ(c.bitsChecked, data.size() * 8 - static_cast<std::uint64_t>(prbsSpec(kind).order));
            EXPECT_EQ(c.bitsOutOfLock, static_cast<std::uint64_t>(prbsSpec(kind).order));
        }
    }
}

TEST(PrbsCheckerTest, EachFlippedBitIsCountedOnceAndWhereItIs) {
    std::mt19937_64 rng(14);
    for (auto kind : kKinds) {
        const auto order = static_cast<std::uint64_t>(prbsSpec(kind).order);
        auto data = sequence(kind, 1 << 20);
        const auto bits = data.size() * 8;
        // Isolated flips, pairs a few bits apart and one in each word's last bits, at random places.
        std::set<std::uint64_t> flips;
        std::uniform_int_distribution<std::uint64_t> anywhere(order, bits - 1);
        while (flips.size() < 300) {
            const auto at = anywhere(rng);
            flips.insert(at);
            if (flips.size() % 3 == 0 && at + 5 < bits) flips.insert(at + 5);
            if (flips.size() % 7 == 0) flips.insert((at | 63) < bits ? (at | 63) : at);
        }
        for (auto b : flips) flip(data, b);
        const auto c = checkInPieces(kind, data, {4096, 17, 100'000});
        EXPECT_EQ(c.bitErrors, flips.size()) << "order " << order;
        EXPECT_EQ(c.lockLosses, 0u);
        EXPECT_EQ(c.bitsChecked, bits - order);
        // The error-free intervals and the bursts, from the flips' own positions.
        std::array<std::uint64_t, 64> intervals{};
        std::uint64_t bursts = 1, longest = 0, burstStart = *flips.begin(), previous = *flips.begin();
        for (auto it = std::next(flips.begin()); it != flips.end(); ++it) {
            const auto gap = *it - previous - 1;
            ++intervals[gap <= 1 ? 0 : 63 - std::countl_zero(gap)];
            if (gap >= kBurstGapBits) {
                longest = std::max(longest, previous - burstStart + 1);
                ++bursts;
                burstStart = *it;
            }
            previous = *it;
        }
        longest = std::max(longest, previous - burstStart + 1);
        EXPECT_EQ(c.errorFreeIntervals, intervals);
        EXPECT_EQ(c.bursts, bursts);
        EXPECT_EQ(c.longestBurstBits, longest);
    }
}

TEST(PrbsCheckerTest, ABurstIsOneBurstOfItsLength) {
    auto data = sequence(PayloadKind::Prbs31, 8192);
    for (std::uint64_t b = 10'000; b < 10'010; ++b) flip(data, b);     // 10 bits in a row
    for (std::uint64_t b = 30'000; b < 30'040; b += 4) flip(data, b);  // 10 bits over 37
    const auto c = checkInPieces(PayloadKind::Prbs31, data, {8192});
    EXPECT_EQ(c.bitErrors, 20u);
    EXPECT_EQ(c.bursts, 2u);
    EXPECT_EQ(c.longestBurstBits, 37u);
    EXPECT_EQ(c.burstLengths[3], 1u);  // 10 bits: [8, 16)
    EXPECT_EQ(c.burstLengths[5], 1u);  // 37 bits: [32, 64)
}

TEST(PrbsCheckerTest, ASlippedStreamIsALossOfLockAndTheCheckerLocksAgain) {
    for (auto kind : kKinds) {
        const auto data = sequence(kind, 1 << 16);
        // One bit lost on the way at bit 200'000: everything after it is the pattern, one bit early.
        std::vector<std::byte> slipped(data.size() - 1);
        const std::uint64_t at = 200'000;
        for (std::uint64_t b = 0; b < slipped.size() * 8; ++b) {
            const auto source = b < at ? b : b + 1;
            if ((std::to_integer<unsigned>(data[source / 8]) >> (7 - source % 8)) & 1u) slipped[b / 8] |= std::byte(0x80u >> (b % 8));
        }
        const auto c = checkInPieces(kind, slipped, {1 << 16});
        EXPECT_GE(c.lockLosses, 1u) << "order " << prbsSpec(kind).order;
        EXPECT_LE(c.lockLosses, 3u);
        EXPECT_LT(c.bitErrors, 64u) << "a slip is not a flood of bit errors";
        EXPECT_LT(c.bitsOutOfLock, 2000u);
        EXPECT_GT(c.bitsChecked, slipped.size() * 8 - 2000);
    }
}

TEST(PrbsCheckerTest, AnErrorAmongTheLockBitsIsALossOfLockNotHalfTheBitsWrong) {
    auto data = sequence(PayloadKind::Prbs23, 4096);
    flip(data, 3);
    const auto c = checkInPieces(PayloadKind::Prbs23, data, {4096});
    EXPECT_EQ(c.lockLosses, 1u);
    EXPECT_LT(c.bitErrors, 64u);
    EXPECT_GT(c.bitsChecked, 4096u * 8 - 400);
}

TEST(PrbsCheckerTest, ForeignDataIsNeverCountedAsThePattern) {
    std::vector<std::byte> noise(1 << 16);
    std::mt19937 rng(7);
    for (auto& b : noise) b = static_cast<std::byte>(rng());
    const auto c = checkInPieces(PayloadKind::Prbs31, noise, {1 << 16});
    EXPECT_GT(c.lockLosses, 100u);
    EXPECT_GT(c.bitsOutOfLock, noise.size() * 8 / 2);
}

TEST(PrbsCheckerTest, RestartLocksOnANewStreamAndKeepsTheCounts) {
    const auto a = sequence(PayloadKind::Prbs15, 1000, 1);
    const auto b = sequence(PayloadKind::Prbs15, 1000, 12345);  // another phase of the sequence
    PrbsChecker checker(prbsSpec(PayloadKind::Prbs15));
    checker.check(a);
    checker.restart();
    checker.check(b);
    checker.finish();
    EXPECT_EQ(checker.bitErrors(), 0u);
    EXPECT_EQ(checker.counts().lockLosses, 0u);
    EXPECT_EQ(checker.bitsChecked(), 2u * (8000 - 15));
}

TEST(PrbsCheckerTest, CountsAddUp) {
    PrbsCounts a, b;
    a.bitsChecked = 10;
    a.bitErrors = 1;
    a.longestBurstBits = 3;
    a.errorFreeIntervals[2] = 1;
    b.bitsChecked = 5;
    b.lockLosses = 2;
    b.longestBurstBits = 7;
    b.errorFreeIntervals[2] = 4;
    a += b;
    EXPECT_EQ(a.bitsChecked, 15u);
    EXPECT_EQ(a.lockLosses, 2u);
    EXPECT_EQ(a.longestBurstBits, 7u);
    EXPECT_EQ(a.errorFreeIntervals[2], 5u);
}

}  // namespace
}  // namespace sonolink::transport
