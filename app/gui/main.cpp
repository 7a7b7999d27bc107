// sonolink: the SonoLink console (Qt Widgets) on the engine, through the facade and its bridge.
// By default on the built-in simulated front end (link.backend "sim" without a shared-memory
// front end attached is served in-process), the start-up self-test as configured, then live.
//   sonolink [--config FILE] [--link-name NAME] [--screenshot PNG --quit-after S]
// --screenshot grabs the main window after --quit-after seconds and quits (the screenshot
// script runs it under Xvfb). Exit 0, or 1 when the configuration or the engine cannot be made.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <iostream>

#include "main_window.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/gui/bridge/engine_bridge.h"

int main(int argc, char** argv) {
    QApplication application(argc, argv);
    QApplication::setApplicationName("SonoLink");
    QCommandLineParser options;
    options.setApplicationDescription("SonoLink acquisition and QA console");
    options.addHelpOption();
    const QCommandLineOption configOption("config", "Configuration file (JSON); defaults otherwise.", "file");
    const QCommandLineOption linkOption("link-name", "Attach to sonolink-fe-sim on this shared-memory link instead of the built-in front end.", "name");
    const QCommandLineOption screenshotOption("screenshot", "Save the main window as this PNG, then quit.", "png");
    const QCommandLineOption quitOption("quit-after", "Seconds before the screenshot and the quit.", "seconds", "6");
    options.addOptions({configOption, linkOption, screenshotOption, quitOption});
    options.process(application);

    std::vector<sonolink::config::ConfigOverride> overrides;
    if (options.isSet(linkOption)) overrides.push_back({"/link/shm_name", "\"" + options.value(linkOption).toStdString() + "\"", "--link-name"});
    auto loaded = sonolink::config::loadConfig(options.value(configOption).toStdString(), overrides);
    if (!loaded) {
        std::cerr << "sonolink: " << loaded.error().describe() << '\n';
        return 1;
    }
    sonolink::app::EngineChoice choice;
    choice.link = sonolink::app::linkChoiceFrom(*loaded, /*inProcess=*/!options.isSet(linkOption));
    auto made = sonolink::app::makeEngine(*loaded, choice);
    if (!made) {
        std::cerr << "sonolink: " << made.error().describe() << '\n';
        return 1;
    }
    auto& engine = **made;
    int status = 0;
    {
        sonolink::gui::EngineBridge bridge(engine);
        sonolink::app::MainWindow window(bridge, /*autoStream=*/true);
        window.show();
        bridge.connectLink();
        if (options.isSet(screenshotOption)) {
            const auto file = options.value(screenshotOption);
            QTimer::singleShot(static_cast<int>(options.value(quitOption).toDouble() * 1000), &window, [&window, file] {
                if (!window.grab().save(file)) std::cerr << "sonolink: cannot save the screenshot " << file.toStdString() << '\n';
                QApplication::quit();
            });
        }
        status = QApplication::exec();
        engine.disconnect();
    }
    return status;
}
