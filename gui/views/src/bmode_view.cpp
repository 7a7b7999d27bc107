#include "sonolink/gui/views/bmode_view.h"

#include <algorithm>
#include <cmath>
#include <ctime>

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include "measurement_overlay.h"

namespace sonolink::gui {
namespace {

constexpr int kRulerLeft = 44;  // room for the depth ruler's labels
constexpr int kRulerTop = 26;   // and the lateral ruler's
constexpr int kMargin = 8;
constexpr double kMaxZoom = 8;
constexpr double kTgcSpanDb = 40;  // the curve's band spans -40 to +40 dB
constexpr double kTgcBandPx = 70;  // its width on screen

}  // namespace

BModeView::BModeView(QWidget* parent) : QWidget(parent) {
    setObjectName("bmodeView");
    setMinimumSize(320, 240);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void BModeView::showImage(BModeImage image) {
    image_ = std::move(image);
    drawn_ = {};  // converted at the next paint, once, whatever the paints that follow
    update();
}

QRectF BModeView::viewport() const {
    return {static_cast<double>(kRulerLeft), static_cast<double>(kRulerTop), std::max(1.0, width() - kRulerLeft - kMargin * 1.0),
            std::max(1.0, height() - kRulerTop - kMargin * 1.0)};
}

double BModeView::screenPixelsPerMm() const {
    if (image_.image.isNull() || image_.mmPerPixel <= 0) return 0;
    const QRectF room = viewport();
    return zoom_ * std::min(room.width() / image_.widthMm(), room.height() / image_.depthMm());
}

QRectF BModeView::imageRect() const {
    const double scale = screenPixelsPerMm();
    if (scale <= 0) return {};
    const QRectF room = viewport();
    const double w = image_.widthMm() * scale, h = image_.depthMm() * scale;
    // Fitted: centred across, from the top; zoomed about the viewport's centre, then panned.
    const double fit = std::min(room.width() / image_.widthMm(), room.height() / image_.depthMm());
    const QPointF fittedCentre(room.center().x(), room.top() + image_.depthMm() * fit / 2);
    const QPointF centre = room.center() + (fittedCentre - room.center()) * zoom_ + pan_;
    return {centre.x() - w / 2, centre.y() - h / 2, w, h};
}

QPointF BModeView::mmAt(QPointF p) const {
    const QRectF r = imageRect();
    const double scale = screenPixelsPerMm();
    if (scale <= 0) return {};
    return {image_.xStartMm - image_.mmPerPixel / 2 + (p.x() - r.left()) / scale, image_.zStartMm - image_.mmPerPixel / 2 + (p.y() - r.top()) / scale};
}

QPointF BModeView::widgetPositionOf(QPointF mm) const {
    const QRectF r = imageRect();
    const double scale = screenPixelsPerMm();
    return {r.left() + (mm.x() - image_.xStartMm + image_.mmPerPixel / 2) * scale, r.top() + (mm.y() - image_.zStartMm + image_.mmPerPixel / 2) * scale};
}

void BModeView::zoomAbout(double zoom, std::optional<QPointF> at) {
    const QPointF anchor = at.value_or(viewport().center());
    const QPointF mm = mmAt(anchor);
    zoom_ = std::clamp(zoom, 1.0, kMaxZoom);
    if (zoom_ == 1.0) pan_ = {};
    else if (screenPixelsPerMm() > 0) pan_ += anchor - widgetPositionOf(mm);  // the point under the cursor stays put
    keepInView();
    update();
}

void BModeView::panBy(QPointF d) {
    if (zoom_ == 1.0) return;
    pan_ += d;
    keepInView();
    update();
}

void BModeView::resetView() {
    zoom_ = 1;
    pan_ = {};
    update();
}

// Panned no further than to bring an edge of the picture to the viewport's centre.
void BModeView::keepInView() {
    const QRectF r = imageRect();
    if (r.isEmpty()) return;
    const QPointF c = viewport().center();
    if (r.left() > c.x()) pan_.rx() -= r.left() - c.x();
    if (r.right() < c.x()) pan_.rx() += c.x() - r.right();
    if (r.top() > c.y()) pan_.ry() -= r.top() - c.y();
    if (r.bottom() < c.y()) pan_.ry() += c.y() - r.bottom();
}

void BModeView::setTgcCurve(std::vector<double> db, double opacity) {
    tgcDb_ = std::move(db);
    tgcOpacity_ = std::clamp(opacity, 0.0, 1.0);
    update();
}

void BModeView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    zoomAbout(zoom_ * std::pow(1.25, steps), event->position());
    event->accept();
}

void BModeView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && tool_ && imageRect().contains(event->position())) {
        const QPointF mm = mmAt(event->position());
        if (*tool_ == MeasurementKind::Text) {
            Q_EMIT textRequested(mm);
        } else {
            pending_.kind = *tool_;
            pending_.pointsMm << mm;
            if (pending_.complete()) {
                addMeasurement(pending_);
                pending_ = {};
            }
            update();
        }
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && zoom_ > 1.0) dragFrom_ = event->position();
    QWidget::mousePressEvent(event);
}

void BModeView::setTool(std::optional<MeasurementKind> tool) {
    tool_ = tool;
    pending_ = {};
    setCursor(tool ? Qt::CrossCursor : Qt::ArrowCursor);
    update();
}

void BModeView::addMeasurement(Measurement m) {
    int same = 1;
    for (const auto& other : measurements_) same += other.kind == m.kind;
    const char* prefix = m.kind == MeasurementKind::Distance ? "D" : m.kind == MeasurementKind::Ellipse ? "A" : "T";
    m.label = QStringLiteral("%1%2").arg(QLatin1String(prefix)).arg(same);
    measurements_ << m;
    update();
    Q_EMIT measurementsChanged();
}

void BModeView::clearMeasurements() {
    pending_ = {};
    if (measurements_.isEmpty()) return;
    measurements_.clear();
    update();
    Q_EMIT measurementsChanged();
}

QImage BModeView::renderImage(bool overlays) const {
    const bool colour = image_.image.format() != QImage::Format_Grayscale8;  // a laser shot in it: kept in colour
    QImage out = image_.image.convertToFormat(overlays || colour ? QImage::Format_RGB32 : QImage::Format_Grayscale8);
    if (!overlays || out.isNull() || image_.mmPerPixel <= 0) return out;
    QPainter painter(&out);
    const double px = 1 / image_.mmPerPixel;
    drawMeasurements(
        painter, measurements_, [&](QPointF mm) { return QPointF((mm.x() - image_.xStartMm) * px + 0.5, (mm.y() - image_.zStartMm) * px + 0.5); }, px);
    return out;
}

void BModeView::mouseMoveEvent(QMouseEvent* event) {
    if (dragFrom_) {
        panBy(event->position() - *dragFrom_);
        dragFrom_ = event->position();
    }
    QWidget::mouseMoveEvent(event);
}

void BModeView::mouseReleaseEvent(QMouseEvent* event) {
    dragFrom_.reset();
    QWidget::mouseReleaseEvent(event);
}

void BModeView::mouseDoubleClickEvent(QMouseEvent* event) {
    resetView();
    event->accept();
}

namespace {
double threadCpuMs() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}
}  // namespace

void BModeView::paintEvent(QPaintEvent*) {
    QElapsedTimer clock;
    clock.start();
    const double cpu = threadCpuMs();
    paint();
    Q_EMIT painted(static_cast<double>(clock.nsecsElapsed()) / 1e6, threadCpuMs() - cpu);
}

void BModeView::paint() {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::black);
    const QRectF target = imageRect();
    if (target.isEmpty()) {
        painter.setPen(QColor(160, 160, 160));
        if (notice_.isEmpty()) painter.drawText(rect(), Qt::AlignCenter, tr("No image yet"));
        drawCaptions(painter, QRectF(rect()));
        return;
    }
    painter.save();
    painter.setClipRect(viewport());
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    // The raster engine scales RGB32 on its fast path; 8-bit grey it converts at every draw.
    if (drawn_.isNull()) drawn_ = image_.image.convertToFormat(QImage::Format_RGB32);
    painter.drawImage(target, drawn_);
    drawTgc(painter, target.intersected(viewport()));
    QList<Measurement> shown = measurements_;
    if (!pending_.pointsMm.isEmpty()) shown << pending_;
    drawMeasurements(
        painter, shown, [this](QPointF mm) { return widgetPositionOf(mm); }, screenPixelsPerMm());
    painter.restore();
    drawRulers(painter, target);
    drawCaptions(painter, target.intersected(viewport()));
}

void BModeView::setPatientBanner(const QString& text) {
    banner_ = text;
    update();
}

void BModeView::setStateMark(const QString& text) {
    mark_ = text;
    update();
}

void BModeView::setNotice(const QString& text, bool alarm) {
    if (notice_ == text && noticeAlarm_ == alarm) return;
    notice_ = text;
    noticeAlarm_ = alarm;
    update();
}

// The orientation mark (the probe's marked side, at the picture's top left, as on every
// scanner), the banner and state mark in the view's top corners, the notice in a box mid-picture.
void BModeView::drawCaptions(QPainter& painter, const QRectF& shown) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF room = viewport();
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const QFontMetricsF metrics(bold);
    const auto caption = [&](const QString& text, Qt::Alignment side, const QColor& colour) {
        if (text.isEmpty()) return QRectF();
        const QRectF box =
            metrics.boundingRect(QRectF(room.left() + 18, room.top() + 4, room.width() - 36, room.height()), side | Qt::AlignTop | Qt::TextWordWrap, text)
                .adjusted(-4, -2, 4, 2);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0, 0, 0, 160));
        painter.drawRect(box);
        painter.setPen(colour);
        painter.drawText(box, side | Qt::AlignVCenter | Qt::TextWordWrap, text);
        return box;
    };
    const QRectF banner = caption(banner_, Qt::AlignLeft, QColor(230, 230, 230));
    caption(mark_, Qt::AlignRight, QColor(120, 190, 255));
    if (!image_.image.isNull() && !shown.isEmpty()) {  // below the banner where the banner covers the picture's corner
        const QPointF corner = widgetPositionOf({image_.xStartMm, image_.zStartMm});
        QPointF dot(std::max(corner.x(), room.left()) + 9, std::max(corner.y(), room.top()) + 9);
        if (banner.adjusted(-6, -6, 6, 6).contains(dot)) dot.setY(banner.bottom() + 9);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(255, 200, 60));
        painter.drawEllipse(dot, 4.5, 4.5);
    }
    if (!image_.incompleteAperture.isEmpty() && !shown.isEmpty()) {  // a joined frame lacking hosts: never shown as whole
        const QString text = QStringLiteral("⚠ ") + image_.incompleteAperture;
        QRectF box = metrics.boundingRect(shown.adjusted(8, 0, -8, -8), Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, text).adjusted(-6, -3, 6, 3);
        painter.setPen(QPen(QColor(230, 70, 60), 2));
        painter.setBrush(QColor(0, 0, 0, 200));
        painter.drawRect(box);
        painter.setPen(QColor(255, 120, 110));
        painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, text);
    }
    if (!notice_.isEmpty()) {
        const QRectF area = (shown.isEmpty() ? room : shown).adjusted(24, 0, -24, 0);
        QRectF box = metrics.boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, notice_).adjusted(-10, -8, 10, 8);
        painter.setPen(QPen(noticeAlarm_ ? QColor(230, 70, 60) : QColor(240, 170, 40), 2));
        painter.setBrush(QColor(0, 0, 0, 200));
        painter.drawRoundedRect(box, 6, 6);
        painter.setPen(noticeAlarm_ ? QColor(255, 120, 110) : QColor(255, 200, 90));
        painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, notice_);
    }
    painter.restore();
}

// Ticks along the viewport's left and top edges for what is in view: the picture's edges are half
// a pixel beyond the first and last centres.
void BModeView::drawRulers(QPainter& painter, const QRectF& target) const {
    const QRectF room = viewport();
    const QRectF shown = target.intersected(room);
    const double scale = screenPixelsPerMm();
    painter.setPen(QColor(200, 200, 200));
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
    painter.setFont(small);
    const QPointF topLeftMm = mmAt(shown.topLeft()), bottomRightMm = mmAt(shown.bottomRight());
    const int tick = scale * 5 < 12 ? 10 : scale > 60 ? 1 : 5;  // about a tick every 12 px or more
    const int label = tick * 2;
    for (int mm = static_cast<int>(std::ceil(topLeftMm.y() / tick)) * tick; mm <= bottomRightMm.y(); mm += tick) {
        const double y = widgetPositionOf({0, static_cast<double>(mm)}).y();
        const double x = std::max(room.left(), target.left());
        const bool labelled = mm % label == 0;
        painter.drawLine(QPointF(x - (labelled ? 8 : 4), y), QPointF(x - 1, y));
        if (labelled) painter.drawText(QRectF(0, y - 8, x - 10, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(mm));
    }
    for (int mm = static_cast<int>(std::ceil(topLeftMm.x() / tick)) * tick; mm <= bottomRightMm.x(); mm += tick) {
        const double x = widgetPositionOf({static_cast<double>(mm), 0}).x();
        const double y = std::max(room.top(), target.top());
        const bool labelled = mm % label == 0;
        painter.drawLine(QPointF(x, y - (labelled ? 8 : 4)), QPointF(x, y - 1));
        if (labelled) painter.drawText(QRectF(x - 20, 0, 40, y - 9), Qt::AlignHCenter | Qt::AlignBottom, QString::number(mm));
    }
    painter.drawText(QRectF(2, 2, kRulerLeft, kRulerTop - 10), Qt::AlignLeft | Qt::AlignTop, zoom_ > 1.0 ? tr("mm ×%1").arg(zoom_, 0, 'f', 1) : tr("mm"));
}

// TGC markers (small ticks at the control points' depths on the picture's right edge, always)
// and, while adjusted, the curve: 0 dB at the band's middle, ±40 dB at its edges.
void BModeView::drawTgc(QPainter& painter, const QRectF& shown) const {
    const auto n = tgcDb_.size();
    if (n < 2) return;
    const double zTop = image_.zStartMm - image_.mmPerPixel / 2;
    const auto yOf = [&](std::size_t i) { return widgetPositionOf({0, zTop + image_.depthMm() * static_cast<double>(i) / static_cast<double>(n - 1)}).y(); };
    const double edge = shown.right() - 2;
    painter.setPen(QPen(QColor(255, 200, 60, 200), 1));
    for (std::size_t i = 0; i < n; ++i) painter.drawLine(QPointF(edge - 6, yOf(i)), QPointF(edge, yOf(i)));
    if (tgcOpacity_ <= 0) return;
    const double middle = edge - 12 - kTgcBandPx / 2;
    const auto xOf = [&](double db) { return middle + std::clamp(db, -kTgcSpanDb, kTgcSpanDb) / kTgcSpanDb * kTgcBandPx / 2; };
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setOpacity(tgcOpacity_);
    painter.setPen(QPen(QColor(255, 200, 60, 90), 1, Qt::DashLine));
    painter.drawLine(QPointF(middle, yOf(0)), QPointF(middle, yOf(n - 1)));
    QPainterPath curve(QPointF(xOf(tgcDb_[0]), yOf(0)));
    for (std::size_t i = 1; i < n; ++i) {  // smooth through the points, as the engine joins them
        const QPointF a(xOf(tgcDb_[i - 1]), yOf(i - 1)), b(xOf(tgcDb_[i]), yOf(i));
        curve.cubicTo(QPointF(a.x(), (a.y() + b.y()) / 2), QPointF(b.x(), (a.y() + b.y()) / 2), b);
    }
    painter.setPen(QPen(QColor(255, 200, 60), 2));
    painter.drawPath(curve);
    painter.setBrush(QColor(255, 200, 60));
    for (std::size_t i = 0; i < n; ++i) painter.drawEllipse(QPointF(xOf(tgcDb_[i]), yOf(i)), 3.5, 3.5);
    painter.setOpacity(1);
}

}  // namespace sonolink::gui
