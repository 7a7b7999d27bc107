// The joiner: a frame goes out complete only with every host's part, in trigger order; past its
// deadline it goes flagged with the hosts it lacks, or is dropped by policy; parts of another
// plan, epoch or shape are refused with the reason; late and duplicate parts are counted; the
// counts add up to the triggers spanned.
#include "sonolink/cluster/frame_joiner.h"

#include <gtest/gtest.h>

namespace sonolink::cluster {
namespace {

constexpr std::uint64_t kPlan = 0xabcdef;
constexpr std::size_t kValues = 4;
constexpr std::int64_t kMs = 1'000'000;

PartialHeader part(std::uint16_t host, std::uint64_t trigger, std::uint32_t epoch = 0, std::uint64_t plan = kPlan) {
    PartialHeader h;
    h.host = host;
    h.triggerSequence = trigger;
    h.epoch = epoch;
    h.planHash = plan;
    h.nx = 2;
    h.nz = 2;
    return h;
}

std::vector<float> values(float v) { return std::vector<float>(kValues, v); }

FrameJoiner joiner(IncompletePolicy policy = IncompletePolicy::ShowFlagged) {
    return FrameJoiner({.hosts = 3, .deadlineNs = 20 * kMs, .policy = policy, .mostFramesOpen = 8}, kPlan, kValues);
}

TEST(FrameJoinerTest, AFrameGoesCompleteOnlyWithEveryHostsPart) {
    FrameJoiner j = joiner();
    EXPECT_TRUE(j.offer(part(2, 5), values(3), 0).empty());
    EXPECT_TRUE(j.offer(part(0, 5), values(1), 1 * kMs).empty());
    const auto out = j.offer(part(1, 5), values(2), 2 * kMs);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(out[0].complete);
    EXPECT_TRUE(out[0].missingHosts.empty());
    EXPECT_EQ(out[0].sum, values(6));
    EXPECT_EQ(out[0].firstInNs, 0);
    EXPECT_EQ(out[0].lastInNs, 2 * kMs);
    EXPECT_EQ(j.counts().complete, 1u);
    EXPECT_EQ(j.framesOpen(), 0u);
}

TEST(FrameJoinerTest, PastItsDeadlineAFrameGoesFlaggedWithTheHostsItLacks) {
    FrameJoiner j = joiner();
    (void)j.offer(part(0, 1), values(1), 0);
    (void)j.offer(part(2, 1), values(1), 0);
    EXPECT_TRUE(j.expire(19 * kMs).empty());
    EXPECT_EQ(j.nextDeadlineNs(), 20 * kMs);
    const auto out = j.expire(20 * kMs);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_FALSE(out[0].complete);
    EXPECT_EQ(out[0].missingHosts, std::vector<std::uint16_t>{1});
    EXPECT_EQ(out[0].sum, values(2));  // hosts 0 and 2
    EXPECT_EQ(j.counts().incomplete, 1u);
    EXPECT_EQ(j.counts().hosts[1].missing, 1u);
    EXPECT_EQ(j.counts().complete, 0u);
}

TEST(FrameJoinerTest, ByPolicyAnIncompleteFrameIsDroppedAndCounted) {
    FrameJoiner j = joiner(IncompletePolicy::Drop);
    (void)j.offer(part(0, 1), values(1), 0);
    EXPECT_TRUE(j.expire(30 * kMs).empty());
    EXPECT_EQ(j.counts().dropped, 1u);
    EXPECT_EQ(j.counts().incomplete, 0u);
    EXPECT_EQ(j.counts().hosts[1].missing, 1u);
    EXPECT_EQ(j.counts().hosts[2].missing, 1u);
}

TEST(FrameJoinerTest, FramesGoInTriggerOrderAWholeOneWaitingForAnOlderOne) {
    FrameJoiner j = joiner();
    (void)j.offer(part(0, 1), values(1), 0);
    for (std::uint16_t h = 0; h < 3; ++h) EXPECT_TRUE(j.offer(part(h, 2), values(1), 5 * kMs).empty());
    const auto out = j.expire(20 * kMs);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].triggerSequence, 1u);
    EXPECT_FALSE(out[0].complete);
    EXPECT_EQ(out[1].triggerSequence, 2u);
    EXPECT_TRUE(out[1].complete);
}

TEST(FrameJoinerTest, LateAndDuplicatePartsAreCountedNotJoined) {
    FrameJoiner j = joiner();
    (void)j.offer(part(0, 1), values(1), 0);
    EXPECT_TRUE(j.offer(part(0, 1), values(9), 1).empty());
    EXPECT_EQ(j.counts().duplicate, 1u);
    ASSERT_EQ(j.expire(20 * kMs).size(), 1u);
    EXPECT_TRUE(j.offer(part(1, 1), values(1), 21 * kMs).empty());
    EXPECT_EQ(j.counts().late, 1u);
    EXPECT_EQ(j.counts().hosts[1].late, 1u);
    EXPECT_EQ(j.framesOpen(), 0u);
}

TEST(FrameJoinerTest, PartsOfAnotherPlanEpochOrShapeAreRefusedWithTheReason) {
    FrameJoiner j = joiner();
    EXPECT_TRUE(j.offer(part(0, 1, 0, 0x1234), values(1), 0).empty());
    EXPECT_NE(j.lastRefusal().find("carries plan 0000000000001234"), std::string::npos) << j.lastRefusal();
    EXPECT_TRUE(j.offer(part(0, 1, 3), values(1), 0).empty());
    EXPECT_NE(j.lastRefusal().find("epoch 3"), std::string::npos) << j.lastRefusal();
    EXPECT_TRUE(j.offer(part(0, 1), std::vector<float>(7), 0).empty());
    EXPECT_NE(j.lastRefusal().find("holds 7 values"), std::string::npos) << j.lastRefusal();
    EXPECT_TRUE(j.offer(part(5, 1), values(1), 0).empty());
    EXPECT_NE(j.lastRefusal().find("host 5"), std::string::npos) << j.lastRefusal();
    EXPECT_EQ(j.counts().refused, 4u);
    EXPECT_EQ(j.counts().hosts[0].refused, 3u);
    EXPECT_EQ(j.framesOpen(), 0u);
}

TEST(FrameJoinerTest, ANewEpochTakesEffectFromItsTrigger) {
    FrameJoiner j = joiner();
    j.beginEpoch(0x777, 1, 10, kValues);
    for (std::uint16_t h = 0; h < 3; ++h) (void)j.offer(part(h, 9), values(1), 0);  // before the boundary: the old plan
    EXPECT_EQ(j.counts().complete, 1u);
    EXPECT_TRUE(j.offer(part(0, 10), values(1), 0).empty());  // the old plan after the boundary
    EXPECT_EQ(j.counts().refused, 1u);
    for (std::uint16_t h = 0; h < 3; ++h) (void)j.offer(part(h, 10, 1, 0x777), values(1), 0);
    EXPECT_EQ(j.counts().complete, 2u);
}

TEST(FrameJoinerTest, TriggersWithNoPartAtAllAreCountedNeverSeen) {
    FrameJoiner j = joiner();
    for (std::uint64_t t : {3u, 7u})
        for (std::uint16_t h = 0; h < 3; ++h) (void)j.offer(part(h, t), values(1), 0);
    EXPECT_EQ(j.counts().complete, 2u);
    EXPECT_EQ(j.counts().neverSeen, 3u);
}

TEST(FrameJoinerTest, TooManyOpenFramesLetTheOldestGoAsItIs) {
    FrameJoiner j = joiner();
    std::size_t out = 0;
    for (std::uint64_t t = 1; t <= 12; ++t) out += j.offer(part(0, t), values(1), 0).size();
    EXPECT_EQ(out, 4u);
    EXPECT_EQ(j.framesOpen(), 8u);
    EXPECT_EQ(j.counts().incomplete, 4u);
    EXPECT_EQ(j.counts().complete, 0u);
}

}  // namespace
}  // namespace sonolink::cluster
