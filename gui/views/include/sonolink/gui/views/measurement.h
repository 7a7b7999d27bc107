// Measurement: a caliper or annotation on the image, in millimetres of the picture (lateral x,
// depth z): a distance (two points), an ellipse's area and circumference (its major axis' two
// ends and a point on the minor axis' end), or a text note at a point. Values and labels as
// the measurement list and the exports show them.
// Thread contract: plain values and pure functions.
#pragma once

#include <QList>
#include <QPointF>
#include <QString>

namespace sonolink::gui {

enum class MeasurementKind { Distance, Ellipse, Text };

struct Measurement {
    MeasurementKind kind = MeasurementKind::Distance;
    QList<QPointF> pointsMm;  // Distance: 2; Ellipse: 3; Text: 1
    QString text;             // Text: the note
    QString label;            // "D1", "A1", "T1"
    [[nodiscard]] bool complete() const;
    [[nodiscard]] int pointsNeeded() const { return kind == MeasurementKind::Distance ? 2 : kind == MeasurementKind::Ellipse ? 3 : 1; }
};

[[nodiscard]] double distanceMm(const Measurement& m);
// The ellipse's semi-axes (mm): half the major axis, and the third point's distance from it.
[[nodiscard]] std::pair<double, double> semiAxesMm(const Measurement& m);
[[nodiscard]] double areaMm2(const Measurement& m);
[[nodiscard]] double circumferenceMm(const Measurement& m);  // Ramanujan's approximation
// "D1  12.34 mm", "A1  56.7 mm², circumference 27.1 mm", "T1  note".
[[nodiscard]] QString describe(const Measurement& m);

}  // namespace sonolink::gui
