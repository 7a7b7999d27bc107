#include "sonolink/transport/protocol/prbs_checker.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "prbs_words.h"

namespace sonolink::transport {
namespace {

// The stream's bits are packed MSB first: 8 bytes read big-endian put the first bit at bit 63.
inline std::uint64_t loadWord(const std::byte* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return __builtin_bswap64(v);
}

// The n bits first in time (the top n), as a mask.
constexpr std::uint64_t firstBits(int n) noexcept { return n <= 0 ? 0 : n >= 64 ? ~0ull : ~0ull << (64 - n); }

// Zero where the word follows the recurrence r[n] = r[n-order] ^ r[n-tap] (^ 1 if inverted).
inline std::uint64_t syndrome(std::uint64_t prev, std::uint64_t word, int order, int tap, std::uint64_t invert) noexcept {
    return word ^ delayedBits(prev, word, order) ^ delayedBits(prev, word, tap) ^ invert;
}

constexpr std::size_t log2Bin(std::uint64_t v) noexcept { return v <= 1 ? 0 : static_cast<std::size_t>(63 - std::countl_zero(v)); }

// The clean words from `first` on, 8 at a time, by the recurrence applied three times over,
// r[n] = r[n - 8 order] ^ r[n - 8 tap]: whole bytes back, so the stream is tested as it lies in
// memory (no reordering of bits). Returns the index of the first group of 8 with a word that
// breaks it (or where fewer than 8 are left). The 8 * order bits before words[first] must be
// in memory and right (first >= 4).
__attribute__((target("avx2"))) inline __m256i load(const std::byte* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

__attribute__((target("avx2"))) std::size_t cleanWordsAvx2(const std::byte* words, std::size_t first, std::size_t count, int order, int tap,
                                                           std::uint64_t invert) noexcept {
    const __m256i inv = _mm256_set1_epi64x(static_cast<long long>(invert));
    std::size_t i = first;
    for (; i + 8 <= count; i += 8) {
        const std::byte* p = words + 8 * i;
        const __m256i a = _mm256_xor_si256(_mm256_xor_si256(load(p), inv), _mm256_xor_si256(load(p - order), load(p - tap)));
        const __m256i b = _mm256_xor_si256(_mm256_xor_si256(load(p + 32), inv), _mm256_xor_si256(load(p + 32 - order), load(p + 32 - tap)));
        const __m256i s = _mm256_or_si256(a, b);
        if (!_mm256_testz_si256(s, s)) break;
    }
    return i;
}

// The same, 16 words at a time (AVX-512: three-way XOR in one instruction).
__attribute__((target("avx512f"))) std::size_t cleanWordsAvx512(const std::byte* words, std::size_t first, std::size_t count, int order, int tap,
                                                                std::uint64_t invert) noexcept {
    const __m512i inv = _mm512_set1_epi64(static_cast<long long>(invert));
    std::size_t i = first;
    for (; i + 16 <= count; i += 16) {
        const std::byte* p = words + 8 * i;
        const __m512i a = _mm512_ternarylogic_epi64(_mm512_loadu_si512(p), _mm512_loadu_si512(p - order), _mm512_loadu_si512(p - tap), 0x96);
        const __m512i b = _mm512_ternarylogic_epi64(_mm512_loadu_si512(p + 64), _mm512_loadu_si512(p + 64 - order), _mm512_loadu_si512(p + 64 - tap), 0x96);
        if ((_mm512_cmpneq_epi64_mask(a, inv) | _mm512_cmpneq_epi64_mask(b, inv)) != 0) break;
    }
    return i;
}

}  // namespace

PrbsCounts& PrbsCounts::operator+=(const PrbsCounts& other) noexcept {
    bitsChecked += other.bitsChecked;
    bitErrors += other.bitErrors;
    lockLosses += other.lockLosses;
    bitsOutOfLock += other.bitsOutOfLock;
    bursts += other.bursts;
    longestBurstBits = std::max(longestBurstBits, other.longestBurstBits);
    for (std::size_t k = 0; k < errorFreeIntervals.size(); ++k) {
        errorFreeIntervals[k] += other.errorFreeIntervals[k];
        burstLengths[k] += other.burstLengths[k];
    }
    return *this;
}

PrbsChecker::PrbsChecker(PrbsSpec spec, PrbsKernel kernel) noexcept
    : order_(spec.order), tap_(spec.tap), invert_(spec.inverted ? ~0ull : 0), avx2_(kernel != PrbsKernel::Scalar && __builtin_cpu_supports("avx2")),
      // AMD's Zen 4 runs 512-bit operations as two halves and splits the unaligned loads at
      // `order` and `tap` bytes back across cache lines: its AVX-512 kernel checked PRBS-31 at
      // 0.45-0.75 of one core's read bandwidth out of memory, the AVX2 kernel at 0.86-0.92
      // (docs/performance.md). On Intel's AVX-512 cores the 512-bit kernel is the faster.
      avx512_(kernel == PrbsKernel::Best && __builtin_cpu_supports("avx512f") && !__builtin_cpu_is("amd")) {}

std::uint64_t PrbsChecker::expectedAfter(std::uint64_t history) const noexcept { return nextPrbsWord(history, order_, tap_, invert_); }

std::size_t PrbsChecker::cleanRun(const std::byte* words, std::size_t first, std::size_t count) noexcept {
    std::uint64_t prev = history_;
    std::size_t i = first;
    const auto deep = static_cast<std::uint64_t>(8 * order_);  // the whole-byte test needs this many right bits before
    const auto scalarUntil = [&](auto stop) {
        for (; i < count && !stop(); ++i) {
            const auto next = loadWord(words + 8 * i);
            if (syndrome(prev, next, order_, tap_, invert_) != 0) return false;
            prev = next;
            cleanBits_ += 64;
        }
        return true;
    };
    if (avx2_ && scalarUntil([&] { return i >= 4 && cleanBits_ >= deep; }) && i < count) {
        const auto end = avx512_ ? cleanWordsAvx512(words, i, count, order_, tap_, invert_) : cleanWordsAvx2(words, i, count, order_, tap_, invert_);
        cleanBits_ += 64 * (end - i);
        i = end;
        prev = loadWord(words + 8 * (i - 1));
    }
    scalarUntil([] { return false; });
    counts_.bitsChecked += 64 * (i - first);
    position_ += 64 * (i - first);
    history_ = prev;
    return i;
}

void PrbsChecker::check(std::span<const std::byte> received) noexcept {
    const std::byte* data = received.data();
    std::size_t bytes = received.size();
    if (partialBytes_ > 0) {
        const auto take = std::min(partial_.size() - partialBytes_, bytes);
        std::memcpy(partial_.data() + partialBytes_, data, take);
        partialBytes_ += take;
        data += take;
        bytes -= take;
        if (partialBytes_ < partial_.size()) return;
        partialBytes_ = 0;
        word(loadWord(partial_.data()), 64, true);
    }
    const std::size_t words = bytes / 8;
    for (std::size_t i = 0; i < words;) {
        if (locked_ && cleanBits_ >= static_cast<std::uint64_t>(order_)) {
            i = cleanRun(data, i, words);
            if (i == words) break;
        }
        word(loadWord(data + 8 * i), 64, true);
        ++i;
    }
    partialBytes_ = bytes % 8;
    std::memcpy(partial_.data(), data + 8 * words, partialBytes_);
}

void PrbsChecker::finish() noexcept {
    if (partialBytes_ > 0) {
        std::array<std::byte, 8> last{};
        std::memcpy(last.data(), partial_.data(), partialBytes_);
        word(loadWord(last.data()), static_cast<int>(8 * partialBytes_), false);
        partialBytes_ = 0;
    }
    commitPending(pendingCount_);
    if (anyError_) closeBurst();
    anyError_ = false;
}

void PrbsChecker::restart() noexcept {
    finish();
    locked_ = false;
    cleanBits_ = 0;
}

void PrbsChecker::word(std::uint64_t received, int bits, bool whole) noexcept {
    const auto start = position_;
    position_ += static_cast<std::uint64_t>(bits);
    if (!locked_) return lock(received, bits, start, whole);
    if (cleanBits_ >= static_cast<std::uint64_t>(order_) && whole && syndrome(history_, received, order_, tap_, invert_) == 0) {
        history_ = received;
        cleanBits_ += 64;
        counts_.bitsChecked += 64;
        return;
    }
    const auto expected = expectedAfter(history_);
    history_ = expected;
    mismatched((received ^ expected) & firstBits(bits), start, bits, whole);
}

// The word's first `order` bits are a state of the generator; the rest is checked against what
// follows from it (an error among those first bits shows as a loss of lock soon after).
void PrbsChecker::lock(std::uint64_t received, int bits, std::uint64_t start, bool whole) noexcept {
    if (bits <= order_) {
        counts_.bitsOutOfLock += static_cast<std::uint64_t>(bits);
        return;
    }
    const std::uint64_t state = received >> (64 - order_);
    const auto expected = expectedAfter(state);
    counts_.bitsOutOfLock += static_cast<std::uint64_t>(order_);
    locked_ = true;
    cleanBits_ = static_cast<std::uint64_t>(order_);  // the state it locked on is right by definition
    history_ = (state << (64 - order_)) | (expected >> order_);
    mismatched(((received << order_) ^ expected) & firstBits(bits - order_), start + static_cast<std::uint64_t>(order_), bits - order_, whole);
}

// Error bits (first in time at bit 63) of `bits` compared bits at stream position `start`.
void PrbsChecker::mismatched(std::uint64_t errors, std::uint64_t start, int bits, bool whole) noexcept {
    if (errors == 0) {
        commitPending(pendingCount_);
        counts_.bitsChecked += static_cast<std::uint64_t>(bits);
        cleanBits_ = whole ? cleanBits_ + static_cast<std::uint64_t>(bits) : 0;
        return;
    }
    if (pendingCount_ == pending_.size()) commitPending(1);
    pending_[pendingCount_++] = {errors, start, bits};
    pendingErrors_ += static_cast<std::uint64_t>(std::popcount(errors));
    if (pendingErrors_ >= 64) {  // a quarter or more of up to 256 bits: not this pattern any more
        for (std::size_t k = 0; k < pendingCount_; ++k) counts_.bitsOutOfLock += static_cast<std::uint64_t>(pending_[k].bits);
        pendingCount_ = 0;
        pendingErrors_ = 0;
        ++counts_.lockLosses;
        locked_ = false;
        cleanBits_ = 0;
        if (anyError_) closeBurst();
        anyError_ = false;
        return;
    }
    // The right bits at the word's end (its last bits in time are its low bits, below them padding).
    cleanBits_ = whole ? static_cast<std::uint64_t>(std::countr_zero(errors) - (64 - bits)) : 0;
    if (cleanBits_ >= static_cast<std::uint64_t>(order_)) commitPending(pendingCount_);
}

void PrbsChecker::commitPending(std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) {
        auto& p = pending_[k];
        counts_.bitsChecked += static_cast<std::uint64_t>(p.bits);
        pendingErrors_ -= static_cast<std::uint64_t>(std::popcount(p.errors));
        for (auto e = p.errors; e != 0;) {
            const auto lead = std::countl_zero(e);
            recordError(p.position + static_cast<std::uint64_t>(lead));
            e &= ~(1ull << (63 - lead));
        }
    }
    std::move(pending_.begin() + static_cast<std::ptrdiff_t>(count), pending_.begin() + static_cast<std::ptrdiff_t>(pendingCount_), pending_.begin());
    pendingCount_ -= count;
}

void PrbsChecker::recordError(std::uint64_t position) noexcept {
    ++counts_.bitErrors;
    if (anyError_) {
        const auto gap = position - lastError_ - 1;
        ++counts_.errorFreeIntervals[log2Bin(gap)];
        if (gap < kBurstGapBits) {
            burstEnd_ = position;
        } else {
            closeBurst();
            burstStart_ = burstEnd_ = position;
        }
    } else {
        anyError_ = true;
        burstStart_ = burstEnd_ = position;
    }
    lastError_ = position;
}

void PrbsChecker::closeBurst() noexcept {
    const auto length = burstEnd_ - burstStart_ + 1;
    ++counts_.bursts;
    ++counts_.burstLengths[log2Bin(length)];
    counts_.longestBurstBits = std::max(counts_.longestBurstBits, length);
}

}  // namespace sonolink::transport
