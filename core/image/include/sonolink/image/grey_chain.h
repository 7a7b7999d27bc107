// GreyChain: an envelope image becomes the 8-bit picture a console shows. In order: log
// compression against the frame's peak, onto the display raster (RasterResampler), time-gain
// compensation (control points in dB evenly spaced from the raster's top to its bottom, joined by
// a monotone cubic: smooth, never beyond its neighbours), overall gain, the dynamic range,
// persistence (each shown frame = weight x the one shown before + (1 - weight) x the new one) and
// a grey map. Thread contract: one thread per GreyChain; the settings change between frames.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sonolink/image/display_raster.h"

namespace sonolink::image {

// How the dynamic range is spread over the 256 grey levels.
enum class GreyMap {
    Linear,    // evenly
    Soft,      // low echoes lifted (gamma 0.7): more of the weak tissue shows
    Contrast,  // an S-curve: mid-greys spread, the ends pressed
};

struct GreySettings {
    std::vector<double> tgcDb;  // empty: none; otherwise at least 2 points, top to bottom
    double gainDb = 0;
    double dynamicRangeDb = 60;
    double persistence = 0;  // the weight of the frame shown before, 0 (off) to < 1
    GreyMap greyMap = GreyMap::Linear;
    bool operator==(const GreySettings&) const = default;
};

// The gain of each of `rows` rows (dB): the control points spread evenly from row 0 to the last,
// joined by a monotone piecewise cubic (Fritsch-Carlson), plus the overall gain.
[[nodiscard]] std::vector<float> depthGainDb(const std::vector<double>& tgcDb, double gainDb, int rows);

class GreyChain {
public:
    GreyChain(RasterResampler resampler, GreySettings settings);
    [[nodiscard]] const RasterGeometry& raster() const noexcept { return resampler_.raster(); }
    [[nodiscard]] const GreySettings& settings() const noexcept { return settings_; }
    // From the next frame on; what persistence holds is kept.
    void setSettings(GreySettings settings);
    // Persistence starts again from the next frame.
    void reset() noexcept { primed_ = false; }
    // envelopeColumnMajor: the grid's envelope, [x][z]; pixels: rows x columns of the raster.
    // Allocates nothing.
    // referencePeak > 0: 0 dB is that envelope value (levels comparable from frame to frame, as a
    // laser shot's must be); else each frame's own peak.
    void process(std::span<const float> envelopeColumnMajor, std::span<std::uint8_t> pixels, float referencePeak = 0);

private:
    static constexpr int kLevels = 4096;  // the grey map's table, over [-dynamic range, 0] dB
    void build();

    RasterResampler resampler_;
    GreySettings settings_;
    std::vector<float> rowGainDb_;       // per raster row
    std::vector<std::uint8_t> greyLut_;  // kLevels entries
    std::vector<float> gridDb_;          // the grid's log-compressed envelope
    std::vector<float> current_;         // the new frame on the raster, dB
    std::vector<float> shown_;           // the raster in dB as last shown (persistence)
    bool primed_ = false;
};

}  // namespace sonolink::image
