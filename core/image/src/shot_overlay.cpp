#include "sonolink/image/shot_overlay.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sonolink::image {
namespace {

struct Stop {
    double at;
    double r, g, b;
};

// Control points in sRGB, joined linearly; each step raises L* (the tests hold every table to it).
constexpr std::array<Stop, 6> kHot{{{0.00, 0.00, 0.00, 0.00},
                                    {0.25, 0.55, 0.02, 0.00},
                                    {0.50, 0.90, 0.22, 0.00},
                                    {0.70, 1.00, 0.55, 0.00},
                                    {0.88, 1.00, 0.85, 0.20},
                                    {1.00, 1.00, 1.00, 1.00}}};
constexpr std::array<Stop, 7> kIron{{{0.00, 0.00, 0.00, 0.00},
                                     {0.15, 0.16, 0.00, 0.38},
                                     {0.35, 0.55, 0.02, 0.55},
                                     {0.55, 0.88, 0.25, 0.12},
                                     {0.72, 1.00, 0.55, 0.00},
                                     {0.88, 1.00, 0.86, 0.25},
                                     {1.00, 1.00, 1.00, 0.92}}};

template <std::size_t N> std::array<Rgb, 256> tableOf(const std::array<Stop, N>& stops) {
    std::array<Rgb, 256> table{};
    for (int level = 0; level < 256; ++level) {
        const double t = level / 255.0;
        std::size_t k = 1;
        while (k + 1 < N && stops[k].at < t) ++k;
        const auto& a = stops[k - 1];
        const auto& b = stops[k];
        const double u = std::clamp((t - a.at) / (b.at - a.at), 0.0, 1.0);
        const auto byte = [u](double x, double y) { return static_cast<std::uint8_t>(std::lround(255 * (x + (y - x) * u))); };
        table[static_cast<std::size_t>(level)] = {byte(a.r, b.r), byte(a.g, b.g), byte(a.b, b.b)};
    }
    return table;
}

double linear(std::uint8_t c) {
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

}  // namespace

const std::array<Rgb, 256>& colourTable(ColourMap map) {
    static const auto hot = tableOf(kHot);
    static const auto iron = tableOf(kIron);
    return map == ColourMap::Iron ? iron : hot;
}

double lightness(Rgb c) {
    const double y = 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
    return y > 216.0 / 24389 ? 116 * std::cbrt(y) - 16 : y * 24389.0 / 27;
}

std::vector<std::uint8_t> colourPicture(std::span<const std::uint8_t> shot, ColourMap map) {
    const auto& table = colourTable(map);
    std::vector<std::uint8_t> rgb(shot.size() * 3);
    for (std::size_t i = 0; i < shot.size(); ++i) {
        const auto c = table[shot[i]];
        rgb[3 * i] = c.r;
        rgb[3 * i + 1] = c.g;
        rgb[3 * i + 2] = c.b;
    }
    return rgb;
}

Result<std::vector<std::uint8_t>> overlayPicture(std::span<const std::uint8_t> bmode, std::span<const std::uint8_t> shot, const OverlayStyle& style) {
    if (bmode.size() != shot.size()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the photoacoustic picture has {} pixels, the B-mode {}: not the same raster", shot.size(), bmode.size()));
    }
    const auto& table = colourTable(style.map);
    const auto threshold = static_cast<int>(std::lround(std::clamp(style.threshold, 0.0, 1.0) * 255));
    const double alpha = std::clamp(style.opacity, 0.0, 1.0);
    std::vector<std::uint8_t> rgb(bmode.size() * 3);
    for (std::size_t i = 0; i < bmode.size(); ++i) {
        const double grey = bmode[i];
        if (shot[i] < threshold || shot[i] == 0) {
            rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = bmode[i];
            continue;
        }
        const auto c = table[shot[i]];
        const auto blend = [&](std::uint8_t colour) { return static_cast<std::uint8_t>(std::lround(grey + (colour - grey) * alpha)); };
        rgb[3 * i] = blend(c.r);
        rgb[3 * i + 1] = blend(c.g);
        rgb[3 * i + 2] = blend(c.b);
    }
    return rgb;
}

}  // namespace sonolink::image
