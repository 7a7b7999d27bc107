// IQ demodulation (iq_beamformer.h): RF channel data mixed down by the modulation frequency,
// low-pass filtered and decimated, once per frame; the filter turned by the mixer and split into
// the decimation's phases so that eight outputs are one multiply-add per tap (AVX2), and the
// one-output-at-a-time reference. Thread contract: pure functions; the traces are shared over
// the persistent worker pool.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "kernel_steps.h"
#include "parallel_for.h"
#include "iq_demodulation.h"
#include "sonolink/beamform/iq_beamformer.h"

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
void demodulateTraceScalar(const T* rf, int n, const std::vector<std::complex<float>>& mixer, const TurnedTaps& g, int decimation, std::vector<float>& padded,
                           std::complex<float>* out) {
    padded.assign(static_cast<std::size_t>(n) + kFilterHalfLength + g.re.size(), 0.0f);
    for (int k = 0; k < n; ++k) padded[static_cast<std::size_t>(k + kFilterHalfLength)] = static_cast<float>(rf[k]);
    for (int k = 0, o = 0; k < n; k += decimation, ++o) {
        out[o] = 2.0f * mixer[static_cast<std::size_t>(k)] * dotScalar(g, padded.data() + k);  // the analytic signal's amplitude
    }
}

#if defined(__x86_64__)
// The same filter split into its decimation's phases, so that eight consecutive outputs are
// eight lanes of one multiply-add per tap (no horizontal sums): with the padded trace
// xp[t] = x[t - H] and x_r[m] = xp[m D + r], the outputs o .. o + 7 read tap t (j = t - H) from
// X_t = x_(t mod D)[o + t div D ..]. The filter is even (h_j = h_-j), so g_-j = conj(g_j):
//   out = 2 m[o D] (re(g_0) X_H + sum_j re(g_j) (X_H+j + X_H-j) + i im(g_j) (X_H+j - X_H-j)),
// j = 1 .. H: per pair of taps an add, a subtraction and two multiply-adds, where each tap took
// two multiply-adds.
struct PolyphaseTaps {
    int phases = 1;
    std::vector<float> sumTaps, differenceTaps;  // re(g_j), im(g_j), j = 0 .. H
    std::vector<float> mixerRe, mixerIm;         // 2 m[o D], o < outputs, padded
};

PolyphaseTaps splitIntoPhases(const TurnedTaps& g, const std::vector<std::complex<float>>& mixer, int decimation) {
    PolyphaseTaps poly;
    poly.phases = decimation;
    for (std::size_t j = 0; j <= kFilterHalfLength; ++j) {
        poly.sumTaps.push_back(g.re[kFilterHalfLength + j]);
        poly.differenceTaps.push_back(g.im[kFilterHalfLength + j]);
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

// x[k0], x[k0 + D], ... as float, eight at a time by a gather (int16: a 32-bit element at the
// sample, its low half; so the gathers stop before the last sample), the rest one at a time.
// (One at a time throughout, the conversions' false dependency on their register's upper lanes
// made this a third of the demodulation.)
template <typename T> __attribute__((target("avx2,fma"))) void splitPhase(const T* rf, std::size_t n, std::size_t k0, std::size_t d, float* out) {
    const __m256i steps = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(static_cast<int>(d)));
    std::size_t k = k0;
    for (; k + 7 * d + 1 < n; k += 8 * d, out += 8) {
        const __m256i index = _mm256_add_epi32(steps, _mm256_set1_epi32(static_cast<int>(k)));
        if constexpr (std::is_same_v<T, float>) {
            _mm256_storeu_ps(out, _mm256_i32gather_ps(rf, index, 4));
        } else {
            const __m256i pairs = _mm256_i32gather_epi32(reinterpret_cast<const int*>(rf), index, 2);
            _mm256_storeu_ps(out, _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(pairs, 16), 16)));
        }
    }
    for (; k < n; k += d) *out++ = static_cast<float>(rf[k]);
}

// The same for decimations up to kTransposedPhases, without gathers: the padded trace
// xp[q] = x[q - H] (0 outside the record) converted to float in `padded` (d * stride floats), then
// each block of eight rows (8 D samples, D registers) transposed into eight lanes of each phase,
// x_r[m] = xp[m D + r]: lane l of phase r is element l D + r of the block, in register
// (l D + r) / 8 at (l D + r) mod 8 (SplitInto, the decimation a constant).
constexpr std::size_t kTransposedPhases = 8;

// One block's D registers into its D phases. Odd D: the eight lanes of a phase lie at eight
// different places of their registers, so D - 1 blends gather them into one register and one
// vpermps puts them in order. Even D: each register permuted and the lanes it holds blended in.
// (One code for every D, with the permutes' indices and the blends' masks in memory: a third of
// the demodulation.)
template <std::size_t D> struct SplitInto {
    static constexpr unsigned placeOf(std::size_t r, unsigned l) noexcept { return static_cast<unsigned>((l * D + r) % 8); }
    static constexpr std::size_t registerOf(std::size_t r, unsigned l) noexcept { return (l * D + r) / 8; }
    // The lanes (odd D: the places) that register j supplies to phase r, as a blend mask.
    template <std::size_t R, std::size_t J>
    static constexpr int kMask = [] {
        int mask = 0;
        for (unsigned l = 0; l < 8; ++l) {
            if (registerOf(R, l) == J) mask |= 1 << (D % 2 == 1 ? placeOf(R, l) : l);
        }
        return mask;
    }();
    template <std::size_t R> __attribute__((always_inline, target("avx2,fma"))) static __m256i order() noexcept {
        return _mm256_setr_epi32(placeOf(R, 0), placeOf(R, 1), placeOf(R, 2), placeOf(R, 3), placeOf(R, 4), placeOf(R, 5), placeOf(R, 6), placeOf(R, 7));
    }
    template <std::size_t R, std::size_t... J>
    __attribute__((always_inline, target("avx2,fma"))) static __m256 phase(const __m256 (&x)[D], std::index_sequence<J...>) noexcept {
        if constexpr (D % 2 == 1) {
            __m256 w = x[0];
            ((w = _mm256_blend_ps(w, x[J + 1], (kMask<R, J + 1>))), ...);  // (parenthesised: without optimisation the intrinsic is a macro)
            return _mm256_permutevar8x32_ps(w, order<R>());
        } else {
            __m256 v = _mm256_permutevar8x32_ps(x[0], order<R>());
            ((v = _mm256_blend_ps(v, _mm256_permutevar8x32_ps(x[J + 1], order<R>()), (kMask<R, J + 1>))), ...);
            return v;
        }
    }
    template <std::size_t... R>
    __attribute__((always_inline, target("avx2,fma"))) static void block(const float* in, std::size_t stride, float* out, std::index_sequence<R...>) noexcept {
        __m256 x[D];
        for (std::size_t j = 0; j < D; ++j) x[j] = _mm256_loadu_ps(in + 8 * j);
        (_mm256_storeu_ps(out + R * stride, phase<R>(x, std::make_index_sequence<D - 1>())), ...);
    }
    __attribute__((target("avx2,fma"))) static void all(const float* padded, std::size_t stride, float* phases) noexcept {
        for (std::size_t m = 0; m < stride; m += 8) block(padded + m * D, stride, phases + m, std::make_index_sequence<D>());
    }
};

template <std::size_t... D> void splitIntoPhases(std::size_t d, const float* padded, std::size_t stride, float* phases, std::index_sequence<D...>) {
    ((d == D + 1 ? SplitInto<D + 1>::all(padded, stride, phases) : void()), ...);
}

template <typename T>
__attribute__((target("avx2,fma"))) void transposeIntoPhases(const T* rf, std::size_t n, std::size_t d, std::size_t stride, float* padded, float* phases) {
    std::fill(padded, padded + kFilterHalfLength, 0.0f);  // the rest of `padded` past the trace, below
    float* x = padded + kFilterHalfLength;
    std::size_t k = 0;
    if constexpr (std::is_same_v<T, float>) {
        std::memcpy(x, rf, n * sizeof(float));
        k = n;
    } else {
        for (; k + 8 <= n; k += 8) {
            const __m128i eight = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rf + k));
            _mm256_storeu_ps(x + k, _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(eight)));
        }
    }
    for (; k < n; ++k) x[k] = static_cast<float>(rf[k]);
    std::fill(x + n, padded + d * stride, 0.0f);
    splitIntoPhases(d, padded, stride, phases, std::make_index_sequence<kTransposedPhases>());
}

// Keeps two loaded vectors in registers: without it GCC folds each load into both the addition
// and the subtraction that use it, and loads every sample twice.
__attribute__((always_inline, target("avx2,fma"))) inline void inRegister(__m256& x, __m256& y) noexcept { asm("" : "+x"(x), "+x"(y)); }

// Four vectors (32 outputs) share each tap's broadcast: eight independent sums, so that the
// multiply-adds do not wait on one another.
template <typename T, typename Emit>
__attribute__((target("avx2,fma"))) inline void filterTraceAvx2(const T* rf, int n, const PolyphaseTaps& poly, std::vector<float>& phases, Emit&& emit) {
    constexpr std::size_t kBlock = 4, kH = kFilterHalfLength;
    const auto d = static_cast<std::size_t>(poly.phases);
    const std::size_t outputs = (static_cast<std::size_t>(n) + d - 1) / d, vectors = (outputs + 7) / 8;
    const std::size_t blocks = (vectors + kBlock - 1) / kBlock;
    // Each phase's length: every lane's last tap inside, in whole rows of eight.
    const std::size_t stride = (blocks * kBlock * 8 + 2 * kH / d + 1 + 7) / 8 * 8;
    if (d <= kTransposedPhases) {
        if (phases.size() < 2 * d * stride) phases.resize(2 * d * stride);  // the phases, then the padded trace
        transposeIntoPhases(rf, static_cast<std::size_t>(n), d, stride, phases.data() + d * stride, phases.data());
    } else {
        phases.assign(d * stride, 0.0f);
        for (std::size_t r = 0; r < d; ++r) {  // padded index H + k = m D + r
            const std::size_t k0 = (r + d - kH % d) % d;
            splitPhase(rf, static_cast<std::size_t>(n), k0, d, phases.data() + r * stride + (kH + k0) / d);
        }
    }
    // Where tap t's samples start. (Pointers taken once: `phases` is the worker's thread_local, whose
    // address GCC would fetch again in each pass of the loops below, spilling every sum around it.)
    std::array<const float*, 2 * kH + 1> tap{};
    for (std::size_t t = 0; t < tap.size(); ++t) tap[t] = phases.data() + (t % d) * stride + t / d;
    for (std::size_t block = 0; block < blocks; ++block) {
        const std::size_t first = block * kBlock * 8;
        // Written out, not as arrays: GCC keeps arrays of sums in memory here.
        const float* centre = tap[kH] + first;
        const __m256 c = _mm256_set1_ps(poly.sumTaps[0]);
        __m256 re0 = _mm256_mul_ps(c, _mm256_loadu_ps(centre)), re1 = _mm256_mul_ps(c, _mm256_loadu_ps(centre + 8)),
               re2 = _mm256_mul_ps(c, _mm256_loadu_ps(centre + 16)), re3 = _mm256_mul_ps(c, _mm256_loadu_ps(centre + 24));
        __m256 im0 = _mm256_setzero_ps(), im1 = im0, im2 = im0, im3 = im0;
        for (std::size_t j = 1; j <= kH; ++j) {
            const float* later = tap[kH + j] + first;
            const float* earlier = tap[kH - j] + first;
            const __m256 a = _mm256_broadcast_ss(&poly.sumTaps[j]), b = _mm256_broadcast_ss(&poly.differenceTaps[j]);
            const auto pair = [&](std::size_t v, __m256 & re, __m256 & im) __attribute__((always_inline, target("avx2,fma"))) {
                __m256 x = _mm256_loadu_ps(later + v), y = _mm256_loadu_ps(earlier + v);
                inRegister(x, y);
                re = _mm256_fmadd_ps(a, _mm256_add_ps(x, y), re);
                im = _mm256_fmadd_ps(b, _mm256_sub_ps(x, y), im);
            };
            pair(0, re0, im0);
            pair(8, re1, im1);
            pair(16, re2, im2);
            pair(24, re3, im3);
        }
        const __m256 re[kBlock] = {re0, re1, re2, re3}, im[kBlock] = {im0, im1, im2, im3};
        for (std::size_t b = 0; b < kBlock && first + b * 8 < outputs; ++b) emit(first + b * 8, re[b], im[b]);
    }
}

// The demodulated trace: the filter's outputs mixed down (2 m[o D] y[o]) and stored as complex.
template <typename T>
__attribute__((target("avx2,fma"))) void demodulateTraceAvx2(const T* rf, int n, const PolyphaseTaps& poly, std::vector<float>& phases,
                                                             std::complex<float>* out) {
    const std::size_t outputs = (static_cast<std::size_t>(n) + static_cast<std::size_t>(poly.phases) - 1) / static_cast<std::size_t>(poly.phases);
    filterTraceAvx2(
        rf, n, poly, phases, [&](std::size_t o, __m256 re, __m256 im) __attribute__((always_inline, target("avx2,fma"))) {
            const __m256 mr = _mm256_loadu_ps(poly.mixerRe.data() + o), mi = _mm256_loadu_ps(poly.mixerIm.data() + o);
            const __m256 outRe = _mm256_fmsub_ps(mr, re, _mm256_mul_ps(mi, im));
            const __m256 outIm = _mm256_fmadd_ps(mr, im, _mm256_mul_ps(mi, re));
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
        });
}
#endif

// mixer[k] = exp(-i 2 pi fd k / fs + i phi0), phi0 from the record's initial time.
std::vector<std::complex<float>> mixerFor(const AcquisitionGeometry& rf, double modulationFrequencyHz) {
    const double fdOverFs = modulationFrequencyHz / rf.samplingRateHz;
    const double phase0 = -2 * std::numbers::pi * modulationFrequencyHz * rf.initialTimeS;  // t of sample 0 is the initial time
    std::vector<std::complex<float>> mixer(static_cast<std::size_t>(rf.samples));
    for (int k = 0; k < rf.samples; ++k) mixer[static_cast<std::size_t>(k)] = std::polar(1.0, -2 * std::numbers::pi * fdOverFs * k + phase0);
    return mixer;
}

// The filter, the mixer and (x86) their polyphase form for one record layout, modulation
// frequency and decimation: built once and kept by the calling thread while these stay the same,
// as they do from frame to frame of a stream (they took a tenth of a frame's demodulation).
struct Demodulator {
    double samplingRateHz = 0, modulationFrequencyHz = 0, initialTimeS = 0;
    int samples = 0, decimation = 0;
    TurnedTaps taps;
    std::vector<std::complex<float>> mixer;
#if defined(__x86_64__)
    PolyphaseTaps poly;
#endif
};

const Demodulator& demodulatorFor(const AcquisitionGeometry& rf, double modulationFrequencyHz, int decimation) {
    thread_local Demodulator kept;
    if (kept.samplingRateHz != rf.samplingRateHz || kept.modulationFrequencyHz != modulationFrequencyHz || kept.initialTimeS != rf.initialTimeS ||
        kept.samples != rf.samples || kept.decimation != decimation) {
        const double fdOverFs = modulationFrequencyHz / rf.samplingRateHz;
        kept.taps = turnTaps(lowPass(fdOverFs), fdOverFs);
        kept.mixer = mixerFor(rf, modulationFrequencyHz);
#if defined(__x86_64__)
        kept.poly = splitIntoPhases(kept.taps, kept.mixer, decimation);
#endif
        kept.samplingRateHz = rf.samplingRateHz;
        kept.modulationFrequencyHz = modulationFrequencyHz;
        kept.initialTimeS = rf.initialTimeS;
        kept.samples = rf.samples;
        kept.decimation = decimation;
    }
    return kept;
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

Result<AcquisitionGeometry> iqLayoutOf(const ChannelDataView& rf, double modulationFrequencyHz, int decimation) {
    if (auto ok = rf.validate(); !ok) return fail(std::move(ok.error()));
    if (!(modulationFrequencyHz > 0) || modulationFrequencyHz >= rf.geometry->samplingRateHz / 2) {
        return fail(ErrorCode::InvalidArgument, fmt::format("modulation frequency {} Hz must lie between 0 and half the sampling rate ({} Hz)",
                                                            modulationFrequencyHz, rf.geometry->samplingRateHz / 2));
    }
    const auto n = rf.geometry->samples;
    if (decimation < 1 || decimation > n) return fail(ErrorCode::InvalidArgument, fmt::format("decimation {} for {} samples", decimation, n));
    AcquisitionGeometry layout = *rf.geometry;
    layout.samples = (n + decimation - 1) / decimation;
    layout.samplingRateHz = rf.geometry->samplingRateHz / decimation;
    return layout;
}

namespace {

// f(samples) for trace t of rf (wave-major), float or int16 as rf holds them.
template <typename F> void withTrace(const ChannelDataView& rf, std::size_t t, F&& f) {
    const int w = static_cast<int>(t) / rf.geometry->channels, c = static_cast<int>(t) % rf.geometry->channels;
    if (rf.samples16.empty()) f(rf.trace<float>(w, c));
    else f(rf.trace<std::int16_t>(w, c));
}

// One trace of rf demodulated into out.
void demodulateTrace(const ChannelDataView& rf, std::size_t t, const Demodulator& demodulator, int decimation, bool avx2, std::vector<float>& scratch,
                     std::complex<float>* out) {
    const int n = rf.geometry->samples;
    withTrace(rf, t, [&](const auto* trace) {
#if defined(__x86_64__)
        if (avx2) return demodulateTraceAvx2(trace, n, demodulator.poly, scratch, out);
#endif
        demodulateTraceScalar(trace, n, demodulator.mixer, demodulator.taps, decimation, scratch, out);
    });
}

std::size_t tracesOf(const ChannelDataView& rf) { return static_cast<std::size_t>(rf.geometry->waves) * static_cast<std::size_t>(rf.geometry->channels); }

}  // namespace

#if defined(__x86_64__)
void filterTrace(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, std::size_t t, BodyRef<const float*, const float*> sink) {
    const Demodulator& demodulator = demodulatorFor(*rf.geometry, modulationFrequencyHz, decimation);
    const auto m = static_cast<std::size_t>((rf.geometry->samples + decimation - 1) / decimation);
    const std::size_t padded = (m + 31) / 32 * 32;  // the filter's last vector of eight may pass the outputs
    thread_local std::vector<float> scratch;        // the thread's own: grown once
    thread_local std::vector<float> y;              // the same: re, then im
    if (y.size() < 2 * padded) y.resize(2 * padded);
    float* re = y.data();
    float* im = re + padded;
    withTrace(rf, t, [&](const auto* trace) {
        filterTraceAvx2(
            trace, rf.geometry->samples, demodulator.poly, scratch, [&](std::size_t o, __m256 r, __m256 i) __attribute__((always_inline, target("avx2,fma"))) {
                _mm256_storeu_ps(re + o, r);
                _mm256_storeu_ps(im + o, i);
            });
    });
    sink(re, im);
}
#endif

Result<IqChannelData> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, VectorLoop loop) {
    auto layout = iqLayoutOf(rf, modulationFrequencyHz, decimation);
    if (!layout) return fail(std::move(layout.error()));
    const bool avx2 = loop != VectorLoop::Scalar && cpuHasAvx2();
    const Demodulator& demodulator = demodulatorFor(*rf.geometry, modulationFrequencyHz, decimation);
    IqChannelData out;
    out.geometry = *layout;
    out.decimation = decimation;
    const auto m = static_cast<std::size_t>(out.geometry.samples);
    out.samples.resize(tracesOf(rf) * m);
    parallelFor(tracesOf(rf), 0, [&](std::size_t t) {
        thread_local std::vector<float> scratch;  // the worker's own: grown once
        demodulateTrace(rf, t, demodulator, decimation, avx2, scratch, out.samples.data() + t * m);
    });
    return out;
}

Result<std::vector<std::complex<float>>> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz) {
    auto iq = demodulateToIq(rf, modulationFrequencyHz, 1);
    if (!iq) return fail(std::move(iq.error()));
    return std::move(iq->samples);
}

}  // namespace sonolink::beamform
