#include "sonolink/beamform/iq_beamformer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <thread>

#include <fmt/format.h>

#include "iq_demodulation.h"
#include "iq_loops.h"
#include "iq_rotation.h"
#include "iq_tables.h"
#include "kernel_steps.h"
#include "line_aligned.h"
#include "parallel_for.h"

namespace sonolink::beamform {
namespace {

using namespace kernel;
using namespace iq_internal;

// The reference: every pixel and channel with the exact window and the rotation by std::cos and
// std::sin of the sample's own phase; the sample positions and the aperture computed as the
// vector loops compute them (a pixel on an edge of the record or the aperture must go the same
// way in both, or a rectangular window's full weight separates them).
void referenceColumn(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, const std::vector<float>& z, std::span<const float> zSquared,
                     double x, const BeamformParams& params, double radiansAtFirst, double radiansPerSample, bool rotate, std::complex<float>* column) {
    const auto n = static_cast<std::size_t>(layout.samples);
    const float samplesPerMetre = static_cast<float>(layout.samplingRateHz / layout.soundSpeedMps);
    const float lastIndex = static_cast<float>(layout.samples - 1);
    std::vector<float> tx(z.size());
    for (int w = 0; w < layout.waves; ++w) {
        const auto wave = static_cast<std::size_t>(w);
        transmitDelaySamples(layout, w, x, z, tx);
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

// One frame's image under way: checked, its per-depth arrays, its phase, and whether the tables
// and the vector loops serve it.
struct IqFrame {
    static constexpr std::size_t kDepthPad = 16;  // the vector loops' kPad
    IqImage image;
    std::vector<float> z;
    LineAlignedArrays perDepth;  // z^2, 1/z, 1/z^2, each with kDepthPad copies of its last value past the last depth
    const float* zSquared() const noexcept { return perDepth[0]; }
    const float* invZ() const noexcept { return perDepth[1]; }
    const float* invZ2() const noexcept { return perDepth[2]; }
    double radiansPerSample = 0, radiansAtFirst = 0;
    bool fast = false;
};

Result<IqFrame> startFrame(const AcquisitionGeometry& layout, double modulationFrequencyHz, const PixelGrid& grid, const BeamformParams& params, bool rotate,
                           VectorLoop loop) {
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
    // The vector loops find a delay's sample by float rounding, exact below 2^22 samples a trace
    // (iq_loops.h); a longer record (more than the UFF reader or the settings take) runs the reference.
    frame.fast = rotate && loop != VectorLoop::Scalar && cpuHasAvx2() && frame.radiansPerSample <= std::numbers::pi && layout.samples < (1 << 22);
    const std::size_t nz = frame.z.size();
    frame.perDepth = LineAlignedArrays(3, nz + IqFrame::kDepthPad);
    float *zSquared = frame.perDepth[0], *invZ = frame.perDepth[1], *invZ2 = frame.perDepth[2];
    for (std::size_t iz = 0; iz < nz + IqFrame::kDepthPad; ++iz) {
        const float depth = frame.z[std::min(iz, nz - 1)];
        zSquared[iz] = depth * depth;
        invZ[iz] = 1.0f / depth;
        invZ2[iz] = invZ[iz] * invZ[iz];
    }
    return frame;
}

#if defined(__x86_64__)
// Where a channel of a tile's column adds (channelDepths: the record's ends half a sample in, tx
// being the delay less half a sample), and its distance from the column.
struct PairDepths {
    ChannelDepths depths;
    float dx2;
    double dx;
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

// sum[i] += part[i], eight at a time (GCC's -O2 leaves the plain loop scalar: it would need a
// check that the two do not overlap).
__attribute__((target("avx2,fma"))) void addInto(float* sum, const float* part, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(sum + i, _mm256_add_ps(_mm256_loadu_ps(sum + i), _mm256_loadu_ps(part + i)));
    for (; i < n; ++i) sum[i] += part[i];
}

// The channels first, first + step, ... of every wave: a worker's share of a frame, whose tables
// it holds, channel first + j step of wave w at index w channels + j.
struct ChannelGroup {
    std::size_t first, step, channels;
    static ChannelGroup of(std::size_t group, std::size_t groups, std::size_t total) noexcept {
        return {group, groups, group < total ? (total - group + groups - 1) / groups : 0};
    }
};

// Columns a tile at a time: each channel's table read by the tile's columns in turn, while it is
// in the first-level cache (paired against rectangular RF, medians of five interleaved rounds at
// two threads: 1, 2 and 4 columns 0.78, 0.81, 0.85 for float AVX-512; 8 slower again).
constexpr std::size_t kTileColumns = 4;

// A wave's transmit delay less half a sample at each of a tile's columns (column k's tx at
// tile + 3 stride k), padded to stride with its last: the first step of fastTile's wave.
inline void iqTileTransmitDelays(const AcquisitionGeometry& layout, int w, const double* xs, std::size_t count, const std::vector<float>& z, std::size_t stride,
                                 float* tile) {
    const auto nz = z.size();
    for (std::size_t k = 0; k < count; ++k) {
        float* tx = tile + 3 * stride * k;
        if (const auto linear = linearTransmitDelay(layout, w, xs[k])) {  // a plane wave's or a photoacoustic shot's, as PlaneWaveDelay computes it
            planeWaveDelayLessHalf(linear->atSurface, linear->perMetre, z.data(), nz, tx);
        } else {
            transmitDelaySamples(layout, w, xs[k], z, {tx, nz});
            for (std::size_t iz = 0; iz < nz; ++iz) tx[iz] -= 0.5f;
        }
        std::fill(tx + nz, tx + stride, tx[nz - 1]);
    }
}

// Where each channel j of the group adds to each column k of the tile, through the wave's tx
// (iqTileTransmitDelays), into pairs[j count + k]: the second step of fastTile's wave.
inline void iqTilePairDepths(const AcquisitionGeometry& layout, const ChannelGroup& group, const double* xs, std::size_t count, const BeamformParams& params,
                             const DepthIndex& depths, std::span<const float> zSquared, float samplesPerMetre, float lastIndex, float* tile, std::size_t stride,
                             PairDepths* pairs) {
    for (std::size_t j = 0; j < group.channels; ++j) {
        const double elementX = layout.elementX[group.first + j * group.step];
        for (std::size_t k = 0; k < count; ++k) {
            const double dx = xs[k] - elementX;
            const auto edge = static_cast<float>(2 * params.fNumber * std::abs(dx)), dx2 = static_cast<float>(dx * dx);
            pairs[j * count + k] = {channelDepths(edge, dx2, depths, TabulatedDelay{tile + 3 * stride * k}, zSquared, samplesPerMetre, lastIndex - 0.5f, -0.5f),
                                    dx2, dx};
        }
    }
}

// The sums of a tile's columns (xs[0 .. count), count <= kTileColumns) over a group of channels
// through their tables and the vector loops. zSquared, invZ, invZ2: the frame's (line-aligned,
// padded). The columns' tx, re and im start on lines too: the loops step on a grid of whole lines.
template <bool kLongSine>
void fastTile(const AcquisitionGeometry& layout, const ChannelGroup& group, const IqTables& tables, const std::vector<float>& z, const DepthIndex& depths,
              std::span<const float> zSquared, const float* invZ, const float* invZ2, const double* xs, std::size_t count, const BeamformParams& params,
              const Rotation& rotation, IqLoop loop, std::complex<float>* const* columns) {
    const auto nz = z.size();
    const float samplesPerMetre = static_cast<float>(layout.samplingRateHz / layout.soundSpeedMps);
    const float lastIndex = static_cast<float>(layout.samples - 1);
    // The worker's own, grown once: per column tx, re, im; the AVX2 loop's positions (offsets and
    // fractions); the AVX2 step's lanes; each channel's and column's PairDepths.
    thread_local std::vector<float> scratch;
    thread_local std::vector<std::uint32_t> offsetRoom;
    thread_local std::vector<PairDepths> pairRoom;
    if (pairRoom.size() < group.channels * count) pairRoom.resize(group.channels * kTileColumns);
    PairDepths* const pairs = pairRoom.data();
    const std::size_t stride = lineRounded(nz + kPad);
    if (scratch.size() < (3 * kTileColumns + 1) * stride + Avx2Lanes::kFloats + 16) scratch.resize((3 * kTileColumns + 1) * stride + Avx2Lanes::kFloats + 16);
    if (offsetRoom.size() < stride) offsetRoom.resize(stride);
    float* const tile = lineAligned(scratch.data());  // (taken once: GCC fetches a thread_local's address again after each call)
    float* const fractions = tile + 3 * stride * kTileColumns;
    std::uint32_t* const offsets = offsetRoom.data();
    float* const lanes = Avx2Lanes::in(fractions + stride);
    Avx2Lanes::putRotation(lanes, rotation);
    const auto txOf = [&](std::size_t k) { return tile + 3 * stride * k; };
    for (std::size_t k = 0; k < count; ++k) std::fill(txOf(k) + stride, txOf(k) + 3 * stride, 0.0f);
    for (int w = 0; w < layout.waves; ++w) {
        const auto wave = static_cast<std::size_t>(w);
        iqTileTransmitDelays(layout, w, xs, count, z, stride, tile);
        iqTilePairDepths(layout, group, xs, count, params, depths, zSquared, samplesPerMetre, lastIndex, tile, stride, pairs);
        for (std::size_t j = 0; j < group.channels; ++j) {
            const float* table = tables.trace(wave * group.channels + j);
            for (std::size_t k = 0; k < count; ++k) {
                const PairDepths& pair = pairs[j * count + k];
                const auto [first, begin, end] = pair.depths;
                if (begin >= end) continue;  // outside the aperture or the record at every depth
                float* tx = txOf(k);
                float* re = tx + stride;
                float* im = re + stride;
                const double dx = pair.dx;
                const float dx2 = pair.dx2;
                const IqChannel ch{table, tables.n, tables.layout.plane, tx, samplesPerMetre, dx2, lanes, offsets, fractions};
                if (params.window == Window::Rectangular) {
                    accumulateIq<kLongSine>(loop, ch, NoWeight{}, rotation, zSquared.data(), begin, end, re, im);
                } else {  // weighted where the window tapers, unweighted where it is flat (Tukey, deep)
                    const auto flat = std::clamp(flatFrom(params, dx, depths, first), begin, end);
                    const auto weight = cosSquaredWeight(params, dx, invZ, invZ2, flat);
                    if (loop == IqLoop::Avx2) Avx2Lanes::putWindow(lanes, weight);
                    if (weight.hann) accumulateIq<kLongSine>(loop, ch, TaperWeight<true>{weight, lanes}, rotation, zSquared.data(), begin, flat, re, im);
                    else accumulateIq<kLongSine>(loop, ch, TaperWeight<false>{weight, lanes}, rotation, zSquared.data(), begin, flat, re, im);
                    accumulateIq<kLongSine>(loop, ch, NoWeight{}, rotation, zSquared.data(), flat, end, re, im);
                }
            }
        }
    }
    for (std::size_t k = 0; k < count; ++k) interleave(txOf(k) + stride, txOf(k) + 2 * stride, nz, columns[k]);
}

IqLoop iqLoopOf(VectorLoop loop) noexcept { return loop == VectorLoop::Best && cpuHasAvx512() ? IqLoop::Avx512 : IqLoop::Avx2; }

// At most this many groups of channels, whatever the thread count: each group past the first
// costs a part of the image in memory and a pass over it, which on a many-core station would
// outgrow what the extra workers bring (measured only at two threads here).
constexpr std::size_t kMaxChannelGroups = 16;

// The image through the tables and the vector loops, its channels shared out: group g of G (one
// per thread, at most kMaxChannelGroups) takes channels g, g + G, ... of every wave, builds their tables in its worker's own
// memory (build(trace, table)) and sums them into every column of its own part of the image; the
// parts are then added. On a split by columns instead, every worker read every table, half of
// them just written by the other: at two threads the tables' writes took six times as long and
// the column passes were bound by the shared cache.
void fastImage(const AcquisitionGeometry& layout, IqFrame& frame, const PixelGrid& grid, const BeamformParams& params, unsigned threads, IqLoop loop,
               const Rotation& rotation, BodyRef<std::size_t, float*> build) {
    static_assert(IqFrame::kDepthPad >= kPad);
    const auto& z = frame.z;
    const std::span<const float> depths(frame.zSquared(), z.size());
    const DepthIndex index(z);
    auto& image = frame.image;
    const auto channels = static_cast<std::size_t>(layout.channels), waves = static_cast<std::size_t>(layout.waves);
    const std::size_t workers = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    const std::size_t groups = std::min({workers, channels, kMaxChannelGroups});
    thread_local std::vector<std::complex<float>> callerParts;  // groups 1 .. G-1: the caller's own, grown once
    callerParts.resize((groups - 1) * image.columns.size());
    std::complex<float>* const parts = callerParts.data();  // (a worker naming a thread_local reaches its own)
    parallelFor(groups, threads, [&](std::size_t g) {
        const auto group = ChannelGroup::of(g, groups, channels);
        thread_local IqTables own;  // the worker's own, grown once
        own.resize(waves * group.channels, static_cast<std::size_t>(layout.samples), loop == IqLoop::Avx2);
        for (std::size_t w = 0; w < waves; ++w) {
            for (std::size_t j = 0; j < group.channels; ++j) build(w * channels + group.first + j * group.step, own.trace(w * group.channels + j));
        }
        auto* part = g == 0 ? image.columns.data() : parts + (g - 1) * image.columns.size();
        for (std::size_t first = 0; first < image.nx; first += kTileColumns) {
            const std::size_t count = std::min(kTileColumns, image.nx - first);
            std::complex<float>* columns[kTileColumns];
            for (std::size_t k = 0; k < count; ++k) columns[k] = part + (first + k) * image.nz;
            const double* xs = grid.x.data() + first;
            if (rotation.longSine)
                fastTile<true>(layout, group, own, z, index, depths, frame.invZ(), frame.invZ2(), xs, count, params, rotation, loop, columns);
            else fastTile<false>(layout, group, own, z, index, depths, frame.invZ(), frame.invZ2(), xs, count, params, rotation, loop, columns);
        }
    });
    if (groups > 1) {
        parallelFor(image.nx, threads, [&](std::size_t ix) {
            auto* sum = reinterpret_cast<float*>(image.columns.data() + ix * image.nz);
            for (std::size_t g = 1; g < groups; ++g) {
                const auto* part = reinterpret_cast<const float*>(parts + (g - 1) * image.columns.size() + ix * image.nz);
                addInto(sum, part, 2 * image.nz);
            }
        });
    }
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

Result<IqImage> delayAndSumIq(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, double modulationFrequencyHz, const PixelGrid& grid,
                              const BeamformParams& params, unsigned threads, bool rotate, VectorLoop loop) {
    auto frame = startFrame(layout, modulationFrequencyHz, grid, params, rotate, loop);
    if (!frame) return fail(std::move(frame.error()));
    const auto n = static_cast<std::size_t>(layout.samples), traces = static_cast<std::size_t>(layout.waves) * static_cast<std::size_t>(layout.channels);
    if (iq.size() != traces * n) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} IQ samples for {} waves x {} channels x {} samples", iq.size(), layout.waves, layout.channels, n));
    }
#if defined(__x86_64__)
    if (frame->fast) {
        const Turns& turns = turnsFor(n, frame->radiansAtFirst, frame->radiansPerSample);
        const IqLoop iqLoop = iqLoopOf(loop);
        const auto tables = TableLayout::of(n, iqLoop == IqLoop::Avx2);
        fastImage(layout, *frame, grid, params, threads, iqLoop, turns.rotation,
                  [&](std::size_t t, float* table) { buildTrace(reinterpret_cast<const float*>(iq.data() + t * n), n, turns, tables, table); });
        return std::move(frame->image);
    }
#endif
    parallelFor(frame->image.nx, threads, [&](std::size_t ix) {
        referenceColumn(layout, iq, frame->z, {frame->zSquared(), frame->z.size()}, grid.x[ix], params, frame->radiansAtFirst, frame->radiansPerSample, rotate,
                        frame->image.columns.data() + ix * frame->image.nz);
    });
    return std::move(frame->image);
}

Result<IqImage> delayAndSumIq(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, const PixelGrid& grid, const BeamformParams& params,
                              unsigned threads, VectorLoop loop) {
    auto layout = iqLayoutOf(rf, modulationFrequencyHz, decimation);
    if (!layout) return fail(std::move(layout.error()));
    auto frame = startFrame(*layout, modulationFrequencyHz, grid, params, true, loop);
    if (!frame) return fail(std::move(frame.error()));
#if defined(__x86_64__)
    if (frame->fast) {
        const auto n = static_cast<std::size_t>(layout->samples);
        const Turns& turns = turnsFor(n, frame->radiansAtFirst, frame->radiansPerSample);
        const IqLoop iqLoop = iqLoopOf(loop);
        const auto tables = TableLayout::of(n, iqLoop == IqLoop::Avx2);
        fastImage(*layout, *frame, grid, params, threads, iqLoop, turns.rotation, [&](std::size_t t, float* table) {
            filterTrace(rf, modulationFrequencyHz, decimation, t,
                        [&](const float* re, const float* im) { buildTraceFromFiltered(re, im, n, frame->radiansPerSample, tables, table); });
        });
        return std::move(frame->image);
    }
#endif
    auto iq = demodulateToIq(rf, modulationFrequencyHz, decimation, loop);
    if (!iq) return fail(std::move(iq.error()));
    return delayAndSumIq(iq->geometry, iq->samples, modulationFrequencyHz, grid, params, threads, true, loop);
}

}  // namespace sonolink::beamform
