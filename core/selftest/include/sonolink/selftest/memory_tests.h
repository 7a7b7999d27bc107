// Memory tests on 64-bit words, each named with the faults it is known to find:
//   solid patterns      0x55.., 0xAA.. written and read back: stuck-at bits only (the baseline);
//   walking ones/zeros  64 passes, a lone 1 (0) in each word, at a place that moves word by word
//                       and pass by pass (each read back as the next is written): stuck-at,
//                       transition and bridged bits within a word;
//   address in address  each word holds its own address: address-decoder faults (two addresses,
//                       one cell; an address that reaches no cell);
//   March C-            {any(w0); up(r0,w1); up(r1,w0); down(r0,w1); down(r1,w0); any(r0)}, 10N:
//                       stuck-at, transition, address-decoder and unlinked coupling faults;
//   moving inversions   memtest86's: fill P, up(rP, w~P), down(r~P, wP), for P = 0x00.., 0xFF..,
//                       0x55.., 0xAA..: stuck-at, transition, address-decoder faults;
//   random pattern      a seeded random word per address and its complement: data-dependent faults.
// Each takes a Memory with words(), read(i), write(i, v) (inline: a real ring, or a
// fault-injecting double) and reports every mismatch it finds (the first 64 in full: word,
// expected, read). Thread contract: one thread per memory; nothing shared.
#pragma once

#include <immintrin.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sonolink::selftest {

enum class MemoryAlgorithm { SolidPatterns, WalkingOnes, WalkingZeros, AddressInAddress, MarchCMinus, MovingInversions, RandomPattern };
inline constexpr std::array kMemoryAlgorithms = {MemoryAlgorithm::SolidPatterns,    MemoryAlgorithm::WalkingOnes, MemoryAlgorithm::WalkingZeros,
                                                 MemoryAlgorithm::AddressInAddress, MemoryAlgorithm::MarchCMinus, MemoryAlgorithm::MovingInversions,
                                                 MemoryAlgorithm::RandomPattern};
[[nodiscard]] std::string_view toString(MemoryAlgorithm algorithm) noexcept;

struct MemoryMismatch {
    std::size_t word = 0;  // index of the 64-bit word
    std::uint64_t expected = 0;
    std::uint64_t actual = 0;
};

struct MemoryTestResult {
    MemoryAlgorithm algorithm = MemoryAlgorithm::MarchCMinus;
    std::uint64_t bytesTested = 0;
    std::uint64_t bytesMoved = 0;  // read plus written
    double seconds = 0;
    std::uint64_t mismatches = 0;       // every one found
    std::vector<MemoryMismatch> first;  // the first kMaxReported, in the order found
    [[nodiscard]] bool passed() const noexcept { return mismatches == 0; }
};
inline constexpr std::size_t kMaxReported = 64;

// A plain block of words (a ring, host memory): the Memory the tests run on in the product.
class WordMemory {
public:
    explicit WordMemory(std::span<std::uint64_t> words) noexcept : words_(words) {}
    [[nodiscard]] std::size_t words() const noexcept { return words_.size(); }
    [[nodiscard]] std::uint64_t read(std::size_t i) const noexcept { return static_cast<volatile const std::uint64_t&>(words_[i]); }
    void write(std::size_t i, std::uint64_t v) noexcept { words_[i] = v; }
    // A write that goes straight to memory (a fill needs no read of the line it replaces).
    void stream(std::size_t i, std::uint64_t v) noexcept { _mm_stream_si64(reinterpret_cast<long long*>(&words_[i]), static_cast<long long>(v)); }
    void fence() noexcept { _mm_sfence(); }
    [[nodiscard]] std::uint64_t* data() noexcept { return words_.data(); }

private:
    std::span<std::uint64_t> words_;
};

namespace detail {

// Records a mismatch (the first kMaxReported in full).
inline void mismatch(MemoryTestResult& r, std::size_t word, std::uint64_t expected, std::uint64_t actual) {
    ++r.mismatches;
    if (r.first.size() < kMaxReported) r.first.push_back({word, expected, actual});
}

// One March element over all words, in address order (Up) or reverse: for each word, read and
// compare with expect(i) (Check), then write write(i) (Store), word by word in that order (the
// order is what finds coupling faults).
// Complement as the Write: the word read is written back inverted (its expected value computed once).
struct Complement {};

// Plain memory is read and written by the line (8 words, as DRAM is: the order of words within
// a line does not reach the chips): 8 compared at once, then 8 written, the lines in order.
template <bool Up, bool Check, bool Store, typename Expect, typename Write> void element(WordMemory& m, MemoryTestResult& r, Expect expect, Write write) {
    constexpr std::size_t kLine = 8;
    std::uint64_t* d = m.data();
    const std::size_t n = m.words();
    const std::size_t lines = n / kLine;
    asm volatile("" ::: "memory");  // what the last element wrote is read again, not assumed
    const auto line = [&](std::size_t first, std::size_t count) {
        std::uint64_t e[kLine];
        std::uint64_t bad = 0;
        for (std::size_t j = 0; j < count; ++j) {
            e[j] = expect(first + j);
            if constexpr (Check) bad |= d[first + j] ^ e[j];
        }
        if constexpr (Check) {
            if (bad != 0) [[unlikely]] {
                for (std::size_t j = 0; j < count; ++j) {
                    if (d[first + j] != e[j]) mismatch(r, first + j, e[j], d[first + j]);
                }
            }
        }
        if constexpr (std::is_same_v<Write, Complement>) {
            for (std::size_t j = 0; j < count; ++j) d[first + j] = ~e[j];
        } else if constexpr (Store && !Check) {  // a fill: straight to memory, no read of the line it replaces
            for (std::size_t j = 0; j < count; ++j) m.stream(first + j, write(first + j));
        } else if constexpr (Store) {
            for (std::size_t j = 0; j < count; ++j) d[first + j] = write(first + j);
        }
    };
    for (std::size_t k = 0; k < lines; ++k) line((Up ? k : lines - 1 - k) * kLine, kLine);
    if (n % kLine != 0) line(lines * kLine, n % kLine);
    if constexpr (Store && !Check) m.fence();
    asm volatile("" ::: "memory");
    r.bytesMoved += (std::uint64_t{Check} + std::uint64_t{Store}) * n * 8;
}

template <bool Up, bool Check, bool Store, typename Memory, typename Expect, typename Write>
void element(Memory& m, MemoryTestResult& r, Expect expect, Write write) {
    const std::size_t n = m.words();
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = Up ? k : n - 1 - k;
        if constexpr (std::is_same_v<Write, Complement>) {
            static_assert(Check && Store);
            const auto e = expect(i);
            const auto v = m.read(i);
            if (v != e) [[unlikely]]
                mismatch(r, i, e, v);
            m.write(i, ~e);
        } else {
            if constexpr (Check) {
                const auto e = expect(i);
                const auto v = m.read(i);
                if (v != e) [[unlikely]]
                    mismatch(r, i, e, v);
            }
            if constexpr (Store) m.write(i, write(i));
        }
    }
    r.bytesMoved += (std::uint64_t{Check} + std::uint64_t{Store}) * n * 8;
}

// A seeded pseudo-random word for each address (one multiply: the test runs at memory speed).
constexpr std::uint64_t randomWord(std::uint64_t seed, std::size_t i) noexcept {
    std::uint64_t x = (static_cast<std::uint64_t>(i) ^ seed) * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
}

// Walking ones (flip 0) or zeros (flip all ones): 64 passes, each reading the last one's pattern
// back as it writes its own, word by word.
template <typename Memory> void walkingBits(Memory& m, MemoryTestResult& r, std::uint64_t flip) {
    constexpr bool up = true, read = true, write = true;
    const auto pattern = [flip](unsigned pass) { return [pass, flip](std::size_t i) { return (1ull << ((i + pass) % 64)) ^ flip; }; };
    element<up, !read, write>(m, r, pattern(0), pattern(0));
    for (unsigned pass = 1; pass < 64; ++pass) element<up, read, write>(m, r, pattern(pass - 1), pattern(pass));
    element<up, read, !write>(m, r, pattern(63), pattern(63));
}

}  // namespace detail

template <typename Memory> MemoryTestResult runMemoryTest(MemoryAlgorithm algorithm, Memory& m, std::uint64_t seed = 1) {
    using detail::Complement;
    using detail::element;
    MemoryTestResult r;
    r.algorithm = algorithm;
    r.bytesTested = static_cast<std::uint64_t>(m.words()) * 8;
    const auto start = std::chrono::steady_clock::now();
    const auto constant = [](std::uint64_t v) { return [v](std::size_t) { return v; }; };
    constexpr bool up = true, down = false, read = true, write = true;
    switch (algorithm) {
        case MemoryAlgorithm::SolidPatterns:
            for (const std::uint64_t p : {0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull}) {
                element<up, !read, write>(m, r, constant(p), constant(p));
                element<up, read, !write>(m, r, constant(p), constant(p));
            }
            break;
        case MemoryAlgorithm::WalkingOnes:
        case MemoryAlgorithm::WalkingZeros: detail::walkingBits(m, r, algorithm == MemoryAlgorithm::WalkingZeros ? ~0ull : 0); break;
        case MemoryAlgorithm::AddressInAddress: {
            const auto own = [](std::size_t i) { return static_cast<std::uint64_t>(i); };
            const auto complement = [](std::size_t i) { return ~static_cast<std::uint64_t>(i); };
            element<up, !read, write>(m, r, own, own);
            element<up, read, write>(m, r, own, Complement{});
            element<down, read, !write>(m, r, complement, complement);
            break;
        }
        case MemoryAlgorithm::MarchCMinus: {
            const auto zeros = constant(0), ones = constant(~0ull);
            element<up, !read, write>(m, r, zeros, zeros);
            element<up, read, write>(m, r, zeros, Complement{});
            element<up, read, write>(m, r, ones, Complement{});
            element<down, read, write>(m, r, zeros, Complement{});
            element<down, read, write>(m, r, ones, Complement{});
            element<up, read, !write>(m, r, zeros, zeros);
            break;
        }
        case MemoryAlgorithm::MovingInversions:
            for (const std::uint64_t p : {0ull, ~0ull, 0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull}) {
                element<up, !read, write>(m, r, constant(p), constant(p));
                element<up, read, write>(m, r, constant(p), Complement{});
                element<down, read, write>(m, r, constant(~p), Complement{});
            }
            break;
        case MemoryAlgorithm::RandomPattern: {
            const auto random = [key = detail::randomWord(seed, 0x5eed)](std::size_t i) { return detail::randomWord(key, i); };
            const auto inverse = [random](std::size_t i) { return ~random(i); };
            element<up, !read, write>(m, r, random, random);
            element<up, read, write>(m, r, random, Complement{});
            element<down, read, !write>(m, r, inverse, inverse);
            break;
        }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace sonolink::selftest
