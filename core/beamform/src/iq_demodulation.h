// The IQ demodulation trace by trace, for the IQ beamformer (iq_beamformer.cpp), which builds its
// tables from each trace's filter outputs while they are still in the worker's cache, instead of
// from a frame of IQ samples written out and read back. Private to sonolink_beamform.
// Thread contract: filterTrace may be called from any thread; each keeps its own filter for the
// layout it last saw. The samples the sink is handed are the calling thread's own, valid until it
// returns.
#pragma once

#include <complex>
#include <cstddef>

#include "parallel_for.h"
#include "sonolink/beamform/iq_beamformer.h"

namespace sonolink::beamform {

// The layout demodulateToIq(rf, f_d, decimation) gives, once it has checked its arguments as
// demodulateToIq does.
[[nodiscard]] Result<AcquisitionGeometry> iqLayoutOf(const ChannelDataView& rf, double modulationFrequencyHz, int decimation);

#if defined(__x86_64__)
// The low-pass filter's outputs of trace t (wave-major) before the mixer,
// y[o] = sum_j taps[j + H] x[o D + j], so that demodulateToIq's samples are 2 mixer[o D] y[o]:
// handed to sink(re, im), o < the IQ layout's samples. With AVX2; the arguments must have passed
// iqLayoutOf.
void filterTrace(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, std::size_t t, BodyRef<const float*, const float*> sink);
#endif

}  // namespace sonolink::beamform
