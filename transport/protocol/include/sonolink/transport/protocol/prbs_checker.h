// PrbsChecker: checks a received PRBS-7/15/23/31 stream (test_patterns.h) at memory speed and
// counts its bit errors exactly: it locks on the first 64 bits, then tests 64 bits at a time
// against the pattern's own recurrence (AVX2: 512 at a time, in whole bytes, as the stream lies in
// memory), and only a word that breaks it is compared bit for bit with the expected sequence. A stretch where a quarter or more of the
// bits are wrong (a slipped or foreign stream) is a loss of lock: counted, not counted as bit
// errors, and the checker locks again. Thread contract: a plain value, one thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "sonolink/transport/protocol/test_patterns.h"

namespace sonolink::transport {

// Errors closer than this many bits to the one before belong to the same burst.
inline constexpr std::uint64_t kBurstGapBits = 32;

struct PrbsCounts {
    std::uint64_t bitsChecked = 0;  // compared while locked
    std::uint64_t bitErrors = 0;
    std::uint64_t lockLosses = 0;     // times the pattern was lost and locked again
    std::uint64_t bitsOutOfLock = 0;  // received while locking or out of lock: not compared
    std::uint64_t bursts = 0;         // runs of errors (kBurstGapBits)
    std::uint64_t longestBurstBits = 0;
    // Histograms in powers of two: bin k counts values v with floor(log2(v)) = k (bin 0: v <= 1).
    std::array<std::uint64_t, 64> errorFreeIntervals{};  // error-free bits between two errors
    std::array<std::uint64_t, 64> burstLengths{};        // first to last error of a burst, in bits
    PrbsCounts& operator+=(const PrbsCounts& other) noexcept;
};

// The widest vector kernel the checker may use (Best: what this CPU has; tests pin the others).
enum class PrbsKernel { Best, Avx2, Scalar };

class PrbsChecker {
public:
    explicit PrbsChecker(PrbsSpec spec, PrbsKernel kernel = PrbsKernel::Best) noexcept;
    // Checks the next bytes of the stream (any length; a partial word waits for the next call).
    void check(std::span<const std::byte> received) noexcept;
    // The end of the stream: checks the bytes left of a partial word and closes the open burst.
    void finish() noexcept;
    // finish(), then a new stream (it locks again); the counts go on.
    void restart() noexcept;
    [[nodiscard]] bool locked() const noexcept { return locked_; }
    [[nodiscard]] const PrbsCounts& counts() const noexcept { return counts_; }
    [[nodiscard]] std::uint64_t bitsChecked() const noexcept { return counts_.bitsChecked; }
    [[nodiscard]] std::uint64_t bitErrors() const noexcept { return counts_.bitErrors; }

private:
    struct Pending {             // a word that broke the recurrence, held until the lock is known to hold
        std::uint64_t errors;    // error bits, first in time at bit 63
        std::uint64_t position;  // stream bit index of bit 63
        int bits;
    };
    [[nodiscard]] std::uint64_t expectedAfter(std::uint64_t history) const noexcept;
    std::size_t cleanRun(const std::byte* words, std::size_t first, std::size_t count) noexcept;
    void word(std::uint64_t received, int bits, bool whole) noexcept;
    void lock(std::uint64_t received, int bits, std::uint64_t start, bool whole) noexcept;
    void mismatched(std::uint64_t errors, std::uint64_t start, int bits, bool whole) noexcept;
    void commitPending(std::size_t count) noexcept;
    void recordError(std::uint64_t position) noexcept;
    void closeBurst() noexcept;

    int order_, tap_;
    std::uint64_t invert_;
    bool avx2_, avx512_;
    bool locked_ = false;
    std::uint64_t cleanBits_ = 0;  // the last bits known right: >= order, the recurrence test is exact
    std::uint64_t history_ = 0;    // the last word (low `order` bits: the most recent bits)
    std::uint64_t position_ = 0;   // stream bits so far
    std::array<Pending, 4> pending_{};
    std::size_t pendingCount_ = 0;
    std::uint64_t pendingErrors_ = 0;
    std::array<std::byte, 8> partial_{};
    std::size_t partialBytes_ = 0;
    bool anyError_ = false;
    std::uint64_t lastError_ = 0, burstStart_ = 0, burstEnd_ = 0;
    PrbsCounts counts_;
};

}  // namespace sonolink::transport
