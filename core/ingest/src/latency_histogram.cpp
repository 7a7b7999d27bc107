#include "sonolink/ingest/latency_histogram.h"

#include <bit>
#include <cmath>

namespace sonolink::ingest {

int LatencyHistogram::indexOf(std::uint64_t ns) noexcept {
    if (ns < kSubBuckets) return static_cast<int>(ns);
    const int msb = 63 - std::countl_zero(ns);                 // >= 3
    const int sub = static_cast<int>((ns >> (msb - 3)) & 7u);  // the 3 bits below the top one
    return (msb - 2) * kSubBuckets + sub;
}

std::uint64_t LatencyHistogram::upperBound(int index) noexcept {
    if (index < kSubBuckets) return static_cast<std::uint64_t>(index);
    const int msb = index / kSubBuckets + 2;
    const auto sub = static_cast<std::uint64_t>(index % kSubBuckets);
    if (msb >= 63) return ~std::uint64_t(0);
    return ((std::uint64_t(8) + sub + 1) << (msb - 3)) - 1;
}

LatencyHistogram::Snapshot LatencyHistogram::snapshot() const noexcept {
    Snapshot s;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        s.counts[i] = counts_[i].load(std::memory_order_relaxed);
        s.total += s.counts[i];
    }
    return s;
}

void LatencyHistogram::reset() noexcept {
    for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
}

std::uint64_t LatencyHistogram::Snapshot::percentile(double fraction) const noexcept {
    if (total == 0) return 0;
    const auto rank = static_cast<std::uint64_t>(std::ceil(fraction * static_cast<double>(total)));
    std::uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
        seen += counts[static_cast<std::size_t>(i)];
        if (seen >= rank && seen > 0) return upperBound(i);
    }
    return upperBound(kBuckets - 1);
}

}  // namespace sonolink::ingest
