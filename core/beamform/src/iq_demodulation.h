// The IQ demodulation trace by trace, for the IQ beamformer (iq_beamformer.cpp), which builds its
// tables from each trace's filter outputs while they are still in the worker's cache, instead of
// from a frame of IQ samples written out and read back. Private to sonolink_beamform.
// Thread contract: the sink is called concurrently for different traces (parallelFor); the
// samples it is handed are the worker's own and valid until it returns.
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
// The low-pass filter's outputs of each trace t (wave-major) before the mixer,
// y[o] = sum_j taps[j + H] x[o D + j], so that demodulateToIq's samples are 2 mixer[o D] y[o]:
// handed to sink(t, re, im), re and im the worker's own, o < the IQ layout's samples. With AVX2;
// the arguments must have passed iqLayoutOf.
void forEachFilteredTrace(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, unsigned threads,
                          BodyRef<std::size_t, const float*, const float*> sink);
#endif

}  // namespace sonolink::beamform
