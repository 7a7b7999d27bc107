// The GPU memory tests' kernel: one element of a test (read and compare, then write, each word)
// over the block, launched on a stream. Patterns are computed per word as memory_tests.h's.
// Thread contract: launches are asynchronous on the given stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace sonolink::selftest::cuda {

enum class PatternKind : int { Constant, Walking, Address, Random };

// Constant: a. Walking: a lone 1 at bit (i + a) % 64, xor b. Address: i xor b. Random: the
// seeded word of key a, xor b.
struct Pattern {
    PatternKind kind = PatternKind::Constant;
    std::uint64_t a = 0, b = 0;
};

enum class Store : int { None, Pattern, Complement };  // Complement: the expected value inverted

constexpr int kReported = 64;
struct DeviceReport {
    unsigned long long mismatches;
    unsigned int recorded;
    unsigned int unused;
    unsigned long long word[kReported], expected[kReported], actual[kReported];
};

struct Element {
    std::uint64_t* words;
    std::size_t count;
    bool up;
    bool check;
    Store store;
    Pattern expect, write;
    std::size_t faultWord;  // planted: count when none
    std::uint64_t stuckAtOne, stuckAtZero;
    DeviceReport* report;
};

void launchElement(const Element& e, int blocks, cudaStream_t stream);

}  // namespace sonolink::selftest::cuda
