// Sector imaging's kernel: delay-and-sum of RF on pixels along rays (one thread per depth of a
// ray, rays along the grid's y dimension, frames along z), the same sum as
// beamform::delayAndSumSector: transmit delays and the aperture decided on the host as the CPU
// reference decides them, the window's weight, linear interpolation, zero outside the record.
#include "beamform_kernels.h"
#include "device_math.cuh"

namespace sonolink::beamform::cuda {
namespace {

constexpr int kDepthsPerBlock = 128;

template <typename T> __global__ void delayAndSumRays(const T* __restrict__ frames, RayGeometry g, float* __restrict__ image) {
    const int ir = blockIdx.x * blockDim.x + threadIdx.x;
    const int it = blockIdx.y;
    const int frame = blockIdx.z;
    if (ir >= g.depths) return;
    const std::size_t pixel = static_cast<std::size_t>(it) * g.depths + ir;
    const float x = g.x[pixel], z = g.z[pixel];
    float sum = 0.0f;
    if (z > 0.0f) {  // beside or behind the array: 0
        const float z2 = z * z;
        const float rPerDx = g.twoFNumber / z;
        const float lastIndex = static_cast<float>(g.samples - 1);
        const T* data = frames + static_cast<std::size_t>(frame) * g.waves * g.channels * g.samples;
        const int* first = g.apertureFirst + static_cast<std::size_t>(it) * g.channels;
        const int* last = g.apertureLast + static_cast<std::size_t>(it) * g.channels;
        for (int w = 0; w < g.waves; ++w) {
            const float tx = g.tx[static_cast<std::size_t>(w) * g.rays * g.depths + pixel];
            const T* wave = data + static_cast<std::size_t>(w) * g.channels * g.samples;
            for (int c = 0; c < g.channels; ++c) {
                if (ir < first[c] || ir >= last[c]) continue;  // outside the receive aperture
                const float dx = x - g.elementX[c];
                const float s = tx + sqrtf(dx * dx + z2) * g.samplesPerMetre;
                if (!(s >= 0.0f && s < lastIndex)) continue;
                const int i = static_cast<int>(s);
                const float frac = s - static_cast<float>(i);
                const T* trace = wave + static_cast<std::size_t>(c) * g.samples;
                const float a = static_cast<float>(__ldg(trace + i)), b = static_cast<float>(__ldg(trace + i + 1));
                const float sample = a + frac * (b - a);
                if (g.window == kRectangular) sum += sample;
                else sum += windowWeight(fabsf(dx) * rPerDx, g.window, g.tukeyAlpha, g.invTukeyAlpha) * sample;
            }
        }
    }
    image[static_cast<std::size_t>(frame) * g.rays * g.depths + pixel] = sum;
}

template <typename T> void launch(const T* frames, int count, const RayGeometry& g, float* image, cudaStream_t stream) {
    const dim3 grid((g.depths + kDepthsPerBlock - 1) / kDepthsPerBlock, g.rays, count);
    delayAndSumRays<T><<<grid, kDepthsPerBlock, 0, stream>>>(frames, g, image);
}

}  // namespace

void launchDelayAndSumRays(const float* frames, int count, const RayGeometry& g, float* image, cudaStream_t stream) { launch(frames, count, g, image, stream); }

void launchDelayAndSumRays(const std::int16_t* frames, int count, const RayGeometry& g, float* image, cudaStream_t stream) {
    launch(frames, count, g, image, stream);
}

}  // namespace sonolink::beamform::cuda
