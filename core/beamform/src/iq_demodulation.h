// The IQ demodulation trace by trace, for the IQ beamformer (iq_beamformer.cpp), which builds its
// tables from each demodulated trace while it is still in the worker's cache, instead of from a
// frame of IQ samples written out and read back. Private to sonolink_beamform.
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

// What demodulateToIq computes, each trace t (wave-major) handed to sink(t, samples) instead of
// being kept. The arguments must have passed iqLayoutOf.
void forEachDemodulatedTrace(const ChannelDataView& rf, double modulationFrequencyHz, int decimation, VectorLoop loop, unsigned threads,
                             BodyRef<std::size_t, const std::complex<float>*> sink);

}  // namespace sonolink::beamform
