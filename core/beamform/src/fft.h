// An in-place radix-2 complex FFT (power-of-two sizes), enough for the reference Hilbert
// transform. Private to sonolink_beamform. Thread contract: pure function.
#pragma once

#include <complex>
#include <span>

namespace sonolink::beamform {

// Forward (inverse = false) or inverse (unscaled) transform; data.size() must be a power of two.
void fft(std::span<std::complex<double>> data, bool inverse) noexcept;

}  // namespace sonolink::beamform
