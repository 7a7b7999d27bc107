#include "sonolink/beamform/acquisition_geometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

namespace sonolink::beamform {

Status AcquisitionGeometry::validate() const {
    if (waves <= 0 || channels <= 0 || samples <= 1) {
        return fail(ErrorCode::InvalidArgument, fmt::format("channel data of {} waves x {} channels x {} samples is empty", waves, channels, samples));
    }
    if (elementX.size() != static_cast<std::size_t>(channels)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} element positions for {} channels", elementX.size(), channels));
    }
    if (angleRad.size() != static_cast<std::size_t>(waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} transmit angles for {} waves", angleRad.size(), waves));
    }
    if (!sourceDistance.empty() && sourceDistance.size() != static_cast<std::size_t>(waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} source distances for {} waves", sourceDistance.size(), waves));
    }
    if (!photoacoustic.empty() && photoacoustic.size() != static_cast<std::size_t>(waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} photoacoustic marks for {} waves", photoacoustic.size(), waves));
    }
    for (std::size_t w = 0; w < sourceDistance.size(); ++w) {
        if (std::isnan(sourceDistance[w]) || sourceDistance[w] == 0) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("wave {}: source distance {} (a focus or virtual source cannot be at the origin)", w, sourceDistance[w]));
        }
    }
    for (std::size_t e = 0; e < elementX.size(); ++e) {
        if (!std::isfinite(elementX[e])) return fail(ErrorCode::InvalidArgument, fmt::format("element {}: position {} m is no number", e, elementX[e]));
    }
    if (elementX.size() > 1 && std::all_of(elementX.begin(), elementX.end(), [&](double x) { return x == elementX.front(); })) {
        return fail(ErrorCode::InvalidArgument, fmt::format("the {} elements all lie at x = {} m: an aperture of no width cannot be imaged "
                                                            "(the probe's element positions are missing)",
                                                            elementX.size(), elementX.front() + 0.0));
    }
    for (std::size_t w = 0; w < angleRad.size(); ++w) {
        if (!std::isfinite(angleRad[w]) || std::abs(angleRad[w]) >= std::numbers::pi / 2) {
            return fail(ErrorCode::InvalidArgument, fmt::format("wave {}: steering angle {} rad is not an angle within +-90 degrees", w, angleRad[w]));
        }
    }
    if (!(samplingRateHz > 0) || !(soundSpeedMps > 0)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("sampling rate {} Hz and sound speed {} m/s must be positive", samplingRateHz, soundSpeedMps));
    }
    return {};
}

std::vector<double> linearArrayElementX(int count, double pitchM) {
    std::vector<double> x;
    x.reserve(static_cast<std::size_t>(std::max(count, 0)));
    for (int e = 0; e < count; ++e) x.push_back((e - (count - 1) / 2.0) * pitchM);
    return x;
}

}  // namespace sonolink::beamform
