// DisplayPipeline against real frames from the ingest engine (a FakeLink's hand-made blocks) and
// an imager the test holds back: the newest frame replaces a waiting one (counted as skipped);
// frames are published in order, never from a closed session, and a new session's ids start
// again; nothing is published
// while frozen; imaging failures are counted and reported once; a reconfiguration takes effect
// from the next frame; the picture has true proportions and says what made it. A pipeline of
// laser shots images only shots, never one without a pulse, and its pictures follow each shot's
// signal, or, with energy normalisation, not its pulse energy's variation.
#include "display_pipeline.h"

#include <cmath>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "fake_link.h"
#include "sonolink/ingest/ingest_engine.h"

namespace sonolink::engine {
namespace {

using namespace std::chrono_literals;

constexpr int kSamples = 128;

// Images every frame as a flat image; envelope() waits while the test holds the gate.
class GatedImager final : public FrameImager {
public:
    explicit GatedImager(std::string name = "CPU", bool fails = false) : name_(std::move(name)), fails_(fails) {}
    [[nodiscard]] std::string name() const override { return name_; }
    [[nodiscard]] Status load(const ingest::Frame& frame) override {
        std::lock_guard lock(mutex_);
        loaded_.push_back(frame.frameId());
        changed_.notify_all();
        return {};
    }
    [[nodiscard]] Result<beamform::BeamformedImage> envelope() override {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return open_; });
        if (fails_) return fail(ErrorCode::Internal, "the imager is broken (test)");
        return envelope_;
    }
    void setEnvelope(beamform::BeamformedImage envelope) {
        std::lock_guard lock(mutex_);
        envelope_ = std::move(envelope);
    }
    void setOpen(bool open) {
        std::lock_guard lock(mutex_);
        open_ = open;
        changed_.notify_all();
    }
    bool waitLoaded(std::size_t count) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, 5s, [&] { return loaded_.size() >= count; });
    }
    std::vector<std::uint32_t> loaded() {
        std::lock_guard lock(mutex_);
        return loaded_;
    }

private:
    std::string name_;
    bool fails_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::uint32_t> loaded_;
    bool open_ = true;
    beamform::BeamformedImage envelope_{4, 8, std::vector<float>(32, 1.0f)};
};

class DisplayPipelineTest : public ::testing::Test {
    friend void overtakeANewGrid(DisplayPipelineTest& t, bool asPictureChange);

protected:
    std::unique_ptr<test::FakeLink> link;
    std::unique_ptr<ingest::IngestEngine> ingest;
    std::uint64_t sequence = 0;
    GatedImager* imager = nullptr;
    std::unique_ptr<DisplayPipeline> display;
    std::vector<std::string> failures;
    std::mutex failuresMutex;
    beamform::AcquisitionGeometry geometryShown = geometry();  // a shot pipeline's: photoacoustic
    bool normaliseShots = false;

    static beamform::AcquisitionGeometry geometry() { return {1, 1, kSamples, 40e6, 0, 1540, {0.0}, 0, 0, {0.0}, {}, {}}; }

    // A link session's ingest engine, as the engine makes one per session (ids start again).
    void newIngest() {
        if (display) display->release();
        ingest.reset();
        link = std::make_unique<test::FakeLink>(4096, 64);
        sequence = 0;
        ingest::IngestOptions options;
        options.maxBlocksPerFrame = 1;
        options.framePoolSize = 8;
        options.assemblyDepth = 2;
        options.creditBatch = 1;
        auto created = ingest::IngestEngine::create(*link, options);
        ASSERT_TRUE(created) << created.error().describe();
        ingest = std::move(*created);
        if (display) ingest->addSink(*display);
    }

    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(newIngest());
        auto gated = std::make_unique<GatedImager>();
        imager = gated.get();
        ImagingSetup setup;
        setup.grid = beamform::PixelGrid::fromRanges(-1e-3, 1e-3, 4, 5e-3, 10e-3, 8);
        setup.normaliseShotEnergy = normaliseShots;
        display = std::make_unique<DisplayPipeline>(geometryShown, setup, 16, std::move(gated), [this](const std::string& what) {
            std::lock_guard lock(failuresMutex);
            failures.push_back(what);
        });
        display->newSession(1);
        ingest->addSink(*display);
    }
    void TearDown() override {
        imager->setOpen(true);
        display->release();  // its frames go back before the ingest engine does
    }

    // One single-block frame with this id through the ingest engine to the display (a laser
    // shot's, with its pulse energy, when shotEnergy is given).
    void deliver(std::uint32_t frameId, std::optional<std::uint32_t> shotEnergy = std::nullopt) {
        transport::BlockHeader h;
        h.sequence = sequence++;
        h.frameId = frameId;
        h.blockIndex = 0;
        h.blockCount = 1;
        h.channelCount = 1;
        h.sampleCount = kSamples;
        h.flags = transport::block_flags::kFirstOfFrame | transport::block_flags::kLastOfFrame;
        if (shotEnergy) {
            h.flags |= transport::block_flags::kPhotoacoustic;
            h.laserEnergyMicroJ = *shotEnergy;
            h.timestampNs = 1'000'000'000ull + frameId;
        }
        std::vector<std::byte> payload(kSamples * 2, std::byte{1});
        link->writeBlock(h, payload);
        ASSERT_TRUE(ingest->poll(0us));
    }
    std::vector<std::uint32_t> cineIds() const {
        std::vector<std::uint32_t> ids;
        for (const auto& f : display->cine()) ids.push_back(f->frameId);
        return ids;
    }
    bool waitDisplayed(std::uint64_t count) {
        const auto deadline = std::chrono::steady_clock::now() + 5s;
        while (display->displayed() < count && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
        return display->displayed() >= count;
    }
};

TEST_F(DisplayPipelineTest, TheNewestFrameReplacesAWaitingOneAndImagesArePublishedInOrder) {
    imager->setOpen(false);
    deliver(1);
    ASSERT_TRUE(imager->waitLoaded(1));  // frame 1 is being imaged
    deliver(2);
    deliver(3);  // replaces 2, which never reaches the imager
    imager->setOpen(true);
    ASSERT_TRUE(waitDisplayed(2));
    EXPECT_EQ(imager->loaded(), (std::vector<std::uint32_t>{1, 3}));
    EXPECT_EQ(display->skipped(), 1u);
    EXPECT_EQ(cineIds(), (std::vector<std::uint32_t>{1, 3}));
    EXPECT_EQ(display->latest()->frameId, 3u);
    EXPECT_EQ(display->latest()->rows, 512) << "2 x 5 mm in the 512 x 512 box";
    EXPECT_EQ(display->latest()->columns, 205);
}

TEST_F(DisplayPipelineTest, NothingIsPublishedWhileFrozen) {
    deliver(1);
    ASSERT_TRUE(waitDisplayed(1));
    display->setFrozen(true);
    deliver(2);
    deliver(3);
    EXPECT_EQ(display->displayed(), 1u);
    EXPECT_EQ(imager->loaded().size(), 1u) << "frozen frames are let go unprocessed";
    display->setFrozen(false);
    deliver(4);
    ASSERT_TRUE(waitDisplayed(2));
    EXPECT_EQ(cineIds(), (std::vector<std::uint32_t>{1, 4}));
}

TEST_F(DisplayPipelineTest, AFrameOfAClosedSessionIsNeverPublished) {
    imager->setOpen(false);
    deliver(5);
    ASSERT_TRUE(imager->waitLoaded(1));
    display->newSession(2);  // the link reconnected while frame 5 was being imaged
    imager->setOpen(true);
    deliver(6);
    ASSERT_TRUE(waitDisplayed(1));
    EXPECT_EQ(display->latest()->session, 2u);
    EXPECT_EQ(cineIds(), (std::vector<std::uint32_t>{6})) << "frame 5 belonged to session 1";
}

TEST_F(DisplayPipelineTest, ANewSessionsFrameIdsStartAgain) {
    deliver(10);
    ASSERT_TRUE(waitDisplayed(1));
    ASSERT_NO_FATAL_FAILURE(newIngest());  // the link reconnected: a new session's ingest
    display->newSession(2);
    deliver(1);  // lower than the last shown, but of the new session
    ASSERT_TRUE(waitDisplayed(2));
    EXPECT_EQ(cineIds(), (std::vector<std::uint32_t>{10, 1}));
    EXPECT_EQ(display->cine().back()->session, 2u);
}

TEST_F(DisplayPipelineTest, AReconfigurationTakesEffectFromTheNextFrame) {
    deliver(1);
    ASSERT_TRUE(waitDisplayed(1));
    EXPECT_EQ(display->imagerName(), "CPU");
    ImagingSetup wider;
    wider.grid = beamform::PixelGrid::fromRanges(-2e-3, 2e-3, 4, 5e-3, 10e-3, 8);
    auto next = std::make_unique<GatedImager>("GPU");
    auto* nextImager = next.get();
    display->reconfigure(geometry(), wider, std::move(next));
    EXPECT_EQ(display->imagerName(), "CPU") << "not before the next frame";
    deliver(2);
    ASSERT_TRUE(waitDisplayed(2));
    imager = nextImager;  // the first one is gone with the reconfiguration
    EXPECT_EQ(display->imagerName(), "GPU");
    EXPECT_NEAR(display->latest()->cmPerPixelX, 0.5 / 511, 1e-12) << "4 x 5 mm in the 512 x 512 box: 5 mm over 511 rows";
    EXPECT_EQ(display->latest()->cmPerPixelY, display->latest()->cmPerPixelX);
    EXPECT_EQ(display->latest()->columns, 409);
    EXPECT_EQ(nextImager->loaded(), (std::vector<std::uint32_t>{2})) << "the new imager took the next frame";
}

TEST_F(DisplayPipelineTest, AChangeOfThePictureOnlyKeepsTheImagerInUseAndIsReportedInTheFrame) {
    deliver(1);
    ASSERT_TRUE(waitDisplayed(1));
    EXPECT_EQ(display->latest()->imaging, ImagingSettings{});
    ImagingSetup brighter;
    brighter.grid = beamform::PixelGrid::fromRanges(-1e-3, 1e-3, 4, 5e-3, 10e-3, 8);
    brighter.settings.gainDb = 20;
    brighter.settings.tgcDb = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    brighter.settings.persistence = 0.4;
    brighter.settings.greyMap = GreyMap::Contrast;
    display->reconfigure(geometry(), brighter, nullptr);  // no new imager: the one in use stays
    deliver(2);
    ASSERT_TRUE(waitDisplayed(2));
    EXPECT_EQ(imager->loaded(), (std::vector<std::uint32_t>{1, 2})) << "the same imager took the next frame";
    EXPECT_EQ(display->imagerName(), "CPU");
    EXPECT_EQ(display->latest()->imaging, brighter.settings) << "each frame says what made it";
}

// The reported freeze: a new depth (a new imager), then a new gain (none), before a frame came.
// The gain must not take the depth's imager away: the next frame is imaged by the new imager on
// the new grid, with both changes in its settings; whether the gain came as a reconfiguration
// without an imager or as a change of the picture only (as the engine sends it).
void overtakeANewGrid(DisplayPipelineTest& t, bool asPictureChange) {
    t.deliver(1);
    ASSERT_TRUE(t.waitDisplayed(1));
    ImagingSetup deeper;
    deeper.grid = beamform::PixelGrid::fromRanges(-1e-3, 1e-3, 4, 5e-3, 20e-3, 8);
    deeper.settings.depthEndMm = 20;
    auto next = std::make_unique<GatedImager>("GPU");
    auto* nextImager = next.get();
    t.display->reconfigure(t.geometry(), deeper, std::move(next));
    ImagingSetup brighter = deeper;
    brighter.settings.gainDb = 12;
    if (asPictureChange) t.display->changePicture(brighter);
    else t.display->reconfigure(t.geometry(), brighter, nullptr);
    t.deliver(2);
    ASSERT_TRUE(t.waitDisplayed(2));
    t.imager = nextImager;  // the first one is gone with the reconfiguration
    EXPECT_EQ(t.display->imagerName(), "GPU") << "the depth's imager, not the old one";
    EXPECT_EQ(nextImager->loaded(), (std::vector<std::uint32_t>{2}));
    EXPECT_EQ(t.display->latest()->imaging, brighter.settings);
    EXPECT_EQ(t.display->latest()->columns, 69) << "on the new grid: 2 x 15 mm in the 512 x 512 box";
    EXPECT_EQ(t.display->imagingFailures(), 0u);
}

TEST_F(DisplayPipelineTest, AChangeOfThePictureOnlyOvertakingANewGridKeepsItsImager) { overtakeANewGrid(*this, false); }

TEST_F(DisplayPipelineTest, AChangeOfThePictureOnlyGoesWithAReconfigurationNotYetApplied) { overtakeANewGrid(*this, true); }

// A change of the picture only does not wait for the beamformer: the frame it holds when the
// change comes is drawn with it already (a reconfiguration would wait for the frame after).
TEST_F(DisplayPipelineTest, AChangeOfThePictureOnlyIsDrawnWithoutWaitingForTheBeamformer) {
    imager->setOpen(false);
    deliver(1);
    ASSERT_TRUE(imager->waitLoaded(1));  // frame 1 is in the beamformer
    ImagingSetup brighter;
    brighter.grid = beamform::PixelGrid::fromRanges(-1e-3, 1e-3, 4, 5e-3, 10e-3, 8);
    brighter.settings.gainDb = 20;
    brighter.settings.dynamicRangeDb = 45;
    brighter.settings.persistence = 0.3;
    display->changePicture(brighter);
    imager->setOpen(true);
    ASSERT_TRUE(waitDisplayed(1));
    EXPECT_EQ(display->latest()->frameId, 1u);
    EXPECT_EQ(display->latest()->imaging, brighter.settings) << "frame 1 drawn with the change";
    EXPECT_EQ(display->imagerName(), "CPU");
}

// Four bright points at the corners of a 10 mm square, on a grid 4 times finer in depth than
// across: the picture shows them 10 mm apart both ways, within a pixel, where they are.
TEST_F(DisplayPipelineTest, APictureHasTrueProportionsAndSaysWhereItLies) {
    ImagingSetup setup;
    setup.grid = beamform::PixelGrid::fromRanges(-6e-3, 6e-3, 61, 5e-3, 25e-3, 401);  // 0.2 mm across, 0.05 mm down
    beamform::BeamformedImage envelope{61, 401, std::vector<float>(61 * 401, 1e-3f)};
    const std::pair<std::size_t, std::size_t> corners[] = {{5, 100}, {55, 100}, {5, 300}, {55, 300}};  // (x -5, +5 mm; z 10, 20 mm)
    for (auto [ix, iz] : corners) envelope.columns[ix * 401 + iz] = 1.0f;
    imager->setEnvelope(std::move(envelope));
    display->reconfigure(geometry(), setup, nullptr);
    deliver(1);
    ASSERT_TRUE(waitDisplayed(1));
    const auto picture = display->latest();
    const double cm = picture->cmPerPixelX;
    EXPECT_EQ(picture->cmPerPixelY, cm);
    EXPECT_NEAR(cm, 2.0 / 511, 1e-12);
    EXPECT_EQ(picture->rows, 512);
    EXPECT_NEAR(picture->xStartCm, -0.6, 1e-12);
    EXPECT_NEAR(picture->zStartCm, 0.5, 1e-12);
    const std::pair<double, double> where[] = {{-0.5, 1.0}, {0.5, 1.0}, {-0.5, 2.0}, {0.5, 2.0}};  // cm
    std::vector<std::pair<int, int>> found;
    for (auto [xCm, zCm] : where) {  // the brightest pixel within 1 mm of where the corner should be drawn
        const int row0 = static_cast<int>(std::lround((zCm - picture->zStartCm) / cm));
        const int column0 = static_cast<int>(std::lround((xCm - picture->xStartCm) / cm));
        std::pair<int, int> best{row0, column0};
        for (int r = row0 - 25; r <= row0 + 25; ++r) {
            for (int c = column0 - 25; c <= column0 + 25; ++c) {
                const auto at = [&](int row, int column) { return picture->pixels[static_cast<std::size_t>(row * picture->columns + column)]; };
                if (at(r, c) > at(best.first, best.second)) best = {r, c};
            }
        }
        EXPECT_LE(std::abs(best.first - row0), 1) << zCm;
        EXPECT_LE(std::abs(best.second - column0), 1) << xCm;
        found.push_back(best);
    }
    const double side = 1.0 / cm;  // 10 mm in pixels
    EXPECT_LE(std::abs(found[1].second - found[0].second - side), 1);
    EXPECT_LE(std::abs(found[3].second - found[2].second - side), 1);
    EXPECT_LE(std::abs(found[2].first - found[0].first - side), 1);
    EXPECT_LE(std::abs(found[3].first - found[1].first - side), 1);
}

TEST_F(DisplayPipelineTest, ImagingFailuresAreCountedAndReportedOnce) {
    auto broken = std::make_unique<GatedImager>("CPU", /*fails=*/true);
    auto* brokenImager = broken.get();
    ImagingSetup setup;
    setup.grid = beamform::PixelGrid::fromRanges(-1e-3, 1e-3, 4, 5e-3, 10e-3, 8);
    display->reconfigure(geometry(), setup, std::move(broken));
    for (std::uint32_t f = 1; f <= 3; ++f) {
        deliver(f);
        const auto deadline = std::chrono::steady_clock::now() + 5s;
        while (display->imagingFailures() < f && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    }
    imager = brokenImager;  // the first one is gone with the reconfiguration
    EXPECT_EQ(display->imagingFailures(), 3u);
    EXPECT_EQ(display->displayed(), 0u);
    std::lock_guard lock(failuresMutex);
    ASSERT_EQ(failures.size(), 1u) << "counted, not said per frame";
    EXPECT_NE(failures[0].find("the imager is broken (test)"), std::string::npos);
}

class ShotPipelineTest : public DisplayPipelineTest {
protected:
    ShotPipelineTest() { geometryShown.photoacoustic = {true}; }
    // The published picture's mean level after a shot of this energy whose envelope follows it.
    double levelOf(std::uint32_t frameId, std::uint32_t energy) {
        imager->setEnvelope({4, 8, std::vector<float>(32, 0.01f * static_cast<float>(energy) / 10'000.0f)});
        const auto before = display->displayed();
        deliver(frameId, energy);
        EXPECT_TRUE(waitDisplayed(before + 1));
        const auto& pixels = display->latest()->pixels;
        double sum = 0;
        for (auto p : pixels) sum += p;
        return sum / static_cast<double>(pixels.size());
    }
};

TEST_F(ShotPipelineTest, OnlyShotsWithAPulseAreImaged) {
    deliver(1);  // an ultrasound frame: the other pipeline's
    deliver(2, 20'000);
    ASSERT_TRUE(waitDisplayed(1));
    deliver(3, 0);  // no pulse seen: dark, never imaged
    deliver(4, 19'000);
    ASSERT_TRUE(waitDisplayed(2));
    EXPECT_EQ(imager->loaded(), (std::vector<std::uint32_t>{2, 4}));
    EXPECT_EQ(display->darkShots(), 1u);
    const auto shown = display->latest();
    EXPECT_TRUE(shown->photoacoustic);
    EXPECT_EQ(shown->laserEnergyMicroJ, 19'000u);
    EXPECT_EQ(shown->timestampNs, 1'000'000'004ull);
}

TEST_F(ShotPipelineTest, AShotsBrightnessFollowsItsSignal) {
    // Levels relative to the first shot's peak: a shot of 80 % of its signal is 1.9 dB darker
    // (8 of 255 levels over 60 dB), not drawn at its own peak, which would hide the pulse
    // energy and the absorbers' changes alike.
    double strong = 0, weak = 0;
    for (std::uint32_t k = 0; k < 20; ++k) {
        const double level = levelOf(k + 1, k % 2 == 0 ? 10'000 : 8'000);
        (k % 2 == 0 ? strong : weak) = level;
    }
    EXPECT_NEAR(strong, 255.0, 0.5);
    EXPECT_GT(strong - weak, 6.0);
}

class NormalisedShotPipelineTest : public ShotPipelineTest {
protected:
    NormalisedShotPipelineTest() { normaliseShots = true; }
};

TEST_F(NormalisedShotPipelineTest, ShotsNormalisedByTheirPulseEnergyComeOutAlike) {
    double strong = 0, weak = 0;
    for (std::uint32_t k = 0; k < 20; ++k) {
        const double level = levelOf(k + 1, k % 2 == 0 ? 10'000 : 8'000);
        (k % 2 == 0 ? strong : weak) = level;
    }
    EXPECT_NEAR(strong, weak, 1.0) << "the signal's variation is the pulse's: normalised away";
}

}  // namespace
}  // namespace sonolink::engine
