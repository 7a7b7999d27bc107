// The console as the QtTests launch it: the real engine on the built-in simulated front end
// (consoleEngine), its bridge and the main window shown; frameWhere() waits for a picture that
// satisfies a test (the engine applies settings from a later frame).
// Thread contract: the test's (GUI) thread.
#pragma once

#include <QEventLoop>
#include <QTimer>
#include <QtTest>

#include <functional>
#include <memory>
#include <string>

#include "console_engine.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/bridge/engine_bridge.h"

namespace sonolink::testing {

// Waits for a frame shown that satisfies wanted, handling events meanwhile: an event loop that
// the frame itself ends (or the deadline), not a poll.
inline bool frameWhere(gui::EngineBridge& bridge, const std::function<bool(const gui::BModeImage&)>& wanted, int timeoutMs = 8000) {
    bool seen = false;
    QEventLoop loop;
    auto c = QObject::connect(&bridge.display(), &gui::DisplayFeed::imageReady, &loop, [&](const gui::BModeImage& image) {
        if (!seen && wanted(image)) {
            seen = true;
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return seen;
}

// The engine, its bridge and the main window shown (streaming as soon as the link is Ready).
struct Console {
    std::unique_ptr<engine::Engine> engine;
    std::unique_ptr<gui::EngineBridge> bridge;
    std::unique_ptr<app::MainWindow> window;
    explicit Console(transport::sim::FaultPlan faults = {}, const std::string& testName = "tst_main_window") : engine(consoleEngine("", testName, faults)) {
        if (!engine) return;
        bridge = std::make_unique<gui::EngineBridge>(*engine);
        window = std::make_unique<app::MainWindow>(*bridge, /*autoStream=*/true);
        window->show();
    }
    // Connected and showing frames.
    bool live() {
        if (!engine) return false;
        bridge->connectLink();
        return frameWhere(*bridge, [](const gui::BModeImage&) { return true; });
    }
    ~Console() {  // the window before the bridge it holds, the bridge before the engine
        window.reset();
        bridge.reset();
    }
};

}  // namespace sonolink::testing
