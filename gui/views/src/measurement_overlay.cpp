#include "measurement_overlay.h"

#include <QPainterPath>
#include <QTransform>

#include <cmath>
#include <numbers>

namespace sonolink::gui {
namespace {

const QColor kCaliper(255, 220, 0);

void cross(QPainter& painter, QPointF at, double size) {
    painter.drawLine(at - QPointF(size, 0), at + QPointF(size, 0));
    painter.drawLine(at - QPointF(0, size), at + QPointF(0, size));
}

}  // namespace

void drawMeasurements(QPainter& painter, const QList<Measurement>& measurements, const std::function<QPointF(QPointF)>& toScreen, double pixelsPerMm) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(kCaliper, 1.2));
    painter.setBrush(Qt::NoBrush);
    const double size = 5;
    for (const auto& m : measurements) {
        QList<QPointF> at;
        for (const auto& p : m.pointsMm) at << toScreen(p);
        for (const auto& p : at) cross(painter, p, size);
        if (m.kind == MeasurementKind::Distance && at.size() >= 2) {
            painter.setPen(QPen(kCaliper, 1, Qt::DashLine));
            painter.drawLine(at[0], at[1]);
            painter.setPen(QPen(kCaliper, 1.2));
        } else if (m.kind == MeasurementKind::Ellipse && at.size() >= 2) {
            const auto [a, b] = semiAxesMm(m);
            const QPointF centre = (at[0] + at[1]) / 2;
            const double angle = std::atan2(at[1].y() - at[0].y(), at[1].x() - at[0].x()) * 180 / std::numbers::pi;
            painter.save();
            painter.translate(centre);
            painter.rotate(angle);
            painter.setPen(QPen(kCaliper, 1, at.size() >= 3 ? Qt::SolidLine : Qt::DashLine));
            painter.drawEllipse(QPointF(0, 0), a * pixelsPerMm, std::max(b * pixelsPerMm, 1.0));
            painter.restore();
        }
        if (!at.isEmpty() && m.complete()) {
            const QString text = m.kind == MeasurementKind::Text ? m.text : m.label;
            painter.drawText(at.back() + QPointF(size + 2, -size - 2), text);
        }
    }
    painter.restore();
}

}  // namespace sonolink::gui
