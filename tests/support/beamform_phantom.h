// Analytic plane-wave phantoms for beamformer tests, in USTB's conventions: point scatterers
// echo a Gaussian-windowed 5 MHz pulse (60 % bandwidth) to a 128-element, 0.3 mm pitch linear
// array sampled at 40 MHz; t = 0 when the wave crosses the origin, the record starting at t0.
// Used by the CPU reference's validation and the GPU-against-CPU comparison.
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "sonolink/beamform/beamform_types.h"

namespace sonolink::beamform::phantom {

inline constexpr double kC = 1540, kFc = 5e6, kFs = 40e6, kPitch = 0.3e-3, kBandwidth = 0.6;
inline constexpr int kElements = 128;
inline const double kLambda = kC / kFc;
// Gaussian envelope with a 60 % (-6 dB) fractional bandwidth.
inline const double kSigmaT = 1 / (2 * std::numbers::pi * kBandwidth * kFc / (2 * std::sqrt(2 * std::log(2.0))));

struct Scatterer {
    double x, z, amplitude;
};

// Channel data owned by the test, with the view the beamformer reads (over its own geometry, or
// over another one to see what a wrong geometry does).
struct Phantom {
    std::vector<float> samples;
    AcquisitionGeometry geometry;
    [[nodiscard]] ChannelDataView view() const { return {&geometry, samples, {}}; }
    [[nodiscard]] ChannelDataView with(const AcquisitionGeometry& other) const { return {&other, samples, {}}; }
};

// sourceDistances: none for plane waves, else one per wave (USTB: > 0 a focus, < 0 a diverging
// wave's virtual source, at that distance along the wave's angle). A focused wave reaches the
// focus at d / c and a point P |P - S| / c before or after; a diverging one spreads from S.
// photoacoustic: every wave a laser shot, each scatterer an absorber emitting at t = 0 (no
// transmit path: the receive path alone).
inline Phantom simulate(const std::vector<Scatterer>& scatterers, const std::vector<double>& anglesDeg, int samples, double t0,
                        const std::vector<double>& sourceDistances = {}, bool photoacoustic = false) {
    Phantom p;
    auto& g = p.geometry;
    g.sourceDistance = sourceDistances;
    if (photoacoustic) g.photoacoustic.assign(anglesDeg.size(), true);
    g.elementX = linearArrayElementX(kElements, kPitch);
    for (double a : anglesDeg) g.angleRad.push_back(a * std::numbers::pi / 180);
    const int waves = static_cast<int>(g.angleRad.size());
    g.waves = waves;
    g.channels = kElements;
    g.samples = samples;
    g.samplingRateHz = kFs;
    g.initialTimeS = t0;
    g.soundSpeedMps = kC;
    p.samples.assign(static_cast<std::size_t>(waves) * kElements * static_cast<std::size_t>(samples), 0.0f);
    for (int w = 0; w < waves; ++w) {
        const double th = g.angleRad[static_cast<std::size_t>(w)];
        for (int e = 0; e < kElements; ++e) {
            float* trace = p.samples.data() + (static_cast<std::size_t>(w) * kElements + static_cast<std::size_t>(e)) * static_cast<std::size_t>(samples);
            for (const auto& s : scatterers) {
                double transmit = photoacoustic ? 0.0 : (s.x * std::sin(th) + s.z * std::cos(th)) / kC;
                if (!sourceDistances.empty() && !photoacoustic) {
                    const double d = sourceDistances[static_cast<std::size_t>(w)], sx = d * std::sin(th), sz = d * std::cos(th);
                    const double toSource = std::hypot(s.x - sx, s.z - sz);
                    transmit = (d + (d < 0 || s.z >= sz ? toSource : -toSource)) / kC;
                }
                const double tau = transmit + std::hypot(s.x - g.elementX[static_cast<std::size_t>(e)], s.z) / kC;
                const int center = static_cast<int>(std::lround((tau - t0) * kFs));
                for (int k = std::max(0, center - 40); k < std::min(samples, center + 40); ++k) {
                    const double t = t0 + k / kFs - tau;
                    trace[k] += static_cast<float>(s.amplitude * std::exp(-t * t / (2 * kSigmaT * kSigmaT)) * std::cos(2 * std::numbers::pi * kFc * t));
                }
            }
        }
    }
    return p;
}

}  // namespace sonolink::beamform::phantom
