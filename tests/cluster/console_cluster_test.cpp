// The console's engine as a cluster's display host, made as the console makes it (app::makeEngine
// with app::coordinatorFeed for a cluster file), and four acquisition hosts (AcquisitionNode, in
// this process) over UCX's TCP on loopback: the joined frames reach the display and the cine,
// each host's health is in the facade's statistics, a host that stops leaves every frame after it
// flagged "incomplete aperture: host 2" (never shown whole), and stopping the display host ends
// the hosts' session.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "loopback_port.h"
#include "sonolink/app/coordinator_feed.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/app/metrics_endpoint.h"
#include "sonolink/cluster/acquisition_node.h"
#include "sonolink/cluster/cluster_file.h"
#include "sonolink/engine/event_log.h"
#include "sonolink/util/build_info.h"

namespace sonolink {
namespace {

namespace fs = std::filesystem;

// Four hosts x 8 channels, 20 frames/s, a 32 x 48 grid; heartbeats every 20 ms, a host lost
// after 300 ms of silence.
std::string clusterJson(int port) {
    std::string hosts;
    for (int h = 0; h < 4; ++h)
        hosts += fmt::format(R"({}{{"name": "node{}", "address": "127.0.0.1", "channels": [{}, {}]}})", h ? ", " : "", h, 8 * h, 8 * h + 8);
    return fmt::format(R"({{"coordinator": {{"address": "127.0.0.1", "port": {}}}, "ucx": {{"transports": "tcp"}},
  "timing": {{"frame_rate_hz": 20, "deadline_frames": 2, "heartbeat_ms": 20, "host_lost_ms": 300, "incomplete": "flag"}},
  "acquisition": {{"pitch_m": 0.0003, "center_frequency_hz": 5e6, "sampling_rate_hz": 40e6, "samples": 800, "angles_deg": [0],
                  "photoacoustic": false, "distinct_frames": 2}},
  "imaging": {{"partial": "rf", "x_m": [-0.004, 0.004], "nx": 32, "z_m": [0.004, 0.014], "nz": 48, "f_number": 1.5, "window": "hann",
              "modulation_frequency_hz": 5e6, "iq_decimation": 2, "vector_loop": "avx2", "threads": 1}},
  "hosts": [{}]}})",
                       port, hosts);
}

// One acquisition host on a thread: its channels a fixed pattern (the picture's content is not
// what is tested here; the sum and its identity are, in cluster_test and cluster.live).
struct Host {
    std::unique_ptr<cluster::AcquisitionNode> node;
    std::thread thread;
    std::vector<std::int16_t> samples;
    Result<cluster::NodeSummary> summary = fail(ErrorCode::Internal, "not run");
};

std::unique_ptr<Host> startHost(const cluster::ClusterFile& file, std::uint32_t index) {
    auto host = std::make_unique<Host>();
    cluster::NodeOptions options;
    options.host = index;
    options.coordinatorAddress = file.coordinatorAddress;
    options.coordinatorPort = file.coordinatorPort;
    options.heartbeatMs = 20;
    options.softwareVersion = buildInfo().version;
    auto* raw = host.get();
    host->node = std::make_unique<cluster::AcquisitionNode>(options, [raw, index](const cluster::ClusterPlan& plan, std::uint64_t) {
        const auto g = cluster::hostGeometry(plan, index);
        raw->samples.resize(static_cast<std::size_t>(g.waves) * static_cast<std::size_t>(g.channels) * static_cast<std::size_t>(g.samples));
        for (std::size_t i = 0; i < raw->samples.size(); ++i) raw->samples[i] = static_cast<std::int16_t>((i * 7919) % 2001 - 1000);
        return std::span<const std::int16_t>(raw->samples);
    });
    host->thread = std::thread([raw] { raw->summary = raw->node->run(); });
    return host;
}

void finish(Host& host) {
    host.node->stop();
    if (host.thread.joinable()) host.thread.join();
}

// Every host stopped and joined when the test leaves, an assertion's early return included.
struct HostsGuard {
    std::vector<std::unique_ptr<Host>>& hosts;
    ~HostsGuard() {
        for (auto& host : hosts) finish(*host);
    }
};

bool waitUntil(const std::function<bool()>& done, std::chrono::seconds timeout = std::chrono::seconds(30)) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

TEST(ConsoleClusterTest, TheConsolesEngineShowsFourHostsJoinedAndFlagsEveryFrameAfterOneStops) {
    const fs::path dir = fs::temp_directory_path() / fmt::format("sonolink_console_cluster_{}", ::getpid());
    fs::create_directories(dir);
    const auto path = dir / "lab-cluster.json";
    std::ofstream(path) << clusterJson(testing::closedLoopbackPort());
    auto file = cluster::readClusterFile(path);
    ASSERT_TRUE(file) << file.error().message();
    auto feed = app::coordinatorFeed(path);
    ASSERT_TRUE(feed) << feed.error().message();

    config::AppConfig config;
    app::EngineChoice choice;
    choice.link = app::linkChoiceFrom(config, /*inProcess=*/true);
    choice.dicomQueue = false;
    choice.archiveQueue = false;
    choice.selfTest = app::SelfTestChoice::Off;
    choice.clusterFeed = *feed;
    auto made = app::makeEngine(config, choice);
    ASSERT_TRUE(made) << made.error().message();
    auto& engine = **made;
    engine::EventLog log;
    auto subscription = engine.subscribe(std::ref(log));
    engine.connect();
    ASSERT_TRUE(log.waitForState(engine::EngineState::Ready));
    engine.startStreaming();
    ASSERT_TRUE(log.waitForState(engine::EngineState::Streaming));

    std::vector<std::unique_ptr<Host>> hosts;
    HostsGuard guard{hosts};
    for (std::uint32_t h = 0; h < 4; ++h) hosts.push_back(startHost(*file, h));
    ASSERT_TRUE(waitUntil([&] { return engine.stats().framesDisplayed >= 20; })) << engine.stats().framesDisplayed;
    auto stats = engine.stats();
    EXPECT_EQ(stats.imager, "cluster");
    ASSERT_EQ(stats.cluster.hosts.size(), 4u);
    for (const auto& h : stats.cluster.hosts) {
        EXPECT_EQ(h.state, "joined") << h.name << ": " << h.lastProblem;
        EXPECT_EQ(h.address.rfind("127.0.0.1", 0), 0u) << h.address;
        EXPECT_GT(h.partials, 0u);
        EXPECT_EQ(h.bytesReceived % h.partials, 0u) << "each partial the same size";
    }
    EXPECT_EQ(stats.cluster.hosts[2].firstChannel, 16);
    EXPECT_EQ(stats.cluster.hosts[2].lastChannel, 24);
    EXPECT_GE(stats.cluster.framesComplete, 20u);

    finish(*hosts[2]);  // host 2 leaves: every frame from now on lacks its part
    const auto flaggedFrom = stats.cluster.framesIncomplete;
    ASSERT_TRUE(waitUntil([&] { return engine.stats().cluster.framesIncomplete >= flaggedFrom + 10; }));
    stats = engine.stats();
    EXPECT_NE(stats.cluster.hosts[2].state, "joined");
    std::size_t flagged = 0;
    for (const auto& frame : engine.cine()) {
        if (frame->incompleteAperture.empty()) continue;
        EXPECT_EQ(frame->incompleteAperture, "incomplete aperture: host 2");
        ++flagged;
    }
    EXPECT_GE(flagged, 5u) << "the cine's last frames, after host 2 left, are flagged";
    EXPECT_EQ(engine.latestFrame()->incompleteAperture, "incomplete aperture: host 2");
    const auto metrics = app::prometheusText(stats, {}, false);  // the console's Prometheus endpoint
    EXPECT_NE(metrics.find("sonolink_cluster_host_up{host=\"2\",name=\"node2\"} 0"), std::string::npos) << metrics;
    EXPECT_NE(metrics.find("sonolink_cluster_host_up{host=\"1\",name=\"node1\"} 1"), std::string::npos) << metrics;

    engine.stopStreaming();  // the coordinator says Stop: the hosts end their session
    ASSERT_TRUE(log.waitForState(engine::EngineState::Ready, std::chrono::seconds(20), log.size() - 1));
    for (auto& host : hosts) {
        if (host->thread.joinable()) host->thread.join();
    }
    for (std::size_t h = 0; h < hosts.size(); ++h) {
        if (h == 2) continue;
        ASSERT_TRUE(hosts[h]->summary) << hosts[h]->summary.error().message();
        EXPECT_GT(hosts[h]->summary->counts.partialsSent, 20u);
    }
    const auto after = engine.stats().cluster;  // the counts stay shown after the session
    EXPECT_EQ(after.hosts.size(), 4u);
    EXPECT_GE(after.framesIncomplete, flaggedFrom + 10);
    subscription = {};
    made->reset();
    fs::remove_all(dir);
}

}  // namespace
}  // namespace sonolink
