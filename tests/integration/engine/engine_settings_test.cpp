// Run-time settings through the facade: imaging applied from the next frame (grid, gain, TGC,
// persistence, grey map; each frame says which),
// acquisition applied at the next connect with the imager rebuilt, and values out of range
// refused with the reasons, each as a SettingsChanged event.
#include <algorithm>
#include <numeric>

#include "engine_fixture.h"
#include "sonolink/record/uff_channel_data.h"

namespace sonolink::engine::testing {
namespace {

double meanPixel(const DisplayFrame& f) { return std::accumulate(f.pixels.begin(), f.pixels.end(), 0.0) / static_cast<double>(f.pixels.size()); }

TEST_F(EngineTest, ImagingSettingsApplyFromTheNextFrame) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    const auto before = engine->latestFrame();
    ASSERT_EQ(before->imaging.rows, 96);
    auto settings = engine->imaging();
    settings.rows = 64;
    settings.columns = 32;
    settings.depthEndMm = 30;
    settings.gainDb = 20;
    engine->setImaging(settings);
    const auto applied = log.waitFor<SettingsChanged>([](const SettingsChanged& s) { return s.what == "imaging"; });
    ASSERT_TRUE(applied);
    EXPECT_TRUE(applied->applied) << applied->reason;
    ASSERT_TRUE(waitUntil([&] {
        const auto f = engine->latestFrame();
        return f && f->imaging.rows == 64 && f->imaging.columns == 32;
    })) << "the new grid is used";
    const auto after = engine->latestFrame();
    EXPECT_NEAR(after->cmPerPixelY, 2.5 / 511, 1e-12) << "5 to 30 mm over the box's 512 rows";
    EXPECT_EQ(after->columns, 328) << "16 mm across at the same spacing";
    EXPECT_GT(meanPixel(*after), meanPixel(*before) + 20) << "20 dB more gain is brighter";
    EXPECT_EQ(engine->imaging(), settings);
}

TEST_F(EngineTest, ImagingSettingsOutOfRangeAreRefusedWithEveryReason) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    const auto kept = engine->imaging();
    auto settings = kept;
    settings.gainDb = 80;
    settings.depthStartMm = 40;  // deeper than the end
    engine->setImaging(settings);
    const auto refused = log.waitFor<SettingsChanged>([](const SettingsChanged& s) { return s.what == "imaging"; });
    ASSERT_TRUE(refused);
    EXPECT_FALSE(refused->applied);
    EXPECT_NE(refused->reason.find("gain 80 dB: must be -60 to 60 dB"), std::string::npos) << refused->reason;
    EXPECT_NE(refused->reason.find("the end must lie deeper than the start"), std::string::npos) << refused->reason;
    EXPECT_EQ(engine->imaging(), kept);
}

// The mean level of the picture's rows from depth z0 to z1 (mm).
double meanOfDepths(const DisplayFrame& f, double z0Mm, double z1Mm) {
    const auto row = [&](double mm) { return std::clamp(static_cast<int>((mm / 10 - f.zStartCm) / f.cmPerPixelY), 0, f.rows); };
    const auto begin = f.pixels.begin() + static_cast<std::ptrdiff_t>(row(z0Mm)) * f.columns;
    const auto end = f.pixels.begin() + static_cast<std::ptrdiff_t>(row(z1Mm)) * f.columns;
    return std::accumulate(begin, end, 0.0) / static_cast<double>(end - begin);
}

TEST_F(EngineTest, TgcPersistenceAndTheGreyMapApplyFromTheNextFrameAndEachFrameSaysSo) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    const auto before = engine->latestFrame();
    auto settings = engine->imaging();
    settings.tgcDb = {0, 0, 0, 0, 30, 30, 30, 30};  // 5 to 25 mm: +30 dB from 16.4 mm (the record ends at 19.7 mm)
    settings.persistence = 0.5;
    settings.greyMap = GreyMap::Soft;
    engine->setImaging(settings);
    const auto applied = log.waitFor<SettingsChanged>([](const SettingsChanged& s) { return s.what == "imaging"; });
    ASSERT_TRUE(applied && applied->applied);
    ASSERT_TRUE(waitUntil([&] {
        const auto f = engine->latestFrame();
        return f && f->imaging == settings;
    })) << "reported in the frames";
    const auto after = engine->latestFrame();
    EXPECT_EQ(after->rows, before->rows) << "the same raster";
    const double deepBefore = meanOfDepths(*before, 16.5, 19) - meanOfDepths(*before, 5, 10);
    const double deepAfter = meanOfDepths(*after, 16.5, 19) - meanOfDepths(*after, 5, 10);
    EXPECT_GT(deepAfter, deepBefore + 30) << "30 dB more from 16.4 mm on";
    const auto displayed = engine->stats().framesDisplayed;
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= displayed + 3; }));
    EXPECT_EQ(engine->stats().imagingFailures, 0u);
    auto bad = settings;
    bad.tgcDb = {0, 50, 0};
    bad.persistence = 1;
    bad.displayColumns = 10;
    engine->setImaging(bad);
    const auto refused = log.waitFor<SettingsChanged>([](const SettingsChanged& s) { return s.what == "imaging" && !s.applied; });
    ASSERT_TRUE(refused);
    for (const char* said :
         {"3 TGC points: 8 to 32", "TGC point 2 50 dB: must be -40 to 40 dB", "persistence 1: must be 0 to 0.95", "display columns 10: must be 64 to 4096"}) {
        EXPECT_NE(refused->reason.find(said), std::string::npos) << refused->reason;
    }
    EXPECT_EQ(engine->imaging(), settings);
}

TEST_F(EngineTest, AcquisitionSettingsApplyAtTheNextConnectWithTheImagerRebuilt) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->setRfChannels({0});
    auto settings = engine->acquisition();
    settings.elementCount = 32;
    settings.samplesPerChannel = 512;
    settings.anglesDeg = {0.0};
    engine->setAcquisition(settings);
    const auto accepted = log.waitFor<SettingsChanged>([](const SettingsChanged& s) { return s.what == "acquisition"; });
    ASSERT_TRUE(accepted);
    ASSERT_TRUE(accepted->applied) << accepted->reason;
    EXPECT_NE(accepted->reason.find("next connect"), std::string::npos);
    ASSERT_TRUE(waitUntil([&] { return engine->latestRf() != nullptr; }));
    EXPECT_EQ(engine->latestRf()->samplesPerChannel, 1024) << "the session streaming now keeps its acquisition";
    log.clear();
    engine->stopStreaming();  // the next session runs the new acquisition
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    engine->startStreaming();
    ASSERT_TRUE(waitUntil([&] {
        const auto rf = engine->latestRf();
        return rf && rf->session == 2 && rf->samplesPerChannel == 512;
    }));
    const auto displayed = engine->stats().framesDisplayed;
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= displayed + 3; })) << "the rebuilt imager images the new frames";
    EXPECT_EQ(engine->stats().imagingFailures, 0u);
    EXPECT_EQ(engine->acquisition(), settings);
    const auto path = (dir / "new.uff").string();
    engine->startRecording(path);
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesRecorded >= 3; }));
    engine->stopRecording();
    ASSERT_TRUE(log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Stopped; }));
    auto read = record::readUffChannelData(path);
    ASSERT_TRUE(read) << read.error().message();
    EXPECT_EQ(read->geometry.channels, 32) << "the recording has the new geometry";
    EXPECT_EQ(read->geometry.samples, 512);
    EXPECT_EQ(read->geometry.waves, 1);
}

TEST_F(EngineTest, AcquisitionSettingsOutOfRangeAreRefused) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    const auto kept = engine->acquisition();
    auto settings = kept;
    settings.anglesDeg = {0.0, 60.0};
    settings.elementCount = 512;
    engine->setAcquisition(settings);
    const auto refused = log.waitFor<SettingsChanged>([](const SettingsChanged& s) { return s.what == "acquisition"; });
    ASSERT_TRUE(refused);
    EXPECT_FALSE(refused->applied);
    EXPECT_NE(refused->reason.find("angle 60 degrees: must be -45 to 45 degrees"), std::string::npos) << refused->reason;
    EXPECT_NE(refused->reason.find("elements 512: must be 1 to 256"), std::string::npos) << refused->reason;
    EXPECT_EQ(engine->acquisition(), kept);
}

}  // namespace
}  // namespace sonolink::engine::testing
