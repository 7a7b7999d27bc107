// FaultyMemory: a memory of 64-bit words with faults of the textbook kinds injected, for the
// memory tests to find: stuck-at bits, transition faults (a bit that cannot rise, or fall),
// inversion coupling (a transition of one bit inverts another) and address-decoder faults (an
// address that reaches another word's cell). Thread contract: one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sonolink::selftest {

class FaultyMemory {
public:
    struct StuckAt {
        std::size_t word;
        int bit;
        bool value;
    };
    struct Transition {
        std::size_t word;
        int bit;
        bool rising;
    };  // that transition fails
    struct Coupling {
        std::size_t aggressorWord;
        int aggressorBit;
        std::size_t victimWord;
        int victimBit;
    };
    struct Alias {
        std::size_t word;
        std::size_t cell;
    };  // `word` reaches the cell of `cell`

    explicit FaultyMemory(std::size_t words) : cells_(words, 0) {}
    void add(StuckAt f) { stuck_.push_back(f); }
    void add(Transition f) { transitions_.push_back(f); }
    void add(Coupling f) { couplings_.push_back(f); }
    void add(Alias f) { aliases_.push_back(f); }

    [[nodiscard]] std::size_t words() const noexcept { return cells_.size(); }
    [[nodiscard]] std::uint64_t read(std::size_t i) const noexcept { return forced(cell(i), cells_[cell(i)]); }
    void write(std::size_t i, std::uint64_t value) noexcept {
        const auto c = cell(i);
        const auto old = cells_[c];
        auto next = forced(c, value);
        for (const auto& t : transitions_) {
            const auto bit = 1ull << t.bit;
            if (t.word != c) continue;
            if (t.rising && !(old & bit) && (next & bit)) next &= ~bit;
            if (!t.rising && (old & bit) && !(next & bit)) next |= bit;
        }
        cells_[c] = next;
        for (const auto& k : couplings_) {
            if (k.aggressorWord == c && ((old ^ next) >> k.aggressorBit & 1u)) cells_[k.victimWord] ^= 1ull << k.victimBit;
        }
    }

private:
    [[nodiscard]] std::size_t cell(std::size_t i) const noexcept {
        for (const auto& a : aliases_) {
            if (a.word == i) return a.cell;
        }
        return i;
    }
    [[nodiscard]] std::uint64_t forced(std::size_t c, std::uint64_t v) const noexcept {
        for (const auto& s : stuck_) {
            if (s.word == c) v = s.value ? v | (1ull << s.bit) : v & ~(1ull << s.bit);
        }
        return v;
    }
    std::vector<std::uint64_t> cells_;
    std::vector<StuckAt> stuck_;
    std::vector<Transition> transitions_;
    std::vector<Coupling> couplings_;
    std::vector<Alias> aliases_;
};

}  // namespace sonolink::selftest
