#include "sonolink/gui/views/bmode_view.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

namespace sonolink::gui {
namespace {

constexpr int kRulerLeft = 44;  // room for the depth ruler's labels
constexpr int kRulerTop = 26;   // and the lateral ruler's
constexpr int kMargin = 8;

}  // namespace

BModeView::BModeView(QWidget* parent) : QWidget(parent) {
    setObjectName("bmodeView");
    setMinimumSize(320, 240);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void BModeView::showImage(BModeImage image) {
    image_ = std::move(image);
    update();
}

double BModeView::screenPixelsPerMm() const {
    if (image_.image.isNull() || image_.mmPerPixel <= 0) return 0;
    const double room = std::max(1, width() - kRulerLeft - kMargin), roomDown = std::max(1, height() - kRulerTop - kMargin);
    return std::min(room / image_.widthMm(), roomDown / image_.depthMm());
}

QRectF BModeView::imageRect() const {
    const double scale = screenPixelsPerMm();
    if (scale <= 0) return {};
    const double w = image_.widthMm() * scale, h = image_.depthMm() * scale;
    const double left = kRulerLeft + (width() - kRulerLeft - kMargin - w) / 2;
    return {left, static_cast<double>(kRulerTop), w, h};
}

void BModeView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::black);
    const QRectF target = imageRect();
    if (target.isEmpty()) {
        painter.setPen(QColor(160, 160, 160));
        painter.drawText(rect(), Qt::AlignCenter, tr("No image yet"));
        return;
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(target, image_.image);
    // Rulers: the picture's edges are half a pixel beyond the first and last centres.
    const double scale = screenPixelsPerMm();
    const double zTop = image_.zStartMm - image_.mmPerPixel / 2, xLeft = image_.xStartMm - image_.mmPerPixel / 2;
    painter.setPen(QColor(200, 200, 200));
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
    painter.setFont(small);
    for (int mm = static_cast<int>(std::ceil(zTop / 5)) * 5; mm <= zTop + image_.depthMm(); mm += 5) {
        const double y = target.top() + (mm - zTop) * scale;
        const bool labelled = mm % 10 == 0;
        painter.drawLine(QPointF(target.left() - (labelled ? 8 : 4), y), QPointF(target.left() - 1, y));
        if (labelled) painter.drawText(QRectF(0, y - 8, target.left() - 10, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(mm));
    }
    for (int mm = static_cast<int>(std::ceil(xLeft / 5)) * 5; mm <= xLeft + image_.widthMm(); mm += 5) {
        const double x = target.left() + (mm - xLeft) * scale;
        const bool labelled = mm % 10 == 0;
        painter.drawLine(QPointF(x, target.top() - (labelled ? 8 : 4)), QPointF(x, target.top() - 1));
        if (labelled) painter.drawText(QRectF(x - 20, 0, 40, target.top() - 9), Qt::AlignHCenter | Qt::AlignBottom, QString::number(mm));
    }
    painter.drawText(QRectF(2, 2, kRulerLeft, kRulerTop - 10), Qt::AlignLeft | Qt::AlignTop, tr("mm"));
}

}  // namespace sonolink::gui
