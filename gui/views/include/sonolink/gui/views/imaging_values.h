// ImagingValues: the picture's settings as the sonographer sets them (gain, dynamic range, depth,
// persistence, one TGC value per control point near to far): what the imaging panel shows, a
// preset keeps, and the bridge hands to the engine in one change.
// Thread contract: a plain value.
#pragma once

#include <vector>

namespace sonolink::gui {

struct ImagingValues {
    double gainDb = 0;
    double dynamicRangeDb = 60;
    double depthStartMm = 3;
    double depthEndMm = 38;
    double persistence = 0;
    std::vector<double> tgcDb = std::vector<double>(8, 0.0);
};

}  // namespace sonolink::gui
