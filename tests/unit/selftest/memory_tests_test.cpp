// The memory tests against a fault-injecting memory: each algorithm finds the faults it claims
// (memory_tests.h), reports where (the word, the value written, the value read), and March C-
// finds the faults that solid patterns miss. A healthy memory passes every algorithm.
#include "sonolink/selftest/memory_tests.h"

#include <functional>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "faulty_memory.h"

namespace sonolink::selftest {
namespace {

using A = MemoryAlgorithm;
constexpr std::size_t kWords = 4096;

struct Fault {
    std::string name;
    std::function<void(FaultyMemory&)> inject;
    std::size_t word;  // where a finding must point
};

const std::vector<Fault>& faults() {
    static const std::vector<Fault> all = {
        {"stuck-at-0",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::StuckAt{1000, 5, false});
         },
         1000},
        {"stuck-at-1",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::StuckAt{1000, 62, true});
         },
         1000},
        {"rising transition",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::Transition{7, 3, true});
         },
         7},
        {"falling transition",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::Transition{7, 3, false});
         },
         7},
        {"coupling, aggressor below",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::Coupling{10, 0, 2000, 0});
         },
         2000},
        {"coupling, aggressor above",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::Coupling{3000, 9, 20, 40});
         },
         20},
        {"address alias",
         [](FaultyMemory& m) {
             m.add(FaultyMemory::Alias{300, 200});
         },
         200},
    };
    return all;
}

// What each algorithm claims to find (memory_tests.h); what it does not claim is not asserted.
const std::map<A, std::vector<std::string>>& claims() {
    static const std::map<A, std::vector<std::string>> c = {
        {A::SolidPatterns, {"stuck-at-0", "stuck-at-1"}},
        {A::WalkingOnes, {"stuck-at-0", "stuck-at-1", "rising transition", "falling transition"}},
        {A::WalkingZeros, {"stuck-at-0", "stuck-at-1", "rising transition", "falling transition"}},
        {A::AddressInAddress, {"stuck-at-0", "stuck-at-1", "address alias"}},
        {A::MarchCMinus,
         {"stuck-at-0", "stuck-at-1", "rising transition", "falling transition", "coupling, aggressor below", "coupling, aggressor above", "address alias"}},
        {A::MovingInversions, {"stuck-at-0", "stuck-at-1", "rising transition", "falling transition", "address alias"}},
        {A::RandomPattern, {"stuck-at-0", "stuck-at-1", "address alias"}},
    };
    return c;
}

MemoryTestResult runOn(A algorithm, const Fault& fault) {
    FaultyMemory m(kWords);
    fault.inject(m);
    return runMemoryTest(algorithm, m, 42);
}

TEST(MemoryTestsTest, EachAlgorithmFindsTheFaultsItClaimsAndSaysWhere) {
    for (const auto& [algorithm, claimed] : claims()) {
        for (const auto& name : claimed) {
            const auto fault = std::find_if(faults().begin(), faults().end(), [&](const Fault& f) { return f.name == name; });
            ASSERT_NE(fault, faults().end());
            const auto r = runOn(algorithm, *fault);
            ASSERT_FALSE(r.passed()) << toString(algorithm) << " misses a " << name << " fault";
            ASSERT_FALSE(r.first.empty());
            EXPECT_EQ(r.algorithm, algorithm);
            const bool pointsThere = std::any_of(r.first.begin(), r.first.end(), [&](const MemoryMismatch& x) { return x.word == fault->word; });
            EXPECT_TRUE(pointsThere) << toString(algorithm) << ", " << name << ": first finding at word " << r.first.front().word;
            for (const auto& x : r.first) EXPECT_NE(x.expected, x.actual);
        }
    }
}

TEST(MemoryTestsTest, MarchCMinusFindsWhatSolidPatternsMiss) {
    for (const std::string name : {"falling transition", "coupling, aggressor below", "address alias"}) {
        const auto fault = *std::find_if(faults().begin(), faults().end(), [&](const Fault& f) { return f.name == name; });
        EXPECT_TRUE(runOn(A::SolidPatterns, fault).passed()) << "solid patterns were to miss a " << name << " fault";
        EXPECT_FALSE(runOn(A::MarchCMinus, fault).passed()) << "March C- misses a " << name << " fault";
    }
}

TEST(MemoryTestsTest, AStuckBitIsReportedAsTheValueWrittenAndTheValueRead) {
    FaultyMemory m(kWords);
    m.add(FaultyMemory::StuckAt{1234, 17, true});
    const auto r = runMemoryTest(A::MarchCMinus, m);
    // March C- reads zeros three times and ones twice: the bit stuck at 1 fails each read of zeros.
    EXPECT_EQ(r.mismatches, 3u);
    for (const auto& x : r.first) {
        EXPECT_EQ(x.word, 1234u);
        EXPECT_EQ(x.expected, 0u);
        EXPECT_EQ(x.actual, 1ull << 17);
    }
    EXPECT_EQ(r.bytesTested, kWords * 8);
    EXPECT_EQ(r.bytesMoved, 10 * kWords * 8);  // 10N
}

TEST(MemoryTestsTest, AHealthyMemoryPassesEveryAlgorithm) {
    std::vector<std::uint64_t> words(kWords);
    for (auto algorithm : kMemoryAlgorithms) {
        WordMemory real(words);
        EXPECT_TRUE(runMemoryTest(algorithm, real).passed()) << toString(algorithm);
        FaultyMemory healthy(kWords);
        EXPECT_TRUE(runMemoryTest(algorithm, healthy).passed()) << toString(algorithm);
    }
}

TEST(MemoryTestsTest, ManyMismatchesAreCountedAndTheFirstOnesKept) {
    FaultyMemory m(kWords);
    for (std::size_t w = 0; w < 500; ++w) m.add(FaultyMemory::StuckAt{w, 0, true});
    const auto r = runMemoryTest(A::SolidPatterns, m);
    EXPECT_EQ(r.mismatches, 500u);  // 0xAA.. has bit 0 clear: one failed read per word
    EXPECT_EQ(r.first.size(), kMaxReported);
    EXPECT_EQ(r.first.front().word, 0u);
}

}  // namespace
}  // namespace sonolink::selftest
