// sonolink: the SonoLink console (Qt Widgets) on the engine, through the facade and its bridge.
// By default on the built-in simulated front end (link.backend "sim" without a shared-memory
// front end attached is served in-process), the start-up self-test as configured (its wizard
// shown at launch with selftest.at_connect), then live. Without --config it runs on the station's
// configuration (console_start.h), makes the folders it names, and is the only console on it; a
// failure to start is said in a dialog as well as on stderr.
//   sonolink [--config FILE] [--link-name NAME] [--screenshot PNG [--screenshot-wizard PNG]
//            [--screenshot-report PNG] [--screenshot-exam PNG]
//            [--screenshot-queue PNG] [--screenshot-calipers PNG]
//            [--screenshot-settings PNG] [--screenshot-station-check PNG] --quit-after S] [--language en|zh_CN]
//            [--probe-ui SECONDS] [--replay FILE|s3://BUCKET/KEY] [--cine FILE|s3://BUCKET/KEY]
// --replay reviews a UFF recording, local or read in place from the archive: the built-in front
// end sends its frames in a loop through the link, ingest and display as if live, with the
// recording's acquisition (no start-up self-test: the data are not this station's link).
// --cine reviews a DICOM image or cine, local or in the archive, frame by frame (cine_review_run.h).
// --probe-ui measures the console while it streams and prints the report (probe_run.h).
// --screenshot grabs the main window (and the other screens asked for, screenshots.h) after
// --quit-after seconds and quits (the screenshot script runs it under Xvfb). Exit 0, or 1 when the configuration or the
// engine cannot be made.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <iostream>

#include "cine_review_run.h"
#include "console_start.h"
#include "probe_run.h"
#include "screenshots.h"
#include "station_check.h"
#include "sonolink/app/coordinator_feed.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/app/metrics_endpoint.h"
#include "sonolink/app/replay_source.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/console/main_window.h"
#include "sonolink/console/self_test_session.h"
#include "sonolink/console/settings_store.h"
#include "sonolink/console/translations.h"
#include "sonolink/console/ui_probe.h"
#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/dialogs/self_test_wizard.h"
#include "sonolink/util/build_info.h"
#include "sonolink/util/station_user.h"

using sonolink::app::ScreenshotPlan;

namespace {

// The settings the station runs with, as the settings dialog shows them.
sonolink::gui::StationSettings stationSettingsOf(const sonolink::config::AppConfig& c) {
    sonolink::gui::StationSettings s;
    const auto q = [](const std::string& v) { return QString::fromStdString(v); };
    s.stationAeTitle = q(c.dicom.stationAeTitle);
    s.stationName = q(c.dicom.stationName);
    for (const auto& n : c.dicom.nodes) s.nodes << sonolink::gui::PacsNodeEntry{q(n.name), q(n.aeTitle), q(n.host), n.port, n.tls};
    s.tlsCertificate = q(c.dicom.tls.certificate);
    s.tlsPrivateKey = q(c.dicom.tls.privateKey);
    s.tlsTrustedCertificates = q(c.dicom.tls.trustedCertificates);
    s.selfTestAtConnect = c.selftest.atConnect;
    s.selfTestMode = c.selftest.mode == sonolink::config::SelfTestMode::Full ? "full" : "quick";
    return s;
}

// The console's command line: its options (--help lists them in the order they are added) and,
// once processed, what was given.
struct ConsoleCommandLine {
    QCommandLineParser parser;
    const QCommandLineOption configOption{"config", "Configuration file (JSON); else $SONOLINK_CONFIG, /etc/sonolink/sonolink.json or the shipped one.",
                                          "file"};
    const QCommandLineOption linkOption{"link-name", "Attach to sonolink-fe-sim on this shared-memory link instead of the built-in front end.", "name"};
    const QCommandLineOption screenshotOption{"screenshot", "Save the main window as this PNG, then quit.", "png"};
    const QCommandLineOption wizardShotOption{"screenshot-wizard", "Also save the self-test wizard's steps page as this PNG.", "png"};
    const QCommandLineOption reportShotOption{"screenshot-report", "Also save the self-test wizard's report page as this PNG.", "png"};
    const QCommandLineOption examShotOption{"screenshot-exam", "Also save the exam dialog, its worklist asked of the first DICOM node, as this PNG.", "png"};
    const QCommandLineOption examPatientShotOption{
        "screenshot-exam-patient", "With --screenshot-exam: also save its patient page, filled from the worklist's first item, as this PNG.", "png"};
    const QCommandLineOption queueShotOption{
        "screenshot-queue", "Also export the cine (a demo exam's) to the first DICOM node and save the main window with its PACS queue shown, as this PNG.",
        "png"};
    const QCommandLineOption calipersShotOption{"screenshot-calipers",
                                                "Also freeze, put calipers on the phantom's targets and save the main window, as this PNG.", "png"};
    const QCommandLineOption stationCheckShotOption{"screenshot-station-check", "Also save Help > Station check… once its checks are in, as this PNG.", "png"};
    const QCommandLineOption settingsShotOption{"screenshot-settings", "Also save the settings dialog, its first node's C-ECHO answered, as this PNG.", "png"};
    const QCommandLineOption probeOption{"probe-ui", "Measure the console for this many seconds of streaming (probe_run.h), print the report as JSON and quit.",
                                         "seconds"};
    const QCommandLineOption replayOption{
        "replay", "Review this UFF recording (a file, or s3://bucket/key read in place through the configured archive) on the built-in front end, in a loop.",
        "recording"};
    const QCommandLineOption cineOption{
        "cine", "Review this DICOM image or cine (a file, or s3://bucket/key read in place through the configured archive) frame by frame.", "object"};
    const QCommandLineOption clusterOption{
        "cluster-file", "Be the display host of the acquisition hosts this cluster file names (docs/cluster.md): Start streaming joins their partials.",
        "file"};
    const QCommandLineOption quitOption{"quit-after", "Seconds before the screenshot and the quit.", "seconds", "6"};
    const QCommandLineOption languageOption{"language", "Show the console in this language: en or zh_CN (default: the ui/language setting, else the system's).",
                                            "language"};

    void process(const QApplication& application) {
        parser.setApplicationDescription("SonoLink acquisition and QA console");
        parser.addHelpOption();
        parser.addOptions({configOption, linkOption, screenshotOption, wizardShotOption, reportShotOption, examShotOption, examPatientShotOption,
                           queueShotOption, calipersShotOption, settingsShotOption, stationCheckShotOption, probeOption, replayOption, cineOption,
                           clusterOption, quitOption, languageOption});
        parser.process(application);
    }
    [[nodiscard]] bool isSet(const QCommandLineOption& option) const { return parser.isSet(option); }
    [[nodiscard]] QString value(const QCommandLineOption& option) const { return parser.value(option); }
    [[nodiscard]] int quitAfterMs() const { return static_cast<int>(value(quitOption).toDouble() * 1000); }
};

// Where the console's configuration came from: the station check reloads it the same way.
struct ConsoleConfigSource {
    std::string file;                                         // empty: the built-in defaults
    std::vector<sonolink::config::ConfigOverride> overrides;  // what Settings… kept, then the command line's
    QString keptRefused;                                      // why the kept settings were not used; empty when they were
};

// The configuration: the file, then what Settings… kept, checked by the loader like the file
// (the command line's options after it). Kept settings the station can no longer use (a TLS file
// since removed) do not lock the console out: it starts without them, says why, and Settings…
// can put them right.
sonolink::Result<sonolink::config::AppConfig> loadConsoleConfig(const ConsoleCommandLine& args, ConsoleConfigSource& source) {
    std::vector<sonolink::config::ConfigOverride> commandLine;
    if (args.isSet(args.linkOption)) commandLine.push_back({"/link/shm_name", "\"" + args.value(args.linkOption).toStdString() + "\"", "--link-name"});
    if (const auto kept = sonolink::app::loadStationSettings()) {
        for (auto& [key, value] : sonolink::app::configOverridesOf(*kept)) source.overrides.push_back({key, value, "the console's settings (Settings…)"});
    }
    source.overrides.insert(source.overrides.end(), commandLine.begin(), commandLine.end());
    source.file = sonolink::app::consoleConfigFile(args.value(args.configOption));
    auto loaded = sonolink::config::loadConfig(source.file, source.overrides);
    if (!loaded && source.overrides.size() > commandLine.size()) {
        if (auto without = sonolink::config::loadConfig(source.file, commandLine)) {
            source.keptRefused = QString::fromStdString(loaded.error().describe());
            std::cerr << "sonolink: the kept settings were not used: " << source.keptRefused.toStdString() << '\n';
            loaded = std::move(without);
        }
    }
    return loaded;
}

// --cine: a DICOM object reviewed on its own, without the engine.
int runConsoleCine(const ConsoleCommandLine& args, const sonolink::config::AppConfig& config) {
    if (args.isSet(args.replayOption) || args.isSet(args.linkOption)) {
        std::cerr << "sonolink: --cine reviews a DICOM object on its own; it cannot be used with --replay or --link-name\n";
        return 1;
    }
    return sonolink::app::runCineReview(
        config, {args.value(args.cineOption), args.value(args.probeOption).toDouble(), args.value(args.screenshotOption), args.quitAfterMs()});
}

// --replay: the recording to review, opened (through the archive for s3://), said on stderr.
sonolink::Result<std::shared_ptr<sonolink::app::RecordingReplay>> openConsoleReplay(const QString& named, const sonolink::config::AppConfig& config) {
    auto opened = sonolink::app::RecordingReplay::open(named.toStdString(), config.archive);
    if (!opened) return sonolink::fail(std::move(opened.error()).addContext("opening " + named.toStdString() + " to review it"));
    const auto& replay = **opened;
    const auto& g = replay.geometry();
    std::cerr << "sonolink: reviewing " << replay.path() << ": " << replay.frames() << " frames of " << g.waves << " waves x " << g.channels << " channels x "
              << g.samples << " samples\n";
    return opened;
}

// The main window's station: its DICOM nodes, settings, engineer group, export target, station
// check and cine opener.
void setUpConsoleWindow(sonolink::app::MainWindow& window, const sonolink::config::AppConfig& config, const ConsoleConfigSource& source) {
    QStringList nodes;
    for (const auto& node : config.dicom.nodes) nodes << QString::fromStdString(node.name);
    window.setDicomNodes(nodes);
    window.setStationSettings(stationSettingsOf(config), nodes);
    window.setEngineerGroup(QString::fromStdString(config.selftest.engineerGroup));
    window.setExportTarget(QString::fromStdString(config.recording.directory), nodes.value(0));
    // Help > Station check…: the doctor, on the configuration as this console runs it.
    window.setStationCheck([configFile = source.file, overrides = source.overrides] { return sonolink::app::stationCheckReport(configFile, overrides); });
    window.setCineOpener(sonolink::app::cineReviewOpener(config));  // File > Review a DICOM cine…
}

// --screenshot and the other screens asked for (none: no screenshots, no quit).
ScreenshotPlan consoleScreenshotPlan(const ConsoleCommandLine& args) {
    if (!args.isSet(args.screenshotOption)) return {};
    return {args.value(args.screenshotOption),      args.value(args.wizardShotOption),
            args.value(args.reportShotOption),      args.value(args.examShotOption),
            args.value(args.queueShotOption),       args.value(args.calipersShotOption),
            args.value(args.settingsShotOption),    args.value(args.stationCheckShotOption),
            args.value(args.examPatientShotOption), args.quitAfterMs()};
}

// The console on the engine: the main window and the self-test wizard, live (or reviewing
// replay), until the event loop ends; the engine disconnected before the window goes.
int runConsoleWindow(sonolink::engine::Engine& engine, const sonolink::config::AppConfig& config, const ConsoleConfigSource& source,
                     const std::shared_ptr<sonolink::app::RecordingReplay>& replay, const ConsoleCommandLine& args, const QElapsedTimer& sinceStart) {
    sonolink::gui::EngineBridge bridge(engine);
    sonolink::app::MainWindow window(bridge, /*autoStream=*/true);
    setUpConsoleWindow(window, config, source);
    sonolink::gui::SelfTestWizard wizard(QString::fromStdString(sonolink::stationUser()), &window);
    wizard.setWindowFlag(Qt::Window);
    const auto& selftest = config.selftest;
    sonolink::app::SelfTestSession session(
        bridge, wizard,
        {selftest.reportDirectory, selftest.mode == sonolink::config::SelfTestMode::Full ? "full" : "quick", config.dicom.stationName, selftest.engineerGroup});
    QObject::connect(&window, &sonolink::app::MainWindow::selfTestRequested, &wizard, [&wizard] {
        wizard.show();
        wizard.raise();
    });
    // "Start scanning": the tests passed or were overridden.
    QObject::connect(&wizard, &QWizard::accepted, &bridge, [&bridge] {
        if (bridge.stateName() == "ready") bridge.startStreaming();
    });
    sonolink::app::UiProbe probe(bridge, *window.view());
    window.show();
    if (!source.keptRefused.isEmpty()) window.showKeptSettingsRefused(source.keptRefused);
    if (replay) window.setReview(QString::fromStdString(replay->path()), static_cast<int>(replay->frames()));
    else if (selftest.atConnect) wizard.show();
    QTimer::singleShot(0, &window, [&probe, &sinceStart] { probe.markStartup(static_cast<double>(sinceStart.nsecsElapsed()) / 1e6); });
    if (args.isSet(args.probeOption)) sonolink::app::scheduleUiProbe(args.value(args.probeOption).toDouble(), window, bridge, probe);
    bridge.connectLink();
    sonolink::app::scheduleScreenshots(consoleScreenshotPlan(args), config, window, wizard, bridge);
    const int status = QApplication::exec();
    engine.disconnect();
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    QElapsedTimer sinceStart;
    sinceStart.start();
    QApplication application(argc, argv);
    QApplication::setApplicationName("SonoLink");
    QApplication::setOrganizationName("SonoLink");
    QApplication::setApplicationVersion(QString::fromStdString(sonolink::buildInfo().version));
    ConsoleCommandLine args;
    args.process(application);
    // A run under automation (a screenshot, the probe) says why it cannot start and quits; a
    // user's start waits in a dialog until they have read it.
    const bool unattended = args.parser.isSet("screenshot") || args.parser.isSet("probe-ui");
    const auto startupFailed = [&](const sonolink::Error& why) { return sonolink::app::startupFailed(why, !unattended, args.value(args.screenshotOption)); };
    const auto language = sonolink::app::chooseLanguage(args.value(args.languageOption));
    if (!sonolink::app::installTranslations(application, language)) std::cerr << "sonolink: no translation for " << language.toStdString() << ": English\n";

    ConsoleConfigSource source;
    auto loaded = loadConsoleConfig(args, source);
    if (!loaded) return startupFailed(loaded.error());
    std::cerr << "sonolink: configuration: " << (source.file.empty() ? std::string("the built-in defaults") : source.file) << '\n';
    if (args.isSet(args.cineOption)) return runConsoleCine(args, *loaded);
    sonolink::app::EngineChoice choice;
    choice.link = sonolink::app::linkChoiceFrom(*loaded, /*inProcess=*/!args.isSet(args.linkOption));
    if (args.isSet(args.replayOption)) {
        if (args.isSet(args.linkOption)) {
            std::cerr << "sonolink: --replay runs on the built-in front end; it cannot be used with --link-name\n";
            return 1;
        }
        auto opened = openConsoleReplay(args.value(args.replayOption), *loaded);
        if (!opened) return startupFailed(opened.error());
        choice.replay = *opened;
        choice.selfTest = sonolink::app::SelfTestChoice::Off;
    }
    if (args.isSet(args.clusterOption)) {
        auto feed = sonolink::app::coordinatorFeed(args.value(args.clusterOption).toStdString());
        if (!feed) return startupFailed(feed.error());
        choice.clusterFeed = std::move(*feed);
        choice.selfTest = sonolink::app::SelfTestChoice::Off;  // each acquisition host tests its own link
    }
    auto consoleLock = sonolink::app::holdConsoleLock(loaded->dicom.queueDirectory);
    if (!consoleLock) return startupFailed(consoleLock.error());
    if (auto folders = sonolink::app::makeConsoleFolders(*loaded); !folders) {
        return startupFailed(folders.error());
    }
    auto made = sonolink::app::makeEngine(*loaded, choice);
    if (!made) return startupFailed(made.error());
    auto& engine = **made;
    auto metrics = sonolink::app::startMetrics(*loaded, engine);  // a lab's Prometheus, when metrics.prometheus_port asks
    if (!metrics) return startupFailed(metrics.error());
    return runConsoleWindow(engine, *loaded, source, choice.replay, args, sinceStart);
}
