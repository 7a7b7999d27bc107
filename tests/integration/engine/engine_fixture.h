// The engine built as the composition root builds it, on the built-in simulated front end (64
// channels x 1024 samples, 200 frames/s), for the engine's integration tests: the first link can
// be made to fail, or its front end to vanish after some blocks. Thread contract: the test's thread.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <memory>

#include <gtest/gtest.h>

#include "engine_events.h"
#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/app/link_factory.h"
#include "sonolink/app/phantom_reference.h"
#include "sonolink/app/replay_source.h"
#include "sonolink/engine/engine_backends.h"

namespace sonolink::engine::testing {

namespace fs = std::filesystem;

inline std::string readFile(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class EngineTest : public ::testing::Test {
protected:
    fs::path dir =
        fs::temp_directory_path() / ("sonolink_engine_" + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::atomic<int> links{0};
    std::uint64_t disconnectFirstAfterBlocks = 0;                  // the first front end vanishes after this many blocks
    bool firstLinkFails = false;                                   // the first link cannot be made (no device)
    double bitErrorRate = 0;                                       // every front end flips bits at this rate
    double dropRate = 0;                                           // every front end loses this share of its blocks
    std::optional<std::uint32_t> corruptSlot;                      // every front end's writes into this ring slot arrive with a bit set
    std::chrono::microseconds clockOffset{0};                      // every front end's clock this far from the host's
    transport::sim::ChannelFaults channelFaults;                   // every front end's probe fails these elements
    std::optional<ElementCheckSetup> elementCheck;                 // run with the self-test
    bool phantomCheck = false;                                     // with it, the phantom check (the composition root's reference)
    double laserRateHz = 0;                                        // dual mode: shots at this rate beside the ultrasound frames
    double shotSystemDelayUs = 0;                                  // the shots' configured system delay (the simulator's has none)
    std::uint32_t laserMissEvery = 0;                              // every front end's laser misfires every n-th shot
    std::function<std::vector<GpuMemoryOutcome>()> gpuMemoryTest;  // the GPU memory step's backend (null: none)
    std::map<std::string, bool> selfTestBlocking;                  // a site's policy (the steps file's blocks_streaming)
    std::optional<LinkBerTest> selfTest;                           // the start-up link BER test at every connect
    std::optional<StationCheck> station;                           // the station's set-up, checked with it
    std::shared_ptr<ClusterFeed> clusterFeed;                      // set: the engine is a cluster's display host

    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }

    static void connectAndStart(Engine& engine, EventLog& log) {
        engine.connect();
        ASSERT_TRUE(log.waitForState(EngineState::Ready));
        engine.startStreaming();
    }
    // Connected and streaming, with a few images shown.
    static void stream(Engine& engine, EventLog& log) {
        ASSERT_NO_FATAL_FAILURE(connectAndStart(engine, log));
        ASSERT_TRUE(waitUntil([&] { return engine.stats().framesDisplayed >= 3; }));
    }

    // An engine connected through its start-up self-test to Ready, and the steps it announced.
    struct SelfTested {
        std::unique_ptr<Engine> engine;
        std::unique_ptr<EventLog> log = std::make_unique<EventLog>();
        Subscription subscription;
        std::vector<SelfTestStep> steps;
    };
    SelfTested connectThroughSelfTest(DicomSetup dicomSetup = {}) {
        SelfTested t;
        t.engine = make(std::move(dicomSetup));
        if (!t.engine) return t;
        t.subscription = t.engine->subscribe(std::ref(*t.log));
        t.engine->connect();
        EXPECT_TRUE(t.log->waitForState(EngineState::Ready));
        t.steps = t.log->all<SelfTestStep>();
        return t;
    }

    ArchiveSetup archiveSetup;                         // the archive side of make()'s engines
    std::shared_ptr<archive::S3Client> archiveClient;  // null: no archive

    std::unique_ptr<Engine> make(DicomSetup dicomSetup = {}) {
        config::AppConfig config;
        config.probe.elementCount = 64;
        config.acquisition.samplesPerChannel = 1024;
        config.acquisition.frameRateHz = 200;
        config.acquisition.laserRateHz = laserRateHz;
        EngineConfig e;
        e.session.configure = app::configureFrom(config);
        e.geometry = app::geometryOf(e.session.configure);
        e.shotGeometry = app::shotGeometryOf(e.session.configure, {0, shotSystemDelayUs * 1e-6});
        e.acquisition = app::acquisitionSettingsFrom(config);
        e.imaging.widthMm = 16;
        e.imaging.depthStartMm = 5;
        e.imaging.depthEndMm = 25;
        e.imaging.columns = 48;
        e.imaging.rows = 96;
        e.beamformThreads = 1;
        e.cineFrames = 16;
        e.dicom = std::move(dicomSetup);
        e.archive = archiveSetup;
        e.selfTest = selfTest;
        e.station = station;
        e.elementCheck = elementCheck;
        e.selfTestBlocking = selfTestBlocking;
        Backends backends;
        backends.makeLink = [this]() -> Result<LinkHandle> {
            app::LinkChoice choice;
            choice.backend = app::LinkChoice::Backend::SimInProcess;
            choice.slotBytes = 64 * 1024;
            choice.slotCount = 128;
            const bool first = links.fetch_add(1) == 0;
            if (first && firstLinkFails) return fail(ErrorCode::Unavailable, "RDMA device mlx5_0 is down (test)");
            if (first) choice.frontEnd.faults.disconnectAfterBlocks = disconnectFirstAfterBlocks;
            choice.frontEnd.faults.bitErrorRate = bitErrorRate;
            choice.frontEnd.faults.dropRate = dropRate;
            choice.frontEnd.faults.corruptSlot = corruptSlot;
            choice.frontEnd.faults.clockOffset = clockOffset;
            choice.frontEnd.channelFaults = channelFaults;
            choice.frontEnd.laser.missEvery = laserMissEvery;
            auto parts = app::makeLink(choice);
            if (!parts) return fail(std::move(parts.error()));
            return LinkHandle{std::move(parts->link), std::shared_ptr<void>(std::move(parts->frontEnd))};
        };
        backends.planAcquisition = app::acquisitionPlanner(config);
        backends.archiveClient = archiveClient;
        if (phantomCheck) backends.phantomReference = app::phantomReference;
        backends.gpuMemoryTest = gpuMemoryTest;
        backends.clusterFeed = clusterFeed;
        auto engine = createEngine(std::move(e), std::move(backends));
        EXPECT_TRUE(engine) << engine.error().message();
        return engine ? std::move(*engine) : nullptr;
    }
};

}  // namespace sonolink::engine::testing
