// The IQ path's kernels: demodulation (one thread per IQ sample), the pair table, and
// delay-and-sum with linear interpolation of I and Q and phase rotation, whose magnitude is the
// envelope (no Hilbert transform). The same sums as beamform::demodulateToIq and
// delayAndSumIq's reference (iq_beamformer.cpp).
#include "beamform_kernels.h"
#include "device_math.cuh"

namespace sonolink::beamform::cuda {
namespace {

constexpr int kThreads = 128;

__device__ __forceinline__ float2 times(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

// out[o] = 2 mixer[o D] sum_j taps[j + H] x[o D + j]; samples outside the record count as 0.
// Traces along the grid's x dimension (no 65535 limit), outputs along y. kByRounding: toFloat's way.
template <typename T, bool kByRounding> __global__ void demodulate(const T* __restrict__ rf, IqSteps q, float2* __restrict__ iq) {
    const int o = blockIdx.y * blockDim.x + threadIdx.x;
    if (o >= q.iqSamples) return;
    const std::size_t trace = blockIdx.x;
    const T* x = rf + trace * static_cast<std::size_t>(q.rfSamples);
    const int k = o * q.decimation;
    const int from = max(-q.halfLength, -k), to = min(q.halfLength, q.rfSamples - 1 - k);
    float re = 0.0f, im = 0.0f;
    for (int j = from; j <= to; ++j) {
        const float2 tap = __ldg(q.taps + j + q.halfLength);
        const float v = toFloat<kByRounding>(__ldg(x + k + j));
        re += tap.x * v;
        im += tap.y * v;
    }
    iq[trace * static_cast<std::size_t>(q.iqSamples) + o] = times(__ldg(q.mixer + o), make_float2(re, im));
}

// table[k] = (A, B - A): A = iq[k] p_k, B = iq[k + 1] p_k, p_k the phase of the point between
// them (the last sample pairs with itself). Each trace's table is iqSamples + 1 long: the last
// entry stays 0 (set when the table was allocated), where a delay outside the record reads.
__global__ void pairTable(const float2* __restrict__ iq, IqSteps q, float4* __restrict__ table) {
    const int k = blockIdx.y * blockDim.x + threadIdx.x;
    if (k >= q.iqSamples) return;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * q.iqSamples;
    const float2 p = __ldg(q.midPhasor + k);
    const float2 a = times(iq[base + k], p), b = times(iq[base + min(k + 1, q.iqSamples - 1)], p);
    table[static_cast<std::size_t>(blockIdx.x) * (q.iqSamples + 1) + k] = make_float4(a.x, a.y, b.x - a.x, b.y - a.y);
}

// One thread per pixel as in delayAndSum (beamform_kernels.cu), without branches. A sample at
// s = i + f is the pair at i interpolated, A + f (B - A), turned by exp(i omega (f - 1/2)) (the
// special-function unit's sine and cosine: absolute error under 5e-7 here): the pair was turned
// by the phase at i + 1/2, so the product carries the phase at s, as the reference's rotation
// exp(i (phi_first + omega s)). Outside the aperture or the record it reads the trace's zero entry.
// kRounding: splitDelay's way.
template <int Window, bool kRounding>
__device__ __forceinline__ void delayAndSumIqPixel(const float4* __restrict__ table, const DasGeometry& g, float omega, float* __restrict__ image) {
    const int iz = blockIdx.x * blockDim.x + threadIdx.x;
    const int ix = blockIdx.y * blockDim.y + threadIdx.y;
    const int frame = blockIdx.z;
    if (iz >= g.nz || ix >= g.nx) return;
    const float z = g.gridZ[iz];
    const float z2 = z * z;
    const float invZ = 1.0f / z;
    const float halfOmega = 0.5f * omega;
    const float lastIndex = static_cast<float>(g.samples - 1);
    const float zeroEntry = static_cast<float>(g.samples);
    const int stride = g.samples + 1;
    const float4* data = table + static_cast<std::size_t>(frame) * g.waves * g.channels * stride;
    const float2* channel = g.channel + static_cast<std::size_t>(ix) * g.channels;
    const float* scale = g.windowScale + static_cast<std::size_t>(ix) * g.channels;
    const int2 range = g.channelRange[static_cast<std::size_t>(blockIdx.y) * gridDim.x + blockIdx.x];
    float re = 0.0f, im = 0.0f;
    for (int w = 0; w < g.waves; ++w) {
        const float tx = g.tx[(static_cast<std::size_t>(w) * g.nx + ix) * g.nz + iz];
        const float4* wave = data + static_cast<std::size_t>(w) * g.channels * stride;
        int trace = range.x * stride;
#pragma unroll 4
        for (int c = range.x; c < range.y; ++c, trace += stride) {
            const float2 ch = channel[c];
            const float s = fmaf(fastSqrt(ch.x + z2), g.samplesPerMetre, tx);
            const bool inside = z >= ch.y && s >= 0.0f && s < lastIndex;
            const float at = inside ? s : zeroEntry;
            float f;
            const int i = splitDelay<kRounding>(at, f);
            const float4 p = __ldg(wave + static_cast<unsigned>(trace + i));
            float vr = fmaf(f, p.z, p.x), vi = fmaf(f, p.w, p.y);
            if constexpr (Window != kRectangular) {
                const float weight = weightAt<Window>(scale[c], invZ, g.windowOffset);
                vr *= weight;
                vi *= weight;
            }
            float sr, cr;
            __sincosf(fmaf(f, omega, -halfOmega), &sr, &cr);
            re = fmaf(vr, cr, fmaf(-vi, sr, re));
            im = fmaf(vr, sr, fmaf(vi, cr, im));
        }
    }
    image[(static_cast<std::size_t>(frame) * g.nx + ix) * g.nz + iz] = sqrtf(re * re + im * im);
}

// The kernel as the compiler allocates its registers, and held to full occupancy.
template <int Window, bool kRounding> __global__ void delayAndSumIq(const float4* __restrict__ table, DasGeometry g, float omega, float* __restrict__ image) {
    delayAndSumIqPixel<Window, kRounding>(table, g, omega, image);
}
template <int Window, bool kRounding>
__global__ void __launch_bounds__(kThreadsPerBlock, kBlocksForFullOccupancy)
    delayAndSumIqFullOccupancy(const float4* __restrict__ table, DasGeometry g, float omega, float* __restrict__ image) {
    delayAndSumIqPixel<Window, kRounding>(table, g, omega, image);
}

dim3 perSample(int traces, int samples) { return dim3(static_cast<unsigned>(traces), static_cast<unsigned>((samples + kThreads - 1) / kThreads)); }

}  // namespace

void launchDemodulate(const float* rf, int traces, const IqSteps& q, float2* iq, cudaStream_t stream) {
    demodulate<float, false><<<perSample(traces, q.iqSamples), kThreads, 0, stream>>>(rf, q, iq);
}

void launchDemodulate(const std::int16_t* rf, int traces, const IqSteps& q, float2* iq, cudaStream_t stream) {
    if (q.conversionsByRounding) demodulate<std::int16_t, true><<<perSample(traces, q.iqSamples), kThreads, 0, stream>>>(rf, q, iq);
    else demodulate<std::int16_t, false><<<perSample(traces, q.iqSamples), kThreads, 0, stream>>>(rf, q, iq);
}

void launchPairTable(const float2* iq, int traces, const IqSteps& q, float4* table, cudaStream_t stream) {
    pairTable<<<perSample(traces, q.iqSamples), kThreads, 0, stream>>>(iq, q, table);
}

namespace {

template <bool kRounding> void launchIqAs(const float4* table, int count, const DasGeometry& g, float omega, float* image, cudaStream_t stream) {
    using Kernel = void (*)(const float4*, DasGeometry, float, float*);
    const auto pick = [&g](Kernel plain, Kernel full) { return g.fullOccupancy ? full : plain; };
    const Kernel kernel = g.window == kRectangular ? pick(delayAndSumIq<kRectangular, kRounding>, delayAndSumIqFullOccupancy<kRectangular, kRounding>)
                          : g.window == kHann      ? pick(delayAndSumIq<kHann, kRounding>, delayAndSumIqFullOccupancy<kHann, kRounding>)
                                                   : pick(delayAndSumIq<kTukey, kRounding>, delayAndSumIqFullOccupancy<kTukey, kRounding>);
    const dim3 grid((g.nz + kDepthsPerBlock - 1) / kDepthsPerBlock, (g.nx + kColumnsPerBlock - 1) / kColumnsPerBlock, count);
    kernel<<<grid, dim3(kDepthsPerBlock, kColumnsPerBlock), 0, stream>>>(table, g, omega, image);
}

}  // namespace

void launchDelayAndSumIq(const float4* table, int count, const DasGeometry& g, float omega, float* image, cudaStream_t stream) {
    if (g.conversionsByRounding) launchIqAs<true>(table, count, g, omega, image, stream);
    else launchIqAs<false>(table, count, g, omega, image, stream);
}

}  // namespace sonolink::beamform::cuda
