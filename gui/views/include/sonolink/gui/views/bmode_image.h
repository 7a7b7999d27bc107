// BModeImage: one B-mode picture as the views draw it: 8-bit grey (or, in dual mode, in colour:
// a laser shot laid over it, or the shot alone), rows along depth, square pixels of mmPerPixel
// in both directions, and where its first pixel's centre lies. The bridge
// (gui/bridge) makes these from the engine's display frames; views never see the engine.
// Thread contract: a plain value (QImage is implicitly shared): copy freely.
#pragma once

#include <QImage>
#include <QtGlobal>
#include <QString>

#include <vector>

namespace sonolink::gui {

struct BModeImage {
    QImage image;           // Format_Grayscale8, or Format_RGB888 with a shot in it; rows along depth
    double mmPerPixel = 0;  // the same along width and depth (true proportions)
    double xStartMm = 0;    // lateral position of the first column's centre (0 under the array's centre)
    double zStartMm = 0;    // depth of the first row's centre from the array's face
    quint64 session = 0;
    quint32 frameId = 0;
    double latencyMs = 0;  // the frame's last block to the picture
    quint64 readyNs = 0;   // steady clock when the engine published it
    double gainDb = 0;     // the settings that made the picture
    double dynamicRangeDb = 0;
    std::vector<double> tgcDb;  // at points spread evenly over the picture's depth
    double persistence = 0;
    // Dual mode: the laser shot shown with it (over it, or beside it in shotColour).
    bool hasShot = false;
    quint32 shotFrameId = 0;
    double shotEnergyMj = 0;
    quint64 shotPulseNs = 0;  // the pulse's time on the front end's (PTP) clock
    QImage shotColour;        // the shot alone in colour (side by side); null otherwise
    // Joined from a cluster's hosts, lacking some: "incomplete aperture: host 2" (shown on it).
    QString incompleteAperture;
    [[nodiscard]] double widthMm() const { return image.width() * mmPerPixel; }
    [[nodiscard]] double depthMm() const { return image.height() * mmPerPixel; }
};

}  // namespace sonolink::gui
