// The IQ option of the CPU beamformer: RF channel data demodulated to complex baseband once per
// frame (mixed down by the modulation frequency f_d, low-pass filtered, decimated where the band
// allows), then delay-and-sum with linear interpolation of I and Q and phase rotation
// exp(i 2π f_d τ) by each sample's total delay τ; the image's magnitude is the envelope, with no
// Hilbert transform. Same conventions, aperture and windows as delayAndSum (cpu_beamformer.h).
// The vector loops read a table of sample pairs turned by their midpoint's phase and turn each
// interpolated sample by the rest with a polynomial: no transcendental per pixel and channel.
// Thread contract: pure functions; the work is shared over the persistent worker pool
// (`threads`; the vector path's channels over at most 16 of them), the caller taking a share.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::beamform {

// Complex baseband channel data: waves x channels x samples of `geometry` (the RF's, with the
// sampling rate and sample count divided by the decimation).
struct IqChannelData {
    AcquisitionGeometry geometry;
    std::vector<std::complex<float>> samples;
    int decimation = 1;
};

// The decimation the baseband allows: the low-pass filter passes |f| < f_d, kept at 2.5 f_d or
// more samples per second (at least 1).
[[nodiscard]] int iqDecimation(double samplingRateHz, double modulationFrequencyHz);
// loop: VectorLoop::Scalar filters one output at a time (the reference); otherwise eight
// outputs at a time with AVX2 where the CPU has it.
[[nodiscard]] Result<IqChannelData> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, VectorLoop loop = VectorLoop::Best);
// What demodulateToIq computes, for another implementation of it (the GPU's): with k = o D,
//   out[o] = 2 mixer[k] sum_j taps[j + H] x[k + j],  j = -H .. H, x outside the record = 0,
// taps the low-pass filter turned by the mixer (h_j exp(-i w j)), mixer[k] = exp(-i w k + i phi0).
struct IqDemodulation {
    int halfLength = 0;                      // H
    std::vector<std::complex<float>> taps;   // 2 H + 1
    std::vector<std::complex<float>> mixer;  // one per RF sample
};
[[nodiscard]] IqDemodulation iqDemodulation(const AcquisitionGeometry& rf, double modulationFrequencyHz);
// Not decimated: on the RF's time grid.
[[nodiscard]] Result<std::vector<std::complex<float>>> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz);

struct IqImage {
    std::size_t nx = 0;
    std::size_t nz = 0;
    std::vector<std::complex<float>> columns;  // column-major like BeamformedImage
    [[nodiscard]] BeamformedImage magnitude() const;
};

// layout: the geometry the IQ samples follow. rotate = false leaves out the phase rotation
// (tests: it must matter) and, like VectorLoop::Scalar, runs the reference: the exact window and
// rotation per pixel and channel.
[[nodiscard]] Result<IqImage> delayAndSumIq(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, double modulationFrequencyHz,
                                            const PixelGrid& grid, const BeamformParams& params, unsigned threads = 0, bool rotate = true,
                                            VectorLoop loop = VectorLoop::Best);
// The IQ path from RF as a live image runs it: demodulateToIq(rf, f_d, decimation, loop) and
// delayAndSumIq of the result, with each trace demodulated straight into the beamformer's table
// (no frame of IQ samples in between).
[[nodiscard]] Result<IqImage> delayAndSumIq(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, const PixelGrid& grid,
                                            const BeamformParams& params, unsigned threads = 0, VectorLoop loop = VectorLoop::Best);

}  // namespace sonolink::beamform
