// QtTest for BModeView: a picture of known size in mm is drawn with equal screen pixels per mm
// across and down, whatever the widget's shape, inside the widget and right of the depth ruler.
#include <QtTest>

#include "sonolink/gui/views/bmode_view.h"

using sonolink::gui::BModeImage;
using sonolink::gui::BModeView;

class TestBModeView : public QObject {
    Q_OBJECT
private slots:
    void trueProportionsInAnyWidgetShape() {
        BModeImage image;
        image.image = QImage(200, 350, QImage::Format_Grayscale8);  // 20 mm wide, 35 mm deep at 0.1 mm a pixel
        image.image.fill(128);
        image.mmPerPixel = 0.1;
        image.xStartMm = -9.95;
        image.zStartMm = 3.05;
        for (const QSize size : {QSize(800, 600), QSize(400, 900), QSize(1200, 500)}) {
            BModeView view;
            view.resize(size);
            view.showImage(image);
            const QRectF r = view.imageRect();
            QVERIFY2(!r.isEmpty(), "drawn");
            QVERIFY(QRectF(view.rect()).contains(r));
            QVERIFY(r.left() > 30);  // the depth ruler's room
            const double across = r.width() / image.widthMm(), down = r.height() / image.depthMm();
            QVERIFY2(std::abs(across - down) < 1e-9, qPrintable(QString("%1 vs %2 px/mm").arg(across).arg(down)));
            QCOMPARE(view.screenPixelsPerMm(), across);
            QVERIFY(!view.grab().isNull());  // it paints
        }
    }

    void nothingToDrawBeforeTheFirstImage() {
        BModeView view;
        view.resize(400, 300);
        QVERIFY(view.imageRect().isEmpty());
        QCOMPARE(view.screenPixelsPerMm(), 0.0);
        QVERIFY(!view.grab().isNull());
    }
};

QTEST_MAIN(TestBModeView)
#include "tst_bmode_view.moc"
