#include "sonolink/beamform/sector_beamformer.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "parallel_for.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::beamform {

Result<SectorImage> delayAndSumSector(const ChannelDataView& data, std::vector<double> r, std::vector<double> theta, const BeamformParams& params,
                                      unsigned threads) {
    if (auto ok = data.validate(); !ok) return fail(std::move(ok.error()));
    if (!(params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    PixelGrid rays{theta, r};  // the same checks: r as depths (positive, increasing)
    if (auto ok = rays.validate(); !ok) return fail(std::move(ok.error()).addContext("sector depths r"));
    for (std::size_t i = 1; i < theta.size(); ++i) {
        if (!(theta[i] > theta[i - 1]))
            return fail(ErrorCode::InvalidArgument, fmt::format("sector angles must increase: theta[{}] = {} after {}", i, theta[i], theta[i - 1]));
    }
    SectorImage sector{std::move(r), std::move(theta), {}};
    const auto nr = sector.r.size(), nt = sector.theta.size();
    sector.rays.assign(nr * nt, 0.0f);
    const double samplesPerMetre = data.geometry->samplingRateHz / data.geometry->soundSpeedMps;
    const float lastIndex = static_cast<float>(data.geometry->samples - 1);
    parallelFor(nt, threads, [&](std::size_t it) {
        float* ray = sector.rays.data() + it * nr;
        const double s = std::sin(sector.theta[it]), c = std::cos(sector.theta[it]);
        for (std::size_t ir = 0; ir < nr; ++ir) {
            const double x = sector.r[ir] * s, z = sector.r[ir] * c;
            if (!(z > 0)) continue;  // beside or behind the array
            const float zf = static_cast<float>(z);
            double sum = 0;
            for (int w = 0; w < data.geometry->waves; ++w) {
                float tx = 0;
                transmitDelaySamples(*data.geometry, w, x, std::span(&zf, 1), std::span(&tx, 1));
                for (int ch = 0; ch < data.geometry->channels; ++ch) {
                    const double dx = x - data.geometry->elementX[static_cast<std::size_t>(ch)];
                    const float weight = apodization(dx, z, params);
                    if (weight == 0.0f) continue;
                    const float sample = tx + static_cast<float>(std::hypot(dx, z) * samplesPerMetre);
                    if (!(sample >= 0.0f && sample < lastIndex)) continue;  // outside the record: contributes 0
                    const auto i = static_cast<std::size_t>(sample);
                    const float frac = sample - static_cast<float>(i);
                    float a = 0, b = 0;
                    if (data.samples16.empty()) a = data.trace<float>(w, ch)[i], b = data.trace<float>(w, ch)[i + 1];
                    else a = data.trace<std::int16_t>(w, ch)[i], b = data.trace<std::int16_t>(w, ch)[i + 1];
                    sum += weight * (a + frac * (b - a));
                }
            }
            ray[ir] = static_cast<float>(sum);
        }
    });
    return sector;
}

void envelopeAlongRays(SectorImage& sector, unsigned threads) {
    BeamformedImage rays;  // each ray as a column
    rays.nx = sector.theta.size();
    rays.nz = sector.r.size();
    rays.columns = std::move(sector.rays);
    envelopeAlongDepth(rays, threads);
    sector.rays = std::move(rays.columns);
}

}  // namespace sonolink::beamform
