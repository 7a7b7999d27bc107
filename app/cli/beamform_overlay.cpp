#include "beamform_overlay.h"

#include <fmt/format.h>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/image/display_raster.h"
#include "sonolink/image/image_files.h"
#include "sonolink/record/recorder.h"

namespace sonolink::cli {

Result<std::unique_ptr<ShotOverlay>> ShotOverlay::open(const std::string& file, const beamform::PixelGrid& grid, const beamform::BeamformParams& params,
                                                       int columns, int rows, const ShotOverlayOptions& options) {
    if (file.starts_with("s3://")) return fail(ErrorCode::InvalidArgument, "--overlay-shots reads a local recording (copy it from the archive first)");
    auto ids = record::readFrameIds(file);
    if (!ids) return fail(std::move(ids.error()));
    if (ids->shots.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} holds no laser shots ({}): --overlay-shots needs a dual-mode recording", file, record::kShotGroup));
    }
    auto reader = record::UffReader::open(file, record::kShotGroup);
    if (!reader) return fail(std::move(reader.error()));
    auto resampler = image::displayResampler(grid.x, grid.z, columns, rows);
    if (!resampler) return fail(std::move(resampler.error()));
    image::GreyChain chain(std::move(*resampler), {std::vector<double>(8, 0.0), options.gainDb, options.dynamicRangeDb, 0, image::GreyMap::Linear});
    const image::OverlayStyle style{options.map == "iron" ? image::ColourMap::Iron : image::ColourMap::Hot, options.threshold, options.opacity};
    return std::unique_ptr<ShotOverlay>(new ShotOverlay(std::move(*reader), std::move(*ids), grid, params, std::move(chain), style));
}

Result<std::optional<ShotOverlay::Written>> ShotOverlay::write(int frame, std::span<const std::uint8_t> bmode, const std::string& base) {
    if (frame < 0 || static_cast<std::size_t>(frame) >= ids_.ultrasound.size()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("ultrasound frame {} has no frame id in /acquisition/frame_id", frame));
    }
    const auto shot = record::lastShotBefore(ids_, ids_.ultrasound[static_cast<std::size_t>(frame)]);
    if (!shot) return std::optional<Written>{};
    auto data = reader_.read({static_cast<int>(*shot), 1, 0});
    if (!data) return fail(std::move(data.error()).addContext(fmt::format("reading laser shot {}", *shot)));
    auto view = data->frame(0);
    if (!view) return fail(std::move(view.error()));
    auto image = beamform::delayAndSum(*view, grid_, params_);
    if (!image) return fail(std::move(image.error()).addContext(fmt::format("beamforming laser shot {}", *shot)));
    beamform::envelopeAlongDepth(*image);
    const auto& raster = chain_.raster();
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(raster.rows) * static_cast<std::size_t>(raster.columns));
    chain_.process(image->columns, pixels);
    auto rgb = image::overlayPicture(bmode, pixels, style_);
    if (!rgb) return fail(std::move(rgb.error()));
    const auto png = base + "_overlay.png";
    if (auto ok = image::writePngRgb(png, *rgb, static_cast<std::size_t>(raster.rows), static_cast<std::size_t>(raster.columns)); !ok)
        return fail(std::move(ok.error()));
    return std::optional(Written{png, ids_.shots[*shot]});
}

}  // namespace sonolink::cli
