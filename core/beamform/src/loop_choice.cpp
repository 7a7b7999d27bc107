#include "loop_choice.h"

#include <algorithm>

namespace sonolink::beamform {
namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::size_t slot(FastLoop loop) noexcept { return loop == FastLoop::Avx2 ? 0 : 1; }

}  // namespace

FastLoop LoopChoice::next(const FrameKind& kind) {
    const std::lock_guard lock(mutex_);
    if (kinds_.size() >= kMaxKinds && !kinds_.contains(kind)) kinds_.clear();  // a station's kinds are few; a caller's many are not kept
    auto& t = kinds_[kind];
    if (t.decided) return t.winner;
    // The loop with fewer timed frames so far, AVX-512 first: the two alternate.
    return t.seconds[slot(FastLoop::Avx2)].size() < t.seconds[slot(FastLoop::Avx512)].size() ? FastLoop::Avx2 : FastLoop::Avx512;
}

void LoopChoice::record(const FrameKind& kind, FastLoop loop, double seconds) {
    const std::lock_guard lock(mutex_);
    auto& t = kinds_[kind];
    if (t.decided) return;
    auto& mine = t.seconds[slot(loop)];
    if (mine.size() < kTrials) mine.push_back(seconds);
    const auto& avx2 = t.seconds[slot(FastLoop::Avx2)];
    const auto& avx512 = t.seconds[slot(FastLoop::Avx512)];
    if (avx2.size() == kTrials && avx512.size() == kTrials) {
        t.winner = median(avx2) < median(avx512) ? FastLoop::Avx2 : FastLoop::Avx512;
        t.decided = true;
    }
}

bool LoopChoice::chosen(const FrameKind& kind, FastLoop& loop) const {
    const std::lock_guard lock(mutex_);
    const auto it = kinds_.find(kind);
    if (it == kinds_.end() || !it->second.decided) return false;
    loop = it->second.winner;
    return true;
}

LoopChoice& rfLoopChoice() {
    static LoopChoice choice;
    return choice;
}

}  // namespace sonolink::beamform
