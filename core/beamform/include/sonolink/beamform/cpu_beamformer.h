// The CPU delay-and-sum beamformer: the readable reference (the oracle the CUDA beamformer is
// checked against) and the fallback on stations without a GPU. Plane, focused and diverging
// waves, coherently compounded; linear interpolation; receive apodization by F-number; samples outside the
// record contribute 0; no normalisation by the sum of weights. Then the envelope (Hilbert
// transform along depth) and log compression. The vector loops apply Hann and Tukey as a
// polynomial (no transcendental per pixel and channel); the scalar loop, the exact window.
// Thread contract: pure functions; the columns are shared over a persistent worker pool of
// `threads` (the caller taking a share; no thread is started per frame).
#pragma once

#include <span>

#include "sonolink/beamform/beamform_types.h"

namespace sonolink::beamform {

// Which inner loop: the scalar reference, AVX2 gathers, or the best this CPU has: AVX2 where
// AVX-512 is missing; where both are there, RF's delayAndSum times its first frames of each kind
// with each and keeps the faster (which one depends on the CPU). All compute the same sum; tests
// compare them.
enum class VectorLoop { Scalar, Avx2, Best };

// Beamformed RF (real), column-major. threads = 0: one per hardware thread. A loop the CPU
// lacks falls back to the next one it has.
[[nodiscard]] Result<BeamformedImage> delayAndSum(const ChannelDataView& data, const PixelGrid& grid, const BeamformParams& params, unsigned threads = 0,
                                                  VectorLoop loop = VectorLoop::Best);

// In place: each column's samples become the magnitude of its analytic signal. keepEvery = k
// keeps rows 0, k, 2k, ... only (the image then has ceil(nz / k) rows): the envelope of RF
// beamformed k times finer in depth than it is shown.
void envelopeAlongDepth(BeamformedImage& image, unsigned threads = 0, std::size_t keepEvery = 1);

// 20 log10(value / max) + gain, clipped to [-dynamicRange, 0] dB; an all-zero image gives -dynamicRange.
[[nodiscard]] std::vector<float> logCompress(std::span<const float> envelope, double dynamicRangeDb, double gainDb);

}  // namespace sonolink::beamform
