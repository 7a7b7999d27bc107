// QtTest for freeze, cine review and calipers on the real engine and the built-in phantom:
// F freezes and shows the cine from its last frame, scrubbing shows the frame chosen, play runs
// it (looping, or stopping at the end), F again goes live; a distance caliper placed by clicks
// on two of the phantom's point targets reads their known spacing within 0.2 mm; an ellipse's
// area from three clicks; a text note; the measurements listed, written beside an export, and
// burnt into a saved image only when asked; going live clears them.
#include <QtTest>

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>

#include <cmath>
#include <numbers>

#include "console_engine.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/cine_bar.h"
#include "sonolink/gui/views/measurement_panel.h"

using sonolink::gui::BModeImage;
using sonolink::gui::BModeView;

namespace {

// The brightest pixel within 1.5 mm of the expected point, in picture mm.
QPointF peakNear(const BModeImage& b, QPointF expectedMm) {
    const double px = b.mmPerPixel;
    const int c0 = static_cast<int>(std::lround((expectedMm.x() - b.xStartMm) / px)), r0 = static_cast<int>(std::lround((expectedMm.y() - b.zStartMm) / px));
    const int reach = static_cast<int>(1.5 / px);
    int bestC = c0, bestR = r0, best = -1;
    for (int r = std::max(0, r0 - reach); r <= std::min(b.image.height() - 1, r0 + reach); ++r) {
        const uchar* line = b.image.constScanLine(r);
        for (int c = std::max(0, c0 - reach); c <= std::min(b.image.width() - 1, c0 + reach); ++c) {
            if (line[c] > best) best = line[c], bestC = c, bestR = r;
        }
    }
    return {b.xStartMm + bestC * px, b.zStartMm + bestR * px};
}

void clickAt(BModeView& view, QPointF mm) { QTest::mouseClick(&view, Qt::LeftButton, {}, view.widgetPositionOf(mm).toPoint()); }

}  // namespace

class TestCineCalipers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void freezeReviewMeasureAndGoLive() {
        auto engine = sonolink::testing::consoleEngine("", "tst_cine_calipers");
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        sonolink::app::MainWindow window(bridge, /*autoStream=*/true);
        window.resize(1280, 1000);
        window.show();
        bridge.connectLink();
        QTRY_VERIFY_WITH_TIMEOUT(engine->cine().size() >= 12, 15000);

        auto* freeze = window.findChild<QAction*>("freezeAction");
        auto* bar = window.cineBar();
        freeze->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 5000);
        const auto cine = bridge.display().cine();
        QCOMPARE(bar->count(), static_cast<int>(cine.size()));
        QCOMPARE(window.view()->image().frameId, cine.back().frameId);  // from its last frame
        QCOMPARE(window.findChild<QLabel*>("cineFrameLabel")->text(), QString("%1 / %1").arg(cine.size()));
        bar->setFrame(3);
        QCOMPARE(window.view()->image().frameId, cine[3].frameId);
        QCOMPARE(window.findChild<QLabel*>("cineFrameLabel")->text(), QString("4 / %1").arg(cine.size()));
        bar->play();
        QTRY_VERIFY_WITH_TIMEOUT(bar->frame() > 3 || bar->frame() < 3, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(bar->frame() < 3, 10000);  // looped to the start
        window.findChild<QWidget*>("cineLoopCheck")->setProperty("checked", false);
        QTRY_VERIFY_WITH_TIMEOUT(!bar->playing(), 10000);  // and stops at the end unlooped
        QCOMPARE(bar->frame(), bar->count() - 1);

        // The phantom's first two targets under the array's centre, a quarter of the imaged
        // depth (c N / fs / 2) apart.
        auto config = sonolink::config::loadConfig("", {});
        QVERIFY(config.has_value());
        const auto& acquisition = config->acquisition;
        const double depthMm = acquisition.soundSpeedMps * acquisition.samplesPerChannel / acquisition.samplingRateHz / 2 * 1000;
        const double spacingMm = 0.25 * depthMm;
        auto& view = *window.view();
        const auto& shown = view.image();
        const QPointF top = peakNear(shown, {0, 0.25 * depthMm}), bottom = peakNear(shown, {0, 0.5 * depthMm});
        window.findChild<QPushButton*>("distanceToolButton")->click();
        clickAt(view, top);
        clickAt(view, bottom);
        QCOMPARE(view.measurements().size(), 1);
        const double measured = sonolink::gui::distanceMm(view.measurements()[0]);
        QVERIFY2(std::abs(measured - spacingMm) <= 0.2, qPrintable(QString("caliper %1 mm, targets %2 mm apart").arg(measured).arg(spacingMm)));

        window.findChild<QPushButton*>("ellipseToolButton")->click();
        clickAt(view, {-5, 20});
        clickAt(view, {5, 20});
        clickAt(view, {0, 23});
        QCOMPARE(view.measurements().size(), 2);
        const double area = sonolink::gui::areaMm2(view.measurements()[1]);
        QVERIFY2(std::abs(area - std::numbers::pi * 5 * 3) < 0.03 * std::numbers::pi * 15, qPrintable(QString::number(area)));
        sonolink::gui::Measurement note;
        note.kind = sonolink::gui::MeasurementKind::Text;
        note.pointsMm = {QPointF(-8, 12)};
        note.text = "cyst wall";
        view.addMeasurement(note);
        const auto lines = window.measurementPanel()->lines();
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("D1") && lines[0].endsWith("mm"), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith("A1") && lines[1].contains("mm²"), qPrintable(lines[1]));
        QCOMPARE(lines[2], QString("T1  cyst wall"));

        QTemporaryDir dir;
        QString why;
        QVERIFY2(window.saveMeasurements(dir.filePath("m.csv"), &why), qPrintable(why));
        QFile csv(dir.filePath("m.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        QVERIFY2(text.startsWith("label,kind,value,unit,points_mm\n") && text.contains("D1,distance,") && text.contains("\"cyst wall\""), qPrintable(text));
        // The ellipse's area and its circumference, each a row of its own (the reported gap: no circumference).
        QVERIFY2(text.contains("A1,ellipse area,") && text.contains("A1,ellipse circumference,"), qPrintable(text));
        const auto circumference = text.section("A1,ellipse circumference,", 1).section(',', 0, 0).toDouble();
        QVERIFY2(std::abs(circumference - sonolink::gui::circumferenceMm(view.measurements()[1])) < 1e-3, qPrintable(text));
        // A saved image carries the calipers only when asked.
        const QPoint at((top.x() - shown.xStartMm) / shown.mmPerPixel + 0.5, (top.y() - shown.zStartMm) / shown.mmPerPixel + 0.5);
        QVERIFY(window.saveImage(dir.filePath("plain.png"), &why));
        const QColor plain = QImage(dir.filePath("plain.png")).pixelColor(at + QPoint(3, 0));
        QCOMPARE(plain.red(), plain.blue());  // grey
        window.findChild<QAction*>("burnInAction")->setChecked(true);
        QVERIFY(window.saveImage(dir.filePath("burnt.png"), &why));
        const QColor burnt = QImage(dir.filePath("burnt.png")).pixelColor(at + QPoint(3, 0));
        QVERIFY2(burnt.red() > burnt.blue() + 60, qPrintable(burnt.name()));  // the caliper's yellow

        freeze->trigger();  // F again: live
        QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 5000);
        QVERIFY(view.measurements().isEmpty());
        QVERIFY(!window.findChild<QPushButton*>("distanceToolButton")->isEnabled());
    }
};

QTEST_MAIN(TestCineCalipers)
#include "tst_cine_calipers.moc"
