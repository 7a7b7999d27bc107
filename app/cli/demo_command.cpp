// sonolink-cli demo: the headless demonstration, through the engine facade like the GUI: the
// built-in simulated front end, the link brought up, a few seconds of streaming and beamforming
// with a live progress line, then a PNG of the last image, a raw recording and a DICOM cine in an
// output folder, and a summary (frames, drops, latency, where the files are).
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "laser_options.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/app/metrics_endpoint.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/engine/shot_picture.h"
#include "sonolink/image/image_files.h"
#include "sonolink/util/log.h"

namespace sonolink::cli {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct DemoOptions {
    std::string configFile;
    std::string outputDir = "out/demo";
    double seconds = 3;
    int recordFrames = 10;
    bool json = false;
    LaserOptions laser;  // dual mode: shots beside the ultrasound frames (and an overlay PNG)
};

// Waits for the engine's events: a state, or a job's end.
class Waiter {
public:
    void onEvent(const engine::EngineEvent& event) {
        std::lock_guard lock(mutex_);
        if (const auto* s = std::get_if<engine::StateChanged>(&event)) {
            state_ = s->to;
            if (s->to == engine::EngineState::Error) reason_ = s->reason;
        } else if (const auto* j = std::get_if<engine::JobUpdate>(&event); j && j->status != engine::JobStatus::Running) {
            jobs_.push_back(*j);
        } else if (const auto* e = std::get_if<engine::EngineError>(&event)) {
            reason_ = e->describe();
        }
        changed_.notify_all();
    }
    // True when `wanted` is reached; false on Error or timeout (reason() says why).
    bool waitForState(engine::EngineState wanted, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, timeout, [&] { return state_ == wanted || state_ == engine::EngineState::Error; });
        if (state_ != wanted && reason_.empty()) reason_ = fmt::format("not {} after {} s", engine::toString(wanted), timeout.count() / 1000.0);
        return state_ == wanted;
    }
    // The end of job id (none: not within the timeout).
    std::optional<engine::JobUpdate> waitForJob(engine::JobId id, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        std::optional<engine::JobUpdate> ended;
        changed_.wait_for(lock, timeout, [&] {
            for (const auto& j : jobs_) {
                if (j.id == id) ended = j;
            }
            return ended.has_value();
        });
        return ended;
    }
    std::string reason() {
        std::lock_guard lock(mutex_);
        return reason_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    engine::EngineState state_ = engine::EngineState::Idle;
    std::string reason_;
    std::vector<engine::JobUpdate> jobs_;  // the jobs that ended
};

std::string progressLine(const engine::EngineStats& s, double elapsed) {
    return fmt::format("\r{:<9} {:5.1f} s  frames {:>6}  shown {:>5} ({:5.1f} fps)  {:6.2f} Gb/s  latency p50 {:7.1f} us  crc {}  missing {}",
                       engine::toString(s.state), elapsed, s.framesDelivered, s.framesDisplayed, s.displayFps, s.throughputGbps, s.latencyP50Us, s.crcErrors,
                       s.framesMissing);
}

int fail(const DemoOptions& o, const std::string& what, int code) {
    if (o.json) std::cout << nlohmann::json{{"ok", false}, {"error", what}}.dump(2) << '\n';
    std::cerr << "sonolink-cli demo: " << what << '\n';
    return code;
}

// The files the demo writes in --output-dir; the overlay's only in dual mode (empty otherwise).
struct DemoFiles {
    std::string recording, png, overlayPng, overlayDicom, dicom;
};

// Connects, streams for --seconds with a progress line while --record-frames are recorded, and
// freezes on the last image. kExitOk, or fail()'s code.
int streamDemo(engine::Engine& engine, Waiter& waiter, const DemoOptions& o, const std::string& recording) {
    engine.connect();
    if (!waiter.waitForState(engine::EngineState::Ready, 30s)) return fail(o, "the link did not come up: " + waiter.reason(), kExitUnavailable);
    engine.startStreaming();
    std::error_code ec;
    fs::remove(recording, ec);
    engine.startRecording(recording);
    const auto start = std::chrono::steady_clock::now();
    bool recordingStopped = false;
    while (true) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const auto stats = engine.stats();
        if (stats.state == engine::EngineState::Error) return fail(o, "streaming failed: " + waiter.reason(), kExitUnavailable);
        if (!recordingStopped && stats.framesRecorded >= static_cast<std::uint64_t>(o.recordFrames)) {
            engine.stopRecording();
            recordingStopped = true;
        }
        if (!o.json) std::cerr << progressLine(stats, elapsed) << std::flush;
        const bool shotsShown = !engine.firesLaser() || stats.laser.shown > 0;
        if (elapsed >= o.seconds && recordingStopped && stats.framesDisplayed > 0 && shotsShown) break;
        if (elapsed >= o.seconds + 30) return fail(o, "no image or recording after 30 s more", kExitFailed);
        std::this_thread::sleep_for(250ms);
    }
    if (!o.json) std::cerr << '\n';
    engine.freeze();  // the last image holds while we write it
    if (!waiter.waitForState(engine::EngineState::Frozen, 10s)) return fail(o, "could not freeze: " + waiter.reason(), kExitFailed);
    return kExitOk;
}

// Dual mode: the latest shot over the B-mode, as the console shows it. kExitOk, or fail()'s code.
int writeDemoOverlay(engine::Engine& engine, const DemoOptions& o, const engine::DisplayFrame& last, const engine::DisplayFrame& shot, DemoFiles& files) {
    auto overlay = engine::shotOverlay(last, shot, engine.photoacoustic());
    if (!overlay) return fail(o, overlay.error().describe(), kExitFailed);
    files.overlayPng = (fs::path(o.outputDir) / "demo_overlay.png").string();
    if (auto ok = image::writePngRgb(files.overlayPng, *overlay, static_cast<std::size_t>(last.rows), static_cast<std::size_t>(last.columns)); !ok) {
        return fail(o, ok.error().describe(), kExitFailed);
    }
    return kExitOk;
}

// The exam set, then (dual mode) the overlay as a colour DICOM image and the cine as a US
// Multi-frame, as the console exports them, each job waited for. kExitOk, or fail()'s code.
int exportDemoDicom(engine::Engine& engine, Waiter& waiter, const DemoOptions& o, const engine::DisplayFrame& last, const engine::DisplayFrame* shot,
                    DemoFiles& files) {
    files.dicom = (fs::path(o.outputDir) / "demo_cine.dcm").string();
    engine::Exam exam;
    exam.patient = {"Demo^Phantom", "DEMO-1", "", ""};
    exam.studyDescription = "SonoLink demo: simulated phantom";
    engine.setExam(exam);
    if (shot && !files.overlayPng.empty()) {
        files.overlayDicom = (fs::path(o.outputDir) / "demo_overlay.dcm").string();
        const auto snapshot = engine.exportSnapshot({files.overlayDicom, "", last.session, last.frameId, {}, {}, shot->frameId});
        const auto written = waiter.waitForJob(snapshot, 60s);
        if (!written || written->status != engine::JobStatus::Done) {
            return fail(o, "DICOM export of the overlay: " + (written ? written->message : std::string("no result")), kExitFailed);
        }
    }
    const auto job = engine.exportCine({files.dicom, "", 0});
    const auto done = waiter.waitForJob(job, 60s);
    if (!done || done->status != engine::JobStatus::Done) {
        return fail(o, "DICOM export: " + (done ? done->message : std::string("no result")), kExitFailed);
    }
    return kExitOk;
}

// stats: when the exports were done; ended: once the session has ended (the laser's counts).
nlohmann::json demoSummaryJson(const engine::Engine& engine, const engine::EngineStats& stats, const engine::EngineStats& ended, std::size_t cineFrames,
                               const engine::DisplayFrame& last, const DemoFiles& files) {
    return {{"ok", true},
            {"frames_delivered", stats.framesDelivered},
            {"frames_displayed", stats.framesDisplayed},
            {"display_skipped", stats.displaySkipped},
            {"frames_incomplete", stats.framesIncomplete},
            {"frames_missing", stats.framesMissing},
            {"crc_errors", stats.crcErrors},
            {"throughput_gbps", stats.throughputGbps},
            {"display_fps", stats.displayFps},
            {"latency_p50_us", stats.latencyP50Us},
            {"latency_p99_us", stats.latencyP99Us},
            {"imager", stats.imager},
            {"imager_ms_per_frame", stats.imagerMsPerFrame},
            {"frames_recorded", stats.framesRecorded},
            {"png", files.png},
            {"overlay_png", files.overlayPng},
            {"overlay_dicom", files.overlayDicom},
            {"laser", laserJson(ended)},
            {"shot_cine_frames", engine.shotCine().size()},
            {"recording", files.recording},
            {"dicom", files.dicom},
            {"cine_frames", cineFrames},
            {"image",
             {{"rows", last.rows},
              {"columns", last.columns},
              {"cm_per_pixel_x", last.cmPerPixelX},
              {"cm_per_pixel_y", last.cmPerPixelY},
              {"x_start_cm", last.xStartCm},
              {"z_start_cm", last.zStartCm}}}};
}

void printDemoSummary(const engine::EngineStats& stats, std::size_t cineFrames, const engine::DisplayFrame& last, const DemoFiles& files) {
    std::cout << fmt::format(
        "{} frames delivered ({} incomplete, {} missing, {} CRC errors), {} beamformed and shown "
        "({:.1f} fps; {} newer frames went past the display, by design)\n",
        stats.framesDelivered, stats.framesIncomplete, stats.framesMissing, stats.crcErrors, stats.framesDisplayed, stats.displayFps, stats.displaySkipped);
    std::cout << fmt::format("latency, last block written -> image ready: p50 {:.1f} us, p99 {:.1f} us; imaging on the {}: {:.1f} ms per frame\n",
                             stats.latencyP50Us, stats.latencyP99Us, stats.imager, stats.imagerMsPerFrame);
    std::cout << fmt::format("last image:  {}  ({} x {} px)\n", files.png, last.columns, last.rows);
    if (!files.overlayPng.empty()) {
        std::cout << fmt::format("laser:       {} shots fired, {} missed, {} late, {} shown; pulse to picture p99 {:.1f} ms\n", stats.laser.fired,
                                 stats.laser.missed, stats.laser.late, stats.laser.shown, stats.laser.shotToShownP99Ms);
        std::cout << fmt::format("overlay:     {}  (the last shot over the last B-mode)\n", files.overlayPng);
    }
    std::cout << fmt::format("recording:   {}  ({} frames of raw RF, UFF)\n", files.recording, stats.framesRecorded);
    std::cout << fmt::format("DICOM cine:  {}  ({} frames, US Multi-frame)\n", files.dicom, cineFrames);
}

int runDemo(const DemoOptions& o) {
    config::AppConfig config;
    if (!o.configFile.empty()) {
        auto loaded = config::loadConfigFile(o.configFile);
        if (!loaded) return fail(o, loaded.error().describe(), kExitFailed);
        config = *loaded;
    }
    if (o.laser.rateHz) config.acquisition.laserRateHz = *o.laser.rateHz;
    if (auto logging = log::configure(config.log); !logging) std::cerr << "sonolink-cli demo: " << logging.error().message() << '\n';
    std::error_code ec;
    fs::create_directories(o.outputDir, ec);
    if (ec) return fail(o, fmt::format("cannot create {}: {}", o.outputDir, ec.message()), kExitFailed);
    app::EngineChoice choice;
    choice.link = app::linkChoiceFrom(config, /*inProcess=*/true);
    choice.link.frontEnd.laser = o.laser.simulated();
    choice.dicomQueue = false;
    auto made = app::makeEngine(config, choice);
    if (!made) return fail(o, made.error().describe(), kExitFailed);
    auto& engine = **made;
    auto metrics = app::startMetrics(config, engine);  // a lab's Prometheus, when configured
    if (!metrics) return fail(o, metrics.error().describe(), kExitFailed);
    Waiter waiter;
    auto subscription = engine.subscribe([&waiter](const engine::EngineEvent& e) { waiter.onEvent(e); });

    DemoFiles files;
    files.recording = (fs::path(o.outputDir) / "demo.uff").string();
    if (const int code = streamDemo(engine, waiter, o, files.recording); code != kExitOk) return code;
    const auto last = engine.latestFrame();
    files.png = (fs::path(o.outputDir) / "demo.png").string();
    if (auto ok = image::writePng(files.png, last->pixels, static_cast<std::size_t>(last->rows), static_cast<std::size_t>(last->columns)); !ok) {
        return fail(o, ok.error().describe(), kExitFailed);
    }
    const auto shotShown = engine.latestShot();
    if (shotShown) {
        if (const int code = writeDemoOverlay(engine, o, *last, *shotShown, files); code != kExitOk) return code;
    }
    if (const int code = exportDemoDicom(engine, waiter, o, *last, shotShown.get(), files); code != kExitOk) return code;
    const auto stats = engine.stats();
    engine.disconnect();
    // The laser's counts once the session has ended: the front end's last report says all of its own.
    const auto ended = waiter.waitForState(engine::EngineState::Idle, 30s) ? engine.stats() : stats;
    const auto cineFrames = engine.cine().size();
    const auto summary = demoSummaryJson(engine, stats, ended, cineFrames, *last, files);
    if (o.json) std::cout << summary.dump(2) << '\n';
    else printDemoSummary(stats, cineFrames, *last, files);
    return kExitOk;
}

}  // namespace

void addDemoCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<DemoOptions>();
    auto* cmd = app.add_subcommand("demo", "Headless demo: simulated front end -> link -> beamforming; a PNG, a recording and a DICOM cine");
    cmd->add_option("--config", o->configFile, "Configuration file (JSON); defaults otherwise")->check(CLI::ExistingFile);
    cmd->add_option("--output-dir", o->outputDir, "Where the PNG, the recording and the DICOM cine go")->capture_default_str();
    cmd->add_option("--seconds", o->seconds, "How long to stream")->check(CLI::Range(0.5, 3600.0))->capture_default_str();
    cmd->add_option("--record-frames", o->recordFrames, "Frames of raw RF to record")->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_flag("--json", o->json, "Print the summary as JSON");
    addLaserOptions(*cmd, o->laser);
    cmd->callback([o, &exitCode] { exitCode = runDemo(*o); });
}

}  // namespace sonolink::cli
