// BModeView: the live (or frozen) B-mode picture in true proportions: fitted to the widget with
// equal millimetres per screen pixel across and down, black around it, a depth ruler on the
// left and a lateral ruler on top in mm (a tick every 5 mm, labelled every 10 mm, for what is in
// view); zoom (the wheel, about the cursor, 1 to 8 x) and pan (drag); the TGC curve with its
// control points on the right while it is adjusted (the caller fades it), and TGC markers;
// calipers (distance, ellipse) and text notes placed by clicks with a tool chosen, in mm; the
// probe's orientation mark at the picture's top left, the patient banner, a state mark and a
// notice over it.
// Thread contract: GUI thread only.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <optional>
#include <vector>

#include "sonolink/gui/views/bmode_image.h"
#include "sonolink/gui/views/measurement.h"

namespace sonolink::gui {

class BModeView : public QWidget {
    Q_OBJECT
public:
    explicit BModeView(QWidget* parent = nullptr);

    void showImage(BModeImage image);
    [[nodiscard]] const BModeImage& image() const { return image_; }
    // Where the whole picture lies in the widget (beyond it when zoomed), and its scale there (0
    // before the first image).
    [[nodiscard]] QRectF imageRect() const;
    [[nodiscard]] double screenPixelsPerMm() const;
    // The picture's point (lateral x, depth z, mm) under a widget position, and back.
    [[nodiscard]] QPointF mmAt(QPointF widgetPosition) const;
    [[nodiscard]] QPointF widgetPositionOf(QPointF mm) const;

    // Zoom (1: the whole picture fits) about a widget position (the view's centre by default).
    void zoomAbout(double zoom, std::optional<QPointF> widgetPosition = {});
    void panBy(QPointF screenPixels);
    void resetView();
    [[nodiscard]] double zoom() const { return zoom_; }

    // The TGC curve (dB per control point, spread over the depth) drawn with this opacity (0: not drawn).
    void setTgcCurve(std::vector<double> db, double opacity);
    [[nodiscard]] double tgcOpacity() const { return tgcOpacity_; }

    // Clicks place the chosen tool's points (none: they pan); a text note asks for its text by
    // textRequested(), then addMeasurement(). Measurements are numbered per kind (D1, A1, T1).
    void setTool(std::optional<MeasurementKind> tool);
    [[nodiscard]] std::optional<MeasurementKind> tool() const { return tool_; }
    void addMeasurement(Measurement m);
    void clearMeasurements();
    [[nodiscard]] const QList<Measurement>& measurements() const { return measurements_; }
    // The picture at its own pixels, with the calipers and notes burnt in when overlays.
    [[nodiscard]] QImage renderImage(bool overlays) const;

    // Captions drawn over the view (never into renderImage): the patient banner (top left), a
    // mark of the picture's state such as "FROZEN" (top right), and a notice in the middle: why no
    // new picture shows and what to do (alarm: red, else amber; empty: none).
    void setPatientBanner(const QString& text);
    void setStateMark(const QString& text);
    void setNotice(const QString& text, bool alarm);
    [[nodiscard]] QString patientBanner() const { return banner_; }
    [[nodiscard]] QString stateMark() const { return mark_; }
    [[nodiscard]] QString notice() const { return notice_; }

Q_SIGNALS:
    void measurementsChanged();
    // What drawing the picture took: wall time, and the GUI thread's own CPU time (its cost,
    // without the time other threads held the core).
    void painted(double wallMs, double cpuMs);
    void textRequested(QPointF mm);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void paint();
    [[nodiscard]] QRectF viewport() const;
    void keepInView();
    void drawRulers(QPainter& painter, const QRectF& target) const;
    void drawTgc(QPainter& painter, const QRectF& target) const;
    void drawCaptions(QPainter& painter, const QRectF& target) const;

    BModeImage image_;
    QImage drawn_;  // image_ as drawn (RGB32), made at its first paint
    double zoom_ = 1;
    QPointF pan_;  // screen pixels from the fitted position
    std::optional<QPointF> dragFrom_;
    std::vector<double> tgcDb_;
    double tgcOpacity_ = 0;
    std::optional<MeasurementKind> tool_;
    Measurement pending_;  // the caliper being placed
    QList<Measurement> measurements_;
    QString banner_;
    QString mark_;
    QString notice_;
    bool noticeAlarm_ = false;
};

}  // namespace sonolink::gui
