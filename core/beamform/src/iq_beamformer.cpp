#include "sonolink/beamform/iq_beamformer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "iq_demodulation.h"
#include "kernel_steps.h"
#include "parallel_for.h"

namespace sonolink::beamform {
namespace {

using namespace kernel;

// The residual rotation exp(i w g) of a sample at g in [-1/2, 1/2] from the midpoint of the pair
// the table turned by that midpoint's phase, w the phase per IQ sample (at most pi): cos(w g) of
// degree 6 and sin(w g) of degree 5 in g, fitted for this frame's w (least squares on Chebyshev
// nodes of [0, 1/2], w folded in): 3 and 3 multiply-adds and a product, no transcendental per
// pixel. Past w = 2.6 a degree-5 sine is off by more than 2e-5 (7.5e-5 at pi): there the sine
// takes degree 7 (kLongSine).
struct Rotation {
    float c0, c1, c2, c3;  // cos(w g) = c0 + g2 (c1 + g2 (c2 + g2 c3))
    float s0, s1, s2, s3;  // sin(w g) = g (s0 + g2 (s1 + g2 (s2 + g2 s3))), s3 = 0 unless kLongSine
    bool longSine;
};

// Least squares of f over `nodes` in the basis b_j(g) = g^odd (4 g^2)^j, j < terms, by the normal
// equations (double, at most 4 x 4, well conditioned on [0, 1/2]); returns the coefficients of
// g^odd g^(2j), that is a_j 4^j.
double powers(double v, int j) {
    double p = 1;
    while (j-- > 0) p *= v;
    return p;
}

template <typename F>
std::array<double, 4> leastSquares(const std::vector<double>& nodes, int terms, int odd, F f) {
    double m[4][5] = {};
    for (double g : nodes) {
        double b[4];
        for (int j = 0; j < terms; ++j) b[j] = (odd ? g : 1.0) * powers(4 * g * g, j);
        for (int r = 0; r < terms; ++r) {
            for (int c = 0; c < terms; ++c) m[r][c] += b[r] * b[c];
            m[r][terms] += b[r] * f(g);
        }
    }
    for (int p = 0; p < terms; ++p) {  // Gaussian elimination; the matrix is symmetric positive definite
        for (int r = p + 1; r < terms; ++r) {
            const double k = m[r][p] / m[p][p];
            for (int c = p; c <= terms; ++c) m[r][c] -= k * m[p][c];
        }
    }
    std::array<double, 4> a{};
    for (int r = terms - 1; r >= 0; --r) {
        double v = m[r][terms];
        for (int c = r + 1; c < terms; ++c) v -= m[r][c] * a[static_cast<std::size_t>(c)];
        a[static_cast<std::size_t>(r)] = v / m[r][r];
    }
    for (int j = 0; j < terms; ++j) a[static_cast<std::size_t>(j)] *= powers(4.0, j);
    return a;
}

Rotation fitRotation(double w) {
    std::vector<double> nodes(64);
    for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = 0.25 * (1 - std::cos(std::numbers::pi * (static_cast<double>(i) + 0.5) / static_cast<double>(nodes.size())));
    const bool longSine = w > 2.6;
    const auto c = leastSquares(nodes, 4, 0, [w](double g) { return std::cos(w * g); });
    const auto s = leastSquares(nodes, longSine ? 4 : 3, 1, [w](double g) { return std::sin(w * g); });
    const auto f = [](double v) { return static_cast<float>(v); };
    return {f(c[0]), f(c[1]), f(c[2]), f(c[3]), f(s[0]), f(s[1]), f(s[2]), f(s[3]), longSine};
}


// The reference: every pixel and channel with the exact window and the rotation by std::cos and
// std::sin of the sample's own phase; the sample positions and the aperture computed as the
// vector loops compute them (a pixel on an edge of the record or the aperture must go the same
// way in both, or a rectangular window's full weight separates them).
void referenceColumn(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, const std::vector<float>& z,
                     std::span<const float> zSquared, double x, const BeamformParams& params, double radiansAtFirst, double radiansPerSample,
                     bool rotate, std::complex<float>* column) {
    const auto n = static_cast<std::size_t>(layout.samples);
    const float samplesPerMetre = static_cast<float>(layout.samplingRateHz / layout.soundSpeedMps);
    const float lastIndex = static_cast<float>(layout.samples - 1);
    std::vector<float> tx(z.size());
    for (int w = 0; w < layout.waves; ++w) {
        const auto wave = static_cast<std::size_t>(w);
        const double distance = layout.sourceDistance.empty() ? std::numeric_limits<double>::infinity() : layout.sourceDistance[wave];
        transmitDelaySamples(layout.angleRad[wave], distance, x, z, layout.samplingRateHz, layout.soundSpeedMps, layout.initialTimeS, tx);
        for (int c = 0; c < layout.channels; ++c) {
            const double dx = x - layout.elementX[static_cast<std::size_t>(c)];
            const float dx2 = static_cast<float>(dx * dx);
            const auto* trace = iq.data() + (wave * static_cast<std::size_t>(layout.channels) + static_cast<std::size_t>(c)) * n;
            const double edge = 2 * params.fNumber * std::abs(dx);
            const auto first = static_cast<std::size_t>(std::lower_bound(z.begin(), z.end(), static_cast<float>(edge)) - z.begin());
            for (std::size_t iz = first; iz < z.size(); ++iz) {
                const float weight = windowWeight(std::abs(dx) * 2 * params.fNumber / z[iz], params);  // inside: iz >= first
                if (weight == 0.0f) continue;
                const float s = tx[iz] + std::sqrt(dx2 + zSquared[iz]) * samplesPerMetre;
                if (!(s >= 0.0f && s < lastIndex)) continue;  // outside the record: contributes 0
                const auto i = static_cast<std::size_t>(s);
                const float frac = s - static_cast<float>(i);
                const std::complex<float> sample = trace[i] + frac * (trace[i + 1] - trace[i]);
                const double phase = rotate ? radiansAtFirst + radiansPerSample * s : 0.0;
                column[iz] += weight * sample * std::complex<float>(static_cast<float>(std::cos(phase)), static_cast<float>(std::sin(phase)));
            }
        }
    }
}


#if defined(__x86_64__)
// The vector loops. Every per-depth array they read or write (z^2, 1/z, 1/z^2, tx, the sums) holds
// kPad entries past the last depth, so that the step that ends a channel's depths, partly past
// them, stays in bounds; its lanes past the end add nothing.
constexpr std::size_t kPad = 16;

// The rotation's coefficients broadcast once per channel (a member read through a reference would
// be reloaded after every store to the sums).
struct RotationLanes8 {
    __m256 c0, c1, c2, c3, s0, s1, s2, s3;
    __attribute__((target("avx2,fma"))) explicit RotationLanes8(const Rotation& r) noexcept
        : c0(_mm256_set1_ps(r.c0)), c1(_mm256_set1_ps(r.c1)), c2(_mm256_set1_ps(r.c2)), c3(_mm256_set1_ps(r.c3)), s0(_mm256_set1_ps(r.s0)),
          s1(_mm256_set1_ps(r.s1)), s2(_mm256_set1_ps(r.s2)), s3(_mm256_set1_ps(r.s3)) {}
};
struct RotationLanes16 {
    __m512 c0, c1, c2, c3, s0, s1, s2, s3;
    __attribute__((target("avx2,fma,avx512f"))) explicit RotationLanes16(const Rotation& r) noexcept
        : c0(_mm512_set1_ps(r.c0)), c1(_mm512_set1_ps(r.c1)), c2(_mm512_set1_ps(r.c2)), c3(_mm512_set1_ps(r.c3)), s0(_mm512_set1_ps(r.s0)),
          s1(_mm512_set1_ps(r.s1)), s2(_mm512_set1_ps(r.s2)), s3(_mm512_set1_ps(r.s3)) {}
};

// A trace turned into the table the loops read: for each sample index k the midpoint
// M_k = (iq[k] + iq[k + 1]) / 2 and the step D_k = iq[k + 1] - iq[k], both turned by
// exp(i phi_k), phi_k the phase at k + 1/2. A sample at u = k + g, g in [-1/2, 1/2], is then
// (M_k + g D_k) exp(i w g): the baseband interpolated linearly and turned by its own phase, in two
// multiply-adds and the residual rotation. Four planes of n floats, M re, M im, D re, D im (the
// AVX-512 loop's window permutes); or quads (AVX2): (M re, M im, D re, D im) for each k, so that
// one 128-bit load brings a depth's four.
struct IqTables {
    std::size_t n = 0;
    bool quads = false;
    std::vector<float> planes;  // waves x channels x 4 x n
    const float* trace(std::size_t index) const noexcept { return planes.data() + index * 4 * n; }
};

// The phase's part for one record length, initial phase and phase per sample: the turn of each
// pair, exp(i phi_k), and the fitted residual rotation. Kept by the calling thread while they
// stay the same, as they do from frame to frame of a stream.
struct Turns {
    std::size_t n = 0;
    double radiansAtFirst = 0, radiansPerSample = -1;
    std::vector<float> re, im;
    Rotation rotation{};
};

const Turns& turnsFor(std::size_t n, double radiansAtFirst, double radiansPerSample) {
    thread_local Turns kept;
    if (kept.n != n || kept.radiansAtFirst != radiansAtFirst || kept.radiansPerSample != radiansPerSample) {
        kept.re.resize(n + 8);
        kept.im.resize(n + 8);
        for (std::size_t k = 0; k < n + 8; ++k) {
            const double phase = radiansAtFirst + radiansPerSample * (static_cast<double>(k) + 0.5);
            kept.re[k] = static_cast<float>(std::cos(phase));
            kept.im[k] = static_cast<float>(std::sin(phase));
        }
        kept.rotation = fitRotation(radiansPerSample);
        kept.n = n;
        kept.radiansAtFirst = radiansAtFirst;
        kept.radiansPerSample = radiansPerSample;
    }
    return kept;
}

// One trace's table: eight pairs at a time (their samples deinterleaved, turned, and stored as
// planes, or as quads by a 4 x 4 transpose in each half), the last ones one at a time.
// The real (imag = false) or imaginary parts of complex a (numbers 0-3) and b (4-7), in order.
__attribute__((target("avx2,fma"))) inline __m256 partsOf(__m256 a, __m256 b, bool imag) noexcept {
    const __m256 mixed = imag ? _mm256_shuffle_ps(a, b, 0xDD) : _mm256_shuffle_ps(a, b, 0x88);  // 0 1 4 5 | 2 3 6 7
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), 0xD8));
}

__attribute__((target("avx2,fma"))) void buildTrace(const float* in, std::size_t n, const Turns& turns, bool quads, float* out) noexcept {
    std::size_t k = 0;
    for (; k + 9 <= n; k += 8) {
        const __m256 a0 = _mm256_loadu_ps(in + 2 * k), a1 = _mm256_loadu_ps(in + 2 * k + 8);
        const __m256 b0 = _mm256_loadu_ps(in + 2 * k + 2), b1 = _mm256_loadu_ps(in + 2 * k + 10);
        const __m256 ar = partsOf(a0, a1, false), ai = partsOf(a0, a1, true), br = partsOf(b0, b1, false), bi = partsOf(b0, b1, true);
        const __m256 half = _mm256_set1_ps(0.5f);
        const __m256 mr = _mm256_mul_ps(half, _mm256_add_ps(ar, br)), mi = _mm256_mul_ps(half, _mm256_add_ps(ai, bi));
        const __m256 dr = _mm256_sub_ps(br, ar), di = _mm256_sub_ps(bi, ai);
        const __m256 cr = _mm256_loadu_ps(turns.re.data() + k), ci = _mm256_loadu_ps(turns.im.data() + k);
        const __m256 midRe = _mm256_fmsub_ps(mr, cr, _mm256_mul_ps(mi, ci)), midIm = _mm256_fmadd_ps(mr, ci, _mm256_mul_ps(mi, cr));
        const __m256 stepRe = _mm256_fmsub_ps(dr, cr, _mm256_mul_ps(di, ci)), stepIm = _mm256_fmadd_ps(dr, ci, _mm256_mul_ps(di, cr));
        if (quads) {
            const __m256 t0 = _mm256_unpacklo_ps(midRe, midIm), t1 = _mm256_unpackhi_ps(midRe, midIm);
            const __m256 t2 = _mm256_unpacklo_ps(stepRe, stepIm), t3 = _mm256_unpackhi_ps(stepRe, stepIm);
            const __m256 q0 = _mm256_shuffle_ps(t0, t2, 0x44), q1 = _mm256_shuffle_ps(t0, t2, 0xEE);  // k, k + 1 | k + 4, k + 5
            const __m256 q2 = _mm256_shuffle_ps(t1, t3, 0x44), q3 = _mm256_shuffle_ps(t1, t3, 0xEE);  // k + 2, k + 3 | k + 6, k + 7
            float* at = out + 4 * k;
            _mm256_storeu_ps(at, _mm256_permute2f128_ps(q0, q1, 0x20));
            _mm256_storeu_ps(at + 8, _mm256_permute2f128_ps(q2, q3, 0x20));
            _mm256_storeu_ps(at + 16, _mm256_permute2f128_ps(q0, q1, 0x31));
            _mm256_storeu_ps(at + 24, _mm256_permute2f128_ps(q2, q3, 0x31));
        } else {
            _mm256_storeu_ps(out + k, midRe);
            _mm256_storeu_ps(out + n + k, midIm);
            _mm256_storeu_ps(out + 2 * n + k, stepRe);
            _mm256_storeu_ps(out + 3 * n + k, stepIm);
        }
    }
    for (; k < n; ++k) {
        const std::size_t next = std::min(k + 1, n - 1);
        const float ar = in[2 * k], ai = in[2 * k + 1], br = in[2 * next], bi = in[2 * next + 1];
        const float mr = 0.5f * (ar + br), mi = 0.5f * (ai + bi), dr = br - ar, di = bi - ai;
        const float cr = turns.re[k], ci = turns.im[k];
        const float quad[4] = {mr * cr - mi * ci, mr * ci + mi * cr, dr * cr - di * ci, dr * ci + di * cr};
        for (std::size_t j = 0; j < 4; ++j) {
            if (quads) out[4 * k + j] = quad[j];
            else out[j * n + k] = quad[j];
        }
    }
}

// One channel of a column: its table, and where its samples lie: u = tx[iz] + |r| spm in samples,
// tx the transmit delay less half a sample, so that the index k nearest u is the pair's and
// g = u - k the place from its midpoint. Inside the record: u in [-1/2, n - 3/2).
struct IqChannel {
    const float* table;
    std::size_t n;
    const float* tx;
    float samplesPerMetre, dx2;
};

// Eight depths with AVX2 from the table of quads: each depth's (M re, M im, D re, D im) one
// 128-bit load, two depths to a register and a 4 x 4 transpose in each half (eight in-lane
// shuffles). Measured faster than gathers (four 64-bit gathers of four pairs). The indices are
// clamped to the table: a lane rounded just past an end of the record reads the end's pair.
// kPartial: only the lanes of `live` add.
template <bool kLongSine, bool kPartial, typename Weight>
__attribute__((target("avx2,fma"))) inline void stepOf8(const IqChannel& ch, const Weight& weight, const RotationLanes8& r, const float* zSquared,
                                                        std::size_t iz, __m256 live, float* re, float* im) noexcept {
    const __m256 u = _mm256_fmadd_ps(_mm256_sqrt_ps(_mm256_add_ps(_mm256_set1_ps(ch.dx2), _mm256_loadu_ps(zSquared + iz))),
                                     _mm256_set1_ps(ch.samplesPerMetre), _mm256_loadu_ps(ch.tx + iz));
    const __m256 kf = _mm256_round_ps(u, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256 g = _mm256_sub_ps(u, kf);
    const __m256i k = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(kf), _mm256_setzero_si256()), _mm256_set1_epi32(static_cast<int>(ch.n) - 2));
    // Each quad's first float, unsigned and scaled in the vector (the scalar addresses need neither a
    // sign extension nor a shift), stored and read back as scalars. The empty asm keeps GCC from
    // taking the eight out of the register one at a time instead (two micro-ops each): read back
    // from memory, the step ran 18 % faster.
    alignas(32) std::uint32_t at[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(at), _mm256_slli_epi32(k, 2));
    asm volatile("" : : "r"(at) : "memory");
    const auto two = [&](int a, int b) __attribute__((always_inline, target("avx2,fma"))) {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(ch.table + at[a])), _mm_loadu_ps(ch.table + at[b]), 1);
    };
    const __m256 r0 = two(0, 4), r1 = two(1, 5), r2 = two(2, 6), r3 = two(3, 7);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    __m256 vr = _mm256_fmadd_ps(g, _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t0, t2, 0x44));  // M + g D
    __m256 vi = _mm256_fmadd_ps(g, _mm256_shuffle_ps(t1, t3, 0xEE), _mm256_shuffle_ps(t0, t2, 0xEE));
    if constexpr (!Weight::kUnit) {
        const __m256 w = weight.at8(iz);
        vr = _mm256_mul_ps(vr, w);
        vi = _mm256_mul_ps(vi, w);
    }
    if constexpr (kPartial) {
        vr = _mm256_and_ps(vr, live);
        vi = _mm256_and_ps(vi, live);
    }
    const __m256 g2 = _mm256_mul_ps(g, g);
    const __m256 c = _mm256_fmadd_ps(g2, _mm256_fmadd_ps(g2, _mm256_fmadd_ps(g2, r.c3, r.c2), r.c1), r.c0);
    const __m256 top = kLongSine ? _mm256_fmadd_ps(g2, r.s3, r.s2) : r.s2;
    const __m256 s = _mm256_mul_ps(g, _mm256_fmadd_ps(g2, _mm256_fmadd_ps(g2, top, r.s1), r.s0));
    _mm256_storeu_ps(re + iz, _mm256_fnmadd_ps(vi, s, _mm256_fmadd_ps(vr, c, _mm256_loadu_ps(re + iz))));
    _mm256_storeu_ps(im + iz, _mm256_fmadd_ps(vi, c, _mm256_fmadd_ps(vr, s, _mm256_loadu_ps(im + iz))));
}

// A channel's depths [first, last) eight at a time with AVX2, the last step partial.
template <bool kLongSine, typename Weight>
__attribute__((target("avx2,fma"))) void accumulateIqAvx2(const IqChannel& channel, const Weight& taper, const Rotation& rotation, const float* zSquared,
                                                          std::size_t first, std::size_t last, float* re, float* im) noexcept {
    // Copies the stores to the sums cannot reach: read through the references, the channel's and
    // the weight's members were loaded again in every step.
    const IqChannel ch = channel;
    const Weight weight = taper;
    const RotationLanes8 lanes(rotation);
    const __m256 all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    std::size_t iz = first;
    for (; iz + 8 <= last; iz += 8) stepOf8<kLongSine, false>(ch, weight, lanes, zSquared, iz, all, re, im);
    if (iz < last) {
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(last - iz)), lane));
        stepOf8<kLongSine, true>(ch, weight, lanes, zSquared, iz, live, re, im);
    }
}

// (GCC 12 takes the placeholder inside its own 512-bit intrinsics for an uninitialised value.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// Sixteen depths with AVX-512 (measured faster than eight). Where their indices lie within 32
// samples, two loads and one two-table permute (vpermt2ps) per plane instead of a gather. In a
// partial step the lanes past the end take lane 0's index (so that they do not spoil the window)
// and add nothing.
template <bool kLongSine, bool kPartial, typename Weight>
__attribute__((target("avx2,fma,avx512f,avx512vl"))) inline void stepOf16(const IqChannel& ch, const Weight& weight, const RotationLanes16& r,
                                                                          const float* zSquared, std::size_t iz, __mmask16 live, float* re,
                                                                          float* im) noexcept {
    const __m512 u = _mm512_fmadd_ps(_mm512_sqrt_ps(_mm512_add_ps(_mm512_set1_ps(ch.dx2), _mm512_loadu_ps(zSquared + iz))),
                                     _mm512_set1_ps(ch.samplesPerMetre), _mm512_loadu_ps(ch.tx + iz));
    const __m512 kf = _mm512_roundscale_ps(u, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 g = _mm512_sub_ps(u, kf);
    __m512i k = _mm512_cvttps_epi32(kf);
    const int low = _mm_cvtsi128_si32(_mm512_castsi512_si128(k));
    if constexpr (kPartial) k = _mm512_mask_mov_epi32(_mm512_set1_epi32(low), live, k);
    const __m512i rel = _mm512_sub_epi32(k, _mm512_set1_epi32(low));
    // The planes written out, not as an array: GCC keeps an array of them in memory here.
    const float* const midRe = ch.table;
    const float* const midIm = midRe + ch.n;
    const float* const stepRe = midIm + ch.n;
    const float* const stepIm = stepRe + ch.n;
    __m512 mr, mi, dr, di;
    if (_mm512_cmpgt_epu32_mask(rel, _mm512_set1_epi32(31)) == 0 && low >= 0 && low <= static_cast<int>(ch.n) - 32) {
        const auto window = [&](const float* plane) __attribute__((always_inline, target("avx2,fma,avx512f,avx512vl"))) {
            return _mm512_permutex2var_ps(_mm512_loadu_ps(plane + low), rel, _mm512_loadu_ps(plane + low + 16));
        };
        mr = window(midRe), mi = window(midIm), dr = window(stepRe), di = window(stepIm);
    } else {
        const __m512i index = _mm512_min_epi32(_mm512_max_epi32(k, _mm512_setzero_si512()), _mm512_set1_epi32(static_cast<int>(ch.n) - 2));
        mr = _mm512_i32gather_ps(index, midRe, 4), mi = _mm512_i32gather_ps(index, midIm, 4);
        dr = _mm512_i32gather_ps(index, stepRe, 4), di = _mm512_i32gather_ps(index, stepIm, 4);
    }
    __m512 vr = _mm512_fmadd_ps(g, dr, mr);
    __m512 vi = _mm512_fmadd_ps(g, di, mi);
    if constexpr (!Weight::kUnit) {
        const __m512 w = weight.at16(iz);
        vr = _mm512_mul_ps(vr, w);
        vi = _mm512_mul_ps(vi, w);
    }
    if constexpr (kPartial) {
        vr = _mm512_maskz_mov_ps(live, vr);
        vi = _mm512_maskz_mov_ps(live, vi);
    }
    const __m512 g2 = _mm512_mul_ps(g, g);
    const __m512 c = _mm512_fmadd_ps(g2, _mm512_fmadd_ps(g2, _mm512_fmadd_ps(g2, r.c3, r.c2), r.c1), r.c0);
    const __m512 top = kLongSine ? _mm512_fmadd_ps(g2, r.s3, r.s2) : r.s2;
    const __m512 s = _mm512_mul_ps(g, _mm512_fmadd_ps(g2, _mm512_fmadd_ps(g2, top, r.s1), r.s0));
    _mm512_storeu_ps(re + iz, _mm512_fnmadd_ps(vi, s, _mm512_fmadd_ps(vr, c, _mm512_loadu_ps(re + iz))));
    _mm512_storeu_ps(im + iz, _mm512_fmadd_ps(vi, c, _mm512_fmadd_ps(vr, s, _mm512_loadu_ps(im + iz))));
}

template <bool kLongSine, typename Weight>
__attribute__((target("avx2,fma,avx512f,avx512vl"))) void accumulateIqAvx512(const IqChannel& channel, const Weight& taper, const Rotation& rotation,
                                                                             const float* zSquared, std::size_t first, std::size_t last, float* re,
                                                                             float* im) noexcept {
    const IqChannel ch = channel;  // copies, as in accumulateIqAvx2
    const Weight weight = taper;
    const RotationLanes16 lanes(rotation);
    std::size_t iz = first;
    for (; iz + 16 <= last; iz += 16) stepOf16<kLongSine, false>(ch, weight, lanes, zSquared, iz, 0xFFFF, re, im);
    if (iz < last) stepOf16<kLongSine, true>(ch, weight, lanes, zSquared, iz, static_cast<__mmask16>((1u << (last - iz)) - 1), re, im);
}
#pragma GCC diagnostic pop

// A tapering window's weight with its form (Hann's or Tukey's) chosen once per channel, not in
// each step.
template <bool kHann>
struct TaperWeight {
    static constexpr bool kUnit = false;
    CosSquaredWeight weight;
    __attribute__((target("avx2,fma"))) __m256 at8(std::size_t iz) const noexcept { return weight.at8As<kHann>(iz, false); }
    __attribute__((target("avx2,fma,avx512f"))) __m512 at16(std::size_t iz) const noexcept { return weight.at16As<kHann>(iz); }
};

// Which loop runs a channel: the one this CPU does best.
enum class IqLoop { Avx2, Avx512 };

template <bool kLongSine, typename Weight>
void accumulateIq(IqLoop loop, const IqChannel& ch, const Weight& weight, const Rotation& rotation, const float* zSquared, std::size_t first,
                  std::size_t last, float* re, float* im) noexcept {
    if (first >= last) return;
    if (loop == IqLoop::Avx512) accumulateIqAvx512<kLongSine>(ch, weight, rotation, zSquared, first, last, re, im);
    else accumulateIqAvx2<kLongSine>(ch, weight, rotation, zSquared, first, last, re, im);
}

// The first depth index at or below a depth (std::lower_bound's), looked up where the grid's
// depths are evenly spaced and stepped from there: one guess and a compare or two per channel
// instead of a bisection (which was a third of a column's work outside the loops).
struct DepthIndex {
    const std::vector<float>& z;
    float z0, perMetre;
    explicit DepthIndex(const std::vector<float>& depths) noexcept
        : z(depths), z0(depths.front()), perMetre(depths.size() > 1 ? static_cast<float>(depths.size() - 1) / (depths.back() - depths.front()) : 0.0f) {}
    std::size_t firstAtOrBelow(float depth) const noexcept {
        const float guess = std::ceil((depth - z0) * perMetre);
        auto i = static_cast<std::size_t>(std::clamp(guess, 0.0f, static_cast<float>(z.size())));
        while (i > 0 && z[i - 1] >= depth) --i;
        while (i < z.size() && z[i] < depth) ++i;
        return i;
    }
};

// tx[iz] = (txX + z[iz] txZ) - 1/2, as PlaneWaveDelay computes the delay (a product and a sum, not
// fused), eight at a time.
__attribute__((target("avx2,fma"))) void planeWaveDelayLessHalf(float txX, float txZ, const float* z, std::size_t nz, float* tx) noexcept {
    std::size_t iz = 0;
    for (; iz + 8 <= nz; iz += 8) {
        const __m256 delay = _mm256_add_ps(_mm256_set1_ps(txX), _mm256_mul_ps(_mm256_loadu_ps(z + iz), _mm256_set1_ps(txZ)));
        _mm256_storeu_ps(tx + iz, _mm256_sub_ps(delay, _mm256_set1_ps(0.5f)));
    }
    for (; iz < nz; ++iz) tx[iz] = (txX + z[iz] * txZ) - 0.5f;
}

// column[iz] = (re[iz], im[iz]), eight at a time.
__attribute__((target("avx2,fma"))) void interleave(const float* re, const float* im, std::size_t nz, std::complex<float>* column) noexcept {
    auto* out = reinterpret_cast<float*>(column);
    std::size_t iz = 0;
    for (; iz + 8 <= nz; iz += 8) {
        const __m256 r = _mm256_loadu_ps(re + iz), i = _mm256_loadu_ps(im + iz);
        const __m256 low = _mm256_unpacklo_ps(r, i), high = _mm256_unpackhi_ps(r, i);  // 0 1 | 4 5 and 2 3 | 6 7
        _mm256_storeu_ps(out + 2 * iz, _mm256_permute2f128_ps(low, high, 0x20));
        _mm256_storeu_ps(out + 2 * iz + 8, _mm256_permute2f128_ps(low, high, 0x31));
    }
    for (; iz < nz; ++iz) column[iz] = {re[iz], im[iz]};
}

// A column through the tables and the vector loops. zSquared, invZ, invZ2: padded (kPad).
template <bool kLongSine>
void fastColumn(const AcquisitionGeometry& layout, const IqTables& tables, const std::vector<float>& z, const DepthIndex& depths, std::span<const float> zSquared,
                const std::vector<float>& invZ, const std::vector<float>& invZ2, double x, const BeamformParams& params, const Rotation& rotation,
                IqLoop loop, std::complex<float>* column) {
    const auto nz = z.size();
    const float samplesPerMetre = static_cast<float>(layout.samplingRateHz / layout.soundSpeedMps);
    const float lastIndex = static_cast<float>(layout.samples - 1);
    thread_local std::vector<float> scratch;  // tx, re, im: the worker's own, grown once
    const std::size_t stride = nz + kPad;
    if (scratch.size() < 3 * stride) scratch.resize(3 * stride);
    float* tx = scratch.data();
    float* re = tx + stride;
    float* im = re + stride;
    std::fill(re, re + 2 * stride, 0.0f);
    for (int w = 0; w < layout.waves; ++w) {
        const auto wave = static_cast<std::size_t>(w);
        const double distance = layout.sourceDistance.empty() ? std::numeric_limits<double>::infinity() : layout.sourceDistance[wave];
        if (std::isinf(distance)) {  // a plane wave's delay, as PlaneWaveDelay computes it
            const float txX = static_cast<float>(x * std::sin(layout.angleRad[wave])) * samplesPerMetre -
                              static_cast<float>(layout.initialTimeS * layout.samplingRateHz);
            const float txZ = static_cast<float>(std::cos(layout.angleRad[wave])) * samplesPerMetre;
            planeWaveDelayLessHalf(txX, txZ, z.data(), nz, tx);
        } else {
            transmitDelaySamples(layout.angleRad[wave], distance, x, z, layout.samplingRateHz, layout.soundSpeedMps, layout.initialTimeS, {tx, nz});
            for (std::size_t iz = 0; iz < nz; ++iz) tx[iz] -= 0.5f;
        }
        std::fill(tx + nz, tx + stride, tx[nz - 1]);
        const TabulatedDelay delay{tx};
        for (int c = 0; c < layout.channels; ++c) {
            const double dx = x - layout.elementX[static_cast<std::size_t>(c)];
            const auto edge = static_cast<float>(2 * params.fNumber * std::abs(dx));
            if (edge > z.back()) continue;  // outside the aperture at every depth
            const float dx2 = static_cast<float>(dx * dx);
            const auto first = depths.firstAtOrBelow(edge);
            const auto [begin, end] = inRecordRange(lastIndex - 0.5f, delay, samplesPerMetre, dx2, zSquared, first, -0.5f);
            if (begin >= end) continue;
            const IqChannel ch{tables.trace(wave * static_cast<std::size_t>(layout.channels) + static_cast<std::size_t>(c)), tables.n, tx,
                               samplesPerMetre, dx2};
            if (params.window == Window::Rectangular) {
                accumulateIq<kLongSine>(loop, ch, NoWeight{}, rotation, zSquared.data(), begin, end, re, im);
            } else {  // weighted where the window tapers, unweighted where it is flat (Tukey, deep)
                const auto flat = std::clamp(flatFrom(params, dx, z, first), begin, end);
                const auto weight = cosSquaredWeight(params, dx, invZ, invZ2, flat);
                if (weight.hann) accumulateIq<kLongSine>(loop, ch, TaperWeight<true>{weight}, rotation, zSquared.data(), begin, flat, re, im);
                else accumulateIq<kLongSine>(loop, ch, TaperWeight<false>{weight}, rotation, zSquared.data(), begin, flat, re, im);
                accumulateIq<kLongSine>(loop, ch, NoWeight{}, rotation, zSquared.data(), flat, end, re, im);
            }
        }
    }
    interleave(re, im, nz, column);
}

// The image through the tables and the vector loops. The per-depth arrays are padded here (kPad).
// fill(turns, quads, tables) builds the tables (sized already).
void fastImage(const AcquisitionGeometry& layout, const std::vector<float>& z, std::vector<float> zSquared, std::vector<float> invZ,
               std::vector<float> invZ2, const PixelGrid& grid, const BeamformParams& params, unsigned threads, double radiansAtFirst,
               double radiansPerSample, IqLoop loop, BodyRef<const Turns&, IqTables&> fill, IqImage& image) {
    for (auto* v : {&zSquared, &invZ, &invZ2}) v->resize(z.size() + kPad, v->back());
    const std::span<const float> depths(zSquared.data(), z.size());
    thread_local IqTables callerTables;  // the caller's own, grown once: rebuilt each frame without allocating
    IqTables& tables = callerTables;     // (a lambda would reach a worker's own thread_local by name)
    const Turns& turns = turnsFor(static_cast<std::size_t>(layout.samples), radiansAtFirst, radiansPerSample);
    tables.n = static_cast<std::size_t>(layout.samples);
    tables.quads = loop == IqLoop::Avx2;
    tables.planes.resize(static_cast<std::size_t>(layout.waves) * static_cast<std::size_t>(layout.channels) * 4 * tables.n);
    fill(turns, tables);
    const Rotation& rotation = turns.rotation;
    const DepthIndex index(z);
    parallelFor(image.nx, threads, [&](std::size_t ix) {
        auto* column = image.columns.data() + ix * image.nz;
        if (rotation.longSine) fastColumn<true>(layout, tables, z, index, depths, invZ, invZ2, grid.x[ix], params, rotation, loop, column);
        else fastColumn<false>(layout, tables, z, index, depths, invZ, invZ2, grid.x[ix], params, rotation, loop, column);
    });
}
#endif

}  // namespace

BeamformedImage IqImage::magnitude() const {
    BeamformedImage image;
    image.nx = nx;
    image.nz = nz;
    image.columns.reserve(columns.size());
    for (const auto& v : columns) image.columns.push_back(std::sqrt(v.real() * v.real() + v.imag() * v.imag()));  // not hypot: no overflow here
    return image;
}

namespace {

// One frame's image under way: checked, its per-depth arrays, its phase, and whether the tables
// and the vector loops serve it.
struct IqFrame {
    IqImage image;
    std::vector<float> z, zSquared, invZ, invZ2;
    double radiansPerSample = 0, radiansAtFirst = 0;
    bool fast = false;
};

Result<IqFrame> startFrame(const AcquisitionGeometry& layout, double modulationFrequencyHz, const PixelGrid& grid, const BeamformParams& params,
                           bool rotate, VectorLoop loop) {
    if (auto ok = layout.validate(); !ok) return fail(std::move(ok.error()));
    if (auto ok = grid.validate(); !ok) return fail(std::move(ok.error()));
    if (!(params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    IqFrame frame;
    frame.image.nx = grid.x.size();
    frame.image.nz = grid.z.size();
    frame.image.columns.assign(frame.image.nx * frame.image.nz, {0.0f, 0.0f});
    frame.z.assign(grid.z.begin(), grid.z.end());
    // Phase per sample of delay: the sample at index s was taken at t = initialTime + s / fs.
    frame.radiansPerSample = 2 * std::numbers::pi * modulationFrequencyHz / layout.samplingRateHz;
    frame.radiansAtFirst = 2 * std::numbers::pi * modulationFrequencyHz * layout.initialTimeS;
    // The tables' residual rotation holds to pi/2: beyond (a modulation frequency past half the
    // sampling rate) and without rotation, the reference serves.
    frame.fast = rotate && loop != VectorLoop::Scalar && cpuHasAvx2() && frame.radiansPerSample <= std::numbers::pi;
    for (const float depth : frame.z) {
        frame.zSquared.push_back(depth * depth);
        frame.invZ.push_back(1.0f / depth);
        frame.invZ2.push_back(frame.invZ.back() * frame.invZ.back());
    }
    return frame;
}

#if defined(__x86_64__)
void fastImage(const AcquisitionGeometry& layout, IqFrame& frame, const PixelGrid& grid, const BeamformParams& params, unsigned threads,
               VectorLoop loop, BodyRef<const Turns&, IqTables&> fill) {
    fastImage(layout, frame.z, frame.zSquared, frame.invZ, frame.invZ2, grid, params, threads, frame.radiansAtFirst, frame.radiansPerSample,
              loop == VectorLoop::Best && cpuHasAvx512() ? IqLoop::Avx512 : IqLoop::Avx2, fill, frame.image);
}
#endif

}  // namespace

Result<IqImage> delayAndSumIq(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, double modulationFrequencyHz,
                              const PixelGrid& grid, const BeamformParams& params, unsigned threads, bool rotate, VectorLoop loop) {
    auto frame = startFrame(layout, modulationFrequencyHz, grid, params, rotate, loop);
    if (!frame) return fail(std::move(frame.error()));
    const auto n = static_cast<std::size_t>(layout.samples), traces = static_cast<std::size_t>(layout.waves) * static_cast<std::size_t>(layout.channels);
    if (iq.size() != traces * n) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} IQ samples for {} waves x {} channels x {} samples", iq.size(), layout.waves, layout.channels, n));
    }
#if defined(__x86_64__)
    if (frame->fast) {
        fastImage(layout, *frame, grid, params, threads, loop, [&](const Turns& turns, IqTables& tables) {
            parallelFor(traces, threads, [&](std::size_t t) {
                buildTrace(reinterpret_cast<const float*>(iq.data() + t * n), n, turns, tables.quads, tables.planes.data() + t * 4 * n);
            });
        });
        return std::move(frame->image);
    }
#endif
    parallelFor(frame->image.nx, threads, [&](std::size_t ix) {
        referenceColumn(layout, iq, frame->z, frame->zSquared, grid.x[ix], params, frame->radiansAtFirst, frame->radiansPerSample, rotate,
                        frame->image.columns.data() + ix * frame->image.nz);
    });
    return std::move(frame->image);
}

Result<IqImage> delayAndSumIq(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, const PixelGrid& grid,
                              const BeamformParams& params, unsigned threads, VectorLoop loop) {
    auto layout = iqLayoutOf(rf, modulationFrequencyHz, decimation);
    if (!layout) return fail(std::move(layout.error()));
    auto frame = startFrame(*layout, modulationFrequencyHz, grid, params, true, loop);
    if (!frame) return fail(std::move(frame.error()));
#if defined(__x86_64__)
    if (frame->fast) {
        const auto n = static_cast<std::size_t>(layout->samples);
        fastImage(*layout, *frame, grid, params, threads, loop, [&](const Turns& turns, IqTables& tables) {
            forEachDemodulatedTrace(rf, modulationFrequencyHz, decimation, loop, threads, [&](std::size_t t, const std::complex<float>* iq) {
                buildTrace(reinterpret_cast<const float*>(iq), n, turns, tables.quads, tables.planes.data() + t * 4 * n);
            });
        });
        return std::move(frame->image);
    }
#endif
    auto iq = demodulateToIq(rf, modulationFrequencyHz, decimation, loop);
    if (!iq) return fail(std::move(iq.error()));
    return delayAndSumIq(iq->geometry, iq->samples, modulationFrequencyHz, grid, params, threads, true, loop);
}

}  // namespace sonolink::beamform
