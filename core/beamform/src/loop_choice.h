// Which vector loop VectorLoop::Best runs where the CPU has both AVX2 and AVX-512: the faster on
// this machine, found by timing real frames, since that depends on the CPU (docs/performance.md:
// on an AMD EPYC the AVX-512 loops win; on a Sapphire Rapids RF's AVX2 loop, whose gathers are
// fast there, beats its AVX-512 loop by 25 to 40 %). The first kTrials frames of each kind
// alternate between the two; then the one with the lower median time runs. Private to
// sonolink_beamform. Thread contract: any thread; the shared state is under a mutex.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace sonolink::beamform {

enum class FastLoop { Avx2, Avx512 };

// A kind of frame: what its speed depends on.
struct FrameKind {
    bool int16 = false;
    int window = 0;  // beamform::Window as int
    std::size_t columns = 0, rows = 0, channels = 0, samples = 0, waves = 0;
    auto tied() const noexcept { return std::tie(int16, window, columns, rows, channels, samples, waves); }
    bool operator<(const FrameKind& other) const noexcept { return tied() < other.tied(); }
};

class LoopChoice {
public:
    static constexpr std::size_t kTrials = 4;     // frames timed with each loop
    static constexpr std::size_t kMaxKinds = 64;  // kinds kept at once

    // The loop the next frame of this kind runs.
    FastLoop next(const FrameKind& kind);
    // A frame of this kind took `seconds` with `loop` (ignored once the choice is made).
    void record(const FrameKind& kind, FastLoop loop, double seconds);
    // The loop chosen for this kind, once it is.
    [[nodiscard]] bool chosen(const FrameKind& kind, FastLoop& loop) const;

private:
    struct Trials {
        std::vector<double> seconds[2];  // per FastLoop
        bool decided = false;
        FastLoop winner = FastLoop::Avx512;
    };
    mutable std::mutex mutex_;
    std::map<FrameKind, Trials> kinds_;
};

// The process's choice for RF delay-and-sum (cpu_beamformer.cpp).
[[nodiscard]] LoopChoice& rfLoopChoice();

}  // namespace sonolink::beamform
