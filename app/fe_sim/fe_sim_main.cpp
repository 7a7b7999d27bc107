// sonolink-fe-sim: the simulated FPGA front end as its own process. It attaches to a host's
// shared-memory link (/dev/shm/<name>) or connects to it over RDMA verbs (--link verbs), plays
// the front end's side of the protocol and streams what the host configures, injecting the
// faults asked for. With --reconnect it outlives hosts and sessions: when the host goes away it
// says why and waits for the next one, and after a session's frames it serves the next session. --json-events prints each event as a JSON line (what tests
// read).
#include <atomic>
#include <csignal>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../cli/finite_options.h"
#include "sonolink/app/replay_source.h"
#include "sonolink/transport/sim/front_end_simulator.h"
#include "sonolink/transport/sim/sim_front_end_port.h"
#include "sonolink/util/log.h"
#if SONOLINK_HAVE_RDMA
#include "sonolink/transport/rdma/verbs_front_end_port.h"
#endif

namespace {

std::atomic<bool> stopRequested{false};
extern "C" void onSignal(int) { stopRequested.store(true); }

constexpr int kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitUnavailable = 3;

// What the command line asks for: the link to the host, how to wait for it, and the front end's
// options (some given in other units or forms, set into options once parsed).
struct FeSimArgs {
    std::string linkName = "sonolink0";
    std::string linkKind = "sim";
    std::string hostAddress;
    int hostPort = 18515;
    sonolink::transport::sim::FrontEndOptions options;
    bool reconnect = false;
    bool jsonEvents = false;
    double waitSeconds = 30;
    std::uint64_t stallMs = 0;
    std::vector<std::string> swaps;
    std::int64_t corruptSlot = -1;
    std::int64_t laserJitterNs = options.laser.jitter.count();
    std::string replayFile;
};

void addFeSimOptions(CLI::App& app, FeSimArgs& a) {
    auto& options = a.options;
    app.add_option("--link", a.linkKind, "sim (shared memory) or verbs (RDMA)")->check(CLI::IsMember({"sim", "verbs"}))->capture_default_str();
    app.add_option("--link-name", a.linkName, "sim: shared-memory link to attach to (/dev/shm/<name>)")->capture_default_str();
    app.add_option("--host-address", a.hostAddress, "verbs: the host's IP address on the RDMA network");
    app.add_option("--port", a.hostPort, "verbs: the host's port")->capture_default_str();
    app.add_option("--serial", options.serial, "Serial number reported in Hello")->capture_default_str();
    app.add_option("--batch", options.postBatch, "Writes per doorbell (1..64)")->check(CLI::Range(1, 64))->capture_default_str();
    app.add_option("--seed", options.seed, "Seed for speckle and noise")->capture_default_str();
    app.add_option("--ber", options.faults.bitErrorRate, "Bit error rate to inject")->check(CLI::Range(0.0, 0.01));
    app.add_option("--drop", options.faults.dropRate, "Block drop probability")->check(CLI::Range(0.0, 0.5));
    app.add_option("--duplicate", options.faults.duplicateRate, "Block duplication probability")->check(CLI::Range(0.0, 0.5));
    app.add_option("--reorder", options.faults.reorderRate, "Block swap probability")->check(CLI::Range(0.0, 0.5));
    app.add_option("--stall-every", options.faults.stallEveryBlocks, "Stall after every N blocks");
    app.add_option("--stall-ms", a.stallMs, "Stall duration in ms");
    app.add_option("--disconnect-after", options.faults.disconnectAfterBlocks, "Vanish without a word after N blocks");
    app.add_option("--fault-seed", options.faults.seed, "Seed of the fault injector");
    app.add_option("--dead-channels", options.channelFaults.dead, "Channels whose element is dead (e.g. 3,17)")->delimiter(',');
    app.add_option("--weak-channels", options.channelFaults.weak, "Channels at a quarter of their signal")->delimiter(',');
    app.add_option("--noisy-channels", options.channelFaults.noisy, "Channels with noise of their own")->delimiter(',');
    app.add_option("--swap-channels", a.swaps, "Pairs of channels swapped in the cable (e.g. 20:90)")->delimiter(',');
    app.add_flag("--reverse-channels", options.channelFaults.reversed, "The array's channel order reversed (a connector the wrong way round)");
    app.add_option("--corrupt-slot", a.corruptSlot, "A ring slot with a bit stuck at 1 on the DMA path (every block written there arrives damaged)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--laser-jitter-ns", a.laserJitterNs, "The laser: each pulse within +-this of its fire time")->capture_default_str();
    app.add_option("--laser-miss-every", options.laser.missEvery, "The laser: every n-th shot misfires (0: none)")->capture_default_str();
    app.add_option("--laser-miss-probability", options.laser.missProbability, "The laser: each shot misfires with this probability")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    app.add_option("--laser-energy-uj", options.laser.energyMicroJ, "The laser: nominal pulse energy in microjoules")->capture_default_str();
    app.add_option("--laser-energy-spread", options.laser.energySpread, "The laser: shot-to-shot pulse energy spread (relative SD)")
        ->check(CLI::Range(0.0, 0.5))
        ->capture_default_str();
    app.add_flag("--resident", options.payloadResident, "Benchmark mode: payloads preloaded, writes carry headers only");
    app.add_option("--replay", a.replayFile, "Send the frames of this UFF recording (the host must configure its geometry)");
    app.add_flag("--reconnect", a.reconnect, "When the host goes away, wait for the next one");
    app.add_option("--wait", a.waitSeconds, "Seconds to wait for a host to appear")->capture_default_str();
    app.add_flag("--json-events", a.jsonEvents, "Also print each event (attached, configured, session end, waiting) as one JSON line on stdout");
}

// The parsed options into the front end's: durations, the corrupt slot, the swapped channel
// pairs and the recording to replay. Nothing, or the exit code when one of them is wrong.
std::optional<int> completeFeSimOptions(FeSimArgs& a) {
    auto& options = a.options;
    options.faults.stallDuration = std::chrono::milliseconds(a.stallMs);
    options.laser.jitter = std::chrono::nanoseconds(a.laserJitterNs);
    if (a.corruptSlot >= 0) options.faults.corruptSlot = static_cast<std::uint32_t>(a.corruptSlot);
    for (const auto& pair : a.swaps) {
        unsigned first = 0, second = 0;
        char colon = 0;
        std::istringstream in(pair);
        if (!(in >> first >> colon >> second) || colon != ':' || !in.eof() || first > 65535 || second > 65535) {
            std::cerr << "sonolink-fe-sim: --swap-channels " << pair << ": expected two channels as A:B\n";
            return kExitUsage;
        }
        options.channelFaults.swapped.emplace_back(static_cast<std::uint16_t>(first), static_cast<std::uint16_t>(second));
    }
    if (!a.replayFile.empty()) {
        auto recording = sonolink::app::RecordingReplay::open(a.replayFile);
        if (!recording) {
            std::cerr << "sonolink-fe-sim: " << recording.error().describe() << '\n';
            return kExitFailed;
        }
        options.frameSource = *recording;
    }
    return std::nullopt;
}

// --json-events: one line per event on stdout, for scripts and tests (stderr keeps the words).
void printFeSimEvent(bool jsonEvents, const nlohmann::json& e) {
    if (jsonEvents) std::cout << e.dump() << std::endl;
}

// Attach (shared memory) or connect (verbs), waiting for a host to appear: the port, or null
// with the exit code (kExitOk when asked to stop).
std::unique_ptr<sonolink::transport::FrontEndPort> waitForFeSimHost(const FeSimArgs& a, int& exitCode) {
    using namespace sonolink;
    using PortResult = Result<std::unique_ptr<transport::FrontEndPort>>;
    exitCode = kExitOk;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(a.waitSeconds);
    while (!stopRequested.load()) {
        PortResult attached = fail(ErrorCode::Unimplemented, "unknown link");
        if (a.linkKind == "sim") {
            auto sim = transport::sim::SimFrontEndPort::attach(a.linkName);
            attached = sim ? PortResult(std::move(*sim)) : fail(std::move(sim.error()));
        } else {
#if SONOLINK_HAVE_RDMA
            auto verbs = transport::rdma::VerbsFrontEndPort::connect({a.hostAddress, a.hostPort, std::chrono::milliseconds(2000), 256});
            attached = verbs ? PortResult(std::move(*verbs)) : fail(std::move(verbs.error()));
#else
            std::cerr << "sonolink-fe-sim: this build has no RDMA verbs backend\n";
            exitCode = kExitFailed;
            return nullptr;
#endif
        }
        if (attached) return std::move(*attached);
        const auto code = attached.error().code();
        if (code == ErrorCode::FailedPrecondition || code == ErrorCode::InvalidArgument || std::chrono::steady_clock::now() >= deadline) {
            std::cerr << "sonolink-fe-sim: " << attached.error().message() << '\n';
            exitCode = kExitUnavailable;
            return nullptr;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(a.linkKind == "sim" ? 50 : 200));
    }
    return nullptr;
}

// A session's counts and injected faults on stderr, and its end as an event.
void reportFeSimSession(const sonolink::transport::sim::FrontEndSimulator& simulator, const sonolink::Status& result, bool jsonEvents) {
    const auto& c = simulator.counters();
    const auto& f = simulator.faults();
    std::cerr << fmt::format(
        "sonolink-fe-sim: {} frames acquired, {} dropped without credit, {} blocks sent; injected: "
        "{} dropped, {} duplicated, {} reordered, {} headers and {} payloads corrupted\n",
        c.framesAcquired, c.framesDroppedNoCredit, c.blocksSent, f.blocksDropped, f.blocksDuplicated, f.blocksReordered, f.headersCorrupted,
        f.payloadsCorrupted);
    printFeSimEvent(jsonEvents, {{"event", "session_end"},
                                 {"frames_acquired", c.framesAcquired},
                                 {"frames_dropped_no_credit", c.framesDroppedNoCredit},
                                 {"blocks_sent", c.blocksSent},
                                 {"ok", static_cast<bool>(result)},
                                 {"code", result ? "Ok" : toString(result.error().code())},
                                 {"error", result ? "" : result.error().message()}});
}

// After a session: the exit code, or nothing to serve the next session or host (--reconnect).
std::optional<int> feSimExitAfterSession(const FeSimArgs& a, const sonolink::Status& result) {
    using sonolink::ErrorCode;
    if (result && !a.reconnect) return kExitOk;
    if (result) {  // the session's frames were sent: serve the next host's session, as a front end does
        std::cerr << "sonolink-fe-sim: waiting for the next session\n";
        printFeSimEvent(a.jsonEvents, {{"event", "waiting"}});
        return std::nullopt;
    }
    std::cerr << "sonolink-fe-sim: " << result.error().message() << '\n';
    const bool hostClosed = result.error().code() == ErrorCode::Cancelled;
    if (hostClosed && !a.reconnect) return kExitOk;
    if (!hostClosed && result.error().code() != ErrorCode::Unavailable) return kExitFailed;
    if (!a.reconnect || a.options.faults.disconnectAfterBlocks != 0) return kExitUnavailable;
    std::cerr << "sonolink-fe-sim: waiting for the next host\n";
    printFeSimEvent(a.jsonEvents, {{"event", "waiting"}});
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace sonolink;
    using namespace sonolink::transport::sim;
    CLI::App app{"SonoLink front-end simulator: an FPGA front end over the shared-memory link"};
    app.name("sonolink-fe-sim");
    FeSimArgs args;
    addFeSimOptions(app, args);
    sonolink::cli::refuseNonFiniteNumbers(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitUsage;
    }
    if (const auto failed = completeFeSimOptions(args)) return *failed;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    args.options.onConfigured = [jsonEvents = args.jsonEvents](const FrameLayout& l) {
        printFeSimEvent(jsonEvents,
                        {{"event", "configured"}, {"channels", l.channels}, {"samples", l.samples}, {"waves", l.waves}, {"blocks_per_frame", l.blocks.size()}});
    };

    while (!stopRequested.load()) {
        int exitCode = kExitOk;
        const auto port = waitForFeSimHost(args, exitCode);
        if (!port) return exitCode;
        const auto where = args.linkKind == "sim" ? "/dev/shm/" + args.linkName : fmt::format("{}:{} over RDMA", args.hostAddress, args.hostPort);
        std::cerr << fmt::format("sonolink-fe-sim: attached to {}\n", where);
        printFeSimEvent(args.jsonEvents, {{"event", "attached"}, {"link", where}});
        FrontEndSimulator simulator(*port, args.options);
        const auto result = simulator.run(stopRequested);
        reportFeSimSession(simulator, result, args.jsonEvents);
        if (const auto ended = feSimExitAfterSession(args, result)) return *ended;
    }
    return kExitOk;
}
