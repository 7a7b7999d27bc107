// Laser shots in colour: a photoacoustic picture (8-bit levels from its own GreyChain) through a
// perceptual colour map (hot or iron: lightness rises with the level), alone or laid over the
// B-mode picture of the same raster (co-registered), levels below a threshold left out and the
// colour blended at an opacity. Used alike by the console, the CLI's PNGs and the DICOM export.
// Thread contract: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::image {

enum class ColourMap { Hot, Iron };

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
};

struct OverlayStyle {
    ColourMap map = ColourMap::Hot;
    double threshold = 0.3;  // of the level range (0..1): weaker levels not drawn
    double opacity = 0.7;    // of the colour over the grey (0..1)
};

// The map's 256 colours, level 0 (black) to 255.
[[nodiscard]] const std::array<Rgb, 256>& colourTable(ColourMap map);
// CIE L* (0..100) of an sRGB colour: what "perceptual" is checked against.
[[nodiscard]] double lightness(Rgb colour);

// R, G, B bytes for each pixel of a photoacoustic picture, through the map.
[[nodiscard]] std::vector<std::uint8_t> colourPicture(std::span<const std::uint8_t> shot, ColourMap map);
// The B-mode in grey with the shot's colour over it where its level reaches the threshold.
// InvalidArgument when the two pictures are not the same size (not co-registered).
[[nodiscard]] Result<std::vector<std::uint8_t>> overlayPicture(std::span<const std::uint8_t> bmode, std::span<const std::uint8_t> shot,
                                                               const OverlayStyle& style);

}  // namespace sonolink::image
