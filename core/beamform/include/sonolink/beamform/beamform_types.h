// The beamformer's vocabulary, in USTB's conventions: channel data of plane, focused or diverging
// transmits ([wave][channel][sample], float or the front end's int16, sample k at t = initialTime
// + k / fs, t = 0 when the wave crosses the origin), a linear array on z = 0, a pixel grid of x
// and z vectors (metres), the transmit delay, and receive apodization by F-number with a window.
// Plain value types and pure functions: no threads, no allocation beyond the vectors they own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::beamform {

struct ChannelDataView {
    // waves x channels x samplesPerChannel, in one of two types: float (files, tests) or the
    // front end's int16 ADC samples (beamformed straight from the ring). Exactly one is set.
    std::span<const float> samples;
    std::span<const std::int16_t> samples16;
    int waves = 0;
    int channels = 0;
    int samplesPerChannel = 0;
    double samplingRateHz = 0;
    double initialTimeS = 0;
    double soundSpeedMps = 1540;
    std::span<const double> elementX;      // one per channel (m)
    std::span<const double> angleRad;      // one per wave: steering angle (USTB's source azimuth)
    // One per wave, or empty for plane waves only (USTB's source distance, m): +infinity a plane
    // wave; > 0 a focused wave, its focus this far from the origin along angleRad; < 0 a
    // diverging wave, its virtual source this far behind the array.
    std::span<const double> sourceDistance;

    template <typename T>
    [[nodiscard]] const T* trace(int wave, int channel) const noexcept {
        const T* base = nullptr;
        if constexpr (std::is_same_v<T, float>) base = samples.data();
        else base = samples16.data();
        return base + (static_cast<std::size_t>(wave) * static_cast<std::size_t>(channels) + static_cast<std::size_t>(channel)) *
                          static_cast<std::size_t>(samplesPerChannel);
    }
    // InvalidArgument naming the first inconsistency (sizes, rates, element count).
    [[nodiscard]] Status validate() const;
    // The same, for everything but the samples (a layout that other samples, such as IQ, follow).
    [[nodiscard]] Status validateGeometry() const;
};

// The transmit delay of one wave to the depths z of column x, in samples from the record's first
// sample: (x sin θ + z cos θ) / c for a plane wave; for a source S (focus or virtual source) at
// distance d along θ, (sign(z - z_S) |P - S| + d) / c, so that t = 0 when the wave crosses the
// origin. The CPU and GPU beamformers both take their delays from here.
void transmitDelaySamples(double angleRad, double sourceDistance, double x, std::span<const float> z, double samplingRateHz,
                          double soundSpeedMps, double initialTimeS, std::span<float> out) noexcept;

struct PixelGrid {
    std::vector<double> x;  // lateral positions (m), any order
    std::vector<double> z;  // depths (m), strictly increasing, > 0
    [[nodiscard]] static PixelGrid fromRanges(double x0, double x1, std::size_t nx, double z0, double z1, std::size_t nz);
    [[nodiscard]] Status validate() const;
};

enum class Window { Rectangular, Hann, Tukey };

struct BeamformParams {
    double fNumber = 1.5;        // receive aperture width = depth / F#
    Window window = Window::Rectangular;
    double tukeyAlpha = 0.5;     // fraction of the aperture that is tapered
};

// Receive apodization weight for an element at lateral distance |dx| from a pixel at depth z:
// zero outside the aperture |dx| <= z / (2 F#).
[[nodiscard]] float apodization(double dx, double z, const BeamformParams& params) noexcept;

// A beamformed image, column-major ([x][z]: each column contiguous in depth).
struct BeamformedImage {
    std::size_t nx = 0;
    std::size_t nz = 0;
    std::vector<float> columns;
    [[nodiscard]] float at(std::size_t ix, std::size_t iz) const noexcept { return columns[ix * nz + iz]; }
    // Row-major [nz][nx], depth along rows (the .npy / PNG layout).
    [[nodiscard]] std::vector<float> rowMajor() const;
};

}  // namespace sonolink::beamform
