#include "sonolink/beamform/cpu_beamformer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <numbers>
#include <thread>
#include <type_traits>

#include "fft.h"
#include "kernel_steps.h"
#include "loop_choice.h"
#include "parallel_for.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sonolink::beamform {
namespace {

using namespace kernel;

// The reference inner loop: one channel's contribution to the depths [first, last) of a
// column.
template <typename T, typename Delay, typename Weight>
void accumulateRange(const T* trace, float lastIndex, const Delay& tx, const Weight& weight, float samplesPerMetre, float dx2, std::span<const float> zSquared,
                     std::size_t first, std::size_t last, std::span<float> column) noexcept {
    for (std::size_t iz = first; iz < last; ++iz) {
        // Receive delay sqrt((x - x_e)^2 + z^2) / c; t = 0 when the wave crosses the origin.
        const float s = tx.at(iz) + std::sqrt(dx2 + zSquared[iz]) * samplesPerMetre;
        if (!(s >= 0.0f && s < lastIndex)) continue;  // outside the record: contributes 0
        const auto i = static_cast<std::size_t>(s);
        const float frac = s - static_cast<float>(i);
        const float a = static_cast<float>(trace[i]), b = static_cast<float>(trace[i + 1]);
        if constexpr (Weight::kUnit) column[iz] += a + frac * (b - a);
        else column[iz] += weight.at(iz) * (a + frac * (b - a));
    }
}

template <typename T, typename Delay, typename Weight>
void accumulateChannel(const T* trace, float lastIndex, const Delay& tx, const Weight& weight, float samplesPerMetre, float dx2,
                       std::span<const float> zSquared, const ChannelDepths& depths, std::span<float> column) noexcept {
    accumulateRange(trace, lastIndex, tx, weight, samplesPerMetre, dx2, zSquared, depths.first, zSquared.size(), column);
}

#if defined(__x86_64__)
// column[iz .. iz + 8) += w (a + frac (b - a)), w being 1 for a unit weight
template <bool kUnit>
__attribute__((target("avx2,fma"))) inline void addWeighted(std::span<float> column, std::size_t iz, __m256 frac, __m256 a, __m256 b, __m256 w) noexcept {
    const __m256 sample = _mm256_fmadd_ps(frac, _mm256_sub_ps(b, a), a);
    const __m256 sum = _mm256_loadu_ps(column.data() + iz);
    if constexpr (kUnit) _mm256_storeu_ps(column.data() + iz, _mm256_add_ps(sum, sample));
    else _mm256_storeu_ps(column.data() + iz, _mm256_fmadd_ps(w, sample, sum));
}

// Where a channel's weighted vector steps end: at the window's flat part (none for a unit
// weight), in whole steps of 8 from begin: those wholly before it (unclamped), and the one that
// reaches into it, if any (clamped: weight 1 past the taper), so that the weighted steps leave no
// scalar tail before the unweighted ones.
struct Taper {
    std::size_t unclamped;
    std::size_t end;
};
template <typename Weight> inline Taper taperOf(const Weight& weight, std::size_t begin, std::size_t end) noexcept {
    if constexpr (Weight::kUnit) return {begin, begin};
    else {
        const std::size_t flat = std::clamp(weight.flat, begin, end);
        return {begin + (flat - begin) / 8 * 8, std::min(end, begin + (flat - begin + 7) / 8 * 8)};
    }
}

// A channel's depths [begin, end) in steps of 8, step(iz, weight, unit): weighted where the
// window tapers, unweighted where it is flat. Returns where the last, partial step starts.
template <typename Weight, typename Step>
__attribute__((target("avx2,fma"))) inline std::size_t stepsOf8(const Weight& weight, std::size_t begin, std::size_t end, Step&& step) noexcept {
    std::size_t iz = begin;
    if constexpr (!Weight::kUnit) {
        const auto taper = taperOf(weight, begin, end);
        for (; iz + 8 <= taper.unclamped; iz += 8) step(iz, weight.at8(iz), std::false_type{});
        if (iz + 8 <= taper.end) step(iz, weight.at8Clamped(iz), std::false_type{}), iz += 8;
    }
    for (; iz + 8 <= end; iz += 8) step(iz, _mm256_set1_ps(1.0f), std::true_type{});
    return iz;
}

// The same for the AVX-512 loops: the weight for 16 depths at once in one 512-bit register (half
// the instructions of two 256-bit ones), each half to a step of 8. (GCC 12 takes the placeholder
// inside its own 256 <-> 512-bit cast and extract intrinsics for an uninitialised value.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <typename Weight, typename Step>
__attribute__((target("avx2,fma,avx512f,avx512dq,avx512bw,avx512vl"))) inline std::size_t stepsOf16(const Weight& weight, std::size_t begin, std::size_t end,
                                                                                                    Step&& step) noexcept {
    std::size_t iz = begin;
    if constexpr (!Weight::kUnit) {
        const auto taper = taperOf(weight, begin, end);
        for (; iz + 16 <= taper.unclamped; iz += 16) {
            const __m512 w = weight.at16(iz);
            step(iz, _mm512_castps512_ps256(w), std::false_type{});
            step(iz + 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(w), 1)), std::false_type{});
        }
        for (; iz + 8 <= taper.unclamped; iz += 8) step(iz, weight.at8(iz), std::false_type{});
        if (iz + 8 <= taper.end) step(iz, weight.at8Clamped(iz), std::false_type{}), iz += 8;
    }
    for (; iz + 8 <= end; iz += 8) step(iz, _mm256_set1_ps(1.0f), std::true_type{});
    return iz;
}
#pragma GCC diagnostic pop

// float: each sample pair (trace[i], trace[i+1]) gathered as one 64-bit element (half the
// gather elements of two 32-bit gathers), then split into the a's and the b's; only the lanes
// of `live` read (all of them but in a channel's last step).
__attribute__((target("avx2,fma"))) inline void gatherPairs(const float* trace, __m256i index, __m256& a, __m256& b,
                                                            __m256i live = _mm256_set1_epi32(-1)) noexcept {
    const auto* pairs = reinterpret_cast<const long long*>(trace);
    const __m256 low = _mm256_castsi256_ps(
        _mm256_mask_i32gather_epi64(_mm256_setzero_si256(), pairs, _mm256_castsi256_si128(index), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(live)), 4));
    const __m256 high = _mm256_castsi256_ps(_mm256_mask_i32gather_epi64(_mm256_setzero_si256(), pairs, _mm256_extracti128_si256(index, 1),
                                                                        _mm256_cvtepi32_epi64(_mm256_extracti128_si256(live, 1)), 4));
    a = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(low, high, 0x88)), 0xD8));
    b = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(low, high, 0xDD)), 0xD8));
}

// int16: a pair (trace[i], trace[i+1]) is one 32-bit element (little-endian: a low, b high).
__attribute__((target("avx2,fma"))) inline void splitPairs(__m256i pair, __m256& a, __m256& b) noexcept {
    a = _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(pair, 16), 16));
    b = _mm256_cvtepi32_ps(_mm256_srai_epi32(pair, 16));
}

// Eight depths' sample pairs, the a's and the b's, by gathers: float pairs as 64-bit elements
// (gatherPairs), int16 pairs as 32-bit ones (splitPairs); only the lanes of `live` read.
__attribute__((target("avx2,fma"))) inline void pairsAt(const float* trace, __m256i index, __m256& a, __m256& b,
                                                        __m256i live = _mm256_set1_epi32(-1)) noexcept {
    gatherPairs(trace, index, a, b, live);
}
__attribute__((target("avx2,fma"))) inline void pairsAt(const std::int16_t* trace, __m256i index, __m256& a, __m256& b,
                                                        __m256i live = _mm256_set1_epi32(-1)) noexcept {
    splitPairs(_mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(trace), index, live, 2), a, b);
}

// A channel's last depths [iz, end), fewer than eight, as one step of eight whose lanes past
// `end` neither read a sample nor add: masked gathers, and a masked load and store of the column
// (the per-depth arrays hold kDepthPad entries past the last depth). The weight's clamped form, as
// for the step that reaches into a Tukey window's flat part. (A scalar tail before: 3 to 7 % of
// a frame.)
constexpr std::size_t kDepthPad = 8;

template <typename T, typename Delay, typename Weight>
__attribute__((target("avx2,fma"))) inline void lastStepOf8(const T* trace, const Delay& tx, const Weight& weight, __m256 vDx2, __m256 vSpm,
                                                            std::span<const float> zSquared, std::size_t iz, std::size_t end,
                                                            std::span<float> column) noexcept {
    const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(end - iz)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const auto d = sampleIndices(tx, zSquared, iz, vDx2, vSpm);
    __m256 a, b;
    pairsAt(trace, d.index, a, b, live);
    const __m256 sample = _mm256_fmadd_ps(d.frac, _mm256_sub_ps(b, a), a);
    float* at = column.data() + iz;
    const __m256 sum = _mm256_maskload_ps(at, live);
    if constexpr (Weight::kUnit) _mm256_maskstore_ps(at, live, _mm256_add_ps(sum, sample));
    else _mm256_maskstore_ps(at, live, _mm256_fmadd_ps(weight.at8Clamped(iz), sample, sum));
}

// The same sum as accumulateRange, eight depths at a time with AVX2. The sample index grows with
// depth, so the depths that read inside the record form one range (channelDepths): the vector
// loop runs on it without masks but in its last, partial step.
template <typename T, typename Delay, typename Weight>
__attribute__((target("avx2,fma"))) void accumulateChannelAvx2(const T* trace, float /*lastIndex*/, const Delay& tx, const Weight& weight,
                                                               float samplesPerMetre, float dx2, std::span<const float> zSquared, const ChannelDepths& depths,
                                                               std::span<float> column) noexcept {
    const std::size_t begin = depths.begin, end = depths.end;
    const __m256 vSpm = _mm256_set1_ps(samplesPerMetre), vDx2 = _mm256_set1_ps(dx2);
    const std::size_t iz = stepsOf8(
        weight, begin, end, [&](std::size_t at, __m256 w, auto unit) __attribute__((always_inline, target("avx2,fma"))) {
            const auto d = sampleIndices(tx, zSquared, at, vDx2, vSpm);
            __m256 a, b;
            pairsAt(trace, d.index, a, b);
            addWeighted<decltype(unit)::value>(column, at, d.frac, a, b, w);
        });
    if (iz < end) lastStepOf8(trace, tx, weight, vDx2, vSpm, zSquared, iz, end, column);
}

// With AVX-512, eight depths' sample pairs from the 32 samples from `low` on (windowStart; rel:
// each lane's index less low), the a's and the b's. float: vpermt2ps picks the eight a's and the
// eight b's together. int16: vpermt2w picks each lane's pair as one 32-bit element (word 2k: a at
// rel, word 2k + 1: b at rel + 1), the layout the gather gives. (GCC 12 takes the placeholder
// inside its own 256 <-> 512-bit insert and extract intrinsics for an uninitialised value.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx2,fma,avx512f,avx512dq,avx512bw,avx512vl"))) inline void windowPairs(const float* trace, int low, __m256i rel, __m256& a,
                                                                                               __m256& b) noexcept {
    const __m512i lanes = _mm512_inserti64x4(_mm512_zextsi256_si512(rel), _mm256_add_epi32(rel, _mm256_set1_epi32(1)), 1);
    const __m512 ab = _mm512_permutex2var_ps(_mm512_loadu_ps(trace + low), lanes, _mm512_loadu_ps(trace + low + 16));  // a: 0-7, b: 8-15
    a = _mm512_extractf32x8_ps(ab, 0);
    b = _mm512_extractf32x8_ps(ab, 1);
}
__attribute__((target("avx2,fma,avx512f,avx512dq,avx512bw,avx512vl"))) inline void windowPairs(const std::int16_t* trace, int low, __m256i rel, __m256& a,
                                                                                               __m256& b) noexcept {
    const __m256i words = _mm256_add_epi32(_mm256_or_si256(rel, _mm256_slli_epi32(rel, 16)), _mm256_set1_epi32(0x10000));
    splitPairs(_mm256_permutex2var_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(trace + low)), words,
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(trace + low + 16))),
               a, b);
}

// accumulateChannelAvx2's sum with AVX-512: the pairs from a window of the trace where the
// eight depths' lie within one (windowStart), by gathers where not; the weights sixteen depths at
// a time (stepsOf16).
template <typename T, typename Delay, typename Weight>
__attribute__((target("avx2,fma,avx512f,avx512dq,avx512bw,avx512vl"))) void accumulateChannelWindowed(const T* trace, float lastIndex, const Delay& tx,
                                                                                                      const Weight& weight, float samplesPerMetre, float dx2,
                                                                                                      std::span<const float> zSquared,
                                                                                                      const ChannelDepths& depths,
                                                                                                      std::span<float> column) noexcept {
    const std::size_t begin = depths.begin, end = depths.end;
    const __m256 vSpm = _mm256_set1_ps(samplesPerMetre), vDx2 = _mm256_set1_ps(dx2);
    const std::size_t iz = stepsOf16(
        weight, begin, end, [&](std::size_t at, __m256 w, auto unit) __attribute__((always_inline, target("avx2,fma,avx512f,avx512dq,avx512bw,avx512vl"))) {
            const auto d = sampleIndices(tx, zSquared, at, vDx2, vSpm);
            __m256i rel;
            __m256 a, b;
            if (const int low = windowStart(d.index, lastIndex, rel); low >= 0) windowPairs(trace, low, rel, a, b);
            else pairsAt(trace, d.index, a, b);
            addWeighted<decltype(unit)::value>(column, at, d.frac, a, b, w);
        });
    if (iz < end) lastStepOf8(trace, tx, weight, vDx2, vSpm, zSquared, iz, end, column);
}
#pragma GCC diagnostic pop
#endif

// One channel's contribution to a column: one inner loop for each kind of transmit delay and
// of receive weight.
template <typename T, typename Delay, typename Weight>
using Accumulate = void (*)(const T*, float, const Delay&, const Weight&, float, float, std::span<const float>, const ChannelDepths&,
                            std::span<float>) noexcept;

template <typename T> struct Accumulators {
    Accumulate<T, PlaneWaveDelay, NoWeight> planeWave;
    Accumulate<T, TabulatedDelay, NoWeight> tabulated;
    Accumulate<T, PlaneWaveDelay, CosSquaredWeight> planeWaveWeighted;
    Accumulate<T, TabulatedDelay, CosSquaredWeight> tabulatedWeighted;
    bool exactWindow = false;  // the scalar reference: apodization() itself, not its polynomial
};

template <typename T, template <typename, typename> class Loop> Accumulators<T> accumulatorsOf() {
    return {Loop<PlaneWaveDelay, NoWeight>::run, Loop<TabulatedDelay, NoWeight>::run, Loop<PlaneWaveDelay, CosSquaredWeight>::run,
            Loop<TabulatedDelay, CosSquaredWeight>::run};
}

template <typename T> struct ScalarLoop {
    template <typename Delay, typename Weight> struct Of {
        static void run(const T* trace, float lastIndex, const Delay& tx, const Weight& weight, float spm, float dx2, std::span<const float> zz,
                        const ChannelDepths& depths, std::span<float> column) noexcept {
            accumulateChannel(trace, lastIndex, tx, weight, spm, dx2, zz, depths, column);
        }
    };
};

#if defined(__x86_64__)
template <typename T> struct Avx2Loop {
    template <typename Delay, typename Weight> struct Of {
        static void run(const T* trace, float lastIndex, const Delay& tx, const Weight& weight, float spm, float dx2, std::span<const float> zz,
                        const ChannelDepths& depths, std::span<float> column) noexcept {
            accumulateChannelAvx2(trace, lastIndex, tx, weight, spm, dx2, zz, depths, column);
        }
    };
};

template <typename T> struct Avx512Loop {
    template <typename Delay, typename Weight> struct Of {
        static void run(const T* trace, float lastIndex, const Delay& tx, const Weight& weight, float spm, float dx2, std::span<const float> zz,
                        const ChannelDepths& depths, std::span<float> column) noexcept {
            accumulateChannelWindowed(trace, lastIndex, tx, weight, spm, dx2, zz, depths, column);
        }
    };
};
#endif

// Wave w's transmit delay at x into tx[0..nz), as transmitDelaySamples computes it, with
// kDepthPad copies of the last past it (tx holds nz + kDepthPad).
inline void tabulateTransmitDelay(const AcquisitionGeometry& geometry, int w, double x, const std::vector<float>& z, std::vector<float>& tx) {
    const auto nz = z.size();
    transmitDelaySamples(geometry, w, x, z, std::span(tx).first(nz));
    std::fill(tx.begin() + static_cast<std::ptrdiff_t>(nz), tx.begin() + static_cast<std::ptrdiff_t>(nz + kDepthPad), tx[nz - 1]);
}

// One image column (pixel x): the sum over waves and channels, written into column[0..nz).
template <typename T>
void beamformColumn(const ChannelDataView& data, const std::vector<float>& z, const float* zPadded, const DepthIndex& depths, std::span<const float> zSquared,
                    const std::vector<float>& invZ, const std::vector<float>& invZ2, double x, const BeamformParams& params, const Accumulators<T>& accumulate,
                    std::span<float> column) {
    const auto nz = z.size();
    const float samplesPerMetre = static_cast<float>(data.geometry->samplingRateHz / data.geometry->soundSpeedMps);
    const float lastIndex = static_cast<float>(data.geometry->samples - 1);
    std::fill(column.begin(), column.end(), 0.0f);
    // The worker's own, grown once: nothing allocated per frame.
    thread_local std::vector<float> tx;
    thread_local std::vector<ChannelDepths> reach;
    const auto channels = static_cast<std::size_t>(data.geometry->channels);
    if (tx.size() < nz + kDepthPad) tx.resize(nz + kDepthPad);
    if (reach.size() < channels) reach.resize(channels);
    const bool windowed = params.window != Window::Rectangular;
    for (int w = 0; w < data.geometry->waves; ++w) {
        // A plane wave's or a photoacoustic shot's delay as transmitDelaySamples computes it, kept
        // linear for the loop (a shot's: no transmit path, a constant); else tabulated.
        const auto linear = linearTransmitDelay(*data.geometry, w, x);
        const bool planeWave = linear.has_value();
        const PlaneWaveDelay plane{linear ? linear->atSurface : 0.0f, linear ? linear->perMetre : 0.0f, zPadded};
        if (!planeWave) tabulateTransmitDelay(*data.geometry, w, x, z, tx);
        const TabulatedDelay table{tx.data()};
        // Every channel's depths first (channelDepths), then the sums. The element is inside the
        // aperture from depth 2 F# |dx| on.
        for (std::size_t c = 0; c < channels; ++c) {
            const double dx = x - data.geometry->elementX[c];
            const auto edge = static_cast<float>(2 * params.fNumber * std::abs(dx)), dx2 = static_cast<float>(dx * dx);
            reach[c] = planeWave ? channelDepths(edge, dx2, depths, plane, zSquared, samplesPerMetre, lastIndex)
                                 : channelDepths(edge, dx2, depths, table, zSquared, samplesPerMetre, lastIndex);
        }
        for (int c = 0; c < data.geometry->channels; ++c) {
            const ChannelDepths& range = reach[static_cast<std::size_t>(c)];
            if (range.begin >= range.end && !accumulate.exactWindow) continue;  // no depth reads inside the record (the reference finds that per pixel)
            const std::size_t first = range.first;
            const double dx = x - data.geometry->elementX[static_cast<std::size_t>(c)];
            const float dx2 = static_cast<float>(dx * dx);
            const T* trace = data.trace<T>(w, c);
            if (!windowed) {
                if (planeWave) accumulate.planeWave(trace, lastIndex, plane, NoWeight{}, samplesPerMetre, dx2, zSquared, range, column);
                else accumulate.tabulated(trace, lastIndex, table, NoWeight{}, samplesPerMetre, dx2, zSquared, range, column);
            } else if (!accumulate.exactWindow) {
                // Weighted where the window tapers, unweighted where it is flat (Tukey, deep).
                const auto weight = cosSquaredWeight(params, dx, invZ.data(), invZ2.data(), flatFrom(params, dx, depths, first));
                if (planeWave) accumulate.planeWaveWeighted(trace, lastIndex, plane, weight, samplesPerMetre, dx2, zSquared, range, column);
                else accumulate.tabulatedWeighted(trace, lastIndex, table, weight, samplesPerMetre, dx2, zSquared, range, column);
            } else {
                for (std::size_t iz = first; iz < nz; ++iz) {  // the reference: the exact window, per pixel
                    const float s = (planeWave ? plane.at(iz) : table.at(iz)) + std::sqrt(dx2 + zSquared[iz]) * samplesPerMetre;
                    if (!(s >= 0.0f && s < lastIndex)) continue;
                    const auto i = static_cast<std::size_t>(s);
                    const float frac = s - static_cast<float>(i);
                    const float a = static_cast<float>(trace[i]), b = static_cast<float>(trace[i + 1]);
                    column[iz] += apodization(dx, z[iz], params) * (a + frac * (b - a));
                }
            }
        }
    }
}

}  // namespace

Result<BeamformedImage> delayAndSum(const ChannelDataView& data, const PixelGrid& grid, const BeamformParams& params, unsigned threads, VectorLoop loop) {
    if (auto ok = data.validate(); !ok) return fail(std::move(ok.error()));
    if (auto ok = grid.validate(); !ok) return fail(std::move(ok.error()));
    if (!(params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    BeamformedImage image;
    image.nx = grid.x.size();
    image.nz = grid.z.size();
    image.columns.resize(image.nx * image.nz);
    // The depths, and per depth z, z^2, 1/z and 1/z^2 with kDepthPad copies of the last past it
    // (lastStepOf8 reads them).
    const std::vector<float> z(grid.z.begin(), grid.z.end());
    const std::size_t nz = z.size();
    std::vector<float> zPadded(nz + kDepthPad), zSquared(nz + kDepthPad), invZ(nz + kDepthPad), invZ2(nz + kDepthPad);
    for (std::size_t i = 0; i < nz + kDepthPad; ++i) {
        zPadded[i] = z[std::min(i, nz - 1)];
        zSquared[i] = zPadded[i] * zPadded[i];
        invZ[i] = 1.0f / zPadded[i];
        invZ2[i] = invZ[i] * invZ[i];
    }
    const bool avx2 = loop != VectorLoop::Scalar && cpuHasAvx2();
    // With both vector units, the best loop is the faster one on this machine (loop_choice.h).
    const bool both = avx2 && loop == VectorLoop::Best && cpuHasAvx512();
    const auto& g = *data.geometry;
    const FrameKind kind{!data.samples16.empty(),
                         static_cast<int>(params.window),
                         image.nx,
                         image.nz,
                         static_cast<std::size_t>(g.channels),
                         static_cast<std::size_t>(g.samples),
                         static_cast<std::size_t>(g.waves)};
    const FastLoop fast = both ? rfLoopChoice().next(kind) : FastLoop::Avx2;
    const bool avx512 = both && fast == FastLoop::Avx512;
    const auto start = std::chrono::steady_clock::now();
    auto run = [&](auto sampleType) {
        using T = decltype(sampleType);
        auto accumulate = accumulatorsOf<T, ScalarLoop<T>::template Of>();
        accumulate.exactWindow = true;  // the scalar loop is the reference
#if defined(__x86_64__)
        if (avx2) accumulate = accumulatorsOf<T, Avx2Loop<T>::template Of>();
        if (avx512) accumulate = accumulatorsOf<T, Avx512Loop<T>::template Of>();
#endif
        const DepthIndex depths(z);
        parallelFor(image.nx, threads, [&](std::size_t ix) {
            beamformColumn<T>(data, z, zPadded.data(), depths, std::span(zSquared).first(nz), invZ, invZ2, grid.x[ix], params, accumulate,
                              std::span(image.columns).subspan(ix * image.nz, image.nz));
        });
    };
    if (data.samples16.empty()) run(float{});
    else run(std::int16_t{});
    if (both) rfLoopChoice().record(kind, fast, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return image;
}

namespace {

// |c| as sqrt(re^2 + im^2): std::abs of a complex is hypot, which guards against overflow that
// these amplitudes never come near and took 5 % of a streamed frame's time (perf).
inline double magnitude(std::complex<double> c) noexcept { return std::sqrt(c.real() * c.real() + c.imag() * c.imag()); }

// The magnitude of the analytic signal whose spectrum's bins 0 .. n/2 are `half` (the rest 0), at
// rows 0, k, 2k, ... into out. Folded to n / k bins where that is exact (the analytic signal has no
// negative frequencies): k times less inverse transform.
void analyticMagnitude(std::span<std::complex<double>> spectrum, std::size_t k, bool fold, std::span<float> out) {
    const std::size_t n = spectrum.size();
    std::fill(spectrum.begin() + static_cast<std::ptrdiff_t>(n / 2 + 1), spectrum.end(), 0.0);
    if (fold) {
        const std::size_t m = n / k;
        for (std::size_t b = 0; b < m; ++b) {
            for (std::size_t j = 1; j < k; ++j) spectrum[b] += spectrum[b + j * m];
        }
        fft(spectrum.first(m), true);
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(magnitude(spectrum[i]) / static_cast<double>(n));
    } else {
        fft(spectrum, true);
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(magnitude(spectrum[i * k]) / static_cast<double>(n));
    }
}

}  // namespace

void envelopeAlongDepth(BeamformedImage& image, unsigned threads, std::size_t keepEvery) {
    std::size_t n = 1;
    while (n < image.nz) n <<= 1;
    const std::size_t k = std::max<std::size_t>(keepEvery, 1);
    const std::size_t kept = (image.nz + k - 1) / k;  // rows 0, k, 2k, ...
    const bool fold = k > 1 && n % k == 0 && n / k >= kept;
    // Two columns a, b to a transform: z = a + i b, then A = (Z[f] + conj Z[-f]) / 2 and
    // B = (Z[f] - conj Z[-f]) / 2i. Of each analytic signal's spectrum only bins 0 .. n/2 are
    // not 0: 2A there, A itself at 0 and n/2 (and the same for B).
    const std::size_t pairs = (image.nx + 1) / 2;
    parallelFor(pairs, threads, [&](std::size_t p) {
        thread_local std::vector<std::complex<double>> scratch;  // the worker's own, grown once: nothing is allocated per frame
        if (scratch.size() < 3 * n) scratch.resize(3 * n);
        const auto z = std::span(scratch).first(n);
        const auto sa = std::span(scratch).subspan(n, n);
        const auto sb = std::span(scratch).subspan(2 * n, n);
        const std::size_t ia = 2 * p, ib = 2 * p + 1;
        const bool paired = ib < image.nx;
        auto a = std::span(image.columns).subspan(ia * image.nz, image.nz);
        auto b = paired ? std::span(image.columns).subspan(ib * image.nz, image.nz) : std::span<float>();
        for (std::size_t i = 0; i < image.nz; ++i) z[i] = {a[i], paired ? b[i] : 0.0f};
        std::fill(z.begin() + static_cast<std::ptrdiff_t>(image.nz), z.end(), 0.0);
        fft(z, false);
        for (std::size_t f = 0; f <= n / 2; ++f) {
            const auto mirror = std::conj(z[(n - f) % n]);
            const double scale = f == 0 || f == n / 2 ? 0.5 : 1.0;
            sa[f] = scale * (z[f] + mirror);
            sb[f] = scale * std::complex<double>(0, -1) * (z[f] - mirror);
        }
        analyticMagnitude(sa, k, fold, a.first(kept));  // row i k lands at row i of the column; packed below
        if (paired) analyticMagnitude(sb, k, fold, b.first(kept));
    });
    if (k > 1) {  // the columns packed, in order (each moves down, over rows already read)
        for (std::size_t ix = 1; ix < image.nx; ++ix) {
            std::copy_n(image.columns.begin() + static_cast<std::ptrdiff_t>(ix * image.nz), kept,
                        image.columns.begin() + static_cast<std::ptrdiff_t>(ix * kept));
        }
        image.nz = kept;
        image.columns.resize(image.nx * kept);
    }
}

std::vector<float> logCompress(std::span<const float> envelope, double dynamicRangeDb, double gainDb) {
    float peak = 0;
    for (float v : envelope) peak = std::max(peak, std::abs(v));
    std::vector<float> out(envelope.size(), static_cast<float>(-dynamicRangeDb));
    if (peak <= 0) return out;
    for (std::size_t i = 0; i < envelope.size(); ++i) {
        const double db = 20 * std::log10(std::max(std::abs(envelope[i]) / static_cast<double>(peak), 1e-12)) + gainDb;
        out[i] = static_cast<float>(std::clamp(db, -dynamicRangeDb, 0.0));
    }
    return out;
}

}  // namespace sonolink::beamform
