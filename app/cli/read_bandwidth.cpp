#include "read_bandwidth.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace sonolink::cli {
namespace {

// Reads every byte with 256-bit loads into four independent accumulators: as fast as one core
// can pull memory, the bar the ingest path (which also computes a CRC) is held to.
__attribute__((target("avx2"))) std::uint64_t readAllAvx2(const std::byte* data, std::size_t bytes) {
    __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
    const auto* p = reinterpret_cast<const __m256i*>(data);
    const std::size_t n = bytes / sizeof(__m256i);
    for (std::size_t i = 0; i + 4 <= n; i += 4) {
        a = _mm256_xor_si256(a, _mm256_load_si256(p + i));
        b = _mm256_xor_si256(b, _mm256_load_si256(p + i + 1));
        c = _mm256_xor_si256(c, _mm256_load_si256(p + i + 2));
        d = _mm256_xor_si256(d, _mm256_load_si256(p + i + 3));
    }
    const __m256i x = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
    return static_cast<std::uint64_t>(_mm256_extract_epi64(x, 0) ^ _mm256_extract_epi64(x, 3));
}

std::uint64_t readAllScalar(const std::byte* data, std::size_t bytes) {
    const auto* p = reinterpret_cast<const std::uint64_t*>(data);
    std::uint64_t a = 0, b = 0, c = 0, d = 0;
    for (std::size_t i = 0; i + 4 <= bytes / 8; i += 4) {
        a ^= p[i];
        b ^= p[i + 1];
        c ^= p[i + 2];
        d ^= p[i + 3];
    }
    return a ^ b ^ c ^ d;
}

}  // namespace

double readBandwidthGBps(const std::byte* data, std::size_t bytes, int passes) {
    const bool avx2 = __builtin_cpu_supports("avx2");
    double best = 0;
    volatile std::uint64_t sink = 0;
    for (int p = 0; p < passes; ++p) {
        const auto start = std::chrono::steady_clock::now();
        sink = sink + (avx2 ? readAllAvx2(data, bytes) : readAllScalar(data, bytes));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = std::max(best, bytes / seconds / 1e9);
    }
    return best;
}

}  // namespace sonolink::cli
