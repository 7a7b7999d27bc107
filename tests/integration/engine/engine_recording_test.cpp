// Recording through the facade: started, progress and stopped events whose counts match the
// file; and a disk that fills mid-recording (a small tmpfs mounted by the test): a failed event
// with the reason within one second, the frames written before it readable.
#include <sys/mount.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

#include "engine_fixture.h"
#include "sonolink/record/uff_channel_data.h"

namespace sonolink::engine::testing {
namespace {

TEST_F(EngineTest, RecordingStartsReportsProgressAndStopsWithTheCountsOfTheFile) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    const auto path = (dir / "rec.uff").string();
    engine->startRecording(path);
    ASSERT_TRUE(log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Started; }));
    const auto progress = log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Progress && r.frames > 0; });
    ASSERT_TRUE(progress) << "progress comes without asking";
    EXPECT_EQ(progress->path, path);
    EXPECT_EQ(progress->bytes, progress->frames * 3 * 64 * 1024 * 2) << "3 waves x 64 channels x 1024 samples of 16 bits a frame";
    EXPECT_TRUE(engine->stats().recording);
    engine->startRecording((dir / "second.uff").string());  // refused: one recording at a time
    ASSERT_TRUE(log.waitFor<EngineError>([](const EngineError& e) { return e.source == "startRecording"; }));
    engine->stopRecording();
    const auto stopped = log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Stopped; });
    ASSERT_TRUE(stopped);
    EXPECT_EQ(stopped->error, "");
    EXPECT_EQ(stopped->framesRefused, 0u);
    const auto stats = engine->stats();
    EXPECT_FALSE(stats.recording);
    EXPECT_EQ(stats.framesRecorded, stopped->frames);
    auto read = record::readUffChannelData(path);
    ASSERT_TRUE(read) << read.error().message();
    EXPECT_EQ(static_cast<std::uint64_t>(read->frames), stopped->frames);
    EXPECT_EQ(read->geometry.channels, 64);
    EXPECT_FALSE(fs::exists(path + ".reserve")) << "the reserve goes with the recording's end";
}

// A finished recording goes into the archive's upload queue on its own, visible through the
// facade; with no store answering it stays queued with the reason, and a restart keeps it.
TEST_F(EngineTest, AFinishedRecordingIsQueuedForTheArchiveAndShownThroughTheFacade) {
    archive::S3Settings s3;
    s3.endpoint = "http://127.0.0.1:9";  // discard: nothing listens on loopback here
    s3.retry = {1, std::chrono::milliseconds(1), std::chrono::milliseconds(1)};
    auto client = archive::S3Client::create(s3, {"AKIATEST", "secret", "", "test"});
    ASSERT_TRUE(client);
    archiveClient = std::move(*client);
    archiveSetup.queueDirectory = (dir / "archive-queue").string();
    archiveSetup.retry = {0.05, 0.1, 0};
    archiveSetup.pass.journalDirectory = dir / "archive-journal";
    archiveSetup.auditFile = (dir / "archive-audit.log").string();
    archiveSetup.bucket = "studies";
    archiveSetup.prefix = "site-a/";
    const auto path = (dir / "rec.uff").string();
    {
        auto engine = make();
        ASSERT_TRUE(engine);
        EXPECT_TRUE(engine->archiveQueue().empty());
        EventLog log;
        auto subscription = engine->subscribe(std::ref(log));
        ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
        engine->startRecording(path);
        ASSERT_TRUE(log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Progress && r.frames > 0; }));
        engine->stopRecording();
        ASSERT_TRUE(log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Stopped; }));
        ASSERT_TRUE(waitUntil([&] {
            auto q = engine->archiveQueue();
            return !q.empty() && q[0].attempts >= 2;
        })) << "the archive thread tries it, and again after its back-off";
        const auto item = engine->archiveQueue().at(0);
        EXPECT_EQ(item.url, "s3://studies/site-a/recordings/rec.uff");
        EXPECT_EQ(item.kind, "recording");
        EXPECT_EQ(item.file, fs::absolute(path).lexically_normal().string());
        EXPECT_NE(item.state, ArchiveItemState::Verified);
        EXPECT_NE(item.lastError.find("s3://studies/site-a/recordings/rec.uff"), std::string::npos) << item.lastError;
        EXPECT_NE(item.lastError.find("127.0.0.1"), std::string::npos) << item.lastError;
        engine->retryArchiveItem(item.id);  // not failed for good: refused, saying so
        ASSERT_TRUE(log.waitFor<EngineError>([](const EngineError& e) { return e.source == "retryArchiveItem"; }));
    }
    auto restarted = make();
    ASSERT_TRUE(restarted);
    const auto kept = restarted->archiveQueue();
    ASSERT_EQ(kept.size(), 1u) << "the queue survives the engine";
    EXPECT_EQ(kept[0].url, "s3://studies/site-a/recordings/rec.uff");
    EXPECT_TRUE(fs::exists(path)) << "nothing verified: the local file stays";
    EXPECT_NE(readFile(dir / "archive-audit.log").find("\"outcome\":\"failure\""), std::string::npos);
}

// A tmpfs of a few MiB: the recording fills it within a fraction of a second.
class SmallDisk {
public:
    explicit SmallDisk(const fs::path& where, const char* size) : where_(where) {
        fs::create_directories(where);
        mounted_ = ::mount("tmpfs", where.c_str(), "tmpfs", 0, size) == 0;
        error_ = mounted_ ? "" : std::strerror(errno);
    }
    ~SmallDisk() {
        if (mounted_) ::umount2(where_.c_str(), MNT_DETACH);
    }
    [[nodiscard]] bool mounted() const { return mounted_; }
    [[nodiscard]] const std::string& error() const { return error_; }
    // Full for a recording: less room than three of this test's frames (0.4 MB each) and HDF5's
    // margin, the point at which the writer ends it rather than let a write fail.
    [[nodiscard]] bool full() const {
        struct statvfs s {};
        return ::statvfs(where_.c_str(), &s) == 0 && s.f_bavail * s.f_frsize < 4 * 1024 * 1024;
    }

private:
    fs::path where_;
    bool mounted_ = false;
    std::string error_;
};

TEST_F(EngineTest, ADiskThatFillsMidRecordingFailsWithinOneSecondAndKeepsWhatWasWritten) {
    SmallDisk disk(dir / "small", "size=12m");
    if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.error() << "); CI runs as root";
    auto engine = make();
    EventLog log;
    std::mutex timesMutex;
    std::optional<std::chrono::steady_clock::time_point> failedAt;
    auto timing = engine->subscribe([&](const EngineEvent& e) {
        if (const auto* r = std::get_if<RecordingChanged>(&e); r && r->phase == RecordingPhase::Failed) {
            std::lock_guard lock(timesMutex);
            if (!failedAt) failedAt = std::chrono::steady_clock::now();
        }
    });
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    // When the disk is first seen full (it stays full until the failed recording is closed).
    std::optional<std::chrono::steady_clock::time_point> fullAt;
    std::atomic<bool> watching{true};
    std::thread watcher([&] {
        while (watching && !fullAt) {
            if (disk.full()) fullAt = std::chrono::steady_clock::now();
            std::this_thread::sleep_for(200us);
        }
    });
    const auto path = (dir / "small" / "rec.uff").string();
    engine->startRecording(path);
    const auto failed = log.waitFor<RecordingChanged>([](const RecordingChanged& r) { return r.phase == RecordingPhase::Failed; }, 20s);
    watching = false;
    watcher.join();
    ASSERT_TRUE(failed) << "no recording-failed event";
    ASSERT_TRUE(fullAt) << "the disk was never seen full";
    {
        std::lock_guard lock(timesMutex);
        ASSERT_TRUE(failedAt);
        EXPECT_LT(*failedAt - *fullAt, std::chrono::seconds(1)) << "reported at once, not at stop";
    }
    EXPECT_NE(failed->error.find("disk is full"), std::string::npos) << failed->error;
    EXPECT_GT(failed->frames, 0u);
    const auto error = log.waitFor<EngineError>([](const EngineError& e) { return e.origin == ErrorOrigin::Recorder; });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->source, path);
    EXPECT_EQ(error->code, ErrorCode::DataLoss);
    EXPECT_FALSE(engine->stats().recording) << "the failed recording is closed";
    EXPECT_EQ(engine->state(), EngineState::Streaming) << "the stream goes on";
    auto read = record::readUffChannelData(path);
    ASSERT_TRUE(read) << read.error().message();
    EXPECT_EQ(static_cast<std::uint64_t>(read->frames), failed->frames) << "every frame written whole before the failure, and no other";
    const auto perFrame = static_cast<std::size_t>(read->geometry.waves) * read->geometry.channels * read->geometry.samples;
    const auto last = read->data16.begin() + static_cast<std::ptrdiff_t>((read->frames - 1) * perFrame);
    EXPECT_TRUE(std::any_of(last, last + static_cast<std::ptrdiff_t>(perFrame), [](std::int16_t v) { return v != 0; })) << "the last frame holds echoes";
    engine->stopRecording();  // nothing left to stop: no second event
    engine->disconnect();
    ASSERT_TRUE(log.waitForState(EngineState::Idle));
    EXPECT_EQ(log.all<RecordingChanged>().back().phase, RecordingPhase::Failed);
}

}  // namespace
}  // namespace sonolink::engine::testing
