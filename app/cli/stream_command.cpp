// sonolink-cli stream: acquire over the link and account for every block and frame.
#include <cmath>
#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "link_diagnostics.h"
#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/link_factory.h"
#include "sonolink/app/replay_source.h"
#include "sonolink/record/recorder.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/ingest/pattern_check_sink.h"
#include "sonolink/ingest/stream_session.h"
#include "sonolink/util/thread_affinity.h"

namespace sonolink::cli {
namespace {

std::atomic<bool> interrupted{false};
extern "C" void onInterrupt(int) { interrupted.store(true); }

struct StreamOptions {
    std::string configFile;
    std::string linkName;       // "" = link.shm_name
    bool inProcess = false;
    std::string linkKind;       // "" = link.backend
    std::string address;        // "" = link.address
    int port = 0;               // 0 = link.port
    bool busyPoll = false;      // or link.completion_mode busy_poll
    bool hugePages = false;     // or link.huge_pages
    int rxCpu = -1;
    std::uint32_t frames = 100;
    double seconds = 0;         // > 0: stream this long (frames then default to no limit)
    double rateHz = -1;
    std::string mode = "rf";
    int channels = 0, samples = 0;
    std::uint32_t slotBytes = 0, slotCount = 0;
    bool reconnect = false;
    double acceptTimeoutS = 30;
    std::string recordFile;     // record every frame (UFF), losslessly or fail loudly
    std::string replayFile;     // the built-in front end replays this recording
    bool json = false;
};

Result<transport::PayloadKind> parseMode(const std::string& mode, bool& photoacoustic) {
    photoacoustic = mode == "pa";
    if (mode == "rf" || mode == "pa") return transport::PayloadKind::Rf;
    if (mode == "prbs7") return transport::PayloadKind::Prbs7;
    if (mode == "prbs15") return transport::PayloadKind::Prbs15;
    if (mode == "prbs23") return transport::PayloadKind::Prbs23;
    if (mode == "prbs31") return transport::PayloadKind::Prbs31;
    if (mode == "counter") return transport::PayloadKind::Counter;
    return fail(ErrorCode::InvalidArgument, fmt::format("unknown mode '{}' (rf, pa, prbs7, prbs15, prbs23, prbs31, counter)", mode));
}

std::string progressLine(const ingest::SessionSummary& s, std::uint64_t framesBefore) {
    const double seconds = std::chrono::duration<double>(s.elapsed).count();
    const auto frames = framesBefore + s.stats.framesDelivered;
    return fmt::format("\rframes {:>8}  {:7.1f} fps  {:6.2f} GB/s  crc {:>4}  hdr {:>4}  gaps {:>4}  dup {:>4}  incomplete {:>4}  missing {:>4}",
                       frames, seconds > 0 ? s.stats.framesDelivered / seconds : 0.0,
                       seconds > 0 ? s.stats.bytesOk / seconds / 1e9 : 0.0, s.stats.payloadCrcErrors, s.stats.headerErrors,
                       s.stats.sequenceGaps, s.stats.duplicates, s.stats.framesIncomplete, s.stats.framesMissing);
}

int runStream(const StreamOptions& o) {
    config::AppConfig config;
    if (!o.configFile.empty()) {
        auto loaded = config::loadConfigFile(o.configFile);
        if (!loaded) {
            std::cerr << loaded.error().describe() << '\n';
            return kExitFailed;
        }
        config = *loaded;
    }
    if (o.channels > 0) config.probe.elementCount = o.channels;
    if (o.samples > 0) config.acquisition.samplesPerChannel = o.samples;
    if (o.rateHz >= 0) config.acquisition.frameRateHz = o.rateHz;
    ingest::SessionOptions session;
    session.configure = app::configureFrom(config);
    std::shared_ptr<const record::UffChannelData> replay;
    if (!o.replayFile.empty()) {
        if (!o.inProcess) {
            std::cerr << "sonolink-cli stream: --replay needs --in-process (or run sonolink-fe-sim --replay FILE)\n";
            return kExitUsage;
        }
        auto loaded = app::loadRecording(o.replayFile);
        if (!loaded) {
            std::cerr << "sonolink-cli stream: " << loaded.error().describe() << '\n';
            return kExitFailed;
        }
        replay = *loaded;
        session.configure = app::acquisitionFromRecording(*replay);  // the recording's geometry
    }
    if (o.rateHz >= 0) session.configure.frameRateMilliHz = static_cast<std::uint32_t>(std::lround(o.rateHz * 1000));
    auto kind = parseMode(o.mode, session.configure.photoacoustic);
    if (!kind) {
        std::cerr << "sonolink-cli stream: " << kind.error().message() << '\n';
        return kExitUsage;
    }
    session.configure.payloadKind = *kind;
    session.acceptTimeout = std::chrono::milliseconds(static_cast<long>(o.acceptTimeoutS * 1000));

    // Command-line flags override the configuration's link section.
    const bool verbsLink = o.linkKind.empty() ? config.link.backend == config::LinkBackend::Verbs : o.linkKind == "verbs";
    app::LinkChoice choice;
    choice.backend = verbsLink ? app::LinkChoice::Backend::Verbs
                     : o.inProcess ? app::LinkChoice::Backend::SimInProcess
                                   : app::LinkChoice::Backend::SimShared;
    choice.name = o.linkName.empty() ? config.link.shmName : o.linkName;
    choice.address = o.address.empty() ? config.link.address : o.address;
    choice.port = o.port != 0 ? o.port : config.link.port;
    choice.busyPoll = o.busyPoll || config.link.completionMode == config::CompletionMode::BusyPoll;
    choice.hugePages = o.hugePages || config.link.hugePages;
    if (replay) choice.frontEnd.frameSource = app::replayFrameSource(replay);
    choice.slotBytes = o.slotBytes ? o.slotBytes : config.link.slotSizeBytes;
    choice.slotCount = o.slotCount ? o.slotCount : config.link.slotCount;
    if (choice.backend == app::LinkChoice::Backend::Verbs && choice.address.empty()) {
        std::cerr << "sonolink-cli stream: --link verbs needs --address (the local IP of the RDMA interface)\n";
        return kExitUsage;
    }
    auto parts = app::makeLink(choice);
    if (!parts) {
        std::cerr << "sonolink-cli stream: " << parts.error().describe() << '\n';
        return parts.error().code() == ErrorCode::Unimplemented ? kExitFailed : kExitUnavailable;
    }
    auto& link = parts->link;
    if (choice.backend == app::LinkChoice::Backend::SimShared && !o.json) {
        std::cerr << fmt::format("waiting for a front end on /dev/shm/{} (sonolink-fe-sim --link-name {})\n", choice.name, choice.name);
    }

    // This thread runs the session (completions and ingest): name it, and pin it when asked.
    nameCurrentThread("rx-link0");
    const int rxCpu = o.rxCpu >= 0 ? o.rxCpu : config.link.rxCpu;
    if (rxCpu >= 0) {
        if (auto pinned = pinCurrentThread(rxCpu); !pinned) {
            std::cerr << "sonolink-cli stream: " << pinned.error().message() << '\n';
            return kExitUsage;
        }
    }
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::jthread timer;
    if (o.seconds > 0) {  // a duration ends the run like Ctrl-C: the front end is stopped, everything accounted
        timer = std::jthread([seconds = o.seconds](std::stop_token stop) {
            const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
            while (!stop.stop_requested() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (!stop.stop_requested()) interrupted.store(true);
        });
    }
    // Port counters before and after (verbs): what the NIC itself saw, for the engineer.
    const bool verbs = choice.backend == app::LinkChoice::Backend::Verbs;
    auto countersBefore = verbs ? rdmaDiagnostics("", 0) : Result<nlohmann::json>(nlohmann::json{});
    std::string device;
    ingest::IngestStats total;
    ingest::PatternCheckSink patterns;  // test-pattern modes: every payload bit compared
    std::unique_ptr<record::Recorder> recorder;
    if (!o.recordFile.empty()) {
        auto started = record::Recorder::start(o.recordFile, app::recordingMetadataFor(session.configure));
        if (!started) {
            std::cerr << "sonolink-cli stream: " << started.error().describe() << '\n';
            return kExitFailed;
        }
        recorder = std::move(*started);
    }
    ingest::LatencyHistogram::Snapshot latency;
    std::vector<std::string> linkErrors;
    std::uint64_t framesAcquired = 0, triggers = 0, malformedControl = 0;
    std::chrono::nanoseconds elapsed{0};
    int sessions = 0;
    int exitCode = kExitOk;
    while (true) {
        auto opened = ingest::StreamSession::open(*link, session);
        if (!opened) {
            std::cerr << "sonolink-cli stream: " << opened.error().describe() << '\n';
            const bool lost = opened.error().code() == ErrorCode::Unavailable;
            if (lost && o.reconnect && sessions > 0 && !interrupted.load()) {
                // The front end went away again before streaming: wait for it once more.
                linkErrors.push_back(opened.error().message());
                if (auto reset = link->reset(); !reset) {
                    std::cerr << "sonolink-cli stream: " << reset.error().describe() << '\n';
                    exitCode = kExitFailed;
                    break;
                }
                std::cerr << "sonolink-cli stream: waiting for the front end to reconnect\n";
                continue;
            }
            exitCode = lost ? kExitUnavailable : kExitFailed;
            break;
        }
        ++sessions;
        auto& s = **opened;
        device = s.linkInfo().localDevice;
        if (!device.empty() && sessions == 1) {
            const auto& c = s.linkInfo().capabilities;
            std::cerr << fmt::format("link: {} (firmware {}), {} {} MTU {}, {} WRs/QP, {} CQEs, CQ moderation {}, completion timestamps {}\n",
                                     c.device, c.firmware, c.linkLayer, c.rate, c.activeMtuBytes, c.maxQueuePairWorkRequests,
                                     c.maxCompletionQueueEntries, c.completionModeration ? "yes" : "no", c.completionTimestamps ? "yes" : "no");
        }
        s.ingest().addSink(patterns);
        if (recorder) s.ingest().addSink(*recorder);
        const auto remaining = o.frames == 0 ? 0u : static_cast<std::uint32_t>(o.frames - framesAcquired);
        const auto before = total.framesDelivered;
        auto summary = s.run(remaining, interrupted, [&](const ingest::SessionSummary& p) {
            if (!o.json) std::cerr << progressLine(p, before) << std::flush;
        });
        if (recorder) recorder->drain();  // its queued frames hold this session's ring slots
        const auto stats = summary ? summary->stats : s.ingest().stats();
        total += stats;
        const auto snapshot = s.ingest().latency();
        for (std::size_t i = 0; i < snapshot.counts.size(); ++i) latency.counts[i] += snapshot.counts[i];
        latency.total += snapshot.total;
        if (summary) {
            framesAcquired += summary->frontEnd.framesAcquired;
            triggers += summary->triggers;
            malformedControl += summary->control.malformed;
            elapsed += summary->elapsed;
            if (!o.json) std::cerr << '\n';
            for (const auto& r : s.ingest().recentRejections()) linkErrors.push_back(r.describe());
            break;
        }
        if (!o.json) std::cerr << '\n';
        std::cerr << "sonolink-cli stream: link lost: " << summary.error().describe() << '\n';
        linkErrors.push_back(summary.error().message());
        if (!o.reconnect || summary.error().code() != ErrorCode::Unavailable || interrupted.load()) {
            exitCode = summary.error().code() == ErrorCode::Unavailable ? kExitUnavailable : kExitFailed;
            break;
        }
        framesAcquired += stats.framesDelivered + stats.framesIncomplete + stats.framesMissing;
        if (auto reset = link->reset(); !reset) {
            std::cerr << "sonolink-cli stream: " << reset.error().describe() << '\n';
            exitCode = kExitFailed;
            break;
        }
        std::cerr << "sonolink-cli stream: waiting for the front end to reconnect\n";
    }
    parts->frontEnd.reset();
    nlohmann::json recording = nullptr;
    if (recorder) {
        auto stopped = recorder->stop();
        recording = {{"file", o.recordFile}, {"frames_recorded", recorder->framesRecorded()},
                     {"frames_refused", recorder->framesRefused()}, {"error", stopped ? "" : stopped.error().message()}};
        if (!stopped) {
            std::cerr << "sonolink-cli stream: recording failed: " << stopped.error().describe() << '\n';
            if (exitCode == kExitOk) exitCode = kExitFailed;
        }
    }
    nlohmann::json portCounters = nlohmann::json::object();
    if (verbs && countersBefore && !device.empty()) {
        if (auto after = rdmaDiagnostics("", 0)) portCounters = counterDeltas(*countersBefore, *after, device);
    }
    const double seconds = std::chrono::duration<double>(elapsed).count();
    if (o.json) {
        nlohmann::json out{{"ok", exitCode == kExitOk}, {"sessions", sessions}, {"frames_delivered", total.framesDelivered},
                           {"frames_incomplete", total.framesIncomplete}, {"frames_missing", total.framesMissing},
                           {"frames_dropped_no_buffer", total.framesDroppedNoBuffer}, {"blocks_ok", total.blocksOk},
                           {"bytes_ok", total.bytesOk}, {"header_errors", total.headerErrors},
                           {"payload_crc_errors", total.payloadCrcErrors}, {"length_mismatches", total.lengthMismatches},
                           {"immediate_mismatches", total.immediateMismatches}, {"completion_errors", total.completionErrors},
                           {"credit_violations", total.creditViolations}, {"sequence_gaps", total.sequenceGaps},
                           {"duplicates", total.duplicates}, {"reordered", total.reordered}, {"late_blocks", total.lateBlocks},
                           {"triggers", triggers}, {"malformed_control_messages", malformedControl},
                           {"ber_bits_checked", patterns.bitsChecked()}, {"ber_bit_errors", patterns.bitErrors()},
                           {"seconds", seconds}, {"throughput_gbps", seconds > 0 ? total.bytesOk * 8 / seconds / 1e9 : 0.0},
                           {"latency_p50_us", latency.percentile(0.5) / 1e3}, {"latency_p99_us", latency.percentile(0.99) / 1e3},
                           {"latency_p999_us", latency.percentile(0.999) / 1e3}, {"errors", linkErrors},
                           {"device", device}, {"port_counters", portCounters}, {"recording", recording}};
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << fmt::format("{} frames delivered, {} incomplete, {} missing over {} session{} in {:.2f} s ({:.2f} Gb/s payload)\n",
                                 total.framesDelivered, total.framesIncomplete, total.framesMissing, sessions, sessions == 1 ? "" : "s",
                                 seconds, seconds > 0 ? total.bytesOk * 8 / seconds / 1e9 : 0.0);
        std::cout << fmt::format("blocks: {} ok, {} header errors, {} CRC errors, {} gaps, {} duplicates, {} reordered, {} late\n",
                                 total.blocksOk, total.headerErrors, total.payloadCrcErrors, total.sequenceGaps, total.duplicates,
                                 total.reordered, total.lateBlocks);
        if (!recording.is_null()) {
            std::cout << fmt::format("recorded {} frames to {} ({} refused)\n", recording["frames_recorded"].get<std::uint64_t>(), o.recordFile,
                                     recording["frames_refused"].get<std::uint64_t>());
        }
        if (patterns.framesChecked() > 0) {
            std::cout << fmt::format("test pattern: {} bits compared, {} bit errors\n", patterns.bitsChecked(), patterns.bitErrors());
        }
        std::cout << fmt::format("latency block write -> frame ready: p50 {:.1f} us, p99 {:.1f} us, p99.9 {:.1f} us\n",
                                 latency.percentile(0.5) / 1e3, latency.percentile(0.99) / 1e3, latency.percentile(0.999) / 1e3);
        for (const auto& e : linkErrors) std::cout << "  " << e << '\n';
        for (const auto& [port, deltas] : portCounters.items()) {
            std::cout << device << " " << port << " counters during the run:";
            for (const auto& [name, delta] : deltas.items()) std::cout << ' ' << name << " +" << delta.get<std::uint64_t>();
            std::cout << '\n';
        }
    }
    return exitCode;
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
    cmd.add_option("--rate", o.rateHz, "Frame rate in Hz (0 = as fast as the link allows)");
    cmd.add_option("--channels", o.channels, "Channels (overrides probe.element_count)");
    cmd.add_option("--samples", o.samples, "Samples per channel (overrides acquisition.samples_per_channel)");
    cmd.add_option("--slot-bytes", o.slotBytes, "Ring slot size (overrides link.slot_size_bytes)");
    cmd.add_option("--slots", o.slotCount, "Ring slot count (overrides link.slot_count)");
    cmd.add_flag("--reconnect", o.reconnect, "When the front end is lost, wait for it and resume");
    cmd.add_option("--accept-timeout", o.acceptTimeoutS, "Seconds to wait for the front end")->capture_default_str();
    cmd.add_flag("--json", o.json, "Print the summary as JSON");
    return frames;
}

void addStreamCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<StreamOptions>();
    auto* cmd = app.add_subcommand("stream", "Acquire frames over the link, checking and counting every block");
    auto* frames = addAcquisitionOptions(*cmd, *o);
    cmd->add_flag("--in-process", o->inProcess, "Run the simulated front end inside this process");
    cmd->add_option("--mode", o->mode, "rf, pa (photoacoustic), prbs7, prbs15, prbs23, prbs31 or counter")->capture_default_str();
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
    record->add_option("--mode", r->mode, "rf or pa (photoacoustic)")->check(CLI::IsMember({"rf", "pa"}))->capture_default_str();
    record->callback([r, recordFrames, &exitCode] {
        if (r->seconds > 0 && recordFrames->count() == 0) r->frames = 0;
        exitCode = runStream(*r);
    });

    auto p = std::make_shared<StreamOptions>();
    auto* replay = app.add_subcommand("replay", "Replay a UFF recording through the built-in front end, the link and ingest, bit-exactly (stream --in-process --replay)");
    auto* replayFrames = addAcquisitionOptions(*replay, *p);
    replay->add_option("FILE", p->replayFile, "The UFF recording")->required()->check(CLI::ExistingFile);
    replay->callback([p, replayFrames, &exitCode] {
        p->inProcess = true;
        if (p->seconds > 0 && replayFrames->count() == 0) p->frames = 0;
        exitCode = runStream(*p);
    });
}

}  // namespace sonolink::cli
