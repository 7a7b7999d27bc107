// DisplayRaster: the picture people look at has equal millimetres per pixel across and down (a
// 38 x 35 mm field is drawn 38 wide by 35 tall, whatever grid it was beamformed on). rasterFitting()
// chooses the largest such raster that fits a box; RasterResampler carries an image from its
// grid (any monotonic axes) onto the raster by bilinear interpolation.
// Thread contract: plain values; a RasterResampler is immutable, resample() may run on many threads.
#pragma once

#include <span>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::image {

struct RasterGeometry {
    int columns = 0;
    int rows = 0;
    double metresPerPixel = 0;  // across (x) and down (z) alike
    double xStartM = 0;         // the centre of the first column: lateral, 0 under the array's centre
    double zStartM = 0;         // the centre of the first row: depth from the array's face
    [[nodiscard]] double xM(int column) const noexcept { return xStartM + column * metresPerPixel; }
    [[nodiscard]] double zM(int row) const noexcept { return zStartM + row * metresPerPixel; }
    bool operator==(const RasterGeometry&) const = default;
};

// The raster over [x0, x1] x [z0, z1] (pixel centres from x0 and z0, none beyond x1 or z1) with
// the finest equal spacing at which it fits maxColumns x maxRows. InvalidArgument for an empty
// extent or a box under 2 x 2.
[[nodiscard]] Result<RasterGeometry> rasterFitting(double x0, double x1, double z0, double z1, int maxColumns, int maxRows);

// Whether the axis has at least 2 values, strictly increasing or strictly decreasing.
[[nodiscard]] bool monotonic(std::span<const double> axis);

class RasterResampler {
public:
    // gridX, gridZ: the grid's axes, each monotonic (a grid whose x runs right to left is shown
    // the right way round).
    RasterResampler(std::span<const double> gridX, std::span<const double> gridZ, RasterGeometry raster);
    [[nodiscard]] const RasterGeometry& raster() const noexcept { return raster_; }
    [[nodiscard]] std::size_t gridPixels() const noexcept { return gridPixels_; }
    // columnMajor: the grid image, [x][z] (the beamformer's layout); out: [row][column] on the
    // raster (rows x columns values); other sizes are a programmer's error. Outside the grid, the
    // nearest edge value.
    void resample(std::span<const float> columnMajor, std::span<float> out) const;

private:
    struct Tap {  // value = (1 - weight) v[index] + weight v[index + 1]
        int index;
        float weight;
    };
    static std::vector<Tap> tapsFor(std::span<const double> axis, double start, double step, int count);

    RasterGeometry raster_;
    int gridRows_;  // nz
    std::size_t gridPixels_;
    std::vector<Tap> columnTaps_;
    std::vector<Tap> rowTaps_;
};

// The resampler from a grid (x, z: its axes) onto the raster over its extent that fits
// maxColumns x maxRows; InvalidArgument for an axis that is not monotonic or a box under 2 x 2.
[[nodiscard]] Result<RasterResampler> displayResampler(std::span<const double> x, std::span<const double> z, int maxColumns, int maxRows);

}  // namespace sonolink::image
