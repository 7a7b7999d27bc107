// BModeView: the live (or frozen) B-mode picture in true proportions: scaled to fit the widget
// with equal millimetres per screen pixel across and down, black around it, a depth ruler on
// the left and a lateral ruler on top in mm (a tick every 5 mm, labelled every 10 mm).
// Thread contract: GUI thread only.
#pragma once

#include <QRectF>
#include <QWidget>

#include "sonolink/gui/views/bmode_image.h"

namespace sonolink::gui {

class BModeView : public QWidget {
    Q_OBJECT
public:
    explicit BModeView(QWidget* parent = nullptr);

    void showImage(BModeImage image);
    [[nodiscard]] const BModeImage& image() const { return image_; }
    // Where the picture is drawn in the widget, and its scale there (0 before the first image).
    [[nodiscard]] QRectF imageRect() const;
    [[nodiscard]] double screenPixelsPerMm() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    BModeImage image_;
};

}  // namespace sonolink::gui
