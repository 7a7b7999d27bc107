// The CPU delay-and-sum beamformer: the readable reference (the oracle the CUDA beamformer is
// checked against) and the fallback on stations without a GPU. Plane, focused and diverging
// waves, coherently compounded; linear interpolation; receive apodization by F-number; samples outside the
// record contribute 0; no normalisation by the sum of weights. Then the envelope (Hilbert
// transform along depth) and log compression. Columns of the grid are shared among threads.
// Thread contract: pure functions; each call uses `threads` worker threads of its own.
#pragma once

#include <span>

#include "sonolink/beamform/beamform_types.h"

namespace sonolink::beamform {

// Beamformed RF (real), column-major. threads = 0: one per hardware thread. vectorised: the
// AVX2 inner loop where the CPU has it (same arithmetic, eight depths at a time); false forces
// the scalar reference loop.
[[nodiscard]] Result<BeamformedImage> delayAndSum(const ChannelDataView& data, const PixelGrid& grid,
                                                  const BeamformParams& params, unsigned threads = 0,
                                                  bool vectorised = true);

// In place: each column's samples become the magnitude of its analytic signal.
void envelopeAlongDepth(BeamformedImage& image, unsigned threads = 0);

// 20 log10(value / max) + gain, clipped to [-dynamicRange, 0] dB; an all-zero image gives -dynamicRange.
[[nodiscard]] std::vector<float> logCompress(std::span<const float> envelope, double dynamicRangeDb, double gainDb);

}  // namespace sonolink::beamform
