// Sector imaging for phased-array (and any) probes: delay-and-sum on pixels along rays from the
// array's centre (depth r, angle θ from the z axis: x = r sin θ, z = r cos θ), the same sum as the
// CPU reference (transmit delays, F-number aperture, windows, zero outside the record), then the
// envelope along each ray; scanConvert (scan_conversion.h) puts the result on a Cartesian grid.
// Thread contract: pure functions; the work is shared over the persistent worker pool (`threads`).
#pragma once

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/beamform/scan_conversion.h"

namespace sonolink::beamform {

// Beamformed RF along the rays (SectorImage::rays, [theta][r]). r > 0, increasing; θ increasing.
[[nodiscard]] Result<SectorImage> delayAndSumSector(const ChannelDataView& data, std::vector<double> r, std::vector<double> theta, const BeamformParams& params,
                                                    unsigned threads = 0);

// In place: each ray's samples become the magnitude of its analytic signal along r.
void envelopeAlongRays(SectorImage& sector, unsigned threads = 0);

}  // namespace sonolink::beamform
