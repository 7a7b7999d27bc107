// Scan conversion for sector (phased-array) probes: an image beamformed along rays (depth r from
// the probe's centre, angle θ from the z axis, x = r sin θ, z = r cos θ) resampled onto a
// Cartesian pixel grid by bilinear interpolation in (r, θ). Pixels outside the sector get the
// fill value (for a dB image, its floor), so the display shows where there is no data.
// Thread contract: a pure function.
#pragma once

#include <span>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/util/result.h"

namespace sonolink::beamform {

struct SectorImage {
    std::vector<double> r;      // ray depths (m), strictly increasing, >= 0
    std::vector<double> theta;  // ray angles (rad), strictly increasing
    std::vector<float> rays;    // [theta][r]: each ray contiguous in depth (as BeamformedImage's columns)
};

// The Cartesian image, column-major like BeamformedImage ([x][z]).
[[nodiscard]] Result<BeamformedImage> scanConvert(const SectorImage& sector, const PixelGrid& grid, float fill);

}  // namespace sonolink::beamform
