#include "beamform_kernels.h"

namespace sonolink::beamform::cuda {
namespace {

constexpr int kDepthsPerBlock = 128;
constexpr int kRectangular = 0, kHann = 1;  // beamform::Window's order; else Tukey

// The CPU reference's apodization (beamform_types.cpp), in float.
__device__ float apodization(float dx, float z, const DasGeometry& g) {
    const float r = fabsf(dx) * g.twoFNumber / z;  // 0 at the centre, 1 at the edge
    if (r > 1.0f) return 0.0f;
    if (g.window == kRectangular) return 1.0f;
    if (g.window == kHann) return 0.5f * (1.0f + cospif(r));
    const float flat = 1.0f - g.tukeyAlpha;
    if (r <= flat) return 1.0f;
    return 0.5f * (1.0f + cospif((r - flat) / g.tukeyAlpha));
}

// One thread per pixel (depth iz of column ix of frame f); neighbouring threads are neighbouring
// depths, so they read neighbouring samples of the same trace.
template <typename T>
__global__ void delayAndSum(const T* __restrict__ frames, DasGeometry g, float* __restrict__ image) {
    const int iz = blockIdx.x * blockDim.x + threadIdx.x;
    const int ix = blockIdx.y;
    const int frame = blockIdx.z;
    if (iz >= g.nz) return;
    const float z = g.gridZ[iz];
    const float z2 = z * z;
    const float lastIndex = static_cast<float>(g.samples - 1);
    const T* data = frames + static_cast<std::size_t>(frame) * g.waves * g.channels * g.samples;
    const int* apertureStart = g.apertureStart + static_cast<std::size_t>(ix) * g.channels;
    const float* dx2 = g.dx2 + static_cast<std::size_t>(ix) * g.channels;
    float sum = 0.0f;
    for (int w = 0; w < g.waves; ++w) {
        const float tx = g.tx[(static_cast<std::size_t>(w) * g.nx + ix) * g.nz + iz];
        const T* wave = data + static_cast<std::size_t>(w) * g.channels * g.samples;
        for (int c = 0; c < g.channels; ++c) {
            if (iz < apertureStart[c]) continue;  // outside the receive aperture
            // Receive delay sqrt((x - x_e)^2 + z^2) / c; t = 0 when the wave crosses the origin.
            const float s = tx + sqrtf(dx2[c] + z2) * g.samplesPerMetre;
            if (!(s >= 0.0f && s < lastIndex)) continue;  // outside the record: contributes 0
            const int i = static_cast<int>(s);
            const float frac = s - static_cast<float>(i);
            const T* trace = wave + static_cast<std::size_t>(c) * g.samples;
            const float a = static_cast<float>(__ldg(trace + i)), b = static_cast<float>(__ldg(trace + i + 1));
            const float sample = a + frac * (b - a);
            if (g.window == kRectangular) sum += sample;
            else sum += apodization(g.dx[static_cast<std::size_t>(ix) * g.channels + c], z, g) * sample;
        }
    }
    image[(static_cast<std::size_t>(frame) * g.nx + ix) * g.nz + iz] = sum;
}

template <typename T>
void launch(const T* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream) {
    const dim3 grid((g.nz + kDepthsPerBlock - 1) / kDepthsPerBlock, g.nx, count);
    delayAndSum<T><<<grid, kDepthsPerBlock, 0, stream>>>(frames, g, image);
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

void launchDelayAndSum(const float* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream) {
    launch(frames, count, g, image, stream);
}

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
