#include "sonolink/image/display_raster.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "sonolink/util/assert.h"

namespace sonolink::image {

Result<RasterGeometry> rasterFitting(double x0, double x1, double z0, double z1, int maxColumns, int maxRows) {
    if (!(x1 > x0) || !(z1 > z0))
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("no display raster for an empty field ({:g} to {:g} m across, {:g} to {:g} m deep)", x0, x1, z0, z1));
    if (maxColumns < 2 || maxRows < 2)
        return fail(ErrorCode::InvalidArgument, fmt::format("a display raster of {} x {} pixels: at least 2 x 2", maxColumns, maxRows));
    const double width = x1 - x0;
    const double depth = z1 - z0;
    RasterGeometry r;
    r.metresPerPixel = std::max(width / (maxColumns - 1), depth / (maxRows - 1));
    r.columns = std::min(maxColumns, static_cast<int>(std::floor(width / r.metresPerPixel + 1e-9)) + 1);
    r.rows = std::min(maxRows, static_cast<int>(std::floor(depth / r.metresPerPixel + 1e-9)) + 1);
    r.xStartM = x0;
    r.zStartM = z0;
    return r;
}

bool monotonic(std::span<const double> axis) {
    if (axis.size() < 2) return false;
    const bool up = axis[1] > axis[0];
    for (std::size_t i = 1; i < axis.size(); ++i) {
        if (up ? !(axis[i] > axis[i - 1]) : !(axis[i] < axis[i - 1])) return false;
    }
    return true;
}

std::vector<RasterResampler::Tap> RasterResampler::tapsFor(std::span<const double> axis, double start, double step, int count) {
    std::vector<Tap> taps(static_cast<std::size_t>(count));
    const auto last = static_cast<int>(axis.size()) - 1;
    const bool up = axis[last] > axis[0];
    for (int i = 0; i < count; ++i) {
        const double at = start + i * step;
        // The grid interval holding `at` (between axis[k] and axis[k + 1]), clamped to the edges.
        const auto beyond = up ? std::upper_bound(axis.begin(), axis.end(), at) : std::upper_bound(axis.begin(), axis.end(), at, std::greater<>());
        const int k = std::clamp(static_cast<int>(beyond - axis.begin()) - 1, 0, last - 1);
        const double a = axis[static_cast<std::size_t>(k)];
        const double b = axis[static_cast<std::size_t>(k) + 1];
        taps[static_cast<std::size_t>(i)] = {k, static_cast<float>(std::clamp((at - a) / (b - a), 0.0, 1.0))};
    }
    return taps;
}

RasterResampler::RasterResampler(std::span<const double> gridX, std::span<const double> gridZ, RasterGeometry raster)
    : raster_(raster), gridRows_(static_cast<int>(gridZ.size())), gridPixels_(gridX.size() * gridZ.size()),
      columnTaps_(tapsFor(gridX, raster.xStartM, raster.metresPerPixel, raster.columns)),
      rowTaps_(tapsFor(gridZ, raster.zStartM, raster.metresPerPixel, raster.rows)) {}

void RasterResampler::resample(std::span<const float> columnMajor, std::span<float> out) const {
    const auto columns = static_cast<std::size_t>(raster_.columns);
    const auto nz = static_cast<std::size_t>(gridRows_);
    SONOLINK_ASSERT(columnMajor.size() == gridPixels_ && out.size() == columns * rowTaps_.size(), "resample: an image of another size");
    for (std::size_t c = 0; c < columns; ++c) {
        const auto [j, wx] = columnTaps_[c];
        const float* left = columnMajor.data() + static_cast<std::size_t>(j) * nz;
        const float* right = left + nz;
        for (std::size_t r = 0; r < rowTaps_.size(); ++r) {
            const auto [i, wz] = rowTaps_[r];
            const float a = left[i] + wz * (left[i + 1] - left[i]);
            const float b = right[i] + wz * (right[i + 1] - right[i]);
            out[r * columns + c] = a + wx * (b - a);
        }
    }
}

Result<RasterResampler> displayResampler(std::span<const double> x, std::span<const double> z, int maxColumns, int maxRows) {
    if (!monotonic(x) || !monotonic(z)) {
        return fail(ErrorCode::InvalidArgument, "a display raster needs a grid whose x and z each run one way, with at least 2 values each");
    }
    const auto [x0, x1] = std::minmax_element(x.begin(), x.end());
    const auto [z0, z1] = std::minmax_element(z.begin(), z.end());
    auto raster = rasterFitting(*x0, *x1, *z0, *z1, maxColumns, maxRows);
    if (!raster) return fail(std::move(raster.error()));
    return RasterResampler(x, z, *raster);
}

}  // namespace sonolink::image
