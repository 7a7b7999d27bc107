#include "sonolink/beamform/beamform_types.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

namespace sonolink::beamform {

Status ChannelDataView::validate() const {
    if (!geometry) return fail(ErrorCode::InvalidArgument, "channel data without its acquisition geometry");
    if (auto ok = geometry->validate(); !ok) return ok;
    const auto expected = geometry->samplesPerFrame();
    if (!samples.empty() && !samples16.empty()) {
        return fail(ErrorCode::InvalidArgument, "channel data given both as float and as int16 samples");
    }
    const auto held = samples.empty() ? samples16.size() : samples.size();
    if (held != expected) {
        return fail(ErrorCode::InvalidArgument, fmt::format("channel data holds {} samples, {} waves x {} channels x {} samples need {}", held, geometry->waves,
                                                            geometry->channels, geometry->samples, expected));
    }
    return {};
}

std::optional<LinearTransmitDelay> linearTransmitDelay(const AcquisitionGeometry& g, int wave, double x) noexcept {
    const float samplesPerMetre = static_cast<float>(g.samplingRateHz / g.soundSpeedMps);
    const float firstSample = static_cast<float>(g.initialTimeS * g.samplingRateHz);
    if (g.isPhotoacoustic(wave)) return LinearTransmitDelay{-firstSample, 0.0f};
    const auto w = static_cast<std::size_t>(wave);
    if (!g.sourceDistance.empty() && !std::isinf(g.sourceDistance[w])) return std::nullopt;
    return LinearTransmitDelay{static_cast<float>(x * std::sin(g.angleRad[w])) * samplesPerMetre - firstSample,
                               static_cast<float>(std::cos(g.angleRad[w])) * samplesPerMetre};
}

void transmitDelaySamples(const AcquisitionGeometry& g, int wave, double x, std::span<const float> z, std::span<float> out) noexcept {
    if (const auto linear = linearTransmitDelay(g, wave, x)) {
        for (std::size_t i = 0; i < z.size(); ++i) out[i] = linear->atSurface + z[i] * linear->perMetre;
        return;
    }
    const float samplesPerMetre = static_cast<float>(g.samplingRateHz / g.soundSpeedMps);
    const float firstSample = static_cast<float>(g.initialTimeS * g.samplingRateHz);
    const auto w = static_cast<std::size_t>(wave);
    const double sourceDistance = g.sourceDistance[w];
    const double sx = sourceDistance * std::sin(g.angleRad[w]), sz = sourceDistance * std::cos(g.angleRad[w]);
    for (std::size_t i = 0; i < z.size(); ++i) {
        const double toSource = std::hypot(x - sx, z[i] - sz);
        const double metres = (z[i] >= sz ? toSource : -toSource) + sourceDistance;
        out[i] = static_cast<float>(metres) * samplesPerMetre - firstSample;
    }
}

PixelGrid PixelGrid::fromRanges(double x0, double x1, std::size_t nx, double z0, double z1, std::size_t nz) {
    PixelGrid grid;
    for (std::size_t i = 0; i < nx; ++i) grid.x.push_back(nx == 1 ? x0 : x0 + (x1 - x0) * static_cast<double>(i) / static_cast<double>(nx - 1));
    for (std::size_t i = 0; i < nz; ++i) grid.z.push_back(nz == 1 ? z0 : z0 + (z1 - z0) * static_cast<double>(i) / static_cast<double>(nz - 1));
    return grid;
}

Status PixelGrid::validate() const {
    if (x.empty() || z.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("pixel grid of {} x {} is empty", x.size(), z.size()));
    for (std::size_t i = 0; i < z.size(); ++i) {
        if (!(z[i] > 0)) return fail(ErrorCode::InvalidArgument, fmt::format("depth z[{}] = {} m: depths must be positive", i, z[i]));
        if (i > 0 && !(z[i] > z[i - 1])) return fail(ErrorCode::InvalidArgument, fmt::format("depths must increase: z[{}] = {} after {}", i, z[i], z[i - 1]));
    }
    return {};
}

float apodization(double dx, double z, const BeamformParams& params) noexcept {
    const double halfAperture = z / (2 * params.fNumber);
    const double r = std::abs(dx) / halfAperture;  // 0 at the centre, 1 at the edge
    return r > 1 ? 0.0f : windowWeight(r, params);
}

float windowWeight(double r, const BeamformParams& params) noexcept {
    r = std::clamp(r, 0.0, 1.0);
    switch (params.window) {
        case Window::Rectangular: return 1.0f;
        case Window::Hann: return static_cast<float>(0.5 * (1 + std::cos(std::numbers::pi * r)));
        case Window::Tukey: {
            const double flat = 1 - params.tukeyAlpha;
            if (r <= flat) return 1.0f;
            return static_cast<float>(0.5 * (1 + std::cos(std::numbers::pi * (r - flat) / params.tukeyAlpha)));
        }
    }
    return 0.0f;
}

std::vector<float> BeamformedImage::rowMajor() const {
    std::vector<float> out(nx * nz);
    for (std::size_t ix = 0; ix < nx; ++ix) {
        for (std::size_t iz = 0; iz < nz; ++iz) out[iz * nx + ix] = columns[ix * nz + iz];
    }
    return out;
}

}  // namespace sonolink::beamform
