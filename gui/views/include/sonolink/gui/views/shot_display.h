// ShotDisplay: how dual mode's laser shots are shown, as the console's controls set it: the
// view (ultrasound, photoacoustic, the shots laid over the B-mode, or side by side), the colour
// map, the shots' own gain and dynamic range, the threshold below which nothing is drawn, the
// overlay's opacity, and whether each shot is normalised by its pulse energy.
// Thread contract: a plain value: copy freely.
#pragma once

namespace sonolink::gui {

enum class ShotView { Ultrasound, Photoacoustic, Overlay, SideBySide };
enum class ShotMap { Hot, Iron };

struct ShotDisplay {
    ShotView view = ShotView::Overlay;
    ShotMap map = ShotMap::Hot;
    double gainDb = 0;
    double dynamicRangeDb = 30;
    double threshold = 0.35;  // 0..1 of the colour scale
    double opacity = 0.7;     // 0..1
    bool normaliseEnergy = false;
    bool operator==(const ShotDisplay&) const = default;
};

}  // namespace sonolink::gui
