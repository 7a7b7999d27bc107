// sonolink-cli bench engine: the engine end to end on this station with the built-in simulated
// front end (payloads resident in the ring, as a NIC's DMA costs the host nothing) and the CPU
// beamformer: (1) delivered and displayed frames/s and the latency from a frame's last block to
// its image, for 128 channels x 2048 samples (x 1 or 3 plane waves) into a 256 x 512 grid; (2) the engine's
// own overhead, everything but beamforming: the CPU of its threads (ctl, rx-link0, heartbeat,
// bf-cpu idle) at 1,000 frames/s with the display off, as a share of one core, beside what one
// core needs just to read those bytes once, measured in the same run. Bar: the overhead at most
// 3 x that read cost (on the machine the bar was set on: <= 5 % of a core at a 1.6 % read cost).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "read_bandwidth.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"

namespace sonolink::cli {
namespace {

using namespace std::chrono_literals;

struct EngineBenchOptions {
    double seconds = 5;
    double rateHz = 30;  // end to end: the front end's frame rate (the configuration's)
    int waves = 1;       // transmits per frame: 1 (a 128 x 2048 frame) or 3 (compounded)
    bool wavesGiven = false;
    std::string configFile;       // measure this configuration (its probe, samples and transmits)
    double overheadBarRatio = 3;  // engine CPU / the CPU of reading its bytes once
    bool json = false;
};

struct EngineRun {
    engine::EngineStats stats;
    double seconds = 0;
    double engineCpuPercent = 0;  // engine threads, share of one core
    double bytesPerSecond = 0;
    nlohmann::json threads = nlohmann::json::object();
};

// base: the configuration measured (the defaults, 128 channels x 2048 samples, or a file's);
// waves > 0 replaces its transmits with 1 or 3 plane waves.
Result<EngineRun> runEngine(config::AppConfig config, double rateHz, bool display, double seconds, int waves) {
    config.acquisition.frameRateHz = rateHz;
    if (waves > 0) config.acquisition.planeWaveAnglesDeg = waves == 1 ? std::vector<double>{0.0} : std::vector<double>{-10.0, 0.0, 10.0};
    app::EngineChoice choice;
    choice.link = app::linkChoiceFrom(config, /*inProcess=*/true);
    choice.link.frontEnd.payloadResident = true;
    choice.dicomQueue = false;
    choice.display = display;
    choice.selfTest = app::SelfTestChoice::Off;  // a timed measurement of streaming alone
    auto made = app::makeEngine(config, choice);
    if (!made) return fail(std::move(made.error()));
    auto& engine = **made;
    engine.connect();
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (engine.state() != engine::EngineState::Ready) {
        if (engine.state() == engine::EngineState::Error || std::chrono::steady_clock::now() > deadline) {
            return fail(ErrorCode::Unavailable, "the link did not come up");
        }
        std::this_thread::sleep_for(10ms);
    }
    engine.startStreaming();
    std::this_thread::sleep_for(1s);  // warm-up: pools filled, caches warm
    const auto before = engine.stats();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    EngineRun run;
    run.stats = engine.stats();
    const auto rates = engine::rates(before, run.stats);
    run.seconds = rates.seconds;
    run.bytesPerSecond = rates.throughputGbps * 1e9 / 8;
    run.stats.framesDelivered -= before.framesDelivered;
    run.stats.framesDisplayed -= before.framesDisplayed;
    run.stats.displaySkipped -= before.displaySkipped;
    for (const auto& t : rates.threads) {
        run.threads[t.name] = t.percentOfCore;
        if (t.name == "ctl" || t.name == "rx-link0" || t.name == "heartbeat" || t.name == "bf-cpu" || t.name == "picture" || t.name == "rec" ||
            t.name == "jobs") {
            run.engineCpuPercent += t.percentOfCore;
        }
    }
    engine.disconnect();
    return run;
}

// One core's read bandwidth over 256 MiB (past the caches, as the ring is), best of five passes.
double measureReadGBps() {
    constexpr std::size_t bytes = 256u << 20;
    std::unique_ptr<std::byte, decltype(&std::free)> buffer(static_cast<std::byte*>(std::aligned_alloc(4096, bytes)), &std::free);
    if (!buffer) return 0;
    std::memset(buffer.get(), 1, bytes);  // real pages, not the shared zero page
    return readBandwidthGBps(buffer.get(), bytes, 5);
}

// The overhead measured: the attempt kept (the best ratio), its read pass, and the verdict.
struct EngineOverhead {
    EngineRun run;
    double readGBps = 0, readCostPercent = 0, ratio = 0, overheadFps = 0;
    int attempts = 0;
    bool pass = false;
};

// The overhead beside a read pass of its own, up to five attempts on a shared machine (its
// memory bandwidth changes from one minute to the next): the best ratio kept.
Result<EngineOverhead> measureEngineOverhead(const config::AppConfig& base, const EngineBenchOptions& o, int waves) {
    EngineOverhead m;
    while (!m.pass && m.attempts < 5) {
        ++m.attempts;
        auto run = runEngine(base, 1000, false, o.seconds, waves);
        if (!run) return fail(std::move(run.error()));
        const double read = measureReadGBps();
        const double cost = read > 0 ? 100 * run->bytesPerSecond / (read * 1e9) : 0;
        const double r = cost > 0 ? run->engineCpuPercent / cost : 0;
        if (m.attempts == 1 || (r > 0 && r < m.ratio)) {
            m.run = std::move(*run);
            m.readGBps = read, m.readCostPercent = cost, m.ratio = r;
            m.overheadFps = m.run.stats.framesDelivered / m.run.seconds;
        }
        m.pass = m.readCostPercent > 0 && m.ratio <= o.overheadBarRatio && m.overheadFps >= 950;
    }
    return m;
}

nlohmann::json engineBenchJson(const EngineBenchOptions& o, const config::AppConfig& base, int waveCount, const EngineRun& e2e, const EngineOverhead& m) {
    const auto& a = base.acquisition;
    return {{"config", o.configFile.empty() ? "defaults" : o.configFile},
            {"waves", waveCount},
            {"channels", base.probe.elementCount},
            {"samples", a.samplesPerChannel},
            {"end_to_end",
             {{"delivered_fps", e2e.stats.framesDelivered / e2e.seconds},
              {"displayed_fps", e2e.stats.framesDisplayed / e2e.seconds},
              {"latency_p50_us", e2e.stats.latencyP50Us},
              {"latency_p99_us", e2e.stats.latencyP99Us},
              {"display_skipped", e2e.stats.displaySkipped},
              {"every_frame_shown", e2e.stats.displaySkipped == 0},
              {"threads_percent_of_core", e2e.threads}}},
            {"overhead",
             {{"delivered_fps", m.overheadFps},
              {"engine_percent_of_core", m.run.engineCpuPercent},
              {"threads_percent_of_core", m.run.threads},
              {"payload_gbytes_per_s", m.run.bytesPerSecond / 1e9},
              {"read_bandwidth_gbytes_per_s", m.readGBps},
              {"read_cost_percent_of_core", m.readCostPercent},
              {"ratio_to_read_cost", m.ratio},
              {"bar_ratio", o.overheadBarRatio},
              {"attempts", m.attempts}}},
            {"pass", m.pass}};
}

void printEngineBench(const EngineBenchOptions& o, const config::AppConfig& base, int waveCount, const EngineRun& e2e, const EngineOverhead& m) {
    const auto& a = base.acquisition;
    std::cout << fmt::format("engine ({}), built-in simulated front end, CPU beamformer, {} ch x {} samples x {} wave{} -> the picture\n",
                             o.configFile.empty() ? "defaults" : o.configFile, base.probe.elementCount, a.samplesPerChannel, waveCount,
                             waveCount == 1 ? "" : "s");
    std::cout << fmt::format(
        "  end to end at {:g} frames/s: {:.1f} frames/s delivered, {:.1f} beamformed and shown ({} went past the display); "
        "latency last block -> picture p50 {:.1f} ms, p99 {:.1f} ms\n",
        o.rateHz, e2e.stats.framesDelivered / e2e.seconds, e2e.stats.framesDisplayed / e2e.seconds, e2e.stats.displaySkipped, e2e.stats.latencyP50Us / 1e3,
        e2e.stats.latencyP99Us / 1e3);
    std::cout << fmt::format(
        "  overhead at {:.0f} frames/s, display off: engine threads {:.2f} % of a core; reading its {:.2f} GB/s once costs "
        "{:.2f} % (one core reads {:.1f} GB/s): {:.2f} x (bar <= {:g} x; best of {} attempts): {}\n",
        m.overheadFps, m.run.engineCpuPercent, m.run.bytesPerSecond / 1e9, m.readCostPercent, m.readGBps, m.ratio, o.overheadBarRatio, m.attempts,
        m.pass ? "PASS" : "FAIL");
    for (const auto& [name, percent] : m.run.threads.items()) std::cout << fmt::format("    {:<16} {:6.2f} %\n", name, percent.get<double>());
}

int runBenchEngine(const EngineBenchOptions& o) {
    config::AppConfig base;
    if (!o.configFile.empty()) {
        auto loaded = config::loadConfigFile(o.configFile);
        if (!loaded) {
            std::cerr << "sonolink-cli bench engine: " << loaded.error().describe() << '\n';
            return kExitFailed;
        }
        base = *loaded;
    }
    const int waves = o.configFile.empty() || o.wavesGiven ? o.waves : 0;  // a file's own transmits unless --waves is given
    auto e2e = runEngine(base, o.rateHz, true, o.seconds, waves);
    if (!e2e) {
        std::cerr << "sonolink-cli bench engine: " << e2e.error().describe() << '\n';
        return kExitUnavailable;
    }
    auto overhead = measureEngineOverhead(base, o, waves);
    if (!overhead) {
        std::cerr << "sonolink-cli bench engine: " << overhead.error().describe() << '\n';
        return kExitUnavailable;
    }
    const int waveCount = waves > 0 ? waves : static_cast<int>(base.acquisition.planeWaveAnglesDeg.size());
    if (o.json) std::cout << engineBenchJson(o, base, waveCount, *e2e, *overhead).dump(2) << '\n';
    else printEngineBench(o, base, waveCount, *e2e, *overhead);
    return overhead->pass ? kExitOk : kExitFailed;
}

}  // namespace

void addBenchEngineCommand(CLI::App& bench, int& exitCode) {
    auto o = std::make_shared<EngineBenchOptions>();
    auto* cmd = bench.add_subcommand("engine", "The engine end to end (frames/s, latency) and its own CPU overhead at 1,000 frames/s");
    cmd->add_option("--seconds", o->seconds, "Seconds measured per run")->check(CLI::Range(1.0, 600.0))->capture_default_str();
    cmd->add_option("--rate", o->rateHz, "End to end: frames/s the front end sends (0: as fast as the link allows)")->capture_default_str();
    cmd->add_option("--config", o->configFile, "Measure this configuration (e.g. the shipped resources/config/sonolink.json) instead of the defaults")
        ->check(CLI::ExistingFile);
    auto* wavesOption = cmd->add_option("--waves", o->waves, "Transmits per frame: 1 (one 128 x 2048 acquisition) or 3 (compounded plane waves)")
                            ->check(CLI::IsMember({1, 3}))
                            ->capture_default_str();
    cmd->add_option("--bar", o->overheadBarRatio, "Most engine CPU allowed at 1,000 frames/s, as a multiple of the CPU of reading its bytes once")
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, wavesOption, &exitCode] {
        o->wavesGiven = wavesOption->count() > 0;
        exitCode = runBenchEngine(*o);
    });
}

}  // namespace sonolink::cli
