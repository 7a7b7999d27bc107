#include "sonolink/beamform/iq_beamformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "kernel_steps.h"
#include "parallel_for.h"

namespace sonolink::beamform {
namespace {

using namespace kernel;

constexpr int kFilterHalfLength = 24;  // taps each side of the low-pass filter's centre

// A Hamming-windowed sinc low-pass filter with cutoff `cutoff` (cycles per sample), unit DC gain.
std::vector<float> lowPass(double cutoff) {
    std::vector<double> taps(2 * kFilterHalfLength + 1);
    double sum = 0;
    for (int k = -kFilterHalfLength; k <= kFilterHalfLength; ++k) {
        const double sinc = k == 0 ? 2 * cutoff : std::sin(2 * std::numbers::pi * cutoff * k) / (std::numbers::pi * k);
        const double window = 0.54 + 0.46 * std::cos(std::numbers::pi * k / kFilterHalfLength);
        taps[static_cast<std::size_t>(k + kFilterHalfLength)] = sinc * window;
        sum += sinc * window;
    }
    std::vector<float> out;
    for (double t : taps) out.push_back(static_cast<float>(t / sum));
    return out;
}

// The low-pass filter turned by the mixer, so that one trace is demodulated and decimated by two
// real dot products per output: with k = o D and the mixer m[k] = exp(-i w k + i phi0),
//   out[o] = 2 sum_j h_j m[k + j] x[k + j] = 2 m[k] sum_j g_j x[k + j],  g_j = h_j exp(-i w j),
// j from -H to H. The taps' real and imaginary parts are padded to a multiple of eight.
struct TurnedTaps {
    std::vector<float> re, im;  // g_j, j = -H .. H, then zeros
};

TurnedTaps turnTaps(const std::vector<float>& taps, double fdOverFs) {
    TurnedTaps g;
    const std::size_t padded = (taps.size() + 7) / 8 * 8;
    g.re.assign(padded, 0.0f);
    g.im.assign(padded, 0.0f);
    for (std::size_t t = 0; t < taps.size(); ++t) {
        const double j = static_cast<double>(t) - kFilterHalfLength;
        const auto turned = std::polar(static_cast<double>(taps[t]), -2 * std::numbers::pi * fdOverFs * j);
        g.re[t] = static_cast<float>(turned.real());
        g.im[t] = static_cast<float>(turned.imag());
    }
    return g;
}

// sum over t of g[t] x[t], t < g.size().
std::complex<float> dotScalar(const TurnedTaps& g, const float* x) noexcept {
    float re = 0, im = 0;
    for (std::size_t t = 0; t < g.re.size(); ++t) {
        re += g.re[t] * x[t];
        im += g.im[t] * x[t];
    }
    return {re, im};
}

// One trace demodulated and kept at every decimation-th sample, one output at a time (the
// reference, and CPUs without AVX2). padded: the worker's scratch, the trace as float with H
// zeros before it and the taps' length after it (zero phase: the baseband keeps the RF's timing;
// samples past the record count as 0).
template <typename T>
void demodulateTraceScalar(const T* rf, int n, const std::vector<std::complex<float>>& mixer, const TurnedTaps& g, int decimation,
                           std::vector<float>& padded, std::complex<float>* out) {
    padded.assign(static_cast<std::size_t>(n) + kFilterHalfLength + g.re.size(), 0.0f);
    for (int k = 0; k < n; ++k) padded[static_cast<std::size_t>(k + kFilterHalfLength)] = static_cast<float>(rf[k]);
    for (int k = 0, o = 0; k < n; k += decimation, ++o) {
        out[o] = 2.0f * mixer[static_cast<std::size_t>(k)] * dotScalar(g, padded.data() + k);  // the analytic signal's amplitude
    }
}

#if defined(__x86_64__)
// The same filter split into its decimation's phases, so that eight consecutive outputs are
// eight lanes of one multiply-add per tap (no horizontal sums): with x_r[m] = x[m D + r] and
// g_r[p] = g[p D + r], out[o] = 2 m[o D] sum_r sum_p g_r[p] x_r[o + p].
struct PolyphaseTaps {
    int phases = 1, perPhase = 0;
    std::vector<float> re, im;  // [r * perPhase + p]
    std::vector<float> mixerRe, mixerIm;  // 2 m[o D], o < outputs
};

PolyphaseTaps splitIntoPhases(const TurnedTaps& g, const std::vector<std::complex<float>>& mixer, int decimation) {
    PolyphaseTaps poly;
    poly.phases = decimation;
    poly.perPhase = static_cast<int>((g.re.size() + static_cast<std::size_t>(decimation) - 1) / static_cast<std::size_t>(decimation));
    const auto taps = static_cast<std::size_t>(poly.phases * poly.perPhase);
    poly.re.assign(taps, 0.0f);
    poly.im.assign(taps, 0.0f);
    for (std::size_t j = 0; j < g.re.size(); ++j) {
        const auto at = (j % static_cast<std::size_t>(decimation)) * static_cast<std::size_t>(poly.perPhase) + j / static_cast<std::size_t>(decimation);
        poly.re[at] = g.re[j];
        poly.im[at] = g.im[j];
    }
    for (std::size_t k = 0; k < mixer.size(); k += static_cast<std::size_t>(decimation)) {
        poly.mixerRe.push_back(2.0f * mixer[k].real());
        poly.mixerIm.push_back(2.0f * mixer[k].imag());
    }
    const auto padded = (poly.mixerRe.size() + 31) / 32 * 32;  // the last block's lanes past the trace
    poly.mixerRe.resize(padded, 0.0f);
    poly.mixerIm.resize(padded, 0.0f);
    return poly;
}

// Four vectors (32 outputs) share each tap's broadcast: eight independent sums, so that the
// multiply-adds do not wait on one another.
template <typename T>
__attribute__((target("avx2,fma"))) void demodulateTraceAvx2(const T* rf, int n, const PolyphaseTaps& poly, std::vector<float>& phases,
                                                             std::complex<float>* out) {
    constexpr std::size_t kBlock = 4;
    const auto d = static_cast<std::size_t>(poly.phases), per = static_cast<std::size_t>(poly.perPhase);
    const std::size_t outputs = (static_cast<std::size_t>(n) + d - 1) / d, vectors = (outputs + 7) / 8;
    const std::size_t blocks = (vectors + kBlock - 1) / kBlock;
    const std::size_t stride = blocks * kBlock * 8 + per;  // each phase's length: every lane's last tap inside
    phases.assign(d * stride, 0.0f);
    for (std::size_t r = 0; r < d; ++r) {  // padded index H + k = m D + r
        const std::size_t k0 = (r + d - kFilterHalfLength % d) % d;
        float* phase = phases.data() + r * stride + (kFilterHalfLength + k0) / d;
        for (std::size_t k = k0; k < static_cast<std::size_t>(n); k += d) *phase++ = static_cast<float>(rf[k]);
    }
    for (std::size_t block = 0; block < blocks; ++block) {
        const std::size_t first = block * kBlock * 8;
        // Written out, not as arrays: GCC keeps arrays of sums in memory here.
        __m256 re0 = _mm256_setzero_ps(), re1 = re0, re2 = re0, re3 = re0, im0 = re0, im1 = re0, im2 = re0, im3 = re0;
        for (std::size_t r = 0; r < d; ++r) {
            const float* x = phases.data() + r * stride + first;
            const float* gr = poly.re.data() + r * per;
            const float* gi = poly.im.data() + r * per;
            for (std::size_t p = 0; p < per; ++p) {
                const __m256 tr = _mm256_broadcast_ss(gr + p), ti = _mm256_broadcast_ss(gi + p);
                const __m256 x0 = _mm256_loadu_ps(x + p), x1 = _mm256_loadu_ps(x + 8 + p), x2 = _mm256_loadu_ps(x + 16 + p),
                             x3 = _mm256_loadu_ps(x + 24 + p);
                re0 = _mm256_fmadd_ps(tr, x0, re0);
                im0 = _mm256_fmadd_ps(ti, x0, im0);
                re1 = _mm256_fmadd_ps(tr, x1, re1);
                im1 = _mm256_fmadd_ps(ti, x1, im1);
                re2 = _mm256_fmadd_ps(tr, x2, re2);
                im2 = _mm256_fmadd_ps(ti, x2, im2);
                re3 = _mm256_fmadd_ps(tr, x3, re3);
                im3 = _mm256_fmadd_ps(ti, x3, im3);
            }
        }
        const __m256 re[kBlock] = {re0, re1, re2, re3}, im[kBlock] = {im0, im1, im2, im3};
        for (std::size_t b = 0; b < kBlock; ++b) {
            const std::size_t o = first + b * 8;
            if (o >= outputs) break;
            const __m256 mr = _mm256_loadu_ps(poly.mixerRe.data() + o), mi = _mm256_loadu_ps(poly.mixerIm.data() + o);
            const __m256 outRe = _mm256_fmsub_ps(mr, re[b], _mm256_mul_ps(mi, im[b]));
            const __m256 outIm = _mm256_fmadd_ps(mr, im[b], _mm256_mul_ps(mi, re[b]));
            const __m256 low = _mm256_unpacklo_ps(outRe, outIm), high = _mm256_unpackhi_ps(outRe, outIm);  // interleaved: re, im
            const __m256 first4 = _mm256_permute2f128_ps(low, high, 0x20), last4 = _mm256_permute2f128_ps(low, high, 0x31);
            if (o + 8 <= outputs) {
                _mm256_storeu_ps(reinterpret_cast<float*>(out + o), first4);
                _mm256_storeu_ps(reinterpret_cast<float*>(out + o + 4), last4);
            } else {  // the trace's last outputs
                alignas(32) float lanes[16];
                _mm256_store_ps(lanes, first4);
                _mm256_store_ps(lanes + 8, last4);
                std::memcpy(static_cast<void*>(out + o), lanes, (outputs - o) * sizeof(std::complex<float>));
            }
        }
    }
}
#endif

// The residual rotation exp(i x) of a sample interpolated between two that the table turned by
// their midpoint's phase, |x| <= pi/2: cos is EvenCosine (kernel_steps.h), sin an odd polynomial
// of degree 7 fitted the same way (error below 6e-7): three and four multiply-adds, no
// transcendental per pixel.
struct Rotation {
    static constexpr float kS0 = 0.99999662f, kS1 = -0.16664828f, kS2 = 0.0083063250f, kS3 = -0.00018363647f;
    static std::complex<float> at(float x) noexcept {
        const float x2 = x * x;
        return {EvenCosine::at(x2), x * (kS0 + x2 * (kS1 + x2 * (kS2 + x2 * kS3)))};
    }
#if defined(__x86_64__)
    __attribute__((target("avx2,fma"))) static void at8(__m256 x, __m256& c, __m256& s) noexcept {
        const __m256 x2 = _mm256_mul_ps(x, x);
        c = EvenCosine::at8(x2);
        s = _mm256_fmadd_ps(x2, _mm256_set1_ps(kS3), _mm256_set1_ps(kS2));
        s = _mm256_fmadd_ps(x2, s, _mm256_set1_ps(kS1));
        s = _mm256_mul_ps(x, _mm256_fmadd_ps(x2, s, _mm256_set1_ps(kS0)));
    }
    __attribute__((target("avx2,fma,avx512f"))) static void at16(__m512 x, __m512& c, __m512& s) noexcept {
        const __m512 x2 = _mm512_mul_ps(x, x);
        c = EvenCosine::at16(x2);
        s = _mm512_fmadd_ps(x2, _mm512_set1_ps(kS3), _mm512_set1_ps(kS2));
        s = _mm512_fmadd_ps(x2, s, _mm512_set1_ps(kS1));
        s = _mm512_mul_ps(x, _mm512_fmadd_ps(x2, s, _mm512_set1_ps(kS0)));
    }
#endif
};

// A trace turned into the table the vector loops read: for each sample index k, the pair
// (iq[k], iq[k + 1]) turned by exp(i phi_k), phi_k the phase of the point between them, as four
// planes A re, A im, B re, B im of n floats. Interpolating a pair and turning the result by
// exp(i w (f - 1/2)) then equals interpolating the baseband and turning it by its own phase.
// Paired (for AVX2's gathers): the same as two planes of n (A, B) pairs, re then im, so that one
// 64-bit gather element brings both samples of a pair.
struct IqTables {
    std::size_t n = 0;
    bool paired = false;
    std::vector<float> planes;  // waves x channels x 4 x n
    const float* trace(std::size_t index) const noexcept { return planes.data() + index * 4 * n; }
};

void buildTables(std::span<const std::complex<float>> iq, std::size_t traces, std::size_t n, double radiansAtFirst, double radiansPerSample,
                 unsigned threads, bool paired, IqTables& tables) {
    std::vector<std::complex<float>> phasor(n);
    for (std::size_t k = 0; k < n; ++k) phasor[k] = std::polar(1.0, radiansAtFirst + radiansPerSample * (static_cast<double>(k) + 0.5));
    tables.n = n;
    tables.paired = paired;
    tables.planes.resize(traces * 4 * n);
    parallelFor(traces, threads, [&](std::size_t t) {
        const auto* in = iq.data() + t * n;
        auto* out = tables.planes.data() + t * 4 * n;
        for (std::size_t k = 0; k < n; ++k) {
            const auto a = in[k] * phasor[k], b = in[std::min(k + 1, n - 1)] * phasor[k];
            if (paired) {
                out[2 * k] = a.real();
                out[2 * k + 1] = b.real();
                out[2 * n + 2 * k] = a.imag();
                out[2 * n + 2 * k + 1] = b.imag();
            } else {
                out[k] = a.real();
                out[n + k] = a.imag();
                out[2 * n + k] = b.real();
                out[3 * n + k] = b.imag();
            }
        }
    });
}

// One channel's contribution to the depths [first, last) of a column, one at a time.
template <typename Delay, typename Weight>
void accumulateIqRange(const float* table, std::size_t n, float lastIndex, const Delay& tx, const Weight& weight, float omega,
                       float samplesPerMetre, float dx2, std::span<const float> zSquared, std::size_t first, std::size_t last, float* re,
                       float* im, bool paired = false) noexcept {
    for (std::size_t iz = first; iz < last; ++iz) {
        const float s = tx.at(iz) + std::sqrt(dx2 + zSquared[iz]) * samplesPerMetre;
        if (!(s >= 0.0f && s < lastIndex)) continue;
        const auto i = static_cast<std::size_t>(s);
        const float f = s - static_cast<float>(i);
        const std::complex<float> a = paired ? std::complex<float>(table[2 * i], table[2 * n + 2 * i]) : std::complex<float>(table[i], table[n + i]);
        const std::complex<float> b =
            paired ? std::complex<float>(table[2 * i + 1], table[2 * n + 2 * i + 1]) : std::complex<float>(table[2 * n + i], table[3 * n + i]);
        const auto v = (a + f * (b - a)) * Rotation::at(omega * (f - 0.5f)) * weight.at(iz);
        re[iz] += v.real();
        im[iz] += v.imag();
    }
}

#if defined(__x86_64__)
// re, im [iz .. iz + 8) += weight * rotate(interpolate(a, b)), the pair planes already read; the
// rotation's products go straight into the sums.
template <typename Weight>
__attribute__((target("avx2,fma"))) inline void addRotated(float* re, float* im, std::size_t iz, __m256 frac, __m256 ar, __m256 ai, __m256 br,
                                                           __m256 bi, __m256 omega, const Weight& weight) noexcept {
    __m256 vr = _mm256_fmadd_ps(frac, _mm256_sub_ps(br, ar), ar);
    __m256 vi = _mm256_fmadd_ps(frac, _mm256_sub_ps(bi, ai), ai);
    if constexpr (!Weight::kUnit) {
        const __m256 w = weight.at8(iz);
        vr = _mm256_mul_ps(vr, w);
        vi = _mm256_mul_ps(vi, w);
    }
    __m256 c, s;
    Rotation::at8(_mm256_fmsub_ps(frac, omega, _mm256_mul_ps(omega, _mm256_set1_ps(0.5f))), c, s);
    _mm256_storeu_ps(re + iz, _mm256_fnmadd_ps(vi, s, _mm256_fmadd_ps(vr, c, _mm256_loadu_ps(re + iz))));
    _mm256_storeu_ps(im + iz, _mm256_fmadd_ps(vi, c, _mm256_fmadd_ps(vr, s, _mm256_loadu_ps(im + iz))));
}

// The four planes at eight depths' indices, gathered. (In-register permutes of a window of the
// trace, as below, need AVX-512's two-table permute to pay: with AVX2's one-table vpermps and a
// blend, a window wide enough for the shipped grid measured slower than the gathers.)
__attribute__((target("avx2,fma"))) inline void gatherPlanes(const float* table, std::size_t n, __m256i index, __m256 p[4]) noexcept {
    for (std::size_t k = 0; k < 4; ++k) p[k] = _mm256_i32gather_ps(table + k * n, index, 4);
}

// The same from the paired table: per plane (re, im) two 64-bit gathers of four pairs, whose
// indices are ordered (depths 0, 1, 4, 5 and 2, 3, 6, 7) so that one in-lane shuffle splits the
// A's from the B's in depth order: half the gather elements of four 32-bit gathers.
__attribute__((target("avx2,fma"))) inline void gatherPairedPlanes(const float* table, std::size_t n, __m256i index, __m256 p[4]) noexcept {
    const __m128i low = _mm256_castsi256_si128(index), high = _mm256_extracti128_si256(index, 1);
    const __m128i first = _mm_unpacklo_epi64(low, high), second = _mm_unpackhi_epi64(low, high);
    for (std::size_t part = 0; part < 2; ++part) {  // re, im
        const auto* pairs = reinterpret_cast<const long long*>(table + part * 2 * n);
        const __m256 g1 = _mm256_castsi256_ps(_mm256_i32gather_epi64(pairs, first, 8));
        const __m256 g2 = _mm256_castsi256_ps(_mm256_i32gather_epi64(pairs, second, 8));
        p[part] = _mm256_shuffle_ps(g1, g2, 0x88);      // A
        p[2 + part] = _mm256_shuffle_ps(g1, g2, 0xDD);  // B
    }
}

// Eight depths at a time with AVX2, from the paired table.
template <typename Delay, typename Weight>
__attribute__((target("avx2,fma"))) void accumulateIqAvx2(const float* table, std::size_t n, float lastIndex, const Delay& tx, const Weight& weight,
                                                          float omega, float samplesPerMetre, float dx2, std::span<const float> zSquared,
                                                          std::size_t first, float* re, float* im) noexcept {
    const auto [begin, end] = inRecordRange(lastIndex, tx, samplesPerMetre, dx2, zSquared, first);
    const __m256 vSpm = _mm256_set1_ps(samplesPerMetre), vDx2 = _mm256_set1_ps(dx2), vOmega = _mm256_set1_ps(omega);
    std::size_t iz = begin;
    for (; iz + 8 <= end; iz += 8) {
        const auto d = sampleIndices(tx, zSquared, iz, vDx2, vSpm);
        __m256 p[4];
        gatherPairedPlanes(table, n, d.index, p);
        addRotated(re, im, iz, d.frac, p[0], p[1], p[2], p[3], vOmega, weight);
    }
    accumulateIqRange(table, n, lastIndex, tx, weight, omega, samplesPerMetre, dx2, zSquared, iz, end, re, im, true);
}

// (GCC 12 takes the placeholder inside its own 512-bit intrinsics for an uninitialised value.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// The same as addRotated, sixteen depths.
template <typename Weight>
__attribute__((target("avx2,fma,avx512f"))) inline void addRotated16(float* re, float* im, std::size_t iz, __m512 frac, const __m512 p[4],
                                                                     __m512 omega, const Weight& weight) noexcept {
    __m512 vr = _mm512_fmadd_ps(frac, _mm512_sub_ps(p[2], p[0]), p[0]);
    __m512 vi = _mm512_fmadd_ps(frac, _mm512_sub_ps(p[3], p[1]), p[1]);
    if constexpr (!Weight::kUnit) {
        const __m512 w = weight.at16(iz);
        vr = _mm512_mul_ps(vr, w);
        vi = _mm512_mul_ps(vi, w);
    }
    __m512 c, s;
    Rotation::at16(_mm512_fmsub_ps(frac, omega, _mm512_mul_ps(omega, _mm512_set1_ps(0.5f))), c, s);
    _mm512_storeu_ps(re + iz, _mm512_fnmadd_ps(vi, s, _mm512_fmadd_ps(vr, c, _mm512_loadu_ps(re + iz))));
    _mm512_storeu_ps(im + iz, _mm512_fmadd_ps(vi, c, _mm512_fmadd_ps(vr, s, _mm512_loadu_ps(im + iz))));
}

// With AVX-512: sixteen depths at a time (measured faster than eight). Where their indices lie
// within 32 samples, two loads and one two-table permute (vpermt2ps) per plane instead of a
// gather; the last eight depths the same way within 16 samples, the rest one at a time.
template <typename Delay, typename Weight>
__attribute__((target("avx2,fma,avx512f,avx512vl"))) void accumulateIqWindowed(const float* table, std::size_t n, float lastIndex, const Delay& tx,
                                                                               const Weight& weight, float omega, float samplesPerMetre, float dx2,
                                                                               std::span<const float> zSquared, std::size_t first, float* re,
                                                                               float* im) noexcept {
    const auto [begin, end] = inRecordRange(lastIndex, tx, samplesPerMetre, dx2, zSquared, first);
    const __m512 vSpm = _mm512_set1_ps(samplesPerMetre), vDx2 = _mm512_set1_ps(dx2), vOmega = _mm512_set1_ps(omega);
    const auto room = static_cast<int>(n) - 32;
    std::size_t iz = begin;
    for (; iz + 16 <= end; iz += 16) {
        const auto d = sampleIndices16(tx, zSquared, iz, vDx2, vSpm);
        const int low = _mm_cvtsi128_si32(_mm512_castsi512_si128(d.index));
        const __m512i rel = _mm512_sub_epi32(d.index, _mm512_set1_epi32(low));
        __m512 p[4];
        if (_mm512_cmpgt_epu32_mask(rel, _mm512_set1_epi32(31)) == 0 && low <= room) {
            for (std::size_t k = 0; k < 4; ++k) {
                const float* plane = table + k * n + low;
                p[k] = _mm512_permutex2var_ps(_mm512_loadu_ps(plane), rel, _mm512_loadu_ps(plane + 16));
            }
        } else {
            for (std::size_t k = 0; k < 4; ++k) p[k] = _mm512_i32gather_ps(d.index, table + k * n, 4);
        }
        addRotated16(re, im, iz, d.frac, p, vOmega, weight);
    }
    const __m256 vSpm8 = _mm256_set1_ps(samplesPerMetre), vDx28 = _mm256_set1_ps(dx2), vOmega8 = _mm256_set1_ps(omega);
    for (; iz + 8 <= end; iz += 8) {
        const auto d = sampleIndices(tx, zSquared, iz, vDx28, vSpm8);
        const int low = _mm256_cvtsi256_si32(d.index);
        const __m256i rel = _mm256_sub_epi32(d.index, _mm256_set1_epi32(low));
        __m256 p[4];
        if (_mm256_cmpgt_epu32_mask(rel, _mm256_set1_epi32(15)) == 0 && low <= room + 16) {
            for (std::size_t k = 0; k < 4; ++k) {
                const float* plane = table + k * n + low;
                p[k] = _mm256_permutex2var_ps(_mm256_loadu_ps(plane), rel, _mm256_loadu_ps(plane + 8));
            }
        } else {
            gatherPlanes(table, n, d.index, p);
        }
        addRotated(re, im, iz, d.frac, p[0], p[1], p[2], p[3], vOmega8, weight);
    }
    accumulateIqRange(table, n, lastIndex, tx, weight, omega, samplesPerMetre, dx2, zSquared, iz, end, re, im);
}
#pragma GCC diagnostic pop
#endif

// Which loop runs a channel: the one this CPU does best.
enum class IqLoop { Scalar, Avx2, Avx512 };

template <typename Delay, typename Weight>
void accumulateIq(IqLoop loop, const float* table, std::size_t n, float lastIndex, const Delay& tx, const Weight& weight, float omega, float spm,
                  float dx2, std::span<const float> zSquared, std::size_t first, float* re, float* im) noexcept {
#if defined(__x86_64__)
    if (loop == IqLoop::Avx512) return accumulateIqWindowed(table, n, lastIndex, tx, weight, omega, spm, dx2, zSquared, first, re, im);
    if (loop == IqLoop::Avx2) return accumulateIqAvx2(table, n, lastIndex, tx, weight, omega, spm, dx2, zSquared, first, re, im);
#endif
    accumulateIqRange(table, n, lastIndex, tx, weight, omega, spm, dx2, zSquared, first, zSquared.size(), re, im);
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

// A column through the tables and the vector loops.
void fastColumn(const AcquisitionGeometry& layout, const IqTables& tables, const std::vector<float>& z, std::span<const float> zSquared,
                const std::vector<float>& invZ, const std::vector<float>& invZ2, double x, const BeamformParams& params, float omega, IqLoop loop, std::complex<float>* column) {
    const auto nz = z.size();
    const float samplesPerMetre = static_cast<float>(layout.samplingRateHz / layout.soundSpeedMps);
    const float lastIndex = static_cast<float>(layout.samples - 1);
    thread_local std::vector<float> scratch;  // tx, re, im: the worker's own, grown once
    if (scratch.size() < 3 * nz) scratch.resize(3 * nz);
    float* tx = scratch.data();
    float* re = tx + nz;
    float* im = re + nz;
    std::fill(re, re + 2 * nz, 0.0f);
    for (int w = 0; w < layout.waves; ++w) {
        const auto wave = static_cast<std::size_t>(w);
        const double distance = layout.sourceDistance.empty() ? std::numeric_limits<double>::infinity() : layout.sourceDistance[wave];
        const bool planeWave = std::isinf(distance);
        const PlaneWaveDelay plane{static_cast<float>(x * std::sin(layout.angleRad[wave])) * samplesPerMetre -
                                       static_cast<float>(layout.initialTimeS * layout.samplingRateHz),
                                   static_cast<float>(std::cos(layout.angleRad[wave])) * samplesPerMetre, z.data()};
        if (!planeWave) transmitDelaySamples(layout.angleRad[wave], distance, x, z, layout.samplingRateHz, layout.soundSpeedMps, layout.initialTimeS, {tx, nz});
        const TabulatedDelay table{tx};
        for (int c = 0; c < layout.channels; ++c) {
            const double dx = x - layout.elementX[static_cast<std::size_t>(c)];
            const float dx2 = static_cast<float>(dx * dx);
            const auto first = static_cast<std::size_t>(std::lower_bound(z.begin(), z.end(), static_cast<float>(2 * params.fNumber * std::abs(dx))) - z.begin());
            const float* planes = tables.trace(wave * static_cast<std::size_t>(layout.channels) + static_cast<std::size_t>(c));
            auto run = [&](const auto& weight, std::span<const float> depths, std::size_t from) {
                if (planeWave) accumulateIq(loop, planes, tables.n, lastIndex, plane, weight, omega, samplesPerMetre, dx2, depths, from, re, im);
                else accumulateIq(loop, planes, tables.n, lastIndex, table, weight, omega, samplesPerMetre, dx2, depths, from, re, im);
            };
            if (params.window == Window::Rectangular) {
                run(NoWeight{}, zSquared, first);
            } else {  // weighted where the window tapers, unweighted where it is flat (Tukey, deep)
                const auto flat = flatFrom(params, dx, z, first);
                run(cosSquaredWeight(params, dx, invZ, invZ2, flat), zSquared.first(flat), first);
                run(NoWeight{}, zSquared, flat);
            }
        }
    }
    for (std::size_t iz = 0; iz < nz; ++iz) column[iz] = {re[iz], im[iz]};
}

}  // namespace

namespace {

// mixer[k] = exp(-i 2 pi fd k / fs + i phi0), phi0 from the record's initial time.
std::vector<std::complex<float>> mixerFor(const AcquisitionGeometry& rf, double modulationFrequencyHz) {
    const double fdOverFs = modulationFrequencyHz / rf.samplingRateHz;
    const double phase0 = -2 * std::numbers::pi * modulationFrequencyHz * rf.initialTimeS;  // t of sample 0 is the initial time
    std::vector<std::complex<float>> mixer(static_cast<std::size_t>(rf.samples));
    for (int k = 0; k < rf.samples; ++k) mixer[static_cast<std::size_t>(k)] = std::polar(1.0, -2 * std::numbers::pi * fdOverFs * k + phase0);
    return mixer;
}

}  // namespace

IqDemodulation iqDemodulation(const AcquisitionGeometry& rf, double modulationFrequencyHz) {
    const double fdOverFs = modulationFrequencyHz / rf.samplingRateHz;
    const auto g = turnTaps(lowPass(fdOverFs), fdOverFs);
    IqDemodulation d;
    d.halfLength = kFilterHalfLength;
    for (int t = 0; t <= 2 * kFilterHalfLength; ++t) d.taps.emplace_back(g.re[static_cast<std::size_t>(t)], g.im[static_cast<std::size_t>(t)]);
    d.mixer = mixerFor(rf, modulationFrequencyHz);
    return d;
}

int iqDecimation(double samplingRateHz, double modulationFrequencyHz) {
    if (!(modulationFrequencyHz > 0) || !(samplingRateHz > 0)) return 1;
    return std::max(1, static_cast<int>(std::floor(samplingRateHz / (2.5 * modulationFrequencyHz))));
}

Result<IqChannelData> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, VectorLoop loop) {
    if (auto ok = rf.validate(); !ok) return fail(std::move(ok.error()));
    if (!(modulationFrequencyHz > 0) || modulationFrequencyHz >= rf.geometry->samplingRateHz / 2) {
        return fail(ErrorCode::InvalidArgument, fmt::format("modulation frequency {} Hz must lie between 0 and half the sampling rate ({} Hz)",
                                                            modulationFrequencyHz, rf.geometry->samplingRateHz / 2));
    }
    const auto n = rf.geometry->samples;
    if (decimation < 1 || decimation > n) return fail(ErrorCode::InvalidArgument, fmt::format("decimation {} for {} samples", decimation, n));
    const double fdOverFs = modulationFrequencyHz / rf.geometry->samplingRateHz;
    const auto taps = turnTaps(lowPass(fdOverFs), fdOverFs);
    const bool avx2 = loop != VectorLoop::Scalar && cpuHasAvx2();
    const auto mixer = mixerFor(*rf.geometry, modulationFrequencyHz);
    IqChannelData out;
    out.geometry = *rf.geometry;
    out.geometry.samples = (n + decimation - 1) / decimation;
    out.geometry.samplingRateHz = rf.geometry->samplingRateHz / decimation;
    out.decimation = decimation;
    const auto traces = static_cast<std::size_t>(rf.geometry->waves) * static_cast<std::size_t>(rf.geometry->channels);
    const auto m = static_cast<std::size_t>(out.geometry.samples);
    out.samples.resize(traces * m);
#if defined(__x86_64__)
    const auto poly = avx2 ? splitIntoPhases(taps, mixer, decimation) : PolyphaseTaps{};
#endif
    parallelFor(traces, 0, [&](std::size_t t) {
        thread_local std::vector<float> scratch;  // the worker's own: grown once
        const int w = static_cast<int>(t) / rf.geometry->channels, c = static_cast<int>(t) % rf.geometry->channels;
        auto* iq = out.samples.data() + t * m;
        const auto one = [&](const auto* trace) {
#if defined(__x86_64__)
            if (avx2) return demodulateTraceAvx2(trace, n, poly, scratch, iq);
#endif
            demodulateTraceScalar(trace, n, mixer, taps, decimation, scratch, iq);
        };
        if (rf.samples16.empty()) one(rf.trace<float>(w, c));
        else one(rf.trace<std::int16_t>(w, c));
    });
    return out;
}

Result<std::vector<std::complex<float>>> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz) {
    auto iq = demodulateToIq(rf, modulationFrequencyHz, 1);
    if (!iq) return fail(std::move(iq.error()));
    return std::move(iq->samples);
}

BeamformedImage IqImage::magnitude() const {
    BeamformedImage image;
    image.nx = nx;
    image.nz = nz;
    image.columns.reserve(columns.size());
    for (const auto& v : columns) image.columns.push_back(std::sqrt(v.real() * v.real() + v.imag() * v.imag()));  // not hypot: no overflow here
    return image;
}

Result<IqImage> delayAndSumIq(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, double modulationFrequencyHz,
                              const PixelGrid& grid, const BeamformParams& params, unsigned threads, bool rotate, VectorLoop loop) {
    if (auto ok = layout.validate(); !ok) return fail(std::move(ok.error()));
    if (auto ok = grid.validate(); !ok) return fail(std::move(ok.error()));
    const auto n = static_cast<std::size_t>(layout.samples);
    if (iq.size() != static_cast<std::size_t>(layout.waves) * static_cast<std::size_t>(layout.channels) * n) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} IQ samples for {} waves x {} channels x {} samples", iq.size(), layout.waves, layout.channels, n));
    }
    if (!(params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    IqImage image;
    image.nx = grid.x.size();
    image.nz = grid.z.size();
    image.columns.assign(image.nx * image.nz, {0.0f, 0.0f});
    const std::vector<float> z(grid.z.begin(), grid.z.end());
    // Phase per sample of delay: the sample at index s was taken at t = initialTime + s / fs.
    const double radiansPerSample = 2 * std::numbers::pi * modulationFrequencyHz / layout.samplingRateHz;
    const double radiansAtFirst = 2 * std::numbers::pi * modulationFrequencyHz * layout.initialTimeS;
    // The tables' residual rotation holds to pi/2: beyond (a modulation frequency past half the
    // sampling rate) and without rotation, the reference serves.
    const bool avx2 = loop != VectorLoop::Scalar && cpuHasAvx2();
    const bool fast = rotate && avx2 && radiansPerSample <= std::numbers::pi;
    std::vector<float> zSquared(z.size()), invZ(z.size()), invZ2(z.size());
    for (std::size_t i = 0; i < z.size(); ++i) {
        zSquared[i] = z[i] * z[i];
        invZ[i] = 1.0f / z[i];
        invZ2[i] = invZ[i] * invZ[i];
    }
    if (!fast) {
        parallelFor(image.nx, threads, [&](std::size_t ix) {
            referenceColumn(layout, iq, z, zSquared, grid.x[ix], params, radiansAtFirst, radiansPerSample, rotate, image.columns.data() + ix * image.nz);
        });
        return image;
    }
    thread_local IqTables callerTables;  // the caller's own, grown once: rebuilt each frame without allocating
    IqTables& tables = callerTables;     // (a lambda would reach a worker's own thread_local by name)
    const IqLoop which = loop == VectorLoop::Best && cpuHasAvx512() ? IqLoop::Avx512 : IqLoop::Avx2;
    buildTables(iq, static_cast<std::size_t>(layout.waves) * static_cast<std::size_t>(layout.channels), n, radiansAtFirst, radiansPerSample,
                threads, which == IqLoop::Avx2, tables);
    parallelFor(image.nx, threads, [&](std::size_t ix) {
        fastColumn(layout, tables, z, zSquared, invZ, invZ2, grid.x[ix], params, static_cast<float>(radiansPerSample), which,
                   image.columns.data() + ix * image.nz);
    });
    return image;
}

}  // namespace sonolink::beamform
