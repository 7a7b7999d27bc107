// The GPU memory tests on a real GPU: on sound memory every algorithm passes and moves the bytes
// its element sequence says; a planted stuck-at fault (one bit stuck at 1, another at 0, in one
// word) is found by every algorithm at that word, each mismatch differing from what was written
// in those bits only, and March C- counts exactly the reads its elements make of that word
// expecting the other value. Skips itself where there is no GPU; the refusals run everywhere.
#include "sonolink/selftest/cuda/gpu_memory_test.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace sonolink::selftest::cuda {
namespace {

constexpr std::size_t kBytes = std::size_t{256} << 20;

std::unique_ptr<GpuMemoryTester> testerOrSkip(const GpuMemoryTestSetup& setup) {
    auto tester = GpuMemoryTester::create(setup);
    if (!tester && tester.error().code() == ErrorCode::Unavailable) return nullptr;
    EXPECT_TRUE(tester) << tester.error().describe();
    return tester ? std::move(*tester) : nullptr;
}

// Bytes read plus written per word by each algorithm's elements (memory_tests.h).
std::uint64_t wordsMovedPerWord(MemoryAlgorithm a) {
    switch (a) {
        case MemoryAlgorithm::SolidPatterns: return 4;
        case MemoryAlgorithm::WalkingOnes:
        case MemoryAlgorithm::WalkingZeros: return 1 + 63 * 2 + 1;
        case MemoryAlgorithm::AddressInAddress: return 1 + 2 + 1;
        case MemoryAlgorithm::MarchCMinus: return 10;
        case MemoryAlgorithm::MovingInversions: return 4 * 5;
        case MemoryAlgorithm::RandomPattern: return 1 + 2 + 1;
    }
    return 0;
}

TEST(GpuMemoryTest, SoundMemoryPassesEveryAlgorithm) {
    auto tester = testerOrSkip({0, kBytes, std::nullopt});
    if (!tester) GTEST_SKIP() << "no usable GPU";
    for (const auto algorithm : kMemoryAlgorithms) {
        auto r = tester->run(algorithm);
        ASSERT_TRUE(r) << r.error().describe();
        EXPECT_TRUE(r->passed()) << toString(algorithm) << ": " << r->mismatches << " mismatches, the first at word "
                                 << (r->first.empty() ? 0 : r->first.front().word);
        EXPECT_EQ(r->bytesTested, kBytes);
        EXPECT_EQ(r->bytesMoved, wordsMovedPerWord(algorithm) * kBytes) << toString(algorithm);
        ::testing::Test::RecordProperty(std::string(toString(algorithm)), fmt::format("{:.0f} GB/s", static_cast<double>(r->bytesMoved) / r->seconds / 1e9));
    }
}

TEST(GpuMemoryTest, APlantedStuckAtFaultIsFoundByEveryAlgorithmAtItsWord) {
    const PlantedFault fault{12345, std::uint64_t{1} << 17, std::uint64_t{1} << 40};
    auto tester = testerOrSkip({0, kBytes, fault});
    if (!tester) GTEST_SKIP() << "no usable GPU";
    for (const auto algorithm : kMemoryAlgorithms) {
        auto r = tester->run(algorithm, 7);
        ASSERT_TRUE(r) << r.error().describe();
        ASSERT_FALSE(r->passed()) << toString(algorithm) << " missed the stuck bits";
        for (const auto& m : r->first) {
            EXPECT_EQ(m.word, fault.word) << toString(algorithm);
            EXPECT_EQ((m.expected ^ m.actual) & ~(fault.stuckAtOne | fault.stuckAtZero), 0u) << toString(algorithm);
            EXPECT_EQ(m.actual & fault.stuckAtOne, fault.stuckAtOne) << toString(algorithm);
            EXPECT_EQ(m.actual & fault.stuckAtZero, 0u) << toString(algorithm);
        }
    }
    // March C-: r0 in elements 2, 4 and 6 see bit 17 at 1; r1 in elements 3 and 5 see bit 40 at 0.
    auto march = tester->run(MemoryAlgorithm::MarchCMinus);
    ASSERT_TRUE(march);
    EXPECT_EQ(march->mismatches, 5u);
}

// Checked before any device is touched: runs on stations without a GPU too.
TEST(GpuMemoryTestSetup, ABlockWithoutAWordOrAFaultOutsideItIsRefused) {
    auto none = GpuMemoryTester::create({0, 4, std::nullopt});
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code(), ErrorCode::InvalidArgument);
    auto outside = GpuMemoryTester::create({0, 1024, PlantedFault{128, 1, 0}});
    ASSERT_FALSE(outside);
    EXPECT_NE(outside.error().message().find("word 128 lies outside the 128 words"), std::string::npos) << outside.error().message();
}

}  // namespace
}  // namespace sonolink::selftest::cuda
