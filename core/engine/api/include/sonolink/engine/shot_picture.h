// What dual mode shows, composed the one way the console, the CLI's PNGs and the DICOM export
// share: a laser shot's picture through the chosen colour map, alone or laid over the B-mode
// picture of the same raster (co-registered), at the settings' threshold and opacity.
// Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "sonolink/engine/display_products.h"
#include "sonolink/engine/settings.h"
#include "sonolink/util/result.h"

namespace sonolink::engine {

// R, G, B bytes (rows x columns x 3) of the shot's picture in colour.
[[nodiscard]] std::vector<std::uint8_t> shotColours(const DisplayFrame& shot, const PhotoacousticSettings& settings);
// The B-mode in grey with the shot's colour over it; InvalidArgument when the two pictures are
// not of one raster (a shot of an older grid, say).
[[nodiscard]] Result<std::vector<std::uint8_t>> shotOverlay(const DisplayFrame& bmode, const DisplayFrame& shot, const PhotoacousticSettings& settings);

}  // namespace sonolink::engine
