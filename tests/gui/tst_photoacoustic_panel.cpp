// QtTest for dual mode's controls: the photoacoustic panel starts from the values given, says
// every value at each change (view, colour map, gain, dynamic range, threshold, opacity, energy
// normalisation), is disabled saying why without a laser; and a picture with a shot in it keeps
// its colour when the view renders it (an export in overlay view is in colour).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSlider>

#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/photoacoustic_panel.h"

using sonolink::gui::PhotoacousticPanel;
using sonolink::gui::ShotDisplay;
using sonolink::gui::ShotMap;
using sonolink::gui::ShotView;

class TestPhotoacousticPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void startsFromTheValuesGiven() {
        ShotDisplay start;
        start.view = ShotView::SideBySide;
        start.map = ShotMap::Iron;
        start.gainDb = 6;
        start.dynamicRangeDb = 40;
        start.threshold = 0.2;
        start.opacity = 0.5;
        start.normaliseEnergy = true;
        PhotoacousticPanel panel(start);
        QCOMPARE(panel.values(), start);
    }

    void everyControlSaysEveryValue() {
        PhotoacousticPanel panel(ShotDisplay{});
        QList<ShotDisplay> said;
        connect(&panel, &PhotoacousticPanel::changed, this, [&](const ShotDisplay& v) { said << v; });
        auto* view = panel.findChild<QComboBox*>("shotViewCombo");
        auto* map = panel.findChild<QComboBox*>("shotMapCombo");
        QVERIFY(view && map);
        QCOMPARE(view->count(), 4);  // ultrasound, photoacoustic, overlay, side by side
        view->setCurrentIndex(view->findData(static_cast<int>(ShotView::Photoacoustic)));
        QCOMPARE(said.size(), 1);
        QCOMPARE(said.last().view, ShotView::Photoacoustic);
        map->setCurrentIndex(map->findData(static_cast<int>(ShotMap::Iron)));
        QCOMPARE(said.last().map, ShotMap::Iron);
        QCOMPARE(said.last().view, ShotView::Photoacoustic);  // the others as they were
        panel.findChild<QSlider*>("shotGainSlider")->setValue(-12);
        QCOMPARE(said.last().gainDb, -12.0);
        panel.findChild<QSlider*>("shotRangeSlider")->setValue(45);
        QCOMPARE(said.last().dynamicRangeDb, 45.0);
        panel.findChild<QSlider*>("shotThresholdSlider")->setValue(60);
        QCOMPARE(said.last().threshold, 0.6);
        panel.findChild<QSlider*>("shotOpacitySlider")->setValue(90);
        QCOMPARE(said.last().opacity, 0.9);
        panel.findChild<QCheckBox*>("shotNormaliseCheck")->setChecked(true);
        QVERIFY(said.last().normaliseEnergy);
        QCOMPARE(said.size(), 7);
        QCOMPARE(panel.values(), said.last());
    }

    void withoutALaserTheControlsSayWhy() {
        PhotoacousticPanel panel(ShotDisplay{});
        panel.show();
        panel.setLaserAvailable(false);
        auto* why = panel.findChild<QLabel*>("laserUnavailableLabel");
        QVERIFY(why && why->isVisible());
        QVERIFY(why->text().contains("laser_rate_hz"));
        QVERIFY(!panel.findChild<QComboBox*>("shotViewCombo")->isEnabled());
        panel.setLaserAvailable(true);
        QVERIFY(!why->isVisible());
        QVERIFY(panel.findChild<QComboBox*>("shotViewCombo")->isEnabled());
    }

    void aPictureWithAShotKeepsItsColour() {
        sonolink::gui::BModeImage image;
        image.image = QImage(40, 30, QImage::Format_RGB888);
        image.image.fill(QColor(200, 80, 10));
        image.mmPerPixel = 0.1;
        sonolink::gui::BModeView view;
        view.showImage(image);
        const auto rendered = view.renderImage(false);
        QVERIFY(rendered.format() != QImage::Format_Grayscale8);
        QCOMPARE(QColor(rendered.pixel(5, 5)), QColor(200, 80, 10));
        sonolink::gui::BModeImage grey;
        grey.image = QImage(40, 30, QImage::Format_Grayscale8);
        grey.image.fill(90);
        grey.mmPerPixel = 0.1;
        view.showImage(grey);
        QCOMPARE(view.renderImage(false).format(), QImage::Format_Grayscale8);  // grey stays grey
    }
};

QTEST_MAIN(TestPhotoacousticPanel)
#include "tst_photoacoustic_panel.moc"
