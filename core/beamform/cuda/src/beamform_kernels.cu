#include "beamform_kernels.h"
#include "device_math.cuh"

namespace sonolink::beamform::cuda {
namespace {

// One thread per pixel (depth iz of column ix of frame f); neighbouring threads are neighbouring
// depths, so they read neighbouring samples of the same trace. A block visits only the channels
// inside the aperture somewhere in its depths, and without branches: a channel outside the
// aperture or a delay outside the record reads sample 0 and adds nothing, so that the loads of
// several channels are in flight at once. kRounding: how a delay becomes its sample and fraction
// and an int16 sample its value (splitDelay, toFloat).
template <typename T, int Window, bool kRounding>
__device__ __forceinline__ void delayAndSumPixel(const T* __restrict__ frames, const DasGeometry& g, float* __restrict__ image) {
    const int iz = blockIdx.x * blockDim.x + threadIdx.x;
    const int ix = blockIdx.y * blockDim.y + threadIdx.y;
    const int frame = blockIdx.z;
    if (iz >= g.nz || ix >= g.nx) return;
    const float z = g.gridZ[iz];
    const float z2 = z * z;
    const float invZ = 1.0f / z;
    const float lastIndex = static_cast<float>(g.samples - 1);
    const T* data = frames + static_cast<std::size_t>(frame) * g.waves * g.channels * g.samples;
    const float2* channel = g.channel + static_cast<std::size_t>(ix) * g.channels;
    const float* scale = g.windowScale + static_cast<std::size_t>(ix) * g.channels;
    const int2 range = g.channelRange[static_cast<std::size_t>(blockIdx.y) * gridDim.x + blockIdx.x];
    float sum = 0.0f;
    for (int w = 0; w < g.waves; ++w) {
        const float tx = g.tx[(static_cast<std::size_t>(w) * g.nx + ix) * g.nz + iz];
        const T* wave = data + static_cast<std::size_t>(w) * g.channels * g.samples;
        int trace = range.x * g.samples;  // the channel's first sample in the wave
#pragma unroll 4
        for (int c = range.x; c < range.y; ++c, trace += g.samples) {
            const float2 ch = channel[c];
            // Receive delay sqrt((x - x_e)^2 + z^2) / c; t = 0 when the wave crosses the origin.
            const float s = fmaf(fastSqrt(ch.x + z2), g.samplesPerMetre, tx);
            // Inside the receive aperture and the record (else it contributes 0).
            const bool inside = z >= ch.y && s >= 0.0f && s < lastIndex;
            const float at = inside ? s : 0.0f;
            float frac;
            const int i = splitDelay<kRounding>(at, frac);
            const T* p = wave + static_cast<unsigned>(trace + i);
            const float a = toFloat<kRounding>(__ldg(p)), b = toFloat<kRounding>(__ldg(p + 1));
            const float sample = fmaf(frac, b - a, a);
            if constexpr (Window == kRectangular) sum += inside ? sample : 0.0f;
            else sum = fmaf(inside ? weightAt<Window>(scale[c], invZ, g.windowOffset) : 0.0f, sample, sum);
        }
    }
    image[(static_cast<std::size_t>(frame) * g.nx + ix) * g.nz + iz] = sum;
}

// The kernel as the compiler allocates its registers, and held to full occupancy.
template <typename T, int Window, bool kRounding> __global__ void delayAndSum(const T* __restrict__ frames, DasGeometry g, float* __restrict__ image) {
    delayAndSumPixel<T, Window, kRounding>(frames, g, image);
}
template <typename T, int Window, bool kRounding>
__global__ void __launch_bounds__(kThreadsPerBlock, kBlocksForFullOccupancy)
    delayAndSumFullOccupancy(const T* __restrict__ frames, DasGeometry g, float* __restrict__ image) {
    delayAndSumPixel<T, Window, kRounding>(frames, g, image);
}

template <typename T, bool kRounding> void launchAs(const T* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream) {
    using Kernel = void (*)(const T*, DasGeometry, float*);
    const auto pick = [&g](Kernel plain, Kernel full) { return g.fullOccupancy ? full : plain; };
    const Kernel kernel = g.window == kRectangular ? pick(delayAndSum<T, kRectangular, kRounding>, delayAndSumFullOccupancy<T, kRectangular, kRounding>)
                          : g.window == kHann      ? pick(delayAndSum<T, kHann, kRounding>, delayAndSumFullOccupancy<T, kHann, kRounding>)
                                                   : pick(delayAndSum<T, kTukey, kRounding>, delayAndSumFullOccupancy<T, kTukey, kRounding>);
    const dim3 grid((g.nz + kDepthsPerBlock - 1) / kDepthsPerBlock, (g.nx + kColumnsPerBlock - 1) / kColumnsPerBlock, count);
    kernel<<<grid, dim3(kDepthsPerBlock, kColumnsPerBlock), 0, stream>>>(frames, g, image);
}

template <typename T> void launch(const T* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream) {
    if (g.conversionsByRounding) launchAs<T, true>(frames, count, g, image, stream);
    else launchAs<T, false>(frames, count, g, image, stream);
}

__global__ void padColumns(const float* __restrict__ columns, int nz, int length, cufftComplex* __restrict__ spectrum) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int column = blockIdx.y;
    if (i >= length) return;
    const float v = i < nz ? columns[static_cast<std::size_t>(column) * nz + i] : 0.0f;
    spectrum[static_cast<std::size_t>(column) * length + i] = make_cuFloatComplex(v, 0.0f);
}

__global__ void keepPositiveFrequencies(cufftComplex* spectrum, int length) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= length) return;
    cufftComplex& v = spectrum[static_cast<std::size_t>(blockIdx.y) * length + k];
    if (k > 0 && k < length / 2) v = make_cuFloatComplex(2.0f * v.x, 2.0f * v.y);
    else if (k > length / 2) v = make_cuFloatComplex(0.0f, 0.0f);
}

__global__ void magnitude(const cufftComplex* __restrict__ spectrum, int nz, int length, float* __restrict__ columns) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nz) return;
    const cufftComplex v = spectrum[static_cast<std::size_t>(blockIdx.y) * length + i];
    columns[static_cast<std::size_t>(blockIdx.y) * nz + i] = hypotf(v.x, v.y) / static_cast<float>(length);
}

constexpr int kThreads = 256;
dim3 blocksFor(int n, int rows) { return dim3((n + kThreads - 1) / kThreads, rows); }

}  // namespace

void launchDelayAndSum(const float* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream) { launch(frames, count, g, image, stream); }

void launchDelayAndSum(const std::int16_t* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream) {
    launch(frames, count, g, image, stream);
}

void launchPadColumns(const float* columns, int count, int nz, int length, cufftComplex* spectrum, cudaStream_t stream) {
    padColumns<<<blocksFor(length, count), kThreads, 0, stream>>>(columns, nz, length, spectrum);
}

void launchKeepPositiveFrequencies(cufftComplex* spectrum, int count, int length, cudaStream_t stream) {
    keepPositiveFrequencies<<<blocksFor(length, count), kThreads, 0, stream>>>(spectrum, length);
}

void launchMagnitude(const cufftComplex* spectrum, int count, int nz, int length, float* columns, cudaStream_t stream) {
    magnitude<<<blocksFor(nz, count), kThreads, 0, stream>>>(spectrum, nz, length, columns);
}

}  // namespace sonolink::beamform::cuda
