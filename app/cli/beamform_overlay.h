// `sonolink-cli beamform --overlay-shots`: a dual-mode recording's ultrasound frames, each with
// the last laser shot before it (by the front end's frame ids) beamformed receive-only on the
// same grid, drawn through its own grey chain on the same display raster (co-registered) and
// laid over the B-mode in colour (core/image's maps, threshold and opacity), as <base>_overlay.png.
// Thread contract: main thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/image/grey_chain.h"
#include "sonolink/image/shot_overlay.h"
#include "sonolink/record/recording_kinds.h"
#include "sonolink/record/uff_reader.h"

namespace sonolink::cli {

struct ShotOverlayOptions {
    bool enabled = false;
    double gainDb = 0;
    double dynamicRangeDb = 30;
    double threshold = 0.35;
    double opacity = 0.7;
    std::string map = "hot";  // or iron
};

class ShotOverlay {
public:
    // InvalidArgument when the file holds no laser shots (not a dual-mode recording).
    [[nodiscard]] static Result<std::unique_ptr<ShotOverlay>> open(const std::string& file, const beamform::PixelGrid& grid,
                                                                   const beamform::BeamformParams& params, int boxColumns, int boxRows,
                                                                   const ShotOverlayOptions& options);
    // Ultrasound frame `frame` (index in /channel_data) whose picture is bmode: the overlay PNG's
    // path and the shot's frame id, or none when no shot came before it.
    struct Written {
        std::string png;
        std::uint32_t shotFrameId = 0;
    };
    [[nodiscard]] Result<std::optional<Written>> write(int frame, std::span<const std::uint8_t> bmode, const std::string& base);

private:
    ShotOverlay(record::UffReader reader, record::RecordingFrameIds ids, beamform::PixelGrid grid, beamform::BeamformParams params, image::GreyChain chain,
                image::OverlayStyle style)
        : reader_(std::move(reader)), ids_(std::move(ids)), grid_(std::move(grid)), params_(params), chain_(std::move(chain)), style_(style) {}

    record::UffReader reader_;
    record::RecordingFrameIds ids_;
    beamform::PixelGrid grid_;
    beamform::BeamformParams params_;
    image::GreyChain chain_;
    image::OverlayStyle style_;
};

}  // namespace sonolink::cli
