// The steps the delay-and-sum inner loops share, RF (cpu_beamformer.cpp) and IQ
// (iq_beamformer.cpp): which vector units this CPU has, the transmit delay two ways, the receive
// apodization as a weight per depth, the depths of a column that read inside the record, and
// (x86) eight or sixteen depths' sample indices and the AVX-512 sample window.
// Private to sonolink_beamform. Thread contract: pure functions and plain values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <utility>
#include <vector>

#include "sonolink/beamform/beamform_types.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sonolink::beamform::kernel {

inline bool cpuHasAvx2() noexcept {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

inline bool cpuHasAvx512() noexcept {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
}

// The transmit delay in samples at depth index i (initial time folded in), two ways: a plane
// wave's is linear in depth, txX + z txZ, computed in the loop; any other wave's is a table
// (transmitDelaySamples). The vector loops take either; the plane wave's saves a load stream.
struct PlaneWaveDelay {
    float txX, txZ;
    const float* z;
    float at(std::size_t i) const noexcept { return txX + z[i] * txZ; }
#if defined(__x86_64__)
    __attribute__((target("avx2,fma"))) __m256 at8(std::size_t i) const noexcept {
        return _mm256_fmadd_ps(_mm256_loadu_ps(z + i), _mm256_set1_ps(txZ), _mm256_set1_ps(txX));
    }
    __attribute__((target("avx2,fma,avx512f"))) __m512 at16(std::size_t i) const noexcept {
        return _mm512_fmadd_ps(_mm512_loadu_ps(z + i), _mm512_set1_ps(txZ), _mm512_set1_ps(txX));
    }
#endif
};

struct TabulatedDelay {
    const float* tx;
    float at(std::size_t i) const noexcept { return tx[i]; }
#if defined(__x86_64__)
    __attribute__((target("avx2,fma"))) __m256 at8(std::size_t i) const noexcept { return _mm256_loadu_ps(tx + i); }
    __attribute__((target("avx2,fma,avx512f"))) __m512 at16(std::size_t i) const noexcept { return _mm512_loadu_ps(tx + i); }
#endif
};

// cos x from x^2, |x| <= pi/2: an even polynomial of degree 6 fitted to the least maximum error
// on [-pi/2, pi/2] (iteratively reweighted least squares on Chebyshev nodes): error below
// 6.8e-6, three multiply-adds, no transcendental. The apodization weight and the IQ path's
// residual rotation both use it.
struct EvenCosine {
    static constexpr float kC0 = 0.99999330f, kC1 = -0.49991244f, kC2 = 0.041487750f, kC3 = -0.0012712100f;
    static float at(float x2) noexcept { return kC0 + x2 * (kC1 + x2 * (kC2 + x2 * kC3)); }
#if defined(__x86_64__)
    __attribute__((target("avx2,fma"))) static __m256 at8(__m256 x2) noexcept {
        __m256 c = _mm256_fmadd_ps(x2, _mm256_set1_ps(kC3), _mm256_set1_ps(kC2));
        c = _mm256_fmadd_ps(x2, c, _mm256_set1_ps(kC1));
        return _mm256_fmadd_ps(x2, c, _mm256_set1_ps(kC0));
    }
    __attribute__((target("avx2,fma,avx512f"))) static __m512 at16(__m512 x2) noexcept {
        __m512 c = _mm512_fmadd_ps(x2, _mm512_set1_ps(kC3), _mm512_set1_ps(kC2));
        c = _mm512_fmadd_ps(x2, c, _mm512_set1_ps(kC1));
        return _mm512_fmadd_ps(x2, c, _mm512_set1_ps(kC0));
    }
#endif
};

// Receive apodization as the vector loops apply it. Rectangular: no weight. Hann and Tukey:
// cos^2(u), u = a r - b, r = 2 F# |dx| / z the element's place in the aperture (0 centre, 1
// edge): Hann a = pi/2, b = 0; Tukey a = pi/(2 alpha), b = a (1 - alpha); u clamped at 0, where
// a Tukey window is flat. cos u is EvenCosine (the weight within 1.4e-5): six operations per
// eight pixels; apodization() (exact) stays the reference.
struct NoWeight {
    static constexpr bool kUnit = true;
    float at(std::size_t) const noexcept { return 1.0f; }
#if defined(__x86_64__)
    __attribute__((target("avx2,fma"))) __m256 at8(std::size_t) const noexcept { return _mm256_set1_ps(1.0f); }
    __attribute__((target("avx2,fma,avx512f"))) __m512 at16(std::size_t) const noexcept { return _mm512_set1_ps(1.0f); }
#endif
};

struct CosSquaredWeight {
    static constexpr bool kUnit = false;
    float aK;  // a 2 F# |dx|: u = aK / z - b
    float b;
    const float* invZ;   // 1 / z per depth
    const float* invZ2;  // 1 / z^2 per depth
    std::size_t flat;    // the first depth index of the flat part (weight 1; Hann: none, the depth count)
    // Hann (b = 0): cos u = EvenCosine(aK^2 / z^2) with the powers of aK^2 taken into its
    // coefficients, a load and three multiply-adds.
    bool hann;
    float d0, d1, d2, d3;
    // Used from the first depth inside the aperture on (r <= 1, u <= pi/2).
    float at(std::size_t iz) const noexcept {
        const float u = std::max(aK * invZ[iz] - b, 0.0f);
        const float c = EvenCosine::at(u * u);
        return c * c;
    }
#if defined(__x86_64__)
    // The vector forms leave u unclamped (within the taper it is >= 0 but for rounding, which the
    // even polynomial does not mind); at8Clamped is for the steps of 8 that reach into the flat part.
    __attribute__((target("avx2,fma"))) __m256 at8(std::size_t iz) const noexcept { return at8Of(iz, false); }
    __attribute__((target("avx2,fma"))) __m256 at8Clamped(std::size_t iz) const noexcept { return at8Of(iz, true); }
    __attribute__((target("avx2,fma"))) __m256 at8Of(std::size_t iz, bool clamp) const noexcept {
        return hann ? at8As<true>(iz, clamp) : at8As<false>(iz, clamp);
    }
    // The same with the form chosen by the caller, once, instead of in each step.
    template <bool kHann> __attribute__((target("avx2,fma"))) __m256 at8As(std::size_t iz, bool clamp) const noexcept {
        __m256 c;
        if constexpr (kHann) {
            const __m256 t = _mm256_loadu_ps(invZ2 + iz);
            c = _mm256_fmadd_ps(t, _mm256_fmadd_ps(t, _mm256_fmadd_ps(t, _mm256_set1_ps(d3), _mm256_set1_ps(d2)), _mm256_set1_ps(d1)), _mm256_set1_ps(d0));
        } else {
            __m256 u = _mm256_fmsub_ps(_mm256_set1_ps(aK), _mm256_loadu_ps(invZ + iz), _mm256_set1_ps(b));
            if (clamp) u = _mm256_max_ps(u, _mm256_setzero_ps());
            c = EvenCosine::at8(_mm256_mul_ps(u, u));
        }
        return _mm256_mul_ps(c, c);
    }
    __attribute__((target("avx2,fma,avx512f"))) __m512 at16(std::size_t iz) const noexcept { return hann ? at16As<true>(iz) : at16As<false>(iz); }
    template <bool kHann> __attribute__((target("avx2,fma,avx512f"))) __m512 at16As(std::size_t iz) const noexcept {
        __m512 c;
        if constexpr (kHann) {
            const __m512 t = _mm512_loadu_ps(invZ2 + iz);
            c = _mm512_fmadd_ps(t, _mm512_fmadd_ps(t, _mm512_fmadd_ps(t, _mm512_set1_ps(d3), _mm512_set1_ps(d2)), _mm512_set1_ps(d1)), _mm512_set1_ps(d0));
        } else {
            const __m512 u = _mm512_fmsub_ps(_mm512_set1_ps(aK), _mm512_loadu_ps(invZ + iz), _mm512_set1_ps(b));
            c = EvenCosine::at16(_mm512_mul_ps(u, u));
        }
        return _mm512_mul_ps(c, c);
    }
#endif
};

// The first depth index at or below a depth (std::lower_bound's: where a channel enters the
// aperture, or a Tukey window turns flat), looked up where the grid's depths are evenly spaced
// and stepped from there: one guess and a compare or two per channel instead of a bisection
// (which was a third of an IQ column's work outside the loops). A grid whose depths span no
// float (distinct as doubles, one value as floats) or too little for a finite step guesses 0
// and walks.
struct DepthIndex {
    const std::vector<float>& z;
    float z0, perMetre;
    explicit DepthIndex(const std::vector<float>& depths) noexcept : z(depths), z0(depths.front()), perMetre(stepsPerMetre(depths)) {}
    static float stepsPerMetre(const std::vector<float>& depths) noexcept {
        const float span = depths.back() - depths.front();
        const float steps = depths.size() > 1 && span > 0 ? static_cast<float>(depths.size() - 1) / span : 0.0f;
        return std::isfinite(steps) ? steps : 0.0f;
    }
    std::size_t firstAtOrBelow(float depth) const noexcept {
        const float guess = std::ceil((depth - z0) * perMetre);
        auto i = static_cast<std::size_t>(std::clamp(guess, 0.0f, static_cast<float>(z.size())));
        while (i > 0 && z[i - 1] >= depth) --i;
        while (i < z.size() && z[i] < depth) ++i;
        return i;
    }
    // The same without branches where the guess is at most one off, as on an even grid (the
    // guess moved one step either way and checked); firstAtOrBelow's walk where it is not.
    std::size_t firstAtOrBelowNear(float depth) const noexcept {
        const std::size_t n = z.size();
        const float x = std::clamp((depth - z0) * perMetre, 0.0f, static_cast<float>(n));
        auto i = static_cast<std::size_t>(x);
        i += static_cast<std::size_t>(static_cast<float>(i) < x);  // its ceiling
        const auto below = [&](std::size_t at) { return z[at > 0 ? at - 1 : 0]; };
        i -= static_cast<std::size_t>((i > 0) & (below(i) >= depth));
        i += static_cast<std::size_t>((i < n) & (z[std::min(i, n - 1)] < depth));
        const bool found = (i == 0 || below(i) < depth) & (i == n || z[std::min(i, n - 1)] >= depth);
        return found ? i : firstAtOrBelow(depth);
    }
};

// The first depth index from `first` on at which the window is flat (weight 1) for an element
// |dx| from the column: r <= 1 - alpha, z >= 2 F# |dx| / (1 - alpha); none (z.size()) for Hann.
inline std::size_t flatFrom(const BeamformParams& params, double dx, const DepthIndex& depths, std::size_t first) noexcept {
    if (params.window != Window::Tukey || params.tukeyAlpha >= 1) return depths.z.size();
    const auto depth = static_cast<float>(2 * params.fNumber * std::abs(dx) / (1 - std::max(params.tukeyAlpha, 0.0)));
    return std::max(first, depths.firstAtOrBelowNear(depth));
}

// The weight of params.window for an element |dx| from the column, in the form above, flat from
// depth index `flat` on (flatFrom).
inline CosSquaredWeight cosSquaredWeight(const BeamformParams& params, double dx, const float* invZ, const float* invZ2, std::size_t flat) noexcept {
    const bool hann = params.window == Window::Hann;
    const double alpha = hann ? 1.0 : std::clamp(params.tukeyAlpha, 1e-6, 1.0);
    const double a = std::numbers::pi / (2 * alpha);
    const double aK = a * 2 * params.fNumber * std::abs(dx), k2 = aK * aK;
    return {static_cast<float>(aK),
            static_cast<float>(a * (1 - alpha)),
            invZ,
            invZ2,
            flat,
            hann,
            EvenCosine::kC0,
            static_cast<float>(EvenCosine::kC1 * k2),
            static_cast<float>(EvenCosine::kC2 * k2 * k2),
            static_cast<float>(EvenCosine::kC3 * k2 * k2 * k2)};
}

// The depths [begin, end) from `first` on whose sample position lies inside the record,
// [lowest, lastIndex). The position grows with depth (transmit and receive paths both lengthen,
// for steering below 90 degrees, plane, focused or diverging), so both ends are found by
// bisection.
template <typename Delay>
std::pair<std::size_t, std::size_t> inRecordRange(float lastIndex, const Delay& tx, float samplesPerMetre, float dx2, std::span<const float> zSquared,
                                                  std::size_t first, float lowest = 0.0f) noexcept {
    const auto sampleAt = [&](std::size_t i) { return tx.at(i) + std::sqrt(dx2 + zSquared[i]) * samplesPerMetre; };
    const auto firstWhere = [&](std::size_t lo, auto reached) {
        std::size_t hi = zSquared.size();
        while (lo < hi) {
            const auto mid = lo + (hi - lo) / 2;
            if (reached(sampleAt(mid))) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    };
    // Most channels read inside the record from their first depth to the last: check the ends
    // before bisecting (one square root each instead of nine).
    const auto n = zSquared.size();
    if (first >= n) return {n, n};
    const std::size_t begin = sampleAt(first) >= lowest ? first : firstWhere(first, [lowest](float s) { return s >= lowest; });
    if (begin < n && sampleAt(n - 1) < lastIndex) return {begin, n};
    return {begin, firstWhere(begin, [&](float s) { return s >= lastIndex; })};
}

// Where a channel adds to a column: its first depth inside the aperture (z >= edge), and the
// depths [begin, end) from there that read inside the record [lowest, lastIndex), as
// inRecordRange finds them, but with no branch unless the channel leaves the record within the
// column (there inRecordRange's bisection). Found for all of a column's channels before any is
// summed, their chains of dependent steps (the first depth, the square roots at the record's
// ends) overlap one another; found between the sums, each waited for the sums before it.
struct ChannelDepths {
    std::size_t first, begin, end;
};

template <typename Delay>
inline ChannelDepths channelDepths(float edge, float dx2, const DepthIndex& depths, const Delay& tx, std::span<const float> zSquared, float samplesPerMetre,
                                   float lastIndex, float lowest = 0.0f) noexcept {
    const std::size_t n = zSquared.size();
    if (!(edge <= depths.z.back())) return {n, n, n};
    const std::size_t first = depths.firstAtOrBelowNear(edge);
    const auto sampleAt = [&](std::size_t i) { return tx.at(i) + std::sqrt(dx2 + zSquared[i]) * samplesPerMetre; };
    const bool inside = first < n && sampleAt(std::min(first, n - 1)) >= lowest && sampleAt(n - 1) < lastIndex;
    const auto [begin, end] = inside ? std::pair{first, n} : inRecordRange(lastIndex, tx, samplesPerMetre, dx2, zSquared, first, lowest);
    return {first, begin, end};
}

#if defined(__x86_64__)
// The steps every vector loop below shares, eight depths at a time. AVX2 only, so that the
// AVX-512 loops can inline them as well.
struct EightDepths {
    __m256 frac;    // position between sample index and index + 1
    __m256i index;  // the sample index of each depth
};

template <typename Delay>
__attribute__((target("avx2,fma"))) inline EightDepths sampleIndices(const Delay& tx, std::span<const float> zSquared, std::size_t iz, __m256 dx2,
                                                                     __m256 samplesPerMetre) noexcept {
    const __m256 rx = _mm256_sqrt_ps(_mm256_add_ps(dx2, _mm256_loadu_ps(zSquared.data() + iz)));
    const __m256 s = _mm256_fmadd_ps(rx, samplesPerMetre, tx.at8(iz));
    const __m256i index = _mm256_cvttps_epi32(s);
    return {_mm256_sub_ps(s, _mm256_cvtepi32_ps(index)), index};
}

// The same for sixteen depths (AVX-512).
struct SixteenDepths {
    __m512 frac;
    __m512i index;
};

template <typename Delay>
__attribute__((target("avx2,fma,avx512f"))) inline SixteenDepths sampleIndices16(const Delay& tx, std::span<const float> zSquared, std::size_t iz, __m512 dx2,
                                                                                 __m512 samplesPerMetre) noexcept {
    const __m512 rx = _mm512_sqrt_ps(_mm512_add_ps(dx2, _mm512_loadu_ps(zSquared.data() + iz)));
    const __m512 s = _mm512_fmadd_ps(rx, samplesPerMetre, tx.at16(iz));
    const __m512i index = _mm512_cvttps_epi32(s);
    return {_mm512_sub_ps(s, _mm512_cvtepi32_ps(index)), index};
}

// With AVX-512: the sample pairs eight consecutive depths read usually lie within 32 samples, so
// loads of that window and one two-table permute replace the gather; where they spread wider,
// or the window would run past the trace, the gather serves. Every lane is checked to fit (an
// unsigned compare also catches a lane below lane 0, should the index ever not grow with depth).
// Returns the window's first index, or -1 when it does not fit.
__attribute__((target("avx2,fma,avx512f,avx512vl"))) inline int windowStart(__m256i index, float lastIndex, __m256i& rel) noexcept {
    const int low = _mm256_cvtsi256_si32(index);
    rel = _mm256_sub_epi32(index, _mm256_set1_epi32(low));
    const bool fits = _mm256_cmpgt_epu32_mask(rel, _mm256_set1_epi32(30)) == 0;
    return fits && low <= static_cast<int>(lastIndex) + 1 - 32 ? low : -1;
}
#endif

}  // namespace sonolink::beamform::kernel
