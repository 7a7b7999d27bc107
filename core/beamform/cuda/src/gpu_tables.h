// The host-side tables the GPU beamformer's kernels read, computed as the CPU reference computes
// them (cpu_beamformer.cpp, iq_beamformer.cpp, sector_beamformer.cpp) so that both make the same
// aperture decisions and delays: per grid column and channel, per ray, and the IQ path's filter,
// mixer and phasors. Plain C++ (no CUDA types); pure functions.
#pragma once

#include <complex>
#include <vector>

#include "sonolink/beamform/beamform_types.h"

namespace sonolink::beamform::cuda {

struct GridTables {
    std::vector<float> gridZ;        // nz
    std::vector<float> channel;      // [ix][c] pairs: (x - x_e)^2, and 2 F# |x - x_e|, the depth from which the element is in the aperture
    std::vector<float> windowScale;  // [ix][c]: the window's phase per 1/z (Hann pi 2 F# |dx|, Tukey that / alpha; rectangular 0)
    std::vector<int> channelRange;   // [column block][depth block] pairs: the channels [first, last) in the aperture somewhere in the block
    std::vector<float> tx;           // waves x nx x nz: transmit delay in samples
    float samplesPerMetre = 0;
    float windowOffset = 0;  // Tukey: pi (1 - alpha) / alpha
};
// geometry: the samples' own (for IQ, the decimated rate). The kernels' blocks: depthsPerBlock x
// columnsPerBlock.
[[nodiscard]] GridTables gridTables(const AcquisitionGeometry& geometry, const PixelGrid& grid, const BeamformParams& params, int depthsPerBlock,
                                    int columnsPerBlock);

struct RayTables {
    std::vector<float> x, z;                       // rays x depths
    std::vector<float> elementX;                   // channels
    std::vector<int> apertureFirst, apertureLast;  // rays x channels: depth indices [first, last)
    std::vector<float> tx;                         // waves x rays x depths
    float samplesPerMetre = 0;
};
[[nodiscard]] RayTables rayTables(const AcquisitionGeometry& geometry, const std::vector<double>& r, const std::vector<double>& theta,
                                  const BeamformParams& params);

struct IqTables {
    AcquisitionGeometry layout;  // the IQ samples': decimated rate and count
    int decimation = 1, halfLength = 0;
    std::vector<std::complex<float>> taps;       // 2 halfLength + 1
    std::vector<std::complex<float>> mixer;      // layout.samples: 2 mixer[o decimation]
    std::vector<std::complex<float>> midPhasor;  // layout.samples: exp(i (phi_first + omega (k + 1/2)))
    float omega = 0;                             // radians per IQ sample
};
[[nodiscard]] IqTables iqTables(const AcquisitionGeometry& rf, double modulationFrequencyHz, int decimation);

}  // namespace sonolink::beamform::cuda
