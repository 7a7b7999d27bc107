// ClockOffset: IEEE 1588's two-way arithmetic on TimeSync exchanges, and replies it must not use
// (one this side never asked for, a stale one, times that run backwards).
#include <gtest/gtest.h>

#include "sonolink/ingest/clock_offset.h"

namespace sonolink::ingest {
namespace {

TEST(ClockOffsetTest, OffsetAndPathDelayFromTheFourTimes) {
    ClockOffset c;
    c.pendingT1Ns = 1'000'000;
    // The front end 300 µs ahead, 20 µs each way, 5 µs to turn the message round.
    const transport::TimeSync reply{1'000'000, 1'000'000 + 20'000 + 300'000, 1'000'000 + 25'000 + 300'000};
    ASSERT_TRUE(c.answer(reply, 1'000'000 + 45'000));
    EXPECT_EQ(c.offsetNs, 300'000);
    EXPECT_EQ(c.pathDelayNs, 20'000);
    EXPECT_EQ(c.exchanges, 1u);
    EXPECT_EQ(c.pendingT1Ns, 0u) << "answered";
}

TEST(ClockOffsetTest, AFrontEndBehindTheHostGivesANegativeOffset) {
    ClockOffset c;
    c.pendingT1Ns = 10'000'000;
    ASSERT_TRUE(c.answer({10'000'000, 10'000'000 + 10'000 - 2'000'000, 10'000'000 + 10'000 - 2'000'000}, 10'000'000 + 20'000));
    EXPECT_EQ(c.offsetNs, -2'000'000);
    EXPECT_EQ(c.pathDelayNs, 10'000);
}

// The least-delayed of the last eight exchanges stands: a reply held up on a busy host (its
// offset off by the hold-up's half) does not displace it, and it goes once eight newer came.
TEST(ClockOffsetTest, TheLeastDelayedOfTheLastEightExchangesIsReported) {
    ClockOffset c;
    const auto exchange = [&c](std::uint64_t t1, std::uint64_t holdUpNs) {
        c.pendingT1Ns = t1;
        // The front end 300 µs ahead, 10 µs each way; the host reads the reply holdUpNs late.
        return c.answer({t1, t1 + 10'000 + 300'000, t1 + 10'000 + 300'000}, t1 + 20'000 + holdUpNs);
    };
    ASSERT_TRUE(exchange(1'000'000'000, 0));
    ASSERT_TRUE(exchange(2'000'000'000, 4'000'000));
    EXPECT_EQ(c.offsetNs, 300'000);
    EXPECT_EQ(c.pathDelayNs, 10'000);
    for (std::uint64_t s = 3; s <= 9; ++s) ASSERT_TRUE(exchange(s * 1'000'000'000, 2'000'000));
    EXPECT_EQ(c.pathDelayNs, 1'010'000) << "the good exchange has gone out of the last eight";
    EXPECT_EQ(c.offsetNs, 300'000 - 1'000'000);
    EXPECT_EQ(c.exchanges, 9u);
}

TEST(ClockOffsetTest, RepliesThatAnswerNoPendingExchangeOrRunBackwardsAreRefused) {
    ClockOffset c;
    EXPECT_FALSE(c.answer({5, 6, 7}, 8)) << "nothing asked";
    c.pendingT1Ns = 100;
    EXPECT_FALSE(c.answer({99, 150, 160}, 200)) << "a stale exchange's t1";
    EXPECT_FALSE(c.answer({100, 160, 150}, 200)) << "sent back before it was received";
    EXPECT_FALSE(c.answer({100, 150, 160}, 90)) << "arrived before it was sent";
    EXPECT_FALSE(c.answer({100, 100, 200}, 150)) << "a turnaround longer than the round trip";
    EXPECT_EQ(c.refused, 5u);
    EXPECT_EQ(c.exchanges, 0u);
    EXPECT_TRUE(c.answer({100, 150, 160}, 200));
    EXPECT_FALSE(c.answer({100, 150, 160}, 200)) << "an exchange is used once";
}

}  // namespace
}  // namespace sonolink::ingest
