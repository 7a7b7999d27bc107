// QtTest: the console's state cannot lie (issue 39), on the real engine and the built-in simulated
// front end. Presets and depths changed in quick sequences keep the picture live and right (one
// change each, applied on a frame boundary; none refused by the beamformer); End exam lets the
// last patient's pictures go (freeze, cine, measurements), so that nothing of them is shown or
// exported under the next exam; a display that gets no new image while streaming says so on the
// image within about a second, and the health chart counts the frames the beamformer refused;
// Stop and Disconnect end scanning from the toolbar.
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

#include "console_window.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/cine_bar.h"
#include "sonolink/gui/views/imaging_panel.h"

using sonolink::gui::BModeImage;
using sonolink::gui::EngineBridge;
using sonolink::gui::ImagingValues;
using sonolink::testing::Console;
using sonolink::testing::frameWhere;

namespace {

sonolink::gui::ExamEntry examOf(const QString& family, const QString& given, const QString& id) {
    sonolink::gui::ExamEntry e;
    e.familyName = family;
    e.givenName = given;
    e.id = id;
    return e;
}

}  // namespace

class TestConsoleState : public QObject {
    Q_OBJECT
    QTemporaryDir settings_;
private Q_SLOTS:
    void initTestCase() {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
        QSettings::setDefaultFormat(QSettings::NativeFormat);
    }

    // The reported freeze: presets switched a few times left the beamformer refusing every frame.
    void presetAndDepthChangesInQuickSequenceKeepThePictureLive() {
        Console console({}, "tst_console_state_presets");
        QVERIFY(console.live());
        auto& bridge = *console.bridge;
        auto& panel = *console.window->imagingPanel();
        QSignalSpy applied(&panel, &sonolink::gui::ImagingPanel::valuesApplied);
        ImagingValues shallow = panel.values(), deep = panel.values();
        shallow.depthEndMm = 30;
        shallow.gainDb = 6;
        shallow.persistence = 0.2;
        deep.depthEndMm = 60;
        deep.gainDb = -6;
        deep.tgcDb.assign(deep.tgcDb.size(), 5.0);
        for (int round = 0; round < 6; ++round) {  // each change before the last one's frame came
            panel.apply(round % 2 == 0 ? deep : shallow);
            console.window->findChild<QSpinBox*>("depthSpin")->setValue(round % 2 == 0 ? 45 : 50);
            panel.apply(round % 2 == 0 ? shallow : deep);
        }
        QCOMPARE(applied.count(), 12);  // one change per preset, not one per control
        QVERIFY2(
            frameWhere(
                bridge, [](const BModeImage& i) { return std::abs(i.zStartMm + i.depthMm() - i.mmPerPixel / 2 - 60) < 2 * i.mmPerPixel && i.gainDb == -6; },
                15000),
            "the last preset's depth and gain reach the picture");
        const auto refused = bridge.stats().imagingFailures;
        QCOMPARE(refused, quint64(0));
        const auto shown = bridge.display().framesShown();
        QVERIFY2(frameWhere(bridge, [&](const BModeImage&) { return bridge.display().framesShown() >= shown + 5; }), "and pictures keep coming");
        QVERIFY(console.window->view()->notice().isEmpty());
    }

    // The reported mix-up: frozen on Doe^Jane, End exam, a new exam for Roe^Richard, Export image:
    // the PACS got Doe^Jane's pixels under Roe^Richard.
    void endExamLetsTheLastPatientsPicturesGo() {
        Console console({}, "tst_console_state_exam");
        QVERIFY(console.live());
        auto& bridge = *console.bridge;
        auto& window = *console.window;
        QTemporaryDir out;
        window.setExportTarget(out.path(), {});
        bridge.setExam(examOf("Doe", "Jane", "P-1"));
        QVERIFY(window.view()->patientBanner().contains("Doe"));
        QVERIFY(frameWhere(bridge, [](const BModeImage&) { return true; }));
        bridge.freeze();
        QTRY_VERIFY_WITH_TIMEOUT(window.cineBar()->isVisible(), 10000);
        const BModeImage janes = window.view()->image();
        QVERIFY(!janes.image.isNull());
        QTRY_COMPARE(window.view()->stateMark(), QString("FROZEN"));
        sonolink::gui::Measurement caliper;
        caliper.kind = sonolink::gui::MeasurementKind::Distance;
        caliper.pointsMm = {{0, 10}, {0, 20}};
        window.view()->addMeasurement(caliper);

        window.findChild<QAction*>("endExamAction")->trigger();
        QVERIFY(window.view()->image().image.isNull());  // at once: nothing of hers on screen
        QVERIFY(window.view()->measurements().isEmpty());
        QVERIFY(!window.cineBar()->isVisible());
        QCOMPARE(window.view()->patientBanner(), QString("No exam"));
        QVERIFY(console.engine->cine().empty());                                     // the engine let her frames go
        QTRY_COMPARE_WITH_TIMEOUT(bridge.stateName(), QString("streaming"), 10000);  // live again
        QTRY_VERIFY(window.view()->stateMark().isEmpty());

        auto roe = examOf("Roe", "Richard", "P-2");
        roe.bodyPart = "THYROID";
        bridge.setExam(roe);
        QVERIFY(window.view()->patientBanner().contains("Roe"));
        QVERIFY2(window.view()->patientBanner().endsWith("THYROID"), qPrintable(window.view()->patientBanner()));  // the body part on the image
        // Her frame, asked for by id (a late click): refused, not filed under him.
        QSignalSpy updates(&bridge, &EngineBridge::exportUpdate);
        bridge.exportSnapshot(QDir(out.path()).filePath("late.dcm"), {}, janes);
        QTRY_VERIFY_WITH_TIMEOUT(!updates.isEmpty() && updates.last().at(3).toBool(), 10000);
        QVERIFY2(updates.last().at(2).toBool(), qPrintable(updates.last().at(0).toString()));  // failed
        QVERIFY2(updates.last().at(0).toString().contains("no longer held"), qPrintable(updates.last().at(0).toString()));
        QVERIFY(!QFile::exists(QDir(out.path()).filePath("late.dcm")));
        // His own picture exports.
        QVERIFY(frameWhere(bridge, [&](const BModeImage& i) { return i.session != janes.session || i.frameId > janes.frameId; }));
        for (const auto& frame : console.engine->cine()) QVERIFY(frame->session != janes.session || frame->frameId > janes.frameId);
    }

    // A front end that stalls for 3 s mid-stream: the picture says within about a second that it is
    // not live, the rate in the status bar too; when frames come again, the notice goes.
    void aDisplayWithNoNewImageSaysSoOnTheImage() {
        sonolink::transport::sim::FaultPlan stalls;
        stalls.stallEveryBlocks = 400;
        stalls.stallDuration = std::chrono::milliseconds(3000);
        Console console(stalls, "tst_console_state_stall");
        QVERIFY(console.live());
        auto& window = *console.window;
        QTRY_VERIFY_WITH_TIMEOUT(window.view()->notice().contains("No new image"), 20000);
        QVERIFY2(window.view()->notice().contains("not live"), qPrintable(window.view()->notice()));
        QVERIFY(window.findChild<QLabel*>("rateLabel")->text().contains("no new image"));
        QTRY_VERIFY_WITH_TIMEOUT(window.view()->notice().isEmpty(), 20000);  // frames again
    }

    void stopAndDisconnectEndScanningFromTheToolbar() {
        Console console({}, "tst_console_state_stop");
        QVERIFY(console.live());
        auto& bridge = *console.bridge;
        console.window->findChild<QAction*>("stopAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(bridge.stateName(), QString("ready"), 10000);
        console.window->findChild<QAction*>("liveAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(bridge.stateName(), QString("streaming"), 10000);
        console.window->findChild<QAction*>("disconnectAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(bridge.stateName(), QString("idle"), 10000);
        QVERIFY(console.window->view()->notice().isEmpty());  // stopped by the user: nothing to warn of
    }
};

QTEST_MAIN(TestConsoleState)
#include "tst_console_state.moc"
