#include "sonolink/ingest/sequence_tracker.h"

#include <gtest/gtest.h>

namespace sonolink::ingest {
namespace {

using V = SequenceTracker::Verdict;

TEST(SequenceTrackerTest, InOrderHasNoGaps) {
    SequenceTracker t;
    for (std::uint64_t s = 0; s < 1000; ++s) EXPECT_EQ(t.observe(s), V::New);
    t.finish(1000);
    EXPECT_EQ(t.gaps(), 0u);
}

TEST(SequenceTrackerTest, CountsEachMissingSequenceOnce) {
    SequenceTracker t;
    for (std::uint64_t s = 0; s < 500; ++s) {
        if (s == 7 || s == 8 || s == 300) continue;
        (void)t.observe(s);
    }
    t.finish(500);
    EXPECT_EQ(t.gaps(), 3u);
}

TEST(SequenceTrackerTest, MissingAtTheEndNeedsFinish) {
    SequenceTracker t;
    for (std::uint64_t s = 0; s < 10; ++s) (void)t.observe(s);
    t.finish(13);
    EXPECT_EQ(t.gaps(), 3u);
}

TEST(SequenceTrackerTest, SwappedPairIsOneReorderNoGap) {
    SequenceTracker t;
    EXPECT_EQ(t.observe(0), V::New);
    EXPECT_EQ(t.observe(2), V::New);
    EXPECT_EQ(t.observe(1), V::Reordered);
    EXPECT_EQ(t.observe(3), V::New);
    t.finish(4);
    EXPECT_EQ(t.gaps(), 0u);
}

TEST(SequenceTrackerTest, DuplicatesInWindowAndHistory) {
    SequenceTracker t;
    for (std::uint64_t s = 0; s < 10; ++s) (void)t.observe(s);
    EXPECT_EQ(t.observe(9), V::Duplicate);  // just behind
    EXPECT_EQ(t.observe(0), V::Duplicate);  // in history
    EXPECT_EQ(t.observe(12), V::New);
    EXPECT_EQ(t.observe(12), V::Duplicate);  // in the window, ahead
}

TEST(SequenceTrackerTest, LateAfterDeclaredMissing) {
    SequenceTracker t;
    (void)t.observe(0);
    (void)t.observe(200);  // moves the window: 1..136 declared missing
    EXPECT_EQ(t.gaps(), 136u);
    EXPECT_EQ(t.observe(5), V::Late);
}

TEST(SequenceTrackerTest, WidenRecoversTheFullSequence) {
    SequenceTracker t;
    const std::uint64_t base = 0x1'FFFF'FFF0ull;
    for (std::uint64_t s = 0; s < 200; ++s) (void)t.observe(s);
    SequenceTracker far;
    far.finish(base);
    EXPECT_EQ(far.widen(static_cast<std::uint32_t>(base + 0x20)), base + 0x20);  // across the 32-bit wrap
    EXPECT_EQ(far.widen(static_cast<std::uint32_t>(base - 3)), base - 3);
    EXPECT_EQ(t.widen(150), 150u);
}

}  // namespace
}  // namespace sonolink::ingest

namespace sonolink::ingest {
namespace {

TEST(SequenceTrackerTest, ALeapOfMillionsIsImplausibleAndChangesNothing) {
    SequenceTracker t;
    (void)t.observe(0);
    EXPECT_FALSE(t.implausible(1));
    EXPECT_FALSE(t.implausible(SequenceTracker::kMaxLeap));  // expected is 1: just under the leap
    EXPECT_TRUE(t.implausible(1 + SequenceTracker::kMaxLeap));
    EXPECT_TRUE(t.implausible(std::uint64_t(1) << 40));
    EXPECT_FALSE(t.implausible(0)) << "behind is late or a duplicate, not a leap";
    EXPECT_EQ(t.gaps(), 0u);
    EXPECT_EQ(t.expected(), 1u);
}

TEST(SequenceTrackerTest, HugeJumpsAreConstantTime) {
    SequenceTracker t;
    (void)t.observe(0);
    EXPECT_EQ(t.observe(5'000'000'000ull), SequenceTracker::Verdict::New);
    EXPECT_EQ(t.gaps(), 5'000'000'000ull - 1 - 63);  // the last 63 are still inside the window
    t.finish(10'000'000'000ull);
    EXPECT_EQ(t.gaps(), 10'000'000'000ull - 2);
    EXPECT_EQ(t.observe(5'000'000'000ull), SequenceTracker::Verdict::Late);
}

}  // namespace
}  // namespace sonolink::ingest
