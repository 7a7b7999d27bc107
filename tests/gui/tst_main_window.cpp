// QtTest for the console's main window on the real engine and the built-in simulated front end
// (in-process): the picture's controls reach the engine and come back in the frames' settings
// (TGC, persistence, depth), the TGC curve shows while adjusted and fades; zoom about a point
// keeps it put and pan moves the picture; the RF view shows the channels typed and refuses
// others; the link-health charts fill, and a bad cable (bit errors) turns the error chart to
// alarm; Save image writes the picture at its own pixels; File > Review a DICOM cine… opens a
// review window of its own beside the live picture, or says why it cannot.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QSettings>
#include <QStatusBar>
#include <QFileInfo>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <memory>

#include "console_window.h"
#include "sonolink/console/main_window.h"
#include "sonolink/console/translations.h"
#include "sonolink/gui/plot/link_health_panel.h"
#include "sonolink/gui/plot/rf_panel.h"
#include "sonolink/gui/plot/rf_trace_plot.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/cine_bar.h"

using sonolink::app::MainWindow;
using sonolink::gui::BModeImage;
using sonolink::gui::EngineBridge;
using sonolink::testing::Console;
using sonolink::testing::frameWhere;

namespace {

// A read that hangs until the test lets it go: a stalled archive.
struct StalledRead {
    std::atomic<bool> hanging{false};
    std::atomic<bool> returned{false};
    std::promise<void> go;
    std::shared_future<void> released = go.get_future().share();
    void hang() {
        hanging = true;
        released.wait_for(std::chrono::seconds(60));
        returned = true;
    }
    void release() { go.set_value(); }
};

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir settings_;
private Q_SLOTS:
    void initTestCase() {  // settings in a folder of the test's own, not the user's
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
        QSettings::setDefaultFormat(QSettings::NativeFormat);
    }

    void theLanguageChosenIsKeptForTheNextStart() {
        Console console;
        QVERIFY(console.engine);
        auto& window = *console.window;
        const bool english = sonolink::app::chooseLanguage({}) == "en";  // the menu shows the language in use
        QCOMPARE(window.findChild<QAction*>("languageEnAction")->isChecked(), english);
        QCOMPARE(window.findChild<QAction*>("languageZhAction")->isChecked(), !english);
        window.findChild<QAction*>("languageZhAction")->trigger();
        QCOMPARE(QSettings().value(sonolink::app::kLanguageSetting).toString(), QString("zh_CN"));
        QCOMPARE(sonolink::app::chooseLanguage({}), QString("zh_CN"));
        QVERIFY(window.statusBar()->currentMessage().contains("next start"));
        window.findChild<QAction*>("languageEnAction")->trigger();
        QCOMPARE(sonolink::app::chooseLanguage({}), QString("en"));
    }

    void thePictureControlsReachTheFramesAndTheTgcCurveFades() {
        Console console;
        QVERIFY(console.live());
        auto& bridge = *console.bridge;
        auto& window = *console.window;

        auto* tgc = window.findChild<QSlider*>("tgcSlider3");
        QVERIFY(tgc);
        tgc->setValue(20);
        QCOMPARE(window.view()->tgcOpacity(), 1.0);  // shown while adjusted
        QVERIFY(frameWhere(bridge, [](const BModeImage& i) { return i.tgcDb.size() == 8 && i.tgcDb[3] == 20 && i.tgcDb[2] == 0; }));
        QTRY_COMPARE_WITH_TIMEOUT(window.view()->tgcOpacity(), 0.0, 4000);  // and faded after

        window.findChild<QSlider*>("persistenceSlider")->setValue(50);
        QVERIFY(frameWhere(bridge, [](const BModeImage& i) { return std::abs(i.persistence - 0.5) < 1e-9; }));

        auto* depth = window.findChild<QSpinBox*>("depthSpin");
        QVERIFY(depth);
        depth->setValue(30);  // 3 to 30 mm
        QVERIFY(frameWhere(bridge, [](const BModeImage& i) { return std::abs(i.zStartMm + i.depthMm() - i.mmPerPixel / 2 - 30) < 2 * i.mmPerPixel; }));
    }

    void presetsSetThePictureAndTheOnesKeptComeBack() {
        Console console;
        QVERIFY(console.live());
        auto& bridge = *console.bridge;
        auto& window = *console.window;
        auto* presets = window.findChild<QComboBox*>("presetCombo");
        QVERIFY(presets);
        QCOMPARE(presets->count(), 3);  // General, Superficial, Deep
        presets->setCurrentIndex(1);
        Q_EMIT presets->activated(1);
        QCOMPARE(window.findChild<QSpinBox*>("depthSpin")->value(), 25);
        QVERIFY(frameWhere(bridge,
                           [](const BModeImage& i) { return i.gainDb == 3 && std::abs(i.zStartMm + i.depthMm() - i.mmPerPixel / 2 - 25) < 2 * i.mmPerPixel; }));
        window.findChild<QSlider*>("tgcSlider7")->setValue(15);
        window.savePreset("Liver");
        QCOMPARE(presets->count(), 4);
        QCOMPARE(presets->itemText(3), QString("Liver"));
        Q_EMIT presets->activated(0);  // General: the station's own settings again
        QCOMPARE(window.findChild<QSlider*>("tgcSlider7")->value(), 0);
        MainWindow again(bridge, false);  // a later start lists the kept one, and it sets what was kept
        auto* later = again.findChild<QComboBox*>("presetCombo");
        QCOMPARE(later->count(), 4);
        Q_EMIT later->activated(3);
        QCOMPARE(again.findChild<QSlider*>("tgcSlider7")->value(), 15);
        QCOMPARE(again.findChild<QSpinBox*>("depthSpin")->value(), 25);
    }

    void zoomKeepsThePointUnderTheCursorAndPanMovesThePicture() {
        Console console;
        QVERIFY(console.live());
        auto& window = *console.window;
        auto* view = window.view();
        const double fitted = view->screenPixelsPerMm();
        const QPointF at = view->imageRect().center() + QPointF(30, 40);
        const QPointF mm = view->mmAt(at);
        view->zoomAbout(2, at);
        QCOMPARE(view->zoom(), 2.0);
        QVERIFY(std::abs(view->screenPixelsPerMm() - 2 * fitted) < 1e-9);
        const QPointF still = view->widgetPositionOf(mm);
        QVERIFY2(std::hypot(still.x() - at.x(), still.y() - at.y()) < 0.5, "the point under the cursor moved");
        const QRectF before = view->imageRect();
        view->panBy({-25, 10});
        QVERIFY(std::abs(view->imageRect().left() - (before.left() - 25)) < 1e-6);
        QVERIFY(std::abs(view->imageRect().top() - (before.top() + 10)) < 1e-6);
        view->resetView();
        QCOMPARE(view->screenPixelsPerMm(), fitted);
    }

    void theRfViewShowsTheChannelsTypedAndRefusesOthers() {
        Console console;
        QVERIFY(console.engine);
        auto& bridge = *console.bridge;
        auto& window = *console.window;
        bridge.connectLink();
        window.resize(900, 800);                            // a plot narrower than half a trace's 2048 samples
        window.findChild<QDockWidget*>("rfDock")->raise();  // its tab, as the engineer clicks it
        auto* edit = window.findChild<QLineEdit*>("rfChannelsEdit");
        QVERIFY(edit);
        edit->setText("5, 70");
        Q_EMIT edit->editingFinished();
        auto* plot = window.rfPanel()->plot();
        QTRY_COMPARE_WITH_TIMEOUT(plot->traceCount(), 2, 8000);
        QCOMPARE(plot->traceTitle(0), QString("channel 5"));
        QCOMPARE(plot->traceTitle(1), QString("channel 70"));
        // min/max decimated to the plot's width (2048 samples on a narrower plot): two points a pixel
        QVERIFY(plot->canvas()->width() < 1024);
        QTRY_VERIFY_WITH_TIMEOUT(plot->pointCount(0) <= 2 * static_cast<std::size_t>(std::max(16, plot->canvas()->width())), 2000);
        QVERIFY(plot->pointCount(0) > 0);
        edit->setText("5, 300");
        Q_EMIT edit->editingFinished();
        QVERIFY(window.findChild<QLabel*>("rfProblemLabel")->text().contains("300"));
        QCOMPARE(plot->traceCount(), 2);  // what was shown stays
    }

    void theLinkHealthChartsFillAndBitErrorsRaiseTheAlarm() {
        {
            Console console;
            QVERIFY(console.engine);
            console.bridge->connectLink();
            auto* health = console.window->linkHealth();
            QTRY_VERIFY_WITH_TIMEOUT(health->throughput()->sampleCount() >= 3 && health->throughput()->latest(0) > 0, 8000);
            QCOMPARE(health->errors()->level(), sonolink::gui::HealthLevel::Good);
            QVERIFY(health->latency()->latest(1) > 0);
            QVERIFY(health->temperature()->latest(0) > 0);
        }
        sonolink::transport::sim::FaultPlan badCable;
        badCable.bitErrorRate = 1e-6;  // most blocks fail their CRC
        Console console(badCable);
        QVERIFY(console.engine);
        console.bridge->connectLink();
        auto* health = console.window->linkHealth();
        QTRY_COMPARE_WITH_TIMEOUT(health->errors()->level(), sonolink::gui::HealthLevel::Alarm, 8000);
        QVERIFY(health->errors()->latest(0) >= 10);
        QCOMPARE(health->worst(), sonolink::gui::HealthLevel::Alarm);
    }

    void recordingShowsItsProgressTheTotalAndAFailureAtOnce() {
        Console console;
        QVERIFY(console.live());
        auto& window = *console.window;
        QTemporaryDir dir;
        window.setExportTarget(dir.path(), {});
        auto* record = window.findChild<QAction*>("recordAction");
        auto* label = window.findChild<QLabel*>("recordingLabel");
        record->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains("REC") && !label->text().contains("REC 0 frames"), 8000);
        record->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith("Recorded"), 8000);
        QVERIFY(!record->isChecked());
        const auto files = QDir(dir.path()).entryList({"rec_*.uff"});
        QCOMPARE(files.size(), 1);
        QVERIFY(QFileInfo(dir.filePath(files[0])).size() > 0);
        window.setExportTarget(dir.filePath("no/such/folder"), {});  // a recording that cannot start
        record->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith("Recording failed"), 8000);
        QVERIFY(label->text().contains("no/such/folder"));
        QVERIFY(!record->isChecked());
    }

    void aFrontEndLostIsShownWithItsReasonAndConnectBringsTheImageBack() {
        sonolink::transport::sim::FaultPlan vanishing;
        vanishing.disconnectAfterBlocks = 400;  // about 45 frames a session, then not a word
        Console console(vanishing);
        QVERIFY(console.live());
        auto& window = *console.window;
        auto* state = window.findChild<QLabel*>("stateLabel");
        auto* problem = window.findChild<QLabel*>("problemLabel");
        QTRY_VERIFY_WITH_TIMEOUT(state->text().contains("error"), 20000);
        QVERIFY2(problem->text().contains("front end"), qPrintable(problem->text()));
        QVERIFY2(problem->styleSheet().contains("d03030"), "an error, in red");
        const quint64 before = console.bridge->display().framesShown();
        window.findChild<QAction*>("connectAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.view()->image().session >= 2 && console.bridge->display().framesShown() > before, 15000);  // streaming again
    }

    void saveImageWritesThePictureAtItsOwnPixels() {
        Console console;
        QVERIFY(console.engine);
        auto& bridge = *console.bridge;
        auto& window = *console.window;
        QTemporaryDir dir;
        QString why;
        QVERIFY(!window.saveImage(dir.filePath("none.png"), &why));  // before the first image
        QVERIFY(!why.isEmpty());
        bridge.connectLink();
        QVERIFY(frameWhere(bridge, [](const BModeImage&) { return true; }));
        QVERIFY2(window.saveImage(dir.filePath("shot.png"), &why), qPrintable(why));
        const QImage saved(dir.filePath("shot.png"));
        QCOMPARE(saved.size(), window.view()->image().image.size());
        QVERIFY(!window.saveImage(dir.filePath("no/such/folder/shot.png"), &why));
        QVERIFY(why.contains("no/such/folder"));
    }

    void aDicomCineOpensForReviewBesideTheLivePicture() {
        Console console;
        QVERIFY(console.engine);
        auto& window = *console.window;
        QVERIFY(!window.findChild<QAction*>("reviewCineAction")->isEnabled());  // nothing to open objects with yet
        auto stalled = std::make_shared<StalledRead>();
        window.setCineOpener([stalled](const QString& object, QString* why) -> sonolink::app::CineReviewSource {
            if (object.endsWith("missing.dcm")) {
                *why = "NotFound: no such file: " + object;
                return {};
            }
            sonolink::app::CineReviewSource source;
            source.name = object;
            source.frames = 3;
            source.frameIntervalMs = 20;
            source.mmAcross = source.mmDown = 0.2;
            source.read = [stalled](int index, QString*) {
                if (index == 1) stalled->hang();  // a stalled archive
                QImage image(40, 30, QImage::Format_Grayscale8);
                image.fill(static_cast<uint>(10 + index));
                return image;
            };
            return source;
        });
        QVERIFY(window.findChild<QAction*>("reviewCineAction")->isEnabled());
        QVERIFY(window.findChild<QAction*>("reviewArchiveCineAction")->isEnabled());
        QSignalSpy opened(&window, &MainWindow::cineReviewOpened);
        window.openCineReview("/studies/cine.dcm");
        QTRY_COMPARE(opened.count(), 1);
        auto* review = qvariant_cast<sonolink::app::CineReviewWindow*>(opened.at(0).at(0));
        QVERIFY(review);
        QCOMPARE(review->windowTitle(), QString::fromUtf8("SonoLink — Review: cine.dcm"));
        QTRY_COMPARE(review->shownFrame(), 0);
        QCOMPARE(review->view()->image().image.pixelColor(5, 5), QColor(10, 10, 10));
        QCOMPARE(review->view()->image().mmPerPixel, 0.2);
        review->cineBar()->setFrame(2);
        QTRY_COMPARE(review->shownFrame(), 2);
        QCOMPARE(review->view()->image().image.pixelColor(5, 5), QColor(12, 12, 12));
        // Closed while a read hangs: the window goes within about a second, the read ends on its own.
        review->cineBar()->setFrame(1);
        QTRY_VERIFY(stalled->hanging.load());
        QElapsedTimer closing;
        closing.start();
        delete review;
        QVERIFY2(closing.elapsed() < 2000, qPrintable(QString::number(closing.elapsed())));
        stalled->release();
        QTRY_VERIFY(stalled->returned.load());  // the stalled read returns to no window
        window.openCineReview("/studies/missing.dcm");
        QTRY_VERIFY(window.findChild<QLabel*>("problemLabel")->text().contains("Cannot review /studies/missing.dcm: NotFound: no such file"));
        QCOMPARE(opened.count(), 1);
        // A review still open goes with the console.
        window.openCineReview("/studies/other.dcm");
        QTRY_COMPARE(opened.count(), 2);
        QPointer<sonolink::app::CineReviewWindow> open = qvariant_cast<sonolink::app::CineReviewWindow*>(opened.at(1).at(0));
        QVERIFY(open && open->isWindow() && open->isVisible());
        console.window.reset();
        QVERIFY(open.isNull());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
