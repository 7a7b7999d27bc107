// A GPU beamformer's set-up, read and checked: its path (a grid, IQ with phase rotation, or
// sector rays), its IQ decimation, and validateSetup(), every limit a set-up must meet before any
// device memory is taken (the reason named). Thread contract: pure functions.
#pragma once

#include "sonolink/beamform/cuda/gpu_beamformer.h"

namespace sonolink::beamform::cuda {

enum class BeamformPath { Grid, Iq, Rays };

[[nodiscard]] BeamformPath pathOf(const GpuBeamformerSetup& s);
[[nodiscard]] int decimationOf(const GpuBeamformerSetup& s);
[[nodiscard]] Status validateSetup(const GpuBeamformerSetup& s);

}  // namespace sonolink::beamform::cuda
