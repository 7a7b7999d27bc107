// IQ demodulation (iq_beamformer.h): RF channel data mixed down by the modulation frequency,
// low-pass filtered and decimated, once per frame; the filter turned by the mixer and split into
// the decimation's phases so that eight outputs are one multiply-add per tap (AVX2), and the
// one-output-at-a-time reference. Thread contract: pure functions; the traces are shared over
// the persistent worker pool.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include <fmt/format.h>

#include "kernel_steps.h"
#include "parallel_for.h"
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

}  // namespace sonolink::beamform
