// The beamformer's vocabulary, in USTB's conventions: a frame's channel data over an acquisition
// geometry (acquisition_geometry.h), a pixel grid of x and z vectors (metres), the transmit
// delay, and receive apodization by F-number with a window.
// Plain value types and pure functions: no threads, no allocation beyond the vectors they own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "sonolink/beamform/acquisition_geometry.h"
#include "sonolink/util/result.h"

namespace sonolink::beamform {

// One frame's samples as the beamformers read them: waves x channels x samples of the geometry,
// in one of two types: float (files, tests) or the front end's int16 ADC samples (beamformed
// straight from the ring). Exactly one is set; the geometry must outlive the view.
struct ChannelDataView {
    const AcquisitionGeometry* geometry = nullptr;
    std::span<const float> samples;
    std::span<const std::int16_t> samples16;

    template <typename T> [[nodiscard]] const T* trace(int wave, int channel) const noexcept {
        const T* base = nullptr;
        if constexpr (std::is_same_v<T, float>) base = samples.data();
        else base = samples16.data();
        return base + (static_cast<std::size_t>(wave) * static_cast<std::size_t>(geometry->channels) + static_cast<std::size_t>(channel)) *
                          static_cast<std::size_t>(geometry->samples);
    }
    // InvalidArgument naming the first inconsistency (no geometry, sample count, the geometry's own).
    [[nodiscard]] Status validate() const;
};

// A transmit delay linear in depth down a column x, in samples from the record's first sample,
// atSurface + z perMetre: a plane wave's, (x sin θ + z cos θ) / c; a photoacoustic shot's, none
// (t = 0 at the shot: the receive path alone). nullopt for a focused or diverging wave.
struct LinearTransmitDelay {
    float atSurface = 0;
    float perMetre = 0;
};
[[nodiscard]] std::optional<LinearTransmitDelay> linearTransmitDelay(const AcquisitionGeometry& g, int wave, double x) noexcept;

// The transmit delay of wave `wave` to the depths z of column x, in samples from the record's
// first sample: linearTransmitDelay()'s where it is linear; for a source S (focus or virtual
// source) at distance d along θ, (sign(z - z_S) |P - S| + d) / c, so that t = 0 when the wave
// crosses the origin. The CPU and GPU beamformers all take their delays from here.
void transmitDelaySamples(const AcquisitionGeometry& g, int wave, double x, std::span<const float> z, std::span<float> out) noexcept;

struct PixelGrid {
    std::vector<double> x;  // lateral positions (m), any order
    std::vector<double> z;  // depths (m), strictly increasing, > 0
    [[nodiscard]] static PixelGrid fromRanges(double x0, double x1, std::size_t nx, double z0, double z1, std::size_t nz);
    [[nodiscard]] Status validate() const;
};

enum class Window { Rectangular, Hann, Tukey };

struct BeamformParams {
    double fNumber = 1.5;  // receive aperture width = depth / F#
    Window window = Window::Rectangular;
    double tukeyAlpha = 0.5;  // fraction of the aperture that is tapered
};

// Receive apodization weight for an element at lateral distance |dx| from a pixel at depth z:
// zero outside the aperture |dx| <= z / (2 F#).
[[nodiscard]] float apodization(double dx, double z, const BeamformParams& params) noexcept;
// The window's weight at r = |dx| / (z / 2 F#) in [0, 1] (clamped): 1 at the centre.
[[nodiscard]] float windowWeight(double r, const BeamformParams& params) noexcept;

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
