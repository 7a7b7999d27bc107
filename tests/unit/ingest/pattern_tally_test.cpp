// PatternTally by ring slot: where each test-pattern block was checked in place, and which slots'
// errors repeat there (a slot's memory or DMA path at fault) rather than spread over the ring
// (line noise: the BER step's business).
#include <vector>

#include <gtest/gtest.h>

#include "sonolink/ingest/pattern_tally.h"
#include "sonolink/transport/protocol/test_patterns.h"

namespace sonolink::ingest {
namespace {

using transport::PayloadKind;

std::vector<std::byte> prbs31Block(std::size_t bytes) {
    std::vector<std::byte> block(bytes);
    transport::PrbsGenerator(transport::prbsSpec(PayloadKind::Prbs31)).fill(block);
    return block;
}

TEST(PatternTallyTest, EveryBlockIsCountedInTheSlotItWasCheckedIn) {
    PatternTally tally(4);
    const auto clean = prbs31Block(4096);
    auto damaged = clean;
    damaged[2048] ^= std::byte{0x01};
    for (std::uint32_t pass = 0; pass < 3; ++pass) {
        for (std::uint32_t slot = 0; slot < 3; ++slot) tally.check(PayloadKind::Prbs31, slot == 1 ? damaged : clean, slot);
    }
    tally.check(PayloadKind::Rf, clean, 3);  // not a test pattern: not counted
    const auto r = tally.ringSlots();
    EXPECT_EQ(r.slots, 4u);
    EXPECT_EQ(r.slotsReached, 3u);
    EXPECT_EQ(r.blocks, 9u);
    EXPECT_EQ(r.erroredBlocks, 3u);
    ASSERT_EQ(r.worstCount, 1u);
    EXPECT_EQ(r.worst[0].slot, 1u);
    EXPECT_EQ(r.worst[0].blocks, 3u);
    EXPECT_EQ(r.worst[0].erroredBlocks, 3u);
    EXPECT_EQ(r.worst[0].bitErrors, 3u);
    EXPECT_EQ(tally.counts().bitErrors, 3u);
    const auto faults = r.repeatedFaults();
    ASSERT_EQ(faults.size(), 1u);
    EXPECT_EQ(faults[0].slot, 1u);
}

TEST(PatternTallyTest, ErrorsSpreadOverTheRingAreNoSlotsFault) {
    PatternTally tally(8);
    const auto clean = prbs31Block(4096);
    for (std::uint32_t pass = 0; pass < 4; ++pass) {
        for (std::uint32_t slot = 0; slot < 8; ++slot) {
            auto block = clean;
            if ((pass + slot) % 2 == 0) block[100 + slot] ^= std::byte{0x10};  // half of all blocks, in every slot
            tally.check(PayloadKind::Prbs31, block, slot);
        }
    }
    const auto r = tally.ringSlots();
    EXPECT_EQ(r.erroredBlocks, 16u);
    EXPECT_EQ(r.worstCount, 8u);
    EXPECT_TRUE(r.repeatedFaults().empty()) << "every slot errs as often as the rest: line noise";
}

TEST(PatternTallyTest, OneDamagedBlockInASlotIsNotARepeatedFault) {
    RingSlotCounts r;
    r.slots = 16;
    r.slotsReached = 16;
    r.blocks = 160;
    r.erroredBlocks = 1;
    r.worst[0] = {7, 10, 1, 1};
    r.worstCount = 1;
    EXPECT_TRUE(r.repeatedFaults().empty());
    r.worst[0] = {7, 10, 3, 3};  // three of its ten, none elsewhere
    r.erroredBlocks = 3;
    ASSERT_EQ(r.repeatedFaults().size(), 1u);
    r.worst[0] = {7, 20, 2, 2};  // a tenth of its blocks: under an eighth
    r.erroredBlocks = 2;
    EXPECT_TRUE(r.repeatedFaults().empty());
}

TEST(PatternTallyTest, TwoSessionsCountsAddUpSlotBySlot) {
    RingSlotCounts a, b;
    a.slots = b.slots = 4;
    a.slotsReached = 3;
    b.slotsReached = 4;
    a.blocks = 12;
    b.blocks = 8;
    a.erroredBlocks = 3;
    b.erroredBlocks = 2;
    a.worst[0] = {2, 3, 3, 5};
    a.worstCount = 1;
    b.worst[0] = {2, 2, 1, 1};
    b.worst[1] = {0, 2, 1, 1};
    b.worstCount = 2;
    a += b;
    EXPECT_EQ(a.slotsReached, 4u);
    EXPECT_EQ(a.blocks, 20u);
    EXPECT_EQ(a.erroredBlocks, 5u);
    ASSERT_EQ(a.worstCount, 2u);
    EXPECT_EQ(a.worst[0].slot, 2u);
    EXPECT_EQ(a.worst[0].blocks, 5u);
    EXPECT_EQ(a.worst[0].erroredBlocks, 4u);
    EXPECT_EQ(a.worst[0].bitErrors, 6u);
    EXPECT_EQ(a.worst[1].slot, 0u);
}

}  // namespace
}  // namespace sonolink::ingest
