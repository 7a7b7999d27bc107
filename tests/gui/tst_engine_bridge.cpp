// QtTest for EngineBridge against the real engine on the built-in simulated front end: the
// engine's state changes and the self-test's steps arrive as signals on the GUI thread, and once streaming the bridge
// hands on display frames as BModeImages in true proportions, each frame once; a freeze stops
// them. The GUI thread is never blocked (every wait is QTRY_*, which runs the event loop).
#include <QtTest>
#include <unistd.h>

#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/gui/bridge/engine_bridge.h"

using sonolink::gui::BModeImage;
using sonolink::gui::DisplayFeed;
using sonolink::gui::EngineBridge;

class TestEngineBridge : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void framesFromTheRealEngine() {
        auto config = sonolink::config::loadConfig("", {});
        QVERIFY(config.has_value());
        config->link.shmName = "tst_engine_bridge_" + std::to_string(::getpid());  // its own link: the GUI tests run at once
        sonolink::app::EngineChoice choice;
        choice.link = sonolink::app::linkChoiceFrom(*config, /*inProcess=*/true);
        choice.selfTest = sonolink::app::SelfTestChoice::Quick;
        choice.selfTestSteps = {"station: memlock limit", "link BER"};
        auto engine = sonolink::app::makeEngine(*config, choice);
        QVERIFY2(engine.has_value(), engine ? "" : engine.error().message().c_str());
        EngineBridge bridge(**engine);
        QStringList states, steps;
        connect(&bridge, &EngineBridge::selfTestStepEnded, this, [&](const sonolink::gui::SelfTestResult& r) { steps << r.step + ": " + r.verdict; });
        QList<BModeImage> images;
        connect(&bridge, &EngineBridge::stateChanged, this, [&](const QString& state, const QString&) { states << state; });
        connect(&bridge.display(), &DisplayFeed::imageReady, this, [&](const BModeImage& image) { images << image; });
        bridge.connectLink();
        QTRY_VERIFY_WITH_TIMEOUT(states.contains("ready"), 20000);
        QCOMPARE(steps.size(), 2);  // the start-up self-test's steps, in order
        QVERIFY2(steps[0] == "station: memlock limit: pass" || steps[0] == "station: memlock limit: warn",
                 qPrintable(steps[0]));  // warn: a low limit (the sim ring is not locked)
        QCOMPARE(steps[1], QString("link BER: pass"));
        QVERIFY(states.contains("self-test"));
        bridge.startStreaming();
        QTRY_VERIFY_WITH_TIMEOUT(images.size() >= 5, 20000);
        const auto& last = images.last();
        QVERIFY(last.mmPerPixel > 0);
        QCOMPARE(last.image.format(), QImage::Format_Grayscale8);
        QVERIFY(last.depthMm() > 20 && last.depthMm() < 60);
        for (int i = 1; i < images.size(); ++i) {
            QVERIFY2(images[i].frameId != images[i - 1].frameId || images[i].session != images[i - 1].session, "each frame once");
        }
        QCOMPARE(bridge.display().framesShown(), static_cast<quint64>(images.size()));
        // Two changes at once: the second must not undo the first (each is applied on the engine's thread).
        auto picture = bridge.imaging();
        picture.gainDb = 6;
        bridge.setImaging(picture);
        picture = bridge.imaging();  // as asked for last, not yet as applied
        picture.dynamicRangeDb = 50;
        bridge.setImaging(picture);
        QTRY_VERIFY_WITH_TIMEOUT(images.last().gainDb == 6 && images.last().dynamicRangeDb == 50, 10000);
        bridge.freeze();
        QTRY_VERIFY_WITH_TIMEOUT(states.contains("frozen"), 10000);
        // A frame imaged as the freeze came may still arrive; after the next health sample
        // (twice a second) nothing more does, through two samples more.
        QSignalSpy health(&bridge.display(), &sonolink::gui::DisplayFeed::healthSampled);
        QTRY_VERIFY_WITH_TIMEOUT(health.count() >= 1, 10000);
        const auto frozenAt = images.size();
        QTRY_VERIFY_WITH_TIMEOUT(health.count() >= 3, 10000);
        QCOMPARE(images.size(), frozenAt);
        bridge.disconnectLink();
        QTRY_VERIFY_WITH_TIMEOUT(states.contains("idle"), 10000);
    }

    // Dual mode: the laser's shots come with the pictures as the shot view asks (laid over the
    // B-mode in colour, alone, beside it, or not at all), the health samples carry the laser's
    // counts and energy, and a freeze holds both kinds: the cine's frames each with their shot.
    void dualModeShowsTheShotsAsAskedAndFreezeHoldsBoth() {
        auto config = sonolink::config::loadConfig("", {});
        QVERIFY(config.has_value());
        config->link.shmName = "tst_engine_bridge_dual_" + std::to_string(::getpid());
        config->acquisition.laserRateHz = 20;
        sonolink::app::EngineChoice choice;
        choice.link = sonolink::app::linkChoiceFrom(*config, /*inProcess=*/true);
        choice.selfTest = sonolink::app::SelfTestChoice::Off;
        auto engine = sonolink::app::makeEngine(*config, choice);
        QVERIFY2(engine.has_value(), engine ? "" : engine.error().message().c_str());
        EngineBridge bridge(**engine);
        QVERIFY(bridge.firesLaser());
        QCOMPARE(bridge.display().shotDisplay().view, sonolink::gui::ShotView::Overlay);  // the default
        QStringList states;
        QList<BModeImage> images;
        QList<sonolink::gui::LinkHealth> health;
        connect(&bridge, &EngineBridge::stateChanged, this, [&](const QString& state, const QString&) { states << state; });
        connect(&bridge.display(), &DisplayFeed::imageReady, this, [&](const BModeImage& image) { images << image; });
        connect(&bridge.display(), &DisplayFeed::healthSampled, this, [&](const sonolink::gui::LinkHealth& h) { health << h; });
        bridge.connectLink();
        QTRY_VERIFY_WITH_TIMEOUT(states.contains("ready"), 20000);
        bridge.startStreaming();
        const auto isOverlay = [](const BModeImage& i) { return i.hasShot && i.image.format() == QImage::Format_RGB888 && i.shotColour.isNull(); };
        QTRY_VERIFY_WITH_TIMEOUT(!images.isEmpty() && isOverlay(images.last()), 20000);
        QVERIFY(images.last().shotEnergyMj > 10);
        auto shown = bridge.display().shotDisplay();
        shown.view = sonolink::gui::ShotView::SideBySide;
        bridge.display().setShotDisplay(shown);
        QTRY_VERIFY_WITH_TIMEOUT(images.last().hasShot && !images.last().shotColour.isNull() && images.last().image.format() == QImage::Format_Grayscale8,
                                 10000);
        QCOMPARE(images.last().shotColour.size(), images.last().image.size());  // co-registered: one raster
        shown.view = sonolink::gui::ShotView::Ultrasound;
        bridge.display().setShotDisplay(shown);
        QTRY_VERIFY_WITH_TIMEOUT(!images.last().hasShot && images.last().image.format() == QImage::Format_Grayscale8, 10000);
        shown.view = sonolink::gui::ShotView::Overlay;
        bridge.display().setShotDisplay(shown);
        QTRY_VERIFY_WITH_TIMEOUT(health.size() >= 3 && health.last().shotsFiredTotal > 0, 10000);
        QVERIFY(health.last().laserFires);
        QTRY_VERIFY_WITH_TIMEOUT(isOverlay(images.last()), 10000);
        // A cine of some length first: on a loaded machine the lossy display images few frames a
        // second (CI once froze with five).
        QTRY_VERIFY_WITH_TIMEOUT(bridge.display().cine().size() > 5, 30000);
        bridge.freeze();
        QTRY_VERIFY_WITH_TIMEOUT(states.contains("frozen"), 10000);
        const auto cine = bridge.display().cine();
        QVERIFY(cine.size() > 5);
        // The shots begin a lead time after the session (100 ms): from the first frame after a shot on,
        // every frame holds the last shot before it.
        const auto first = std::find_if(cine.begin(), cine.end(), [](const BModeImage& f) { return f.hasShot; });
        QVERIFY(first != cine.end());
        QVERIFY2(cine.end() - first >= cine.size() / 2, "most of the cine comes after the first shot");
        for (auto frame = first; frame != cine.end(); ++frame) {
            QVERIFY2(frame->hasShot, qPrintable(QString("frame %1 holds no shot").arg(frame->frameId)));
            QVERIFY2(frame->shotFrameId < frame->frameId, "each frame with the last shot before it");
        }
        QSignalSpy samples(&bridge.display(), &DisplayFeed::healthSampled);
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() >= 1, 10000);
        const auto frozenAt = images.size();
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() >= 3, 10000);
        QCOMPARE(images.size(), frozenAt);  // frozen: neither kind moves on
        QCOMPARE(bridge.display().cine().size(), cine.size());
        bridge.disconnectLink();
        QTRY_VERIFY_WITH_TIMEOUT(states.contains("idle"), 10000);
    }
};

QTEST_MAIN(TestEngineBridge)
#include "tst_engine_bridge.moc"
