// The GPU beamformer's kernels, launched on a stream: delay-and-sum of RF on a grid (one thread
// per pixel, frames along the grid's z dimension) or along the rays of a sector; the IQ path
// (demodulate, pair table, delay-and-sum with phase rotation and the magnitude); the steps of
// the envelope around cuFFT (pad a column into its transform length, keep the positive
// frequencies, take the magnitude).
// Thread contract: launches are asynchronous on the given stream.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>
#include <cufft.h>

namespace sonolink::beamform::cuda {

// A thread block of the delay-and-sum kernels: 64 depths x 4 neighbouring columns (a warp: 32
// depths of one column), whose delays are alike, so that the samples one column reads are in
// the L1 cache for the others. The host's channel ranges are per block.
constexpr int kDepthsPerBlock = 64;
constexpr int kColumnsPerBlock = 4;
constexpr int kThreadsPerBlock = kDepthsPerBlock * kColumnsPerBlock;
// The blocks an SM must hold for a kernel built for full occupancy (GpuKernelOptions): as many
// threads as an SM takes (2048; 1536 on sm_86 and sm_89), which holds each thread to 32 (42)
// registers.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890)
constexpr int kThreadsPerSm = 1536;
#else
constexpr int kThreadsPerSm = 2048;
#endif
constexpr int kBlocksForFullOccupancy = kThreadsPerSm / kThreadsPerBlock;

struct DasGeometry {
    const float* gridZ;  // nz
    // Per column and channel ([ix][c]), computed on the host as the CPU reference computes them, so that both make the same aperture decisions and delays:
    // (x - x_e)^2 and the depth from which the element is inside the receive aperture
    // (2 F# |x - x_e|); the window's phase scale.
    const float2* channel;
    const float* windowScale;
    // Per block of kColumnsPerBlock columns and kDepthsPerBlock depths ([column block][depth
    // block]): the channels [first, last) inside the aperture anywhere in the block (the others
    // are not visited).
    const int2* channelRange;
    const float* tx;  // waves x nx x nz: transmit delay in samples, initial time folded in
    int nx, nz, waves, channels, samples;
    float samplesPerMetre;
    int window;                  // beamform::Window as int
    float windowOffset;          // Tukey: pi (1 - alpha) / alpha
    bool conversionsByRounding;  // delays' samples and fractions, int16 values, by float rounding (GpuKernelOptions)
    bool fullOccupancy;          // the kernels held to 32 registers a thread (GpuKernelOptions)
};

// frames: `count` frames of waves x channels x samples; image: count x nx x nz (column-major).
void launchDelayAndSum(const float* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream);
void launchDelayAndSum(const std::int16_t* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream);

// The IQ path, for frames of `traces` (waves x channels) each: demodulation as
// beamform::iqDemodulation describes it (decimated by `decimation`), then each pair of samples
// (k, k + 1) turned by the phase of their midpoint, as the CPU's delayAndSumIq turns them (it
// keeps each turned pair's midpoint and step): per trace iqSamples + 1 entries, the last 0 (the
// table is cleared once, when allocated).
struct IqSteps {
    const float2* taps;       // 2 halfLength + 1: the low-pass filter turned by the mixer
    const float2* mixer;      // iqSamples: 2 mixer[o decimation]
    const float2* midPhasor;  // iqSamples: exp(i (phi_first + omega (k + 1/2)))
    int halfLength, decimation, rfSamples, iqSamples;
    bool conversionsByRounding;  // int16 samples' values by float rounding (GpuKernelOptions)
};
void launchDemodulate(const float* rf, int traces, const IqSteps& q, float2* iq, cudaStream_t stream);
void launchDemodulate(const std::int16_t* rf, int traces, const IqSteps& q, float2* iq, cudaStream_t stream);
void launchPairTable(const float2* iq, int traces, const IqSteps& q, float4* table, cudaStream_t stream);
// g: the IQ samples' geometry (samples, samplesPerMetre and tx at the decimated rate); omega:
// radians per IQ sample. image: the magnitude of the beamformed IQ (the envelope).
void launchDelayAndSumIq(const float4* table, int count, const DasGeometry& g, float omega, float* image, cudaStream_t stream);

// Sector imaging: pixels along rays (ray it, depth ir: x = r sin theta, z = r cos theta).
struct RayGeometry {
    const float* x;  // rays x depths
    const float* z;
    const float* elementX;     // channels
    const int* apertureFirst;  // rays x channels: the depths [first, last) where the element is in
    const int* apertureLast;   // the aperture, decided as the CPU reference decides it
    const float* tx;           // waves x rays x depths: transmit delay in samples
    int rays, depths, waves, channels, samples;
    float samplesPerMetre;
    float twoFNumber;
    int window;
    float tukeyAlpha;
    float invTukeyAlpha;
};
// image: count x rays x depths, each ray contiguous.
void launchDelayAndSumRays(const float* frames, int count, const RayGeometry& g, float* image, cudaStream_t stream);
void launchDelayAndSumRays(const std::int16_t* frames, int count, const RayGeometry& g, float* image, cudaStream_t stream);

// columns (count of them, nz each) into spectrum rows of `length` complex values, zero-padded.
void launchPadColumns(const float* columns, int count, int nz, int length, cufftComplex* spectrum, cudaStream_t stream);
// Analytic signal's spectrum: bins 1..length/2-1 doubled, length/2+1.. zeroed (0 and length/2 kept).
void launchKeepPositiveFrequencies(cufftComplex* spectrum, int count, int length, cudaStream_t stream);
// columns[i] = |spectrum[i]| / length for the first nz values of each row.
void launchMagnitude(const cufftComplex* spectrum, int count, int nz, int length, float* columns, cudaStream_t stream);

}  // namespace sonolink::beamform::cuda
