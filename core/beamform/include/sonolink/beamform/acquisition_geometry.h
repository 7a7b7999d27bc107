// AcquisitionGeometry: what one acquisition is, in USTB's conventions: waves x channels x
// samples, the sampling, the sound speed, the probe (a linear array on z = 0) and the transmit
// sequence (plane, focused or diverging waves, or photoacoustic shots: received only). The one value the wire Configure maps to and
// from, the beamformers (CPU and CUDA) read, the recorder writes and the UFF reader returns.
// Thread contract: plain value; validate() is pure.
#pragma once

#include <algorithm>

#include <cstddef>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::beamform {

struct AcquisitionGeometry {
    int waves = 0;              // transmits per frame
    int channels = 0;           // receive channels, one per element
    int samples = 0;            // per channel and wave
    double samplingRateHz = 0;  // sample k at t = initialTimeS + k / samplingRateHz
    double initialTimeS = 0;    // t = 0 when the wave crosses the origin
    double soundSpeedMps = 1540;
    std::vector<double> elementX;  // element centres (m), one per channel; y = z = 0
    double elementWidthM = 0;
    double elementHeightM = 0;
    std::vector<double> angleRad;  // one per wave: steering angle (USTB's source azimuth)
    // One per wave, or empty for plane waves only (USTB's source distance, m): +infinity a plane
    // wave; > 0 a focused wave, its focus this far from the origin along angleRad; < 0 a
    // diverging wave, its virtual source this far behind the array.
    std::vector<double> sourceDistance;
    // One per wave, or empty when every wave is ultrasound: true for a photoacoustic wave (USTB's
    // wavefront 2), a laser shot received only: no transmit path, t = 0 at the shot (its angle and
    // source distance are not used).
    std::vector<bool> photoacoustic;

    [[nodiscard]] bool isPhotoacoustic(int wave) const noexcept { return !photoacoustic.empty() && photoacoustic[static_cast<std::size_t>(wave)]; }
    // A laser shot's frame: every wave photoacoustic.
    [[nodiscard]] bool isShot() const noexcept {
        return !photoacoustic.empty() && std::all_of(photoacoustic.begin(), photoacoustic.end(), [](bool p) { return p; });
    }

    [[nodiscard]] std::size_t samplesPerFrame() const noexcept {
        return static_cast<std::size_t>(waves) * static_cast<std::size_t>(channels) * static_cast<std::size_t>(samples);
    }
    // InvalidArgument naming the first inconsistency (an empty dimension, element or angle count,
    // element positions that are no number or all at one point, a steering angle that is no
    // number or beyond +-90 degrees, a source at the origin, a rate or speed that is not positive,
    // a photoacoustic mark per wave missing).
    [[nodiscard]] Status validate() const;
};

// The centres of a linear array of `count` elements at `pitchM`, symmetric about x = 0.
[[nodiscard]] std::vector<double> linearArrayElementX(int count, double pitchM);

}  // namespace sonolink::beamform
