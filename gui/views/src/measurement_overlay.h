// drawMeasurements(): the calipers and notes drawn over a picture, wherever it is drawn (the
// view on screen, or the image itself when overlays are burnt in): crosses at the points, the
// line or ellipse, the label beside it. toScreen maps picture mm to the painter's coordinates.
// Thread contract: the painter's thread.
#pragma once

#include <QList>
#include <QPainter>
#include <QPointF>

#include <functional>

#include "sonolink/gui/views/measurement.h"

namespace sonolink::gui {

void drawMeasurements(QPainter& painter, const QList<Measurement>& measurements, const std::function<QPointF(QPointF)>& toScreen, double pixelsPerMm);

}  // namespace sonolink::gui
