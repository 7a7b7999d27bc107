// LatencyHistogram: log-linear histogram of latencies in nanoseconds (8 sub-buckets per power
// of two: ~12% resolution from 1 ns to hours), recorded without allocation or locks by one
// thread and read as a snapshot by any other. Percentiles are reported as bucket upper bounds.
// Thread contract: record() from one thread; snapshot() from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace sonolink::ingest {

class LatencyHistogram {
public:
    static constexpr int kSubBuckets = 8;
    static constexpr int kBuckets = 64 * kSubBuckets;

    void record(std::uint64_t ns) noexcept {
        auto& bucket = counts_[static_cast<std::size_t>(indexOf(ns))];
        bucket.store(bucket.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }

    struct Snapshot {
        std::array<std::uint64_t, kBuckets> counts{};
        std::uint64_t total = 0;
        // The latency below which `fraction` (0..1) of the samples fall; 0 when empty.
        [[nodiscard]] std::uint64_t percentile(double fraction) const noexcept;
    };
    [[nodiscard]] Snapshot snapshot() const noexcept;
    void reset() noexcept;

    [[nodiscard]] static int indexOf(std::uint64_t ns) noexcept;
    [[nodiscard]] static std::uint64_t upperBound(int index) noexcept;

private:
    std::array<std::atomic<std::uint64_t>, kBuckets> counts_{};
};

}  // namespace sonolink::ingest
