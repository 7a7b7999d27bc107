#include "sonolink/transport/sim/fault_injector.h"

#include <cmath>

#include <gtest/gtest.h>

namespace sonolink::transport::sim {
namespace {

TEST(FaultInjectorTest, RatesAreHonouredAndCounted) {
    FaultPlan plan;
    plan.dropRate = 0.01;
    plan.duplicateRate = 0.02;
    plan.reorderRate = 0.03;
    plan.seed = 99;
    FaultInjector injector(plan);
    constexpr int kBlocks = 200'000;
    int drops = 0, dups = 0, reorders = 0;
    for (int i = 0; i < kBlocks; ++i) {
        switch (injector.decide(8 * 4096, true)) {
            case BlockFault::Drop: ++drops; break;
            case BlockFault::Duplicate: ++dups; break;
            case BlockFault::Reorder: ++reorders; break;
            default: break;
        }
    }
    EXPECT_EQ(injector.counts().blocksDropped, static_cast<std::uint64_t>(drops));
    EXPECT_EQ(injector.counts().blocksDuplicated, static_cast<std::uint64_t>(dups));
    EXPECT_EQ(injector.counts().blocksReordered, static_cast<std::uint64_t>(reorders));
    EXPECT_NEAR(drops, 2000, 200);  // ~4.5 sigma
    EXPECT_NEAR(dups, 4000, 300);
    EXPECT_NEAR(reorders, 6000, 350);
}

TEST(FaultInjectorTest, BitErrorRateAndPositions) {
    FaultPlan plan;
    plan.bitErrorRate = 1e-5;
    FaultInjector injector(plan);
    std::uint64_t flips = 0, corrupted = 0;
    constexpr std::uint64_t kBits = 8 * 8192;
    for (int i = 0; i < 20'000; ++i) {
        if (injector.decide(kBits, true) == BlockFault::Corrupt) {
            ++corrupted;
            const auto& bits = injector.flipBits();
            ASSERT_FALSE(bits.empty());
            for (std::size_t k = 0; k < bits.size(); ++k) {
                EXPECT_LT(bits[k], kBits);
                if (k > 0) {
                    EXPECT_GT(bits[k], bits[k - 1]);
                }
            }
            flips += bits.size();
        }
    }
    const double expected = 1e-5 * kBits * 20'000;  // 13,107 bit errors
    EXPECT_NEAR(static_cast<double>(flips), expected, 5 * std::sqrt(expected));
    EXPECT_EQ(injector.counts().bitsFlipped, flips);
    EXPECT_EQ(injector.counts().headersCorrupted + injector.counts().payloadsCorrupted, corrupted);
}

TEST(FaultInjectorTest, NoStructuralFaultWhenNotAllowed) {
    FaultPlan plan;
    plan.dropRate = 1.0;
    FaultInjector injector(plan);
    EXPECT_EQ(injector.decide(512, true, false), BlockFault::None);
    EXPECT_EQ(injector.decide(512, true, true), BlockFault::Drop);
}

TEST(FaultInjectorTest, FrameFates) {
    FaultInjector injector(FaultPlan{});
    injector.frameDone(8, 8);
    injector.frameDone(0, 8);
    injector.frameDone(5, 8);
    EXPECT_EQ(injector.counts().framesLostWhole, 1u);
    EXPECT_EQ(injector.counts().framesLostPart, 1u);
}

}  // namespace
}  // namespace sonolink::transport::sim
