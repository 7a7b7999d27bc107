// sonolink-cli stream, record and replay: acquire over the link through the engine (display off),
// like the GUI, and account for every block and frame; reconnect when the front end comes back.
// What the run came to is summed up in stream_summary.cpp.
#include <algorithm>
#include <cmath>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "sonolink/report/engine_event_json.h"
#include "exit_codes.h"
#include "laser_options.h"
#include "link_diagnostics.h"
#include "stream_summary.h"
#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/app/metrics_endpoint.h"
#include "sonolink/app/replay_source.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/engine/event_log.h"
#include "sonolink/util/log.h"

namespace sonolink::cli {
using report::toJson;
namespace {

std::atomic<bool> interrupted{false};
extern "C" void onInterrupt(int) { interrupted.store(true); }

struct StreamOptions {
    std::string configFile;
    // Options that stand for configuration keys: given, they are held to the file's rules.
    std::optional<std::string> linkName, linkKind, address;
    std::optional<int> port, rxCpu, channels, samples;
    std::optional<std::uint32_t> slotBytes, slotCount;
    bool inProcess = false;
    bool busyPoll = false;   // or link.completion_mode busy_poll
    bool hugePages = false;  // or link.huge_pages
    std::uint32_t frames = 100;
    double seconds = 0;            // > 0: stream this long (frames then default to no limit)
    std::optional<double> rateHz;  // 0: as fast as the link allows
    std::string mode = "rf";
    LaserOptions laser;  // dual mode's shot rate; the built-in front end's laser
    bool reconnect = false;
    bool noSelfTest = false;  // skip the start-up self-test that selftest.at_connect asks for
    double acceptTimeoutS = 30;
    std::string recordFile;  // record every frame (UFF), losslessly or fail loudly
    std::string replayFile;  // the built-in front end replays this recording
    bool json = false;
    bool jsonEvents = false;  // every engine event as a JSON line on stderr
};

// The configuration keys the command line sets, each named by its option.
std::vector<config::ConfigOverride> overridesFrom(const StreamOptions& o) {
    std::vector<config::ConfigOverride> out;
    auto add = [&out](const auto& value, const char* key, const char* option) {
        if (value) out.push_back({key, nlohmann::json(*value).dump(), option});
    };
    add(o.linkName, "/link/shm_name", "--link-name");
    add(o.linkKind, "/link/backend", "--link");
    add(o.address, "/link/address", "--address");
    add(o.port, "/link/port", "--port");
    add(o.rxCpu, "/link/rx_cpu", "--rx-cpu");
    add(o.slotBytes, "/link/slot_size_bytes", "--slot-bytes");
    add(o.slotCount, "/link/slot_count", "--slots");
    add(o.channels, "/probe/element_count", "--channels");
    add(o.samples, "/acquisition/samples_per_channel", "--samples");
    if (o.rateHz && *o.rateHz > 0) add(o.rateHz, "/acquisition/frame_rate_hz", "--rate");
    add(o.laser.rateHz, "/acquisition/laser_rate_hz", "--laser-hz");
    if (o.busyPoll) out.push_back({"/link/completion_mode", "\"busy_poll\"", "--busy-poll"});
    if (o.hugePages) out.push_back({"/link/huge_pages", "true", "--huge-pages"});
    return out;
}

Result<transport::PayloadKind> parseMode(const std::string& mode, bool& photoacoustic) {
    photoacoustic = mode == "pa";
    if (mode == "rf" || mode == "pa" || mode == "dual") return transport::PayloadKind::Rf;
    if (mode == "prbs7") return transport::PayloadKind::Prbs7;
    if (mode == "prbs15") return transport::PayloadKind::Prbs15;
    if (mode == "prbs23") return transport::PayloadKind::Prbs23;
    if (mode == "prbs31") return transport::PayloadKind::Prbs31;
    if (mode == "counter") return transport::PayloadKind::Counter;
    return fail(ErrorCode::InvalidArgument, fmt::format("unknown mode '{}' (rf, pa, dual, prbs7, prbs15, prbs23, prbs31, counter)", mode));
}

// One line on stderr in one write(): engine threads print JSON events there too (--json-events),
// and a line written in pieces could be cut by one of theirs.
void say(std::string line) {
    line.push_back('\n');
    for (std::size_t done = 0; done < line.size();) {
        const auto n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

std::string progressLine(const engine::EngineStats& s) {
    const double seconds = s.streamingSeconds;
    return fmt::format("\rframes {:>8}  {:7.1f} fps  {:6.2f} GB/s  crc {:>4}  hdr {:>4}  gaps {:>4}  dup {:>4}  incomplete {:>4}  missing {:>4}",
                       s.framesDelivered, seconds > 0 ? s.framesDelivered / seconds : 0.0, seconds > 0 ? s.bytes / seconds / 1e9 : 0.0, s.crcErrors,
                       s.headerErrors, s.link.sequenceGaps, s.link.duplicates, s.framesIncomplete, s.framesMissing);
}

// "Unavailable: what (while doing)", as Error::describe() words it.
std::string errorText(const engine::EngineError& e) {
    auto text = fmt::format("{}: {}", toString(e.code), e.message);
    for (const auto& c : e.context) text += fmt::format(" (while {})", c);
    return text;
}

int streamExitCodeFor(ErrorCode code) { return code == ErrorCode::Unavailable ? kExitUnavailable : kExitFailed; }

// The Configure this run sends, and the frame source of a replay: from the configuration and
// the command line (which wins), or the recording's own geometry.
struct Acquisition {
    config::AppConfig config;
    transport::Configure configure;
    std::shared_ptr<app::RecordingReplay> replay;
};

Result<Acquisition> acquisitionFrom(const StreamOptions& o, int& usageError) {
    Acquisition a;
    auto loaded = config::loadConfig(o.configFile, overridesFrom(o));
    if (!loaded) {  // a bad value on the command line is a usage error; one in the file, a problem found
        const auto& details = loaded.error().details();
        const bool commandLine = std::any_of(details.begin(), details.end(), [](const auto& d) { return d.starts_with("command line: "); });
        usageError = commandLine ? kExitUsage : kExitFailed;
        return fail(std::move(loaded.error()));
    }
    a.config = std::move(*loaded);
    if (auto logging = log::configure(a.config.log); !logging) std::cerr << "sonolink-cli stream: " << logging.error().message() << '\n';
    a.configure = app::configureFrom(a.config);
    if (!o.replayFile.empty()) {
        if (!o.inProcess) {
            usageError = kExitUsage;
            return fail(ErrorCode::InvalidArgument, "--replay needs --in-process (or run sonolink-fe-sim --replay FILE)");
        }
        auto recording = app::RecordingReplay::open(o.replayFile, a.config.archive);
        if (!recording) return fail(std::move(recording.error()));
        a.replay = *recording;
        a.configure = app::configureOf(a.replay->geometry());  // the recording's geometry
    }
    if (o.rateHz) a.configure.frameRateMilliHz = static_cast<std::uint32_t>(std::lround(*o.rateHz * 1000));
    bool photoacoustic = false;
    auto kind = parseMode(o.mode, photoacoustic);
    if (!kind) {
        usageError = kExitUsage;
        return fail(std::move(kind.error()));
    }
    if (a.replay) {  // the recording says what its frames are: shots, or ultrasound with the laser's shots between them
        if (a.replay->shots()) a.configure.laserRateMilliHz = static_cast<std::uint32_t>(std::lround(a.replay->laserRateHz() * 1000));
    } else {
        a.configure.photoacoustic = photoacoustic;
    }
    a.configure.payloadKind = *kind;
    if (o.mode == "dual" && a.configure.laserRateMilliHz == 0) {
        usageError = kExitUsage;
        return fail(ErrorCode::InvalidArgument, "--mode dual needs a laser rate: --laser-hz, or acquisition.laser_rate_hz in the configuration");
    }
    if (o.mode != "dual" && o.mode != "rf") a.configure.laserRateMilliHz = 0;  // shots only beside ultrasound frames
    return a;
}

// The link as the configuration (with the command line's values) sets it.
app::LinkChoice linkChoice(const StreamOptions& o, const Acquisition& a) {
    const auto& link = a.config.link;
    app::LinkChoice choice;
    choice.backend = link.backend == config::LinkBackend::Verbs ? app::LinkChoice::Backend::Verbs
                     : o.inProcess                              ? app::LinkChoice::Backend::SimInProcess
                                                                : app::LinkChoice::Backend::SimShared;
    choice.name = link.shmName;
    choice.address = link.address;
    choice.port = link.port;
    choice.busyPoll = link.completionMode == config::CompletionMode::BusyPoll;
    choice.hugePages = link.hugePages;
    choice.slotBytes = link.slotSizeBytes;
    choice.slotCount = link.slotCount;
    return choice;
}

// Waits for the state machine to reach one of `states` (events after `mark`), or for the user
// to interrupt; the progress line meanwhile.
std::optional<engine::StateChanged> waitForStates(engine::EventLog& events, std::size_t mark, std::initializer_list<engine::EngineState> states,
                                                  const engine::Engine& engine, bool progress) {
    const auto reached = [&](const engine::StateChanged& s) { return std::find(states.begin(), states.end(), s.to) != states.end(); };
    while (!interrupted.load()) {
        if (auto s = events.waitFor<engine::StateChanged>(reached, std::chrono::milliseconds(200), mark)) return s;
        if (progress) std::cerr << progressLine(engine.stats()) << std::flush;
    }
    return std::nullopt;
}

// The link's error that put the engine in Error (its event follows the state's at once).
engine::EngineError linkError(engine::EventLog& events, std::size_t mark, const std::string& reason) {
    const auto isLink = [](const engine::EngineError& e) { return e.origin == engine::ErrorOrigin::Link; };
    if (auto e = events.waitFor<engine::EngineError>(isLink, std::chrono::seconds(2), mark)) return *e;
    return {engine::ErrorOrigin::Link, engine::Severity::Error, ErrorCode::Unavailable, reason, "", {}, {}};
}

// Sessions until the frames are acquired, the time is up, the user stops, or the front end is
// lost (and, with --reconnect, comes back): connect, stream what is left, account.
StreamOutcome runSessions(engine::Engine& engine, engine::EventLog& events, const StreamOptions& o) {
    StreamOutcome out;
    const bool progress = !o.json && !o.jsonEvents;
    const auto acquiredOf = [](const engine::EngineStats& s) { return s.framesDelivered + s.framesIncomplete + s.framesMissing; };
    while (!interrupted.load()) {
        const auto connecting = events.size();
        const auto beforeConnect = engine.stats();
        engine.connect();
        const auto up = waitForStates(events, connecting, {engine::EngineState::Ready, engine::EngineState::Error}, engine, false);
        if (!up) break;  // interrupted while waiting for the front end
        if (up->to == engine::EngineState::Error) {
            const auto e = linkError(events, connecting, up->reason);
            say("sonolink-cli stream: " + errorText(e));
            if (e.code == ErrorCode::Unavailable && o.reconnect && out.sessions > 0) {  // gone again before streaming: wait once more
                out.linkErrors.push_back(e.message);
                say("sonolink-cli stream: waiting for the front end to reconnect");
                continue;
            }
            out.exitCode = streamExitCodeFor(e.code);
            break;
        }
        if (++out.sessions == 1 && !engine.stats().link.device.empty()) say("link: " + engine.stats().link.description);
        const auto s = engine.stats();
        out.selfTestFrames += acquiredOf(s) - acquiredOf(beforeConnect);
        out.selfTestDelivered += s.framesDelivered - beforeConnect.framesDelivered;
        if (const auto blocked = s.selfTestBlock; !blocked.empty()) {  // streaming would be refused
            say(
                fmt::format("sonolink-cli stream: {}: nothing acquired. Fix what the self-test names; an engineer can override it in "
                            "the console (with a reason, audited), or run without it (--no-selftest)",
                            blocked));
            out.exitCode = kExitFailed;
            const auto stopping = events.size();
            engine.disconnect();
            (void)events.waitFor<engine::StateChanged>([](const auto& c) { return c.to == engine::EngineState::Idle; }, std::chrono::seconds(30), stopping);
            break;
        }
        const auto acquired = acquiredOf(s) - out.selfTestFrames;
        if (o.frames != 0 && acquired >= o.frames) break;
        const auto streaming = events.size();
        engine.startStreaming(o.frames == 0 ? 0 : static_cast<std::uint32_t>(o.frames - acquired));
        const auto ended = waitForStates(events, streaming, {engine::EngineState::Idle, engine::EngineState::Error}, engine, progress);
        if (progress) std::cerr << progressLine(engine.stats()) << '\n';
        if (!ended) {  // Ctrl-C or the time is up: the front end is stopped, everything accounted
            const auto stopping = events.size();
            engine.disconnect();
            (void)events.waitFor<engine::StateChanged>([](const auto& c) { return c.to == engine::EngineState::Idle; }, std::chrono::seconds(30), stopping);
            break;
        }
        if (ended->to == engine::EngineState::Idle) break;  // the front end acquired its frames
        const auto e = linkError(events, streaming, ended->reason);
        say("sonolink-cli stream: link lost: " + errorText(e));
        out.linkErrors.push_back(e.message);
        if (!o.reconnect || e.code != ErrorCode::Unavailable || interrupted.load()) {
            out.exitCode = streamExitCodeFor(e.code);
            break;
        }
        say("sonolink-cli stream: waiting for the front end to reconnect");
    }
    return out;
}

// Stops the recording (if it is still on) and says how it went.
nlohmann::json finishRecording(engine::Engine& engine, engine::EventLog& events, const std::string& file, int& exitCode) {
    const auto isEnd = [](const engine::RecordingChanged& r) {
        return r.phase == engine::RecordingPhase::Stopped || r.phase == engine::RecordingPhase::Failed;
    };
    engine.stopRecording();
    const auto end = events.waitFor<engine::RecordingChanged>(isEnd, std::chrono::seconds(60));
    const auto stats = engine.stats();
    nlohmann::json recording = {{"file", file},
                                {"frames_recorded", stats.framesRecorded},
                                {"frames_refused", stats.framesRecordRefused},
                                {"frames_skipped", stats.framesRecordSkipped},
                                {"error", end ? end->error : "the recording did not stop in 60 s"}};
    if (!end || end->phase == engine::RecordingPhase::Failed) {
        say("sonolink-cli stream: recording failed: " + recording["error"].get<std::string>());
        if (exitCode == kExitOk) exitCode = kExitFailed;
    } else if (stats.framesRecordSkipped > 0) {  // not lossless: said, and the exit code says so too
        say(
            fmt::format("sonolink-cli stream: the recording has gaps: {} frames never arrived between recorded ones (the host or the front "
                        "end had no free buffer: the disk or another consumer fell behind); /acquisition/frame_id in {} shows where",
                        stats.framesRecordSkipped, file));
        if (exitCode == kExitOk) exitCode = kExitFailed;
    }
    return recording;
}

// The engine as the GUI builds it, display and PACS queue off, on the link and with the
// acquisition this run chose.
app::EngineChoice streamEngineChoice(const StreamOptions& o, const Acquisition& acquisition) {
    app::EngineChoice choice;
    choice.link = linkChoice(o, acquisition);
    choice.link.frontEnd.laser = o.laser.simulated();
    choice.display = false;
    choice.dicomQueue = false;
    choice.configure = acquisition.configure;
    choice.replay = acquisition.replay;
    choice.acceptTimeout = std::chrono::milliseconds(static_cast<long>(o.acceptTimeoutS * 1000));
    choice.reopenAfterSession = false;
    // The start-up self-test as configured (selftest.at_connect): a station that tests its link
    // before imaging does so here too. A test-pattern stream measures the link itself.
    const bool imaging = o.mode == "rf" || o.mode == "pa" || o.mode == "dual";
    choice.selfTest = imaging && !o.noSelfTest ? app::SelfTestChoice::AsConfigured : app::SelfTestChoice::Off;
    return choice;
}

// --seconds: a duration ends the run like Ctrl-C: the front end is stopped, everything accounted.
std::jthread startStreamTimer(double seconds) {
    return std::jthread([seconds](std::stop_token stop) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (!stop.stop_requested() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (!stop.stop_requested()) interrupted.store(true);
    });
}

// --record FILE: the recording started before the first session; false (said) when it did not.
bool startStreamRecording(engine::Engine& engine, engine::EventLog& events, const std::string& file) {
    const auto mark = events.size();
    engine.startRecording(file);
    const auto started = events.waitFor<engine::RecordingChanged>([](const auto&) { return true; }, std::chrono::seconds(30), mark);
    if (!started || started->phase != engine::RecordingPhase::Started) {
        say("sonolink-cli stream: " + (started ? started->error : std::string("the recording did not start")));
        return false;
    }
    return true;
}

// stream, record and replay: a client of the engine (display off) like the GUI, on the link the
// configuration and the flags choose.
int runStream(const StreamOptions& o) {
    int usageError = kExitFailed;
    auto acquisition = acquisitionFrom(o, usageError);
    if (!acquisition) {
        std::cerr << "sonolink-cli stream: " << acquisition.error().describe() << '\n';
        return usageError;
    }
    const auto choice = streamEngineChoice(o, *acquisition);
    if (choice.link.backend == app::LinkChoice::Backend::Verbs && choice.link.address.empty()) {
        std::cerr << "sonolink-cli stream: --link verbs needs --address (the local IP of the RDMA interface)\n";
        return kExitUsage;
    }
    auto made = app::makeEngine(acquisition->config, choice);
    if (!made) {
        std::cerr << "sonolink-cli stream: " << made.error().describe() << '\n';
        return kExitFailed;
    }
    auto& engine = **made;
    auto metrics = app::startMetrics(acquisition->config, engine);  // a lab's Prometheus, when metrics.prometheus_port asks
    if (!metrics) {
        std::cerr << "sonolink-cli stream: " << metrics.error().describe() << '\n';
        return kExitFailed;
    }
    engine::EventLog events;
    auto subscription = engine.subscribe(std::ref(events));
    std::optional<engine::Subscription> printer;
    if (o.jsonEvents) printer = engine.subscribe([](const engine::EngineEvent& e) { say(toJson(e).dump()); });
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::jthread timer;
    if (o.seconds > 0) timer = startStreamTimer(o.seconds);
    if (!o.recordFile.empty() && !startStreamRecording(engine, events, o.recordFile)) return kExitFailed;
    if (choice.link.backend == app::LinkChoice::Backend::SimShared && !o.json) {
        say(fmt::format("waiting for a front end on /dev/shm/{} (sonolink-fe-sim --link-name {})", choice.link.name, choice.link.name));
    }
    // Port counters before and after (verbs): what the NIC itself saw, for the engineer.
    const bool verbs = choice.link.backend == app::LinkChoice::Backend::Verbs;
    auto countersBefore = verbs ? rdmaDiagnostics("", 0) : Result<nlohmann::json>(nlohmann::json{});
    auto outcome = runSessions(engine, events, o);
    nlohmann::json recording = nullptr;
    if (!o.recordFile.empty()) recording = finishRecording(engine, events, o.recordFile, outcome.exitCode);
    const auto stats = engine.stats();
    nlohmann::json portCounters = nlohmann::json::object();
    if (verbs && countersBefore && !stats.link.device.empty()) {
        if (auto after = rdmaDiagnostics("", 0)) portCounters = counterDeltas(*countersBefore, *after, stats.link.device);
    }
    const auto summary = streamSummaryJson(stats, outcome, recording, portCounters);
    if (o.json) std::cout << summary.dump(2) << '\n';
    else printStreamSummary(summary, o.recordFile);
    return outcome.exitCode;
}

}  // namespace

// The acquisition options stream, record and replay share.
CLI::Option* addAcquisitionOptions(CLI::App& cmd, StreamOptions& o) {
    cmd.add_option("--config", o.configFile, "Configuration file (JSON); defaults otherwise");
    cmd.add_option("--link-name", o.linkName, "Shared-memory link name (/dev/shm/<name>) for sonolink-fe-sim (default: link.shm_name)");
    cmd.add_option("--link", o.linkKind, "sim (shared memory) or verbs (RDMA) (default: link.backend)")->check(CLI::IsMember({"sim", "verbs"}));
    cmd.add_option("--address", o.address, "verbs: local IP address of the RDMA interface to listen on (default: link.address)");
    cmd.add_option("--port", o.port, "verbs: port to listen on (default: link.port)");
    cmd.add_flag("--busy-poll", o.busyPoll, "verbs: spin on the completion queue instead of sleeping on its channel");
    cmd.add_flag("--huge-pages", o.hugePages, "verbs: back the ring with huge pages");
    cmd.add_option("--rx-cpu", o.rxCpu, "Pin the completion/ingest thread to this CPU (overrides link.rx_cpu)");
    auto* frames = cmd.add_option("--frames", o.frames, "Frames to acquire (0 = until interrupted)")->capture_default_str();
    cmd.add_option("--seconds", o.seconds, "Stream this long, bring-up included (with no --frames: as many frames as fit)")->check(CLI::Range(0.1, 1e6));
    cmd.add_option("--rate", o.rateHz, "Frame rate in Hz (0 = as fast as the link allows)")->check(CLI::Range(0.0, 1e6));
    cmd.add_option("--channels", o.channels, "Channels (overrides probe.element_count)");
    cmd.add_option("--samples", o.samples, "Samples per channel (overrides acquisition.samples_per_channel)");
    cmd.add_option("--slot-bytes", o.slotBytes, "Ring slot size (overrides link.slot_size_bytes)");
    cmd.add_option("--slots", o.slotCount, "Ring slot count (overrides link.slot_count)");
    cmd.add_flag("--reconnect", o.reconnect, "When the front end is lost, wait for it and resume");
    cmd.add_flag("--no-selftest", o.noSelfTest, "Skip the start-up self-test that selftest.at_connect asks for at each connect");
    cmd.add_option("--accept-timeout", o.acceptTimeoutS, "Seconds to wait for the front end")->check(CLI::Range(0.1, 86400.0))->capture_default_str();
    cmd.add_flag("--json", o.json, "Print the summary as JSON");
    cmd.add_flag("--json-events", o.jsonEvents, "Print every engine event as one JSON line on stderr (for scripts and tests)");
    return frames;
}

void addStreamCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<StreamOptions>();
    auto* cmd = app.add_subcommand("stream", "Acquire frames over the link, checking and counting every block");
    auto* frames = addAcquisitionOptions(*cmd, *o);
    cmd->add_flag("--in-process", o->inProcess, "Run the simulated front end inside this process");
    cmd->add_option("--mode", o->mode, "rf, pa (photoacoustic), dual (ultrasound with laser shots), prbs7, prbs15, prbs23, prbs31 or counter")
        ->capture_default_str();
    addLaserOptions(*cmd, o->laser);
    cmd->add_option("--record", o->recordFile, "Record every frame to this UFF file (stops loudly if the disk falls behind)");
    cmd->add_option("--replay", o->replayFile, "With --in-process: the built-in front end replays this UFF recording");
    cmd->callback([o, frames, &exitCode] {
        if (o->seconds > 0 && frames->count() == 0) o->frames = 0;
        exitCode = runStream(*o);
    });

    auto r = std::make_shared<StreamOptions>();
    auto* record = app.add_subcommand("record", "Record frames from the link to a UFF file, losslessly or failing loudly (stream --record)");
    auto* recordFrames = addAcquisitionOptions(*record, *r);
    record->add_option("FILE", r->recordFile, "The UFF file to write")->required();
    record->add_flag("--in-process", r->inProcess, "Record from the built-in simulated front end");
    record->add_option("--mode", r->mode, "rf, pa (photoacoustic) or dual (ultrasound with laser shots)")
        ->check(CLI::IsMember({"rf", "pa", "dual"}))
        ->capture_default_str();
    addLaserOptions(*record, r->laser);
    record->callback([r, recordFrames, &exitCode] {
        if (r->seconds > 0 && recordFrames->count() == 0) r->frames = 0;
        exitCode = runStream(*r);
    });

    auto p = std::make_shared<StreamOptions>();
    auto* replay =
        app.add_subcommand("replay", "Replay a UFF recording through the built-in front end, the link and ingest, bit-exactly (stream --in-process --replay)");
    auto* replayFrames = addAcquisitionOptions(*replay, *p);
    replay->add_option("FILE", p->replayFile, "The UFF recording: a file, or s3://bucket/key read in place through the configured archive")
        ->required()
        ->check(CLI::Validator([](std::string& v) { return v.starts_with("s3://") ? std::string() : CLI::ExistingFile(v); }, "FILE or s3://"));
    replay->callback([p, replayFrames, &exitCode] {
        p->inProcess = true;
        if (p->seconds > 0 && replayFrames->count() == 0) p->frames = 0;
        exitCode = runStream(*p);
    });
}

}  // namespace sonolink::cli
