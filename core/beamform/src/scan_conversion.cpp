#include "sonolink/beamform/scan_conversion.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sonolink::beamform {
namespace {

Status checkIncreasing(const std::vector<double>& values, const char* what) {
    if (values.size() < 2) return fail(ErrorCode::InvalidArgument, fmt::format("the sector needs at least two {} values, not {}", what, values.size()));
    for (std::size_t i = 1; i < values.size(); ++i) {
        if (!(values[i] > values[i - 1])) {
            return fail(ErrorCode::InvalidArgument, fmt::format("sector {} must increase: {}[{}] = {} after {}", what, what, i, values[i], values[i - 1]));
        }
    }
    return {};
}

// The cell [i, i + 1] of `axis` that holds v and the fraction of the way across it, or nothing
// when v is outside the axis.
bool locate(const std::vector<double>& axis, double v, std::size_t& i, double& fraction) {
    if (v < axis.front() || v > axis.back()) return false;
    i = static_cast<std::size_t>(std::upper_bound(axis.begin(), axis.end(), v) - axis.begin());
    i = std::min(std::max<std::size_t>(i, 1), axis.size() - 1) - 1;
    fraction = (v - axis[i]) / (axis[i + 1] - axis[i]);
    return true;
}

}  // namespace

Result<BeamformedImage> scanConvert(const SectorImage& sector, const PixelGrid& grid, float fill) {
    if (auto ok = checkIncreasing(sector.r, "r"); !ok) return fail(std::move(ok.error()));
    if (auto ok = checkIncreasing(sector.theta, "theta"); !ok) return fail(std::move(ok.error()));
    if (sector.r.front() < 0) return fail(ErrorCode::InvalidArgument, fmt::format("sector depth r[0] = {} is negative", sector.r.front()));
    const auto nr = sector.r.size(), nt = sector.theta.size();
    if (sector.rays.size() != nr * nt) {
        return fail(ErrorCode::InvalidArgument, fmt::format("the sector holds {} values for {} rays x {} depths", sector.rays.size(), nt, nr));
    }
    if (grid.x.empty() || grid.z.empty()) return fail(ErrorCode::InvalidArgument, "the Cartesian grid is empty");
    BeamformedImage image;
    image.nx = grid.x.size();
    image.nz = grid.z.size();
    image.columns.assign(image.nx * image.nz, fill);
    for (std::size_t ix = 0; ix < image.nx; ++ix) {
        for (std::size_t iz = 0; iz < image.nz; ++iz) {
            const double x = grid.x[ix], z = grid.z[iz];
            std::size_t ir = 0, it = 0;
            double fr = 0, ft = 0;
            if (!locate(sector.r, std::hypot(x, z), ir, fr) || !locate(sector.theta, std::atan2(x, z), it, ft)) continue;
            const auto at = [&](std::size_t t, std::size_t r) { return static_cast<double>(sector.rays[t * nr + r]); };
            const double near = at(it, ir) + fr * (at(it, ir + 1) - at(it, ir));
            const double far = at(it + 1, ir) + fr * (at(it + 1, ir + 1) - at(it + 1, ir));
            image.columns[ix * image.nz + iz] = static_cast<float>(near + ft * (far - near));
        }
    }
    return image;
}

}  // namespace sonolink::beamform
