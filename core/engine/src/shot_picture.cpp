#include "sonolink/engine/shot_picture.h"

#include <fmt/format.h>

#include "sonolink/image/shot_overlay.h"

namespace sonolink::engine {
namespace {

image::OverlayStyle styleOf(const PhotoacousticSettings& s) {
    return {s.map == ShotColourMap::Iron ? image::ColourMap::Iron : image::ColourMap::Hot, s.threshold, s.opacity};
}

}  // namespace

std::vector<std::uint8_t> shotColours(const DisplayFrame& shot, const PhotoacousticSettings& settings) {
    return image::colourPicture(shot.pixels, styleOf(settings).map);
}

Result<std::vector<std::uint8_t>> shotOverlay(const DisplayFrame& bmode, const DisplayFrame& shot, const PhotoacousticSettings& settings) {
    if (bmode.rows != shot.rows || bmode.columns != shot.columns || bmode.xStartCm != shot.xStartCm || bmode.zStartCm != shot.zStartCm ||
        bmode.cmPerPixelX != shot.cmPerPixelX) {
        return fail(ErrorCode::InvalidArgument, fmt::format("shot {} ({} x {} px from ({:.2f}, {:.2f}) cm) and B-mode frame {} ({} x {} px from "
                                                            "({:.2f}, {:.2f}) cm) are not one raster: not overlaid",
                                                            shot.frameId, shot.columns, shot.rows, shot.xStartCm, shot.zStartCm, bmode.frameId, bmode.columns,
                                                            bmode.rows, bmode.xStartCm, bmode.zStartCm));
    }
    return image::overlayPicture(bmode.pixels, shot.pixels, styleOf(settings));
}

}  // namespace sonolink::engine
