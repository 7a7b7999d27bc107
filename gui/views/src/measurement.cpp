#include "sonolink/gui/views/measurement.h"

#include <QCoreApplication>

#include <cmath>
#include <numbers>

namespace sonolink::gui {
namespace {

struct MeasurementText {
    Q_DECLARE_TR_FUNCTIONS(sonolink::gui::Measurement)
};

double length(QPointF d) { return std::hypot(d.x(), d.y()); }

}  // namespace

bool Measurement::complete() const { return pointsMm.size() >= pointsNeeded(); }

double distanceMm(const Measurement& m) { return m.pointsMm.size() < 2 ? 0 : length(m.pointsMm[1] - m.pointsMm[0]); }

std::pair<double, double> semiAxesMm(const Measurement& m) {
    if (m.pointsMm.size() < 2) return {0, 0};
    const QPointF a = m.pointsMm[0], b = m.pointsMm[1];
    const double major = length(b - a) / 2;
    if (m.pointsMm.size() < 3 || major <= 0) return {major, 0};
    const QPointF p = m.pointsMm[2] - a, axis = (b - a) / (2 * major);
    const double minor = std::abs(p.x() * axis.y() - p.y() * axis.x());  // the distance from the axis line
    return {major, minor};
}

double areaMm2(const Measurement& m) {
    const auto [a, b] = semiAxesMm(m);
    return std::numbers::pi * a * b;
}

double circumferenceMm(const Measurement& m) {
    const auto [a, b] = semiAxesMm(m);
    return std::numbers::pi * (3 * (a + b) - std::sqrt((3 * a + b) * (a + 3 * b)));
}

QString describe(const Measurement& m) {
    switch (m.kind) {
        case MeasurementKind::Distance: return MeasurementText::tr("%1  %2 mm").arg(m.label).arg(distanceMm(m), 0, 'f', 2);
        case MeasurementKind::Ellipse:
            return MeasurementText::tr("%1  %2 mm², circumference %3 mm").arg(m.label).arg(areaMm2(m), 0, 'f', 1).arg(circumferenceMm(m), 0, 'f', 1);
        case MeasurementKind::Text: return QStringLiteral("%1  %2").arg(m.label, m.text);
    }
    return m.label;
}

}  // namespace sonolink::gui
