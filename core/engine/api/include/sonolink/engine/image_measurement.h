// ImageMeasurement: a caliper the user placed on an exported picture, with the value the console
// shows for it, in millimetres of the picture (lateral x from the array's centre, depth z from
// its face): what the engine writes into the image's measurement report (DICOM SR).
// Thread contract: a plain value.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sonolink::engine {

struct ImageMeasurement {
    enum class Kind { Distance, Ellipse, Note };
    Kind kind = Kind::Distance;
    std::string label;                                // "D1", "A1", "T1"
    std::vector<std::pair<double, double>> pointsMm;  // Distance: its 2 ends; Ellipse: the major axis' ends, the minor's end; Note: 1
    double lengthMm = 0;                              // Distance
    double areaMm2 = 0, perimeterMm = 0;              // Ellipse
    std::string text;                                 // Note
};

}  // namespace sonolink::engine
