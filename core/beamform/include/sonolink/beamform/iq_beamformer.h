// The IQ option of the CPU reference beamformer: RF channel data demodulated to complex baseband
// (mixed down by the modulation frequency f_d, low-pass filtered, not decimated), then
// delay-and-sum with linear interpolation of I and Q and phase rotation exp(i 2π f_d τ) by each
// sample's total delay τ; the image's magnitude is the envelope, with no Hilbert transform.
// Same conventions, aperture and windows as delayAndSum (cpu_beamformer.h).
// Thread contract: pure functions; each call uses `threads` worker threads of its own.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "sonolink/beamform/beamform_types.h"

namespace sonolink::beamform {

// waves x channels x samples complex baseband samples, on the RF's time grid.
[[nodiscard]] Result<std::vector<std::complex<float>>> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz);

struct IqImage {
    std::size_t nx = 0;
    std::size_t nz = 0;
    std::vector<std::complex<float>> columns;  // column-major like BeamformedImage
    [[nodiscard]] BeamformedImage magnitude() const;
};

// layout: the geometry the IQ samples follow.
// rotate = false leaves out the phase rotation (tests: it must matter).
[[nodiscard]] Result<IqImage> delayAndSumIq(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq,
                                            double modulationFrequencyHz, const PixelGrid& grid, const BeamformParams& params,
                                            unsigned threads = 0, bool rotate = true);

}  // namespace sonolink::beamform
