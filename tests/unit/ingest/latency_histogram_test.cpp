#include "sonolink/ingest/latency_histogram.h"

#include <gtest/gtest.h>

namespace sonolink::ingest {
namespace {

TEST(LatencyHistogramTest, BucketsBoundTheirValues) {
    for (std::uint64_t v : {0ull, 1ull, 7ull, 8ull, 9ull, 100ull, 1000ull, 123456ull, 1ull << 40}) {
        const int i = LatencyHistogram::indexOf(v);
        EXPECT_LE(v, LatencyHistogram::upperBound(i)) << v;
        if (i > 0) {
            EXPECT_GT(v, LatencyHistogram::upperBound(i - 1)) << v;
        }
        if (v >= 8) {
            EXPECT_LE(LatencyHistogram::upperBound(i), v + v / 8) << v;  // within 12.5%
        }
    }
}

TEST(LatencyHistogramTest, Percentiles) {
    LatencyHistogram h;
    for (int i = 1; i <= 1000; ++i) h.record(static_cast<std::uint64_t>(i) * 1000);  // 1..1000 µs
    const auto s = h.snapshot();
    EXPECT_EQ(s.total, 1000u);
    const auto p50 = s.percentile(0.5), p99 = s.percentile(0.99);
    EXPECT_GE(p50, 500'000u);
    EXPECT_LE(p50, 500'000u * 9 / 8);
    EXPECT_GE(p99, 990'000u);
    EXPECT_LE(p99, 990'000u * 9 / 8);
    EXPECT_EQ(LatencyHistogram{}.snapshot().percentile(0.5), 0u);
}

}  // namespace
}  // namespace sonolink::ingest
