// The engine as a cluster's display host (Backends::clusterFeed): Ready without a link or
// self-test of its own, streaming runs the feed, the joined images are drawn on their own grid
// and published in order, an incomplete one keeps its flag to the GUI, the hosts' health is in
// the facade's statistics, and stopping stops the feed. The feed here is the test's (the real
// one, over UCX with acquisition hosts, is tests/cluster's coordinator_feed_test).
#include <thread>

#include "engine_fixture.h"

namespace sonolink::engine::testing {
namespace {

// Hands the test's images to the engine on a thread of its own, 20 ms apart, like a coordinator.
class ScriptedFeed final : public ClusterFeed {
public:
    explicit ScriptedFeed(std::vector<JoinedImage> script) : script_(std::move(script)) {}
    ~ScriptedFeed() override { stop(); }
    Status start(std::function<void(JoinedImage)> onImage) override {
        if (refuse_) return fail(ErrorCode::Unavailable, "cannot listen on 127.0.0.1:1 (test)");
        ++starts;
        thread_ = std::thread([this, onImage = std::move(onImage)] {
            for (const JoinedImage& image : script_) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                onImage(image);
            }
        });
        return {};
    }
    void stop() override {
        if (thread_.joinable()) thread_.join();
        stopped = true;
    }
    ClusterHealth health() const override {
        ClusterHealth h;
        h.file = "lab-cluster.json";
        h.framesComplete = 2;
        h.framesIncomplete = 1;
        h.hosts = {{.name = "node0",
                    .address = "10.0.0.1",
                    .state = "joined",
                    .firstChannel = 0,
                    .lastChannel = 32,
                    .partials = 3,
                    .late = 0,
                    .missing = 0,
                    .bytesReceived = 3 * 24'640,
                    .losses = 0,
                    .partialLatencyMs = 0.4,
                    .heardAgoMs = 5,
                    .lastProblem = ""},
                   {.name = "node1",
                    .address = "10.0.0.2",
                    .state = "lost",
                    .firstChannel = 32,
                    .lastChannel = 64,
                    .partials = 2,
                    .late = 0,
                    .missing = 1,
                    .bytesReceived = 2 * 24'640,
                    .losses = 1,
                    .partialLatencyMs = 0.5,
                    .heardAgoMs = 900,
                    .lastProblem = "silent for 80 ms"}};
        return h;
    }
    void refuseToStart() { refuse_ = true; }
    std::atomic<int> starts{0};
    std::atomic<bool> stopped{false};

private:
    std::vector<JoinedImage> script_;
    bool refuse_ = false;
    std::thread thread_;
};

// A joined image on a 32 x 48 grid (the engine's own is another): a bright target at the centre.
JoinedImage joined(std::uint64_t trigger, std::string incomplete) {
    JoinedImage image;
    image.triggerSequence = trigger;
    image.grid = beamform::PixelGrid::fromRanges(-0.01, 0.01, 32, 0.005, 0.03, 48);
    image.envelope.nx = 32;
    image.envelope.nz = 48;
    image.envelope.columns.assign(32 * 48, 1.0f);
    image.envelope.columns[16 * 48 + 24] = 1000.0f;
    image.incompleteAperture = std::move(incomplete);
    image.readyNs = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return image;
}

TEST_F(EngineTest, AClusterDisplayHostShowsTheJoinedImagesFlaggedWhenIncompleteWithItsHostsHealth) {
    auto feed = std::make_shared<ScriptedFeed>(std::vector{joined(0, ""), joined(1, "incomplete aperture: host 1"), joined(2, "")});
    clusterFeed = feed;
    auto engine = make();
    ASSERT_NE(engine, nullptr);
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    EXPECT_NE(log.lastReason(EngineState::Ready).find("display host of the cluster in lab-cluster.json"), std::string::npos);
    EXPECT_EQ(links.load(), 0) << "a display host opens no link of its own";
    EXPECT_TRUE(log.all<SelfTestStep>().empty());
    engine->startStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Streaming));
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= 3; })) << engine->stats().framesDisplayed;

    const auto cine = engine->cine();
    ASSERT_EQ(cine.size(), 3u);
    for (std::uint32_t i = 0; i < 3; ++i) EXPECT_EQ(cine[i]->frameId, i);
    EXPECT_EQ(cine[0]->incompleteAperture, "");
    EXPECT_EQ(cine[1]->incompleteAperture, "incomplete aperture: host 1");
    EXPECT_EQ(cine[2]->incompleteAperture, "");
    // Drawn on the joined grid: 2 cm wide at equal mm per pixel, the target at its centre brightest.
    EXPECT_NEAR(cine[0]->columns * cine[0]->cmPerPixelX, 2.0 + cine[0]->cmPerPixelX, 0.05);
    const auto& picture = *cine[0];
    const auto brightest = std::max_element(picture.pixels.begin(), picture.pixels.end()) - picture.pixels.begin();
    EXPECT_NEAR(static_cast<double>(brightest % picture.columns), picture.columns / 2.0, picture.columns / 10.0);

    const auto stats = engine->stats();
    EXPECT_EQ(stats.imager, "cluster");
    EXPECT_EQ(stats.cluster.file, "lab-cluster.json");
    ASSERT_EQ(stats.cluster.hosts.size(), 2u);
    EXPECT_EQ(stats.cluster.hosts[1].state, "lost");
    EXPECT_EQ(stats.cluster.hosts[1].lastProblem, "silent for 80 ms");
    EXPECT_EQ(stats.cluster.framesIncomplete, 1u);

    // The grid is the cluster plan's: a depth change is refused, saying so; the gain is the picture's.
    auto deeper = engine->imaging();
    deeper.depthEndMm += 10;
    engine->setImaging(deeper);
    const auto refused = log.waitFor<SettingsChanged>([](const SettingsChanged& c) { return c.what == "imaging"; });
    ASSERT_TRUE(refused);
    EXPECT_FALSE(refused->applied);
    EXPECT_NE(refused->reason.find("the cluster plan sets the grid"), std::string::npos) << refused->reason;
    auto brighter = engine->imaging();
    brighter.gainDb += 6;
    const auto seen = log.size();
    engine->setImaging(brighter);
    const auto applied = log.waitFor<SettingsChanged>([](const SettingsChanged& c) { return c.what == "imaging"; }, std::chrono::seconds(20), seen);
    ASSERT_TRUE(applied);
    EXPECT_TRUE(applied->applied) << applied->reason;

    engine->stopStreaming();
    ASSERT_TRUE(waitUntil([&] { return feed->stopped.load(); }));
    EXPECT_TRUE(log.waitForState(EngineState::Ready, std::chrono::seconds(20), log.size() - 1));
    EXPECT_EQ(feed->starts.load(), 1);
}

TEST_F(EngineTest, AClusterFeedThatCannotListenIsAnErrorSayingWhy) {
    auto feed = std::make_shared<ScriptedFeed>(std::vector<JoinedImage>{});
    feed->refuseToStart();
    clusterFeed = feed;
    auto engine = make();
    ASSERT_NE(engine, nullptr);
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    engine->startStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Error));
    EXPECT_EQ(log.lastReason(EngineState::Error), "cannot listen on 127.0.0.1:1 (test)");
    const auto error = log.waitFor<EngineError>([](const EngineError&) { return true; });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message, "cannot listen on 127.0.0.1:1 (test)");
}

}  // namespace
}  // namespace sonolink::engine::testing
