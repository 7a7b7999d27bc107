#include "iq_tables.h"

#include <algorithm>
#include <cmath>
#include <complex>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sonolink::beamform::iq_internal {

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

#if defined(__x86_64__)
namespace {

// The real (imag = false) or imaginary parts of complex a (numbers 0-3) and b (4-7), in order.
__attribute__((target("avx2,fma"))) inline __m256 partsOf(__m256 a, __m256 b, bool imag) noexcept {
    const __m256 mixed = imag ? _mm256_shuffle_ps(a, b, 0xDD) : _mm256_shuffle_ps(a, b, 0x88);  // 0 1 4 5 | 2 3 6 7
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), 0xD8));
}

// Eight pairs' (M re, M im, D re, D im) from k on into the table: as planes, or as quads by a
// 4 x 4 transpose in each half.
__attribute__((target("avx2,fma"))) inline void storeEight(__m256 midRe, __m256 midIm, __m256 stepRe, __m256 stepIm, std::size_t k, TableLayout layout,
                                                           float* out) noexcept {
    if (layout.quads) {
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
        _mm256_storeu_ps(out + layout.plane + k, midIm);
        _mm256_storeu_ps(out + 2 * layout.plane + k, stepRe);
        _mm256_storeu_ps(out + 3 * layout.plane + k, stepIm);
    }
}

// One pair's (M re, M im, D re, D im) into the table.
inline void storeOne(const float (&quad)[4], std::size_t k, TableLayout layout, float* out) noexcept {
    for (std::size_t j = 0; j < 4; ++j) {
        if (layout.quads) out[4 * k + j] = quad[j];
        else out[j * layout.plane + k] = quad[j];
    }
}

}  // namespace

// Eight pairs at a time (their samples deinterleaved, turned, and stored as planes, or as quads by
// a 4 x 4 transpose in each half), the last ones one at a time.
__attribute__((target("avx2,fma"))) void buildTrace(const float* in, std::size_t n, const Turns& turns, TableLayout layout, float* out) noexcept {
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
        storeEight(midRe, midIm, stepRe, stepIm, k, layout, out);
    }
    for (; k < n; ++k) {
        const std::size_t next = std::min(k + 1, n - 1);
        const float ar = in[2 * k], ai = in[2 * k + 1], br = in[2 * next], bi = in[2 * next + 1];
        const float mr = 0.5f * (ar + br), mi = 0.5f * (ai + bi), dr = br - ar, di = bi - ai;
        const float cr = turns.re[k], ci = turns.im[k];
        const float quad[4] = {mr * cr - mi * ci, mr * ci + mi * cr, dr * cr - di * ci, dr * ci + di * cr};
        storeOne(quad, k, layout, out);
    }
}

// From the filter's outputs the mixer's phase and the pair's turn cancel but for half a sample:
// with iq[k] = 2 exp(-i (w k + phi0)) y[k] and the turn exp(i (phi0 + w (k + 1/2))),
// A_k = 2 y[k] a and B_k = 2 y[k + 1] conj(a), a = exp(i w / 2), so
// M = y[k] a + y[k + 1] conj(a) and D = 2 (y[k + 1] conj(a) - y[k] a). The last pair's B is its A.
__attribute__((target("avx2,fma"))) void buildTraceFromFiltered(const float* re, const float* im, std::size_t n, double radiansPerSample, TableLayout layout,
                                                                float* out) noexcept {
    const auto c = static_cast<float>(std::cos(radiansPerSample / 2)), s = static_cast<float>(std::sin(radiansPerSample / 2));
    const __m256 vc = _mm256_set1_ps(c), vs = _mm256_set1_ps(s), c2 = _mm256_set1_ps(2 * c), s2 = _mm256_set1_ps(2 * s);
    std::size_t k = 0;
    for (; k + 9 <= n; k += 8) {
        const __m256 yr = _mm256_loadu_ps(re + k), yr1 = _mm256_loadu_ps(re + k + 1), yi = _mm256_loadu_ps(im + k), yi1 = _mm256_loadu_ps(im + k + 1);
        const __m256 sumRe = _mm256_add_ps(yr, yr1), differenceRe = _mm256_sub_ps(yr1, yr);
        const __m256 sumIm = _mm256_add_ps(yi, yi1), differenceIm = _mm256_sub_ps(yi1, yi);
        storeEight(_mm256_fmadd_ps(vc, sumRe, _mm256_mul_ps(vs, differenceIm)), _mm256_fmsub_ps(vc, sumIm, _mm256_mul_ps(vs, differenceRe)),
                   _mm256_fmadd_ps(c2, differenceRe, _mm256_mul_ps(s2, sumIm)), _mm256_fmsub_ps(c2, differenceIm, _mm256_mul_ps(s2, sumRe)), k, layout, out);
    }
    for (; k < n; ++k) {
        const std::complex<float> a(c, s), y(re[k], im[k]);
        const std::complex<float> first = y * a, second = k + 1 < n ? std::complex<float>(re[k + 1], im[k + 1]) * std::conj(a) : first;
        const std::complex<float> mid = first + second, step = 2.0f * (second - first);
        const float quad[4] = {mid.real(), mid.imag(), step.real(), step.imag()};
        storeOne(quad, k, layout, out);
    }
}
#endif

}  // namespace sonolink::beamform::iq_internal
