// The engine through its facade only, on the built-in simulated front end: every state
// transition (Idle, Connecting, SelfTest, Ready, Streaming, Frozen, and back), commands refused
// in the wrong state; the front end lost mid-stream -> Error with the reason -> reconnect ->
// Streaming; images published in frame order, never twice; RF traces of chosen channels; recording
// on and off; cine export as DICOM; a running export job cancelled, and other jobs not held up by
// it; the front end lost while frozen, then live images again; a sink that drops its own
// subscription; the statistics served to Prometheus on loopback. Events are collected from the
// subscription.
#include "sonolink/engine/engine_backends.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/link_factory.h"
#include "sonolink/app/metrics_endpoint.h"
#include "sonolink/app/replay_source.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/record/uff_channel_data.h"

namespace sonolink::engine {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Records every event; waits for conditions on them.
class EventLog {
public:
    void operator()(const EngineEvent& event) {
        std::lock_guard lock(mutex_);
        events_.push_back(event);
        changed_.notify_all();
    }
    std::vector<EngineState> states() const {
        std::lock_guard lock(mutex_);
        std::vector<EngineState> out;
        for (const auto& e : events_) {
            if (const auto* s = std::get_if<StateChanged>(&e)) out.push_back(s->to);
        }
        return out;
    }
    std::string lastReason(EngineState state) const {
        std::lock_guard lock(mutex_);
        std::string reason;
        for (const auto& e : events_) {
            if (const auto* s = std::get_if<StateChanged>(&e); s && s->to == state) reason = s->reason;
        }
        return reason;
    }
    template <typename T, typename Pred>
    bool waitFor(Pred pred, std::chrono::milliseconds timeout = 20s) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] {
            for (const auto& e : events_) {
                if (const auto* t = std::get_if<T>(&e); t && pred(*t)) return true;
            }
            return false;
        });
    }
    void clear() {
        std::lock_guard lock(mutex_);
        events_.clear();
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<EngineEvent> events_;
};

// One HTTP GET on loopback; the whole response.
std::string httpGet(int port, const std::string& path) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return "connect failed";
    }
    const auto request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    (void)::send(fd, request.data(), request.size(), 0);
    std::string response;
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    return response;
}

bool waitUntil(const std::function<bool()>& pred, std::chrono::milliseconds timeout = 20s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (pred()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return pred();
}

class EngineTest : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("sonolink_engine_" + std::to_string(::getpid()));
    std::atomic<int> links{0};
    std::uint64_t disconnectFirstAfterBlocks = 0;  // the first front end vanishes after this many blocks
    bool firstLinkFails = false;                    // the first link cannot be made (no device)

    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }

    // Connected and told to stream.
    static void connectAndStart(Engine& engine, EventLog& log) {
        engine.connect();
        ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Ready; }));
        engine.startStreaming();
    }
    // Connected and streaming, with a few images shown.
    static void stream(Engine& engine, EventLog& log) {
        ASSERT_NO_FATAL_FAILURE(connectAndStart(engine, log));
        ASSERT_TRUE(waitUntil([&] { return engine.stats().framesDisplayed >= 3; }));
    }

    std::unique_ptr<Engine> make(DicomSetup dicomSetup = {}) {
        config::AppConfig config;
        config.probe.elementCount = 64;
        config.acquisition.samplesPerChannel = 1024;
        config.acquisition.frameRateHz = 200;
        EngineConfig e;
        e.session.configure = app::configureFrom(config);
        e.geometry = app::recordingMetadataFor(e.session.configure);
        e.imaging.grid = beamform::PixelGrid::fromRanges(-8e-3, 8e-3, 48, 5e-3, 25e-3, 96);
        e.imaging.beamformThreads = 1;
        e.cineFrames = 16;
        e.dicom = std::move(dicomSetup);
        Backends backends;
        backends.makeLink = [this]() -> Result<LinkHandle> {
            app::LinkChoice choice;
            choice.backend = app::LinkChoice::Backend::SimInProcess;
            choice.slotBytes = 64 * 1024;
            choice.slotCount = 128;
            const bool first = links.fetch_add(1) == 0;
            if (first && firstLinkFails) return fail(ErrorCode::Unavailable, "RDMA device mlx5_0 is down (test)");
            if (first) choice.frontEnd.faults.disconnectAfterBlocks = disconnectFirstAfterBlocks;
            auto parts = app::makeLink(choice);
            if (!parts) return fail(std::move(parts.error()));
            return LinkHandle{std::move(parts->link), std::shared_ptr<void>(std::move(parts->frontEnd))};
        };
        auto engine = createEngine(std::move(e), std::move(backends));
        EXPECT_TRUE(engine) << engine.error().message();
        return engine ? std::move(*engine) : nullptr;
    }
};

TEST_F(EngineTest, EveryStateTransitionThroughTheFacade) {
    auto engine = make();
    auto metricsEndpoint = app::MetricsEndpoint::start(*engine, 0, false);
    ASSERT_TRUE(metricsEndpoint) << metricsEndpoint.error().message();
    const int metricsPort = (*metricsEndpoint)->port();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    EXPECT_EQ(engine->state(), EngineState::Idle);
    engine->startStreaming();  // refused: not connected
    ASSERT_TRUE(log.waitFor<EngineError>([](const EngineError& e) { return e.code == ErrorCode::FailedPrecondition; }));

    engine->connect();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Ready; }));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Ready}));

    engine->startStreaming();
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= 5; }));
    EXPECT_EQ(engine->state(), EngineState::Streaming);
    engine->setRfChannels({0, 31, 63, 500});  // 500 is not a channel: ignored
    ASSERT_TRUE(waitUntil([&] { return engine->latestRf() != nullptr; }));
    const auto rf = engine->latestRf();
    EXPECT_EQ(rf->channels, (std::vector<int>{0, 31, 63}));
    EXPECT_EQ(rf->samples.size(), 3u * 1024u);
    EXPECT_TRUE(std::any_of(rf->samples.begin(), rf->samples.end(), [](std::int16_t v) { return v != 0; })) << "echoes, not silence";
    const auto live = engine->latestFrame();
    ASSERT_TRUE(live);
    EXPECT_EQ(live->rows, 96);
    EXPECT_EQ(live->columns, 48);
    EXPECT_NEAR(live->cmPerPixelY, 2.0 / 95, 1e-9);

    // The same statistics for a lab's Prometheus, on loopback.
    const auto metrics = httpGet(metricsPort, "/metrics");
    EXPECT_EQ(metrics.rfind("HTTP/1.1 200 OK", 0), 0u) << metrics;
    EXPECT_NE(metrics.find("# TYPE sonolink_frames_delivered_total counter"), std::string::npos);
    EXPECT_NE(metrics.find("sonolink_state{state=\"streaming\"} 1"), std::string::npos) << metrics;
    EXPECT_NE(metrics.find("sonolink_thread_cpu_seconds_total{thread=\"rx-link0\"}"), std::string::npos);
    EXPECT_EQ(httpGet(metricsPort, "/other").rfind("HTTP/1.1 404", 0), 0u);

    engine->freeze();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Frozen; }));
    std::this_thread::sleep_for(50ms);  // a frame being beamformed at the freeze is not published
    const auto frozen = engine->latestFrame();
    const auto frozenCine = engine->cine();
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(engine->latestFrame(), frozen) << "the image holds while frozen";
    EXPECT_EQ(engine->cine().size(), frozenCine.size());
    const auto deliveredWhileFrozen = engine->stats().framesDelivered;
    EXPECT_TRUE(waitUntil([&] { return engine->stats().framesDelivered > deliveredWhileFrozen; })) << "the link streams on";

    engine->startStreaming();
    ASSERT_TRUE(waitUntil([&] { return engine->latestFrame() != frozen; }));
    EXPECT_EQ(engine->state(), EngineState::Streaming);

    log.clear();
    engine->stopStreaming();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Ready; }));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Ready}));
    engine->startStreaming();  // a second round on the new session
    const auto displayed = engine->stats().framesDisplayed;
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= displayed + 3; }));
    engine->disconnect();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Idle; }));
    const auto stats = engine->stats();
    EXPECT_EQ(stats.sessions, 2u);
    EXPECT_EQ(stats.crcErrors + stats.headerErrors, 0u);
    EXPECT_EQ(stats.imager, "CPU");
    EXPECT_GT(stats.imagerMsPerFrame, 0);
}

TEST_F(EngineTest, FrontEndLostMidStreamIsAnErrorWithTheReasonAndReconnectStreamsAgain) {
    disconnectFirstAfterBlocks = 400;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(connectAndStart(*engine, log));
    // Images arrive in frame order, never twice, while the front end streams and after it is lost:
    // every publication is a new object, so a frame published again shows up as a repeated id.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> seen;
    std::shared_ptr<const DisplayFrame> last;
    auto watch = [&] {
        if (auto f = engine->latestFrame(); f && f != last) {
            seen.emplace_back(f->session, f->frameId);
            last = std::move(f);
        }
    };
    ASSERT_TRUE(waitUntil([&] {
        watch();
        return engine->state() == EngineState::Error;
    }));
    // The state flips before its event reaches subscribers: wait for the event, which carries the reason.
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Error; }));
    const auto reason = log.lastReason(EngineState::Error);
    EXPECT_NE(reason.find("front end"), std::string::npos) << reason;
    log.clear();
    engine->connect();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Ready; }));
    engine->startStreaming();
    ASSERT_TRUE(waitUntil([&] {
        watch();
        return !seen.empty() && seen.back().first == 2 && engine->stats().framesDisplayed >= 10;
    }));
    EXPECT_EQ(engine->state(), EngineState::Streaming);
    ASSERT_GE(seen.size(), 3u);
    for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_LT(seen[i - 1], seen[i]) << "image " << i << " out of order or repeated";
    const auto cine = engine->cine();
    for (std::size_t i = 1; i < cine.size(); ++i) {
        EXPECT_LT(std::pair(cine[i - 1]->session, cine[i - 1]->frameId), std::pair(cine[i]->session, cine[i]->frameId));
    }
    EXPECT_EQ(engine->stats().sessions, 2u);
}

TEST_F(EngineTest, FrontEndLostWhileFrozenIsAnErrorAndTheNextSessionShowsLiveImages) {
    disconnectFirstAfterBlocks = 2000;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(connectAndStart(*engine, log));
    ASSERT_TRUE(waitUntil([&] { return engine->latestFrame() != nullptr; }));
    engine->freeze();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Error; }));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Ready,
                                                      EngineState::Streaming, EngineState::Frozen, EngineState::Error}));
    log.clear();
    engine->connect();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Ready; }));
    const auto frozenImage = engine->latestFrame();
    engine->startStreaming();
    // The freeze ended with the session it belonged to: the new session's images are shown.
    ASSERT_TRUE(waitUntil([&] {
        const auto f = engine->latestFrame();
        return f && f != frozenImage && f->session == 2;
    })) << "the display is still frozen";
    engine->freeze();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Frozen; }));
    engine->disconnect();  // Frozen -> Idle
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.from == EngineState::Frozen && s.to == EngineState::Idle; }));
    log.clear();
    engine->connect();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Ready; }));
    engine->disconnect();  // Ready -> Idle
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.from == EngineState::Ready && s.to == EngineState::Idle; }));
}

TEST_F(EngineTest, ASinkMayDropItsOwnSubscriptionFromInsideTheCallback) {
    auto engine = make();
    EventLog log;
    auto kept = engine->subscribe(std::ref(log));
    std::atomic<int> calls{0};
    std::optional<Subscription> once;
    once = engine->subscribe([&](const EngineEvent&) {
        ++calls;
        once.reset();  // no deadlock, and no further call
    });
    stream(*engine, log);
    EXPECT_GE(log.states().size(), 4u) << "the other subscriber hears every event";
    EXPECT_EQ(calls.load(), 1);
}

TEST_F(EngineTest, ALinkThatCannotBeMadeIsAnErrorWithTheReasonAndConnectTriesAgain) {
    firstLinkFails = true;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::Error; }));
    EXPECT_EQ(log.lastReason(EngineState::Error), "RDMA device mlx5_0 is down (test)");
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::Error}));
    log.clear();
    engine->disconnect();  // Error -> Idle
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.from == EngineState::Error && s.to == EngineState::Idle; }));
    log.clear();
    stream(*engine, log);
    EXPECT_EQ(engine->state(), EngineState::Streaming);
}

TEST_F(EngineTest, RecordingOnAndOffAndTheCineExportedAsDicom) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    stream(*engine, log);
    const auto recording = (dir / "rec.uff").string();
    engine->startRecording(recording);
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesRecorded >= 20; }));
    engine->stopRecording();
    ASSERT_TRUE(waitUntil([&] {
        const auto a = engine->stats().framesRecorded;
        std::this_thread::sleep_for(100ms);
        return engine->stats().framesRecorded == a;
    }));
    const auto stats = engine->stats();
    EXPECT_EQ(stats.framesRecordRefused, 0u);
    auto read = record::readUffChannelData(recording);
    ASSERT_TRUE(read) << read.error().message();
    EXPECT_EQ(static_cast<std::uint64_t>(read->frames), stats.framesRecorded);
    EXPECT_EQ(read->channels, 64);

    const auto file = (dir / "cine.dcm").string();
    const auto job = engine->exportCine({file, {"Test^Engine", "E-1", "", ""}, "", 0});
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; }));
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status == JobStatus::Done; })) << "export failed";
    auto info = dicom::inspectObject(file);
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->sopClassUid, "1.2.840.10008.5.1.4.1.1.3.1");
    EXPECT_EQ(info->patientName, "Test^Engine");
}

TEST_F(EngineTest, ARunningExportJobIsCancelledAndItsQueueItemWithdrawn) {
    DicomSetup d;
    d.queueDirectory = (dir / "queue").string();
    d.retry = {0.2, 0.5, 0.5, 60};
    d.forwarder.association.connectTimeoutS = 1;
    d.forwarder.destinations.push_back({"down", {"NOBODY", "127.0.0.1", 1, false}, false});  // nothing listens on port 1
    d.audit.file = (dir / "audit.log").string();
    auto engine = make(std::move(d));
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    stream(*engine, log);
    const auto job = engine->exportCine({(dir / "cine.dcm").string(), {"Test^Engine", "E-1", "", ""}, "down", 0});
    // Running: written and queued, waiting for a PACS that is down.
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.progress >= 0.7 && u.status == JobStatus::Running; }));
    ASSERT_TRUE(waitUntil([&] {
        const auto items = engine->dicomQueue();
        return items.size() == 1 && items[0].attempts >= 1;
    }));
    EXPECT_NE(engine->dicomQueue()[0].lastError.find("Connection refused"), std::string::npos) << engine->dicomQueue()[0].lastError;
    // A job waiting on a PACS that is down holds up no other job.
    const auto fileOnly = engine->exportCine({(dir / "cine2.dcm").string(), {"Test^Engine", "E-1", "", ""}, "", 0});
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == fileOnly && u.status == JobStatus::Done; }));
    EXPECT_FALSE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; }, 0ms));
    engine->cancel(job);
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status == JobStatus::Cancelled; }));
    const auto items = engine->dicomQueue();
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].state, QueueItemState::Failed);
    EXPECT_EQ(items[0].lastError, "withdrawn by the user");
}

}  // namespace
}  // namespace sonolink::engine
