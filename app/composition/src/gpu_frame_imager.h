// GpuFrameImager: the engine's FrameImager on the GPU: a frame's blocks are copied to the device
// straight from the acquisition ring (no host copy) and beamformed with the envelope by
// GpuBeamformer. Built only with the CUDA module. Thread contract: one thread (the display's).
#pragma once

#include <memory>

#include "sonolink/engine/engine_backends.h"

namespace sonolink::app {

// Unavailable (no device, no cuFFT) or InvalidArgument, with the reason: the caller falls back
// to the CPU and logs why.
[[nodiscard]] Result<std::unique_ptr<engine::FrameImager>> makeGpuFrameImager(const beamform::AcquisitionGeometry& geometry,
                                                                              const engine::ImagingSetup& imaging);

}  // namespace sonolink::app
