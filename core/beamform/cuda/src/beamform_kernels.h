// The GPU beamformer's kernels, launched on a stream: delay-and-sum (one thread per pixel,
// frames along the grid's z dimension) and the steps of the envelope around cuFFT (pad a column
// into its transform length, keep the positive frequencies, take the magnitude).
// Thread contract: launches are asynchronous on the given stream.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>
#include <cufft.h>

namespace sonolink::beamform::cuda {

struct DasGeometry {
    const float* gridZ;     // nz
    // Per column and channel ([ix][c]), computed on the host exactly as the CPU reference does,
    // so that both make the same aperture decisions and delays: the first depth index inside the
    // receive aperture, (x - x_e)^2 and x - x_e.
    const int* apertureStart;
    const float* dx2;
    const float* dx;
    const float* tx;        // waves x nx x nz: transmit delay in samples, initial time folded in
    int nx, nz, waves, channels, samples;
    float samplesPerMetre;
    float twoFNumber;
    int window;             // beamform::Window as int
    float tukeyAlpha;
};

// frames: `count` frames of waves x channels x samples; image: count x nx x nz (column-major).
void launchDelayAndSum(const float* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream);
void launchDelayAndSum(const std::int16_t* frames, int count, const DasGeometry& g, float* image, cudaStream_t stream);

// columns (count of them, nz each) into spectrum rows of `length` complex values, zero-padded.
void launchPadColumns(const float* columns, int count, int nz, int length, cufftComplex* spectrum, cudaStream_t stream);
// Analytic signal's spectrum: bins 1..length/2-1 doubled, length/2+1.. zeroed (0 and length/2 kept).
void launchKeepPositiveFrequencies(cufftComplex* spectrum, int count, int length, cudaStream_t stream);
// columns[i] = |spectrum[i]| / length for the first nz values of each row.
void launchMagnitude(const cufftComplex* spectrum, int count, int nz, int length, float* columns, cudaStream_t stream);

}  // namespace sonolink::beamform::cuda
