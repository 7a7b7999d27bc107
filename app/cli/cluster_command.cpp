// sonolink-cli node and sonolink-cli cluster run | reference: several acquisition hosts as one
// (docs/cluster.md). `node` runs one host: its simulated front end's channels, beamformed into a
// partial by the coordinator's plan and sent over UCX. `cluster run` is the headless coordinator
// and display host: it admits the hosts, joins and sums their partials, flags or drops what is
// incomplete, and reports every count, each host's health and the added latency. `cluster
// reference` is the single-process sum of the same partitions, for a bit-for-bit check.
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cluster_front_end.h"
#include "cluster_report.h"
#include "commands.h"
#include "event_lines.h"
#include "exit_codes.h"
#include "sonolink/app/coordinator_feed.h"
#include "sonolink/app/metrics_endpoint.h"
#include "sonolink/cluster/acquisition_node.h"
#include "sonolink/cluster/cluster_coordinator.h"
#include "sonolink/cluster/partial_image.h"
#include "sonolink/cluster/partial_sum.h"
#include "sonolink/util/build_info.h"

namespace sonolink::cli {
namespace {

using nlohmann::json;

struct ClusterOptions {
    std::string clusterFile;
    std::uint32_t host = 0;
    std::string expectPlanHash;
    double durationS = 10;
    double joinTimeoutS = 10;
    bool events = false;
    bool json = false;
    std::string framesOut;
    std::size_t keepFrames = 0;
    std::uint64_t trigger = 0;
    std::string out;
    double changeAfterS = 0;
    double connectWaitS = 30;
    int metricsPort = -1;       // cluster run: Prometheus on 127.0.0.1 (0: any free port)
    std::string changeImaging;  // an imaging section's keys, JSON
    std::string imaging;        // reference: the same
};

std::atomic<bool> gSignalled{false};
extern "C" void onClusterSignal(int) { gSignalled = true; }

// Calls stop() once SIGINT or SIGTERM has come (a signal handler may not take locks).
template <typename T> std::jthread stopOnSignal(T& runner) {
    std::signal(SIGINT, onClusterSignal);
    std::signal(SIGTERM, onClusterSignal);
    return std::jthread([&runner](std::stop_token stop) {
        while (!stop.stop_requested() && !gSignalled) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (gSignalled) runner.stop();
    });
}

int runNode(const ClusterOptions& o) {
    auto file = cluster::readClusterFile(o.clusterFile);
    if (!file) return reportError("node", file.error());
    if (o.host >= file->hosts.size())
        return reportError("node", Error(ErrorCode::InvalidArgument, fmt::format("--host {}: the cluster file has {} hosts", o.host, file->hosts.size())));
    cluster::NodeOptions options{.host = o.host,
                                 .coordinatorAddress = file->coordinatorAddress,
                                 .coordinatorPort = file->coordinatorPort,
                                 .ucxTransports = file->ucxTransports,
                                 .ucxNetDevices = file->ucxNetDevices,
                                 .heartbeatMs = file->timing.heartbeatMs,
                                 .coordinatorLostMs = 500,
                                 .connectWaitMs = static_cast<int>(o.connectWaitS * 1000),
                                 .expectPlanHash = {},
                                 .softwareVersion = buildInfo().version,
                                 .mostSendsInFlight = 4};
    if (!o.expectPlanHash.empty()) {
        std::uint64_t hash = 0;
        const char* end = o.expectPlanHash.data() + o.expectPlanHash.size();
        if (auto [at, error] = std::from_chars(o.expectPlanHash.data(), end, hash, 16); error != std::errc{} || at != end)
            return reportError("node", Error(ErrorCode::InvalidArgument, fmt::format("--expect-plan-hash {}: not a hexadecimal hash", o.expectPlanHash)));
        options.expectPlanHash = hash;
    }
    // The front end renders its frames before the host joins (the file's plan); a plan of another
    // geometry from the coordinator renders them again.
    auto frontEnd = std::make_unique<ClusterFrontEnd>(file->scene, file->plan);
    std::string geometry = cluster::toJson(file->plan);
    const cluster::ClusterPlan* seen = nullptr;
    cluster::AcquisitionNode node(options, [&](const cluster::ClusterPlan& plan, std::uint64_t trigger) {
        if (&plan != seen) {
            seen = &plan;
            if (std::string now = cluster::toJson(plan); now != geometry) {
                frontEnd = std::make_unique<ClusterFrontEnd>(file->scene, plan);
                geometry = std::move(now);
            }
        }
        return frontEnd->channels(o.host, trigger);
    });
    auto watcher = stopOnSignal(node);
    auto summary = node.run();
    watcher.request_stop();
    if (!summary) return reportError("node", summary.error());
    const json out{{"host", o.host},
                   {"end", summary->endReason},
                   {"epoch", summary->lastEpoch},
                   {"partials_sent", summary->counts.partialsSent},
                   {"triggers_skipped", summary->counts.triggersSkipped},
                   {"bytes_sent", summary->counts.bytesSent}};
    std::cout << (o.json ? out.dump()
                         : fmt::format("host {}: {} partials sent, {} triggers skipped; {}", o.host, summary->counts.partialsSent,
                                       summary->counts.triggersSkipped, summary->endReason))
              << std::endl;
    if (summary->refusedPlan) std::cerr << "sonolink-cli node: " << summary->endReason << '\n';
    return summary->refusedPlan ? kExitFailed : kExitOk;
}

// The cluster file with its imaging section's keys replaced by those of `imaging` (JSON), read as
// a whole again: a run-time imaging change, or the reference of one.
Result<cluster::ClusterFile> withImaging(const std::string& path, const std::string& imaging) {
    std::ifstream in(path);
    if (!in) return fail(ErrorCode::NotFound, fmt::format("cluster file {} cannot be read", path));
    json file = json::parse(in, nullptr, false);
    const json change = json::parse(imaging, nullptr, false);
    if (file.is_discarded() || !change.is_object()) return fail(ErrorCode::InvalidArgument, fmt::format("the imaging change {} is no JSON object", imaging));
    for (const auto& [key, value] : change.items()) file["imaging"][key] = value;
    return cluster::parseClusterFile(file.dump(), path + " with " + imaging);
}

// Written whole under a temporary name, then renamed: a full disk or a crash leaves no cut file
// under `path` (and an existing one as it was); the error names the file.
Status writeFloats(const std::filesystem::path& path, std::span<const float> values) {
    const std::filesystem::path part = path.string() + ".part";
    {
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size_bytes()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(part, ignored);
            return fail(ErrorCode::Unavailable, fmt::format("cannot write {} ({} bytes): {}", path.string(), values.size_bytes(), std::strerror(errno)));
        }
    }
    std::error_code renamed;
    std::filesystem::rename(part, path, renamed);
    if (renamed) return fail(ErrorCode::Unavailable, fmt::format("cannot put {} in place: {}", path.string(), renamed.message()));
    return {};
}

int runCoordinator(const ClusterOptions& o) {
    auto file = cluster::readClusterFile(o.clusterFile);
    if (!file) return reportError("cluster run", file.error());
    EventLines events(o.events);
    FrameTally tally;
    std::size_t kept = 0;
    bool keepFailed = false;
    cluster::CoordinatorOptions options{.file = *file,
                                        .session = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()),
                                        .joinTimeoutNs = static_cast<std::int64_t>(o.joinTimeoutS * 1e9),
                                        .durationNs = static_cast<std::int64_t>(o.durationS * 1e9),
                                        .onEvent = [&](const cluster::CoordinatorEvent& e) { events.print(e.kind, eventJson(e)); },
                                        .onFrame =
                                            [&](cluster::FinishedFrame& f) {
                                                tally.add(f);
                                                if (!o.framesOut.empty() && f.complete && kept < o.keepFrames && !keepFailed) {
                                                    const auto path = std::filesystem::path(o.framesOut) / fmt::format("trigger_{}.f32", f.triggerSequence);
                                                    if (auto ok = writeFloats(path, f.sum); !ok) {
                                                        keepFailed = true;  // said once; the stream goes on
                                                        std::cerr << "sonolink-cli cluster run: --frames-out: " << ok.error().message() << '\n';
                                                    }
                                                    ++kept;
                                                }
                                            },
                                        .planChanges = {}};
    if (!o.changeImaging.empty()) {
        auto changed = withImaging(o.clusterFile, o.changeImaging);
        if (!changed) return reportError("cluster run", changed.error());
        options.planChanges.push_back({static_cast<std::int64_t>(o.changeAfterS * 1e9), changed->plan});
    }
    cluster::ClusterCoordinator coordinator(std::move(options));
    if (auto port = coordinator.listen(); !port) return reportError("cluster run", port.error());
    std::unique_ptr<app::MetricsEndpoint> metrics;
    if (o.metricsPort >= 0) {
        auto served = app::MetricsEndpoint::serve(o.metricsPort, [&coordinator, &file, name = o.clusterFile] {
            const auto stats = coordinator.stats();
            return app::clusterPrometheusText(app::clusterHealthOf(*file, name, &stats));
        });
        if (!served) return reportError("cluster run", served.error());
        metrics = std::move(*served);
        events.print("metrics", {{"port", metrics->port()}});
    }
    auto watcher = stopOnSignal(coordinator);
    auto summary = coordinator.run();
    watcher.request_stop();
    if (!summary) return reportError("cluster run", summary.error());
    printSummary(*file, *summary, tally, o.json);
    return summary->countsAgree && !keepFailed ? kExitOk : kExitFailed;
}

int runReference(const ClusterOptions& o) {
    auto file = o.imaging.empty() ? cluster::readClusterFile(o.clusterFile) : withImaging(o.clusterFile, o.imaging);
    if (!file) return reportError("cluster reference", file.error());
    ClusterFrontEnd frontEnd(file->scene, file->plan);
    std::vector<std::vector<float>> parts;
    for (std::size_t h = 0; h < file->plan.hosts.size(); ++h) {
        auto part = cluster::computePartial(file->plan, h, frontEnd.channels(h, o.trigger));
        if (!part) return reportError("cluster reference", part.error());
        parts.push_back(std::move(*part));
    }
    if (auto ok = writeFloats(o.out, cluster::sumInHostOrder(parts)); !ok) return reportError("cluster reference", ok.error());
    return kExitOk;
}

}  // namespace

void addClusterCommands(CLI::App& app, int& exitCode) {
    static ClusterOptions o;
    CLI::App* node =
        app.add_subcommand("node", "Run one acquisition host of a cluster: its front end's channels, beamformed into partials for the coordinator");
    node->add_option("--cluster-file", o.clusterFile, "The cluster file (JSON): coordinator, UCX transports, timing, acquisition, imaging, hosts")->required();
    node->add_option("--host", o.host, "This host's place in the cluster file's hosts (0-based)")->required();
    node->add_option("--expect-plan-hash", o.expectPlanHash, "Refuse any plan whose hash (16 hex digits) is not this one");
    node->add_option("--connect-wait", o.connectWaitS, "Seconds to keep trying a coordinator that is not listening yet")->check(CLI::NonNegativeNumber);
    node->add_flag("--json", o.json, "Print the host's summary as JSON");
    node->callback([&] { exitCode = runNode(o); });

    CLI::App* cluster =
        app.add_subcommand("cluster", "Several hosts: coordinate acquisition hosts live, check their sum, or reprocess a manifest of recordings as a batch");
    cluster->require_subcommand(1);
    CLI::App* run = cluster->add_subcommand("run", "Coordinate the cluster file's hosts: admit them, join and sum their partials, report");
    run->add_option("--cluster-file", o.clusterFile, "The cluster file (JSON)")->required();
    run->add_option("--duration", o.durationS, "Seconds to stream after the hosts have joined")->check(CLI::PositiveNumber);
    run->add_option("--join-timeout", o.joinTimeoutS, "Seconds to wait for every host before starting without the missing ones")->check(CLI::NonNegativeNumber);
    run->add_flag("--events", o.events, "Print each event (host joined, lost, back, refused; epoch; incomplete frame) as a JSON line");
    run->add_flag("--json", o.json, "Print the summary as JSON");
    run->add_option("--metrics-port", o.metricsPort, "Serve the counts and each host's health for Prometheus on 127.0.0.1:PORT/metrics (0: any free port)");
    run->add_option("--frames-out", o.framesOut, "Folder for the first --keep-frames complete frames' sums (float32, trigger_<k>.f32)")
        ->check(CLI::ExistingDirectory);
    run->add_option("--keep-frames", o.keepFrames, "How many complete frames to write to --frames-out (from the first)");
    run->add_option("--change-after", o.changeAfterS, "With --change-imaging: seconds after the first trigger")->check(CLI::NonNegativeNumber);
    run->add_option("--change-imaging", o.changeImaging, "A run-time imaging change, as the cluster file's imaging keys (JSON): a new plan epoch");
    run->callback([&] { exitCode = runCoordinator(o); });
    addBatchCommands(*cluster, exitCode);
    CLI::App* reference = cluster->add_subcommand("reference", "Write the single-process sum of the hosts' partitions for one trigger (float32)");
    reference->add_option("--cluster-file", o.clusterFile, "The cluster file (JSON)")->required();
    reference->add_option("--trigger", o.trigger, "The trigger sequence number")->required();
    reference->add_option("--out", o.out, "The file to write")->required();
    reference->add_option("--imaging", o.imaging, "Imaging keys (JSON) over the cluster file's, as --change-imaging gives them");
    reference->callback([&] { exitCode = runReference(o); });
}

}  // namespace sonolink::cli
