// Statistics through the facade: cumulative counters with their time, so readers at different
// rates see one consistent, monotonic history and disturb no one; the front end's health; the
// same statistics served to Prometheus on loopback by the app's endpoint, a client of the facade.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>

#include "engine_fixture.h"
#include "sonolink/app/metrics_endpoint.h"

namespace sonolink::engine::testing {
namespace {

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

// The counters of a snapshot that must never go down.
std::vector<std::uint64_t> counters(const EngineStats& s) {
    return {s.framesDelivered, s.framesIncomplete, s.framesMissing,  s.framesDroppedNoBuffer, s.crcErrors,           s.headerErrors, s.bytes,
            s.framesDisplayed, s.displaySkipped,   s.framesRecorded, s.framesRecordRefused,   s.framesRecordSkipped, s.sessions,     s.imagedFrames};
}

TEST_F(EngineTest, TwoReadersPollingAtDifferentRatesSeeConsistentMonotonicCounters) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->startRecording((dir / "rec.uff").string());
    std::vector<EngineStats> fast, slow;
    std::atomic<bool> done{false};
    std::thread slowReader([&] {
        while (!done) {
            slow.push_back(engine->stats());
            std::this_thread::sleep_for(37ms);
        }
    });
    // Until events, not a fixed time (a sanitizer's build runs several times slower): a session
    // ends and the next begins while both read, and the slow reader spans over a second of it.
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    const auto started = std::chrono::steady_clock::now();
    bool stoppedOnce = false;
    auto enough = [&] {
        return stoppedOnce && fast.back().sessions >= 2 && fast.back().state == EngineState::Streaming && std::chrono::steady_clock::now() - started > 1500ms &&
               fast.size() > 300;
    };
    while (std::chrono::steady_clock::now() < deadline) {
        fast.push_back(engine->stats());
        if (enough()) break;
        if (!stoppedOnce && fast.size() == 300) {
            engine->stopStreaming();
            stoppedOnce = true;
        }
        if (stoppedOnce && engine->state() == EngineState::Ready) engine->startStreaming();
        std::this_thread::sleep_for(1ms);
    }
    done = true;
    slowReader.join();
    engine->stopRecording();
    ASSERT_GT(slow.size(), 10u);
    ASSERT_GT(fast.size(), slow.size());
    // One history: both readers' snapshots, in the order they were taken, never go backwards.
    std::vector<EngineStats> all = fast;
    all.insert(all.end(), slow.begin(), slow.end());
    std::sort(all.begin(), all.end(), [](const EngineStats& a, const EngineStats& b) { return a.steadyNs < b.steadyNs; });
    for (std::size_t i = 1; i < all.size(); ++i) {
        ASSERT_LE(all[i - 1].steadyNs, all[i].steadyNs);
        const auto before = counters(all[i - 1]), after = counters(all[i]);
        for (std::size_t k = 0; k < before.size(); ++k) ASSERT_LE(before[k], after[k]) << "counter " << k << " went back at snapshot " << i;
        ASSERT_LE(all[i - 1].imagerSeconds, all[i].imagerSeconds);
        ASSERT_LE(all[i - 1].streamingSeconds, all[i].streamingSeconds + 1e-9);
    }
    EXPECT_GT(all.back().framesDelivered, all.front().framesDelivered);
    EXPECT_GE(all.back().sessions, 2u);
    // Rates from the slow reader's own snapshots are sane although the fast one read in between.
    const auto r = rates(slow.front(), slow.back());
    EXPECT_GT(r.seconds, 1.0);
    EXPECT_GT(r.deliveredFps, 20);
    EXPECT_LT(r.deliveredFps, 400) << "200 frames/s configured";
    const auto rx = std::find_if(r.threads.begin(), r.threads.end(), [](const ThreadCpuUse& t) { return t.name == "bf-cpu"; });
    ASSERT_NE(rx, r.threads.end());
    EXPECT_GT(rx->percentOfCore, 1) << "the beamformer works";
    EXPECT_LT(rx->percentOfCore, 101);
}

TEST_F(EngineTest, TheFrontEndsHealthIsInTheStatistics) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    ASSERT_TRUE(waitUntil([&] { return engine->stats().frontEnd.framesAcquired > 0; }));
    const auto health = engine->stats().frontEnd;
    EXPECT_EQ(health.state, "streaming");
    EXPECT_EQ(health.errorReports, 0u);
    EXPECT_GT(health.temperatureC, 0) << "the simulated front end reports a temperature";
}

// A front end whose clock is 250 µs ahead of the host's (its PTP servo not locked): the
// session's TimeSync exchanges measure it, and a locked one reads near zero.
TEST_F(EngineTest, TheFrontEndsClockOffsetIsMeasuredWhileStreaming) {
    clockOffset = 250us;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    ASSERT_TRUE(waitUntil([&] { return engine->stats().frontEnd.clockExchanges >= 2; }, 10s)) << "an exchange a second";
    const auto health = engine->stats().frontEnd;
    // The two-way estimate is off by at most its path delay (microseconds in-process, more
    // when a busy host holds a reply up), 20 µs more for reading the clocks.
    EXPECT_NEAR(health.clockOffsetUs, 250, health.clockPathDelayUs + 20) << "path delay " << health.clockPathDelayUs << " µs";
    EXPECT_GE(health.clockPathDelayUs, 0);
    engine->stopStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    clockOffset = 0us;
    auto locked = make();
    EventLog lockedLog;
    auto lockedSubscription = locked->subscribe(std::ref(lockedLog));
    ASSERT_NO_FATAL_FAILURE(stream(*locked, lockedLog));
    ASSERT_TRUE(waitUntil([&] { return locked->stats().frontEnd.clockExchanges >= 1; }, 10s));
    const auto lockedHealth = locked->stats().frontEnd;
    EXPECT_LE(std::abs(lockedHealth.clockOffsetUs), lockedHealth.clockPathDelayUs + 20) << "path delay " << lockedHealth.clockPathDelayUs << " µs";
}

TEST_F(EngineTest, TheStatisticsAreServedToPrometheusOnLoopback) {
    auto engine = make();
    auto endpoint = app::MetricsEndpoint::start(*engine, 0, false);
    ASSERT_TRUE(endpoint) << endpoint.error().message();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    const auto metrics = httpGet((*endpoint)->port(), "/metrics");
    EXPECT_EQ(metrics.rfind("HTTP/1.1 200 OK", 0), 0u) << metrics;
    EXPECT_NE(metrics.find("# TYPE sonolink_frames_delivered_total counter"), std::string::npos);
    EXPECT_NE(metrics.find("sonolink_state{state=\"streaming\"} 1"), std::string::npos) << metrics;
    EXPECT_NE(metrics.find("sonolink_thread_cpu_seconds_total{thread=\"rx-link0\"}"), std::string::npos);
    EXPECT_EQ(httpGet((*endpoint)->port(), "/other").rfind("HTTP/1.1 404", 0), 0u);
}

}  // namespace
}  // namespace sonolink::engine::testing
