#include "sonolink/ingest/pattern_tally.h"

#include <bit>
#include <cstring>

namespace sonolink::ingest {
namespace {

// Little-endian 32-bit words, each one more than the one before (the first sets the count).
void checkCounter(std::span<const std::byte> payload, transport::PrbsCounts& c) noexcept {
    if (payload.size() < 4) return;
    std::uint32_t expected = 0;
    std::memcpy(&expected, payload.data(), 4);
    c.bitsOutOfLock += 32;
    ++expected;
    for (std::size_t i = 4; i + 4 <= payload.size(); i += 4, ++expected) {
        std::uint32_t word;
        std::memcpy(&word, payload.data() + i, 4);
        c.bitsChecked += 32;
        c.bitErrors += static_cast<std::uint64_t>(std::popcount(word ^ expected));
    }
}

}  // namespace

void PatternTally::check(transport::PayloadKind kind, std::span<const std::byte> payload) noexcept {
    if (transport::isPrbs(kind)) {
        auto& checker = prbs_[static_cast<std::size_t>(kind) - static_cast<std::size_t>(transport::PayloadKind::Prbs7)];
        if (!checker) checker.emplace(transport::prbsSpec(kind));
        const auto checked = checker->counts().bitsChecked, outOfLock = checker->counts().bitsOutOfLock;
        const auto errors = checker->counts().bitErrors, losses = checker->counts().lockLosses;
        checker->check(payload);
        checker->restart();  // each block on its own: a damaged or lost block cannot unlock the next
        const auto& c = checker->counts();
        std::lock_guard lock(mutex_);
        if (c.bitErrors == errors && c.lockLosses == losses) {  // a clean block (the usual one): its bits only
            published_.bitsChecked += c.bitsChecked - checked;
            published_.bitsOutOfLock += c.bitsOutOfLock - outOfLock;
            return;
        }
    } else if (kind == transport::PayloadKind::Counter) {
        checkCounter(payload, counter_);
    } else {
        return;
    }
    transport::PrbsCounts total = counter_;  // errors: every count and histogram again
    for (const auto& checker : prbs_) {
        if (checker) total += checker->counts();
    }
    std::lock_guard lock(mutex_);
    published_ = total;
}

transport::PrbsCounts PatternTally::counts() const {
    std::lock_guard lock(mutex_);
    return published_;
}

}  // namespace sonolink::ingest
