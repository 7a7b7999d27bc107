// The archive's upload queue without a server: what a crash leaves, what is queued twice, the
// back-off, retention (which deletes only what was verified, and not a file changed since), one
// owner at a time, and a damaged, missing or empty database refused rather than emptied.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "encoding.h"
#include "sonolink/archive/archive_queue.h"

namespace sonolink::archive {
namespace {

class ArchiveQueueTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("archive-queue-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_ / "data");
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string file(const std::string& name, std::size_t size) {
        const auto path = dir_ / "data" / name;
        std::ofstream(path) << std::string(size, 'x');
        return path.string();
    }
    std::string queueDir() const { return (dir_ / "queue").string(); }
    std::filesystem::path dir_;
};

TEST_F(ArchiveQueueTest, ACrashMidUploadQueuesItAgainAndNothingIsQueuedTwice) {
    const auto a = file("a.uff", 100);
    {
        auto q = ArchiveQueue::open(queueDir(), {0.01, 0.02, 0});
        ASSERT_TRUE(q) << q.error().describe();
        auto item = (*q)->enqueue(a, {"bucket", "rec/a.uff"}, "recording", 1000);
        ASSERT_TRUE(item);
        EXPECT_EQ(item->state, ArchiveState::Queued);
        EXPECT_EQ((*q)->enqueue(a, {"bucket", "rec/a.uff"}, "recording", 2000)->id, item->id);  // pending: the same item
        EXPECT_NE((*q)->enqueue(a, {"bucket", "rec/other.uff"}, "recording", 2000)->id, item->id);
        auto due = (*q)->takeDue(1000, 10);
        ASSERT_TRUE(due);
        ASSERT_EQ(due->size(), 1u);  // the second is due only at 2000
        EXPECT_EQ((*q)->items()[0].state, ArchiveState::Uploading);
        EXPECT_FALSE((*q)->settled());
        auto second = ArchiveQueue::open(queueDir());
        ASSERT_FALSE(second);
        EXPECT_EQ(second.error().code(), ErrorCode::FailedPrecondition);
    }  // "crash": the owner goes with the item uploading
    auto q = ArchiveQueue::open(queueDir());
    ASSERT_TRUE(q);
    const auto items = (*q)->items();
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].state, ArchiveState::Queued);
    EXPECT_EQ(items[0].file, std::filesystem::absolute(a).lexically_normal().string());
    EXPECT_EQ(items[0].object.url(), "s3://bucket/rec/a.uff");
    EXPECT_EQ(items[0].kind, "recording");
    EXPECT_EQ((*q)->enqueue((dir_ / "data" / "absent").string(), {"bucket", "k"}, "file", 1).error().code(), ErrorCode::NotFound);
}

TEST_F(ArchiveQueueTest, FailuresBackOffOrFailForGoodUntilRetried) {
    auto q = ArchiveQueue::open(queueDir(), {10, 40, 0});
    ASSERT_TRUE(q) << q.error().describe();
    auto item = (*q)->enqueue(file("b", 5), {"bucket", "b"}, "file", 0);
    ASSERT_TRUE((*q)->takeDue(0, 1));
    ASSERT_TRUE((*q)->markFailed(item->id, "HTTP 503 SlowDown", true, 1000));
    auto after = (*q)->items()[0];
    EXPECT_EQ(after.state, ArchiveState::Queued);
    EXPECT_EQ(after.attempts, 1);
    EXPECT_EQ(after.nextAttemptAtMs, 11000);
    EXPECT_EQ(after.lastError, "HTTP 503 SlowDown");
    EXPECT_TRUE((*q)->takeDue(10999, 1)->empty());
    ASSERT_EQ((*q)->takeDue(11000, 1)->size(), 1u);
    ASSERT_TRUE((*q)->markFailed(item->id, "again", true, 11000));
    EXPECT_EQ((*q)->items()[0].nextAttemptAtMs, 11000 + 20000);
    EXPECT_EQ(*(*q)->nextDueMs(), 31000);
    ASSERT_TRUE((*q)->takeDue(31000, 1));
    ASSERT_TRUE((*q)->markFailed(item->id, "HTTP 403 AccessDenied", false, 31000));
    EXPECT_EQ((*q)->items()[0].state, ArchiveState::Failed);
    EXPECT_TRUE((*q)->settled());
    ASSERT_TRUE((*q)->retry(item->id));
    EXPECT_EQ((*q)->items()[0].state, ArchiveState::Queued);
    EXPECT_EQ((*q)->items()[0].attempts, 0);
    EXPECT_EQ((*q)->retry(item->id).error().code(), ErrorCode::FailedPrecondition);
    EXPECT_EQ((*q)->retry(999).error().code(), ErrorCode::NotFound);
}

TEST_F(ArchiveQueueTest, RetentionDeletesOnlyVerifiedFilesOldEnoughAndUnchanged) {
    auto q = ArchiveQueue::open(queueDir());
    ASSERT_TRUE(q);
    const auto old = file("old", 10), recent = file("recent", 10), pending = file("pending", 10), changed = file("changed", 10);
    for (const auto& f : {old, recent, pending, changed}) ASSERT_TRUE((*q)->enqueue(f, {"bucket", std::filesystem::path(f).filename()}, "file", 0));
    ASSERT_EQ((*q)->takeDue(0, 10)->size(), 4u);
    const std::string tenX(10, 'x');
    const std::string crc = crc32cHex(crc32cOf(std::as_bytes(std::span(tenX.data(), tenX.size()))));  // of each file as written
    ASSERT_TRUE((*q)->markVerified(1, 10, crc, "etag-1", 1000));
    ASSERT_TRUE((*q)->markVerified(2, 10, crc, "etag-2", 5000));
    auto due = (*q)->localCopiesDue(2000);
    ASSERT_TRUE(due) << due.error().describe();
    ASSERT_EQ(due->size(), 1u) << "only the item verified before the cutoff";
    EXPECT_EQ(due->front().id, 1);
    EXPECT_EQ(due->front().etag, "etag-1");
    auto deleted = (*q)->deleteLocalCopy(1, 6000);
    ASSERT_TRUE(deleted) << deleted.error().describe();
    EXPECT_TRUE(*deleted);
    EXPECT_FALSE(std::filesystem::exists(old));
    EXPECT_TRUE(std::filesystem::exists(recent));
    EXPECT_TRUE(std::filesystem::exists(pending));
    EXPECT_EQ((*q)->items()[0].localDeletedAtMs, 6000);
    EXPECT_TRUE((*q)->localCopiesDue(2000)->empty());  // once
    EXPECT_EQ((*q)->deleteLocalCopy(1, 7000).error().code(), ErrorCode::FailedPrecondition);
    EXPECT_EQ((*q)->deleteLocalCopy(3, 7000).error().code(), ErrorCode::FailedPrecondition) << "never a file not verified";

    ASSERT_TRUE((*q)->markVerified(4, 10, crc, "etag-4", 1000));
    std::ofstream(changed, std::ios::trunc) << "yyyyyyyyyy";  // rewritten after its upload: the same size, other bytes
    auto kept = (*q)->deleteLocalCopy(4, 8000);
    ASSERT_TRUE(kept) << kept.error().describe();
    EXPECT_FALSE(*kept) << "the size alone does not say the file is the one archived";
    EXPECT_TRUE(std::filesystem::exists(changed));
    const auto item = (*q)->items()[3];
    EXPECT_EQ(item.localDeletedAtMs, -1);
    EXPECT_NE(item.lastError.find("changed after it was archived"), std::string::npos) << item.lastError;
    EXPECT_TRUE((*q)->localCopiesDue(2000)->empty()) << "kept for good, not read again every pass";

    ASSERT_TRUE((*q)->markVerified(3, 10, crc, "etag-3", 1000));  // and a longer file: its size tells
    std::ofstream(pending, std::ios::app) << "more";
    ASSERT_FALSE(*(*q)->deleteLocalCopy(3, 9000));
    EXPECT_TRUE(std::filesystem::exists(pending));
    EXPECT_EQ((*q)->items()[2].localDeletedAtMs, -1);

    ASSERT_TRUE((*q)->keepLocalCopy(2, "s3://bucket/recent changed since it was verified"));
    EXPECT_EQ((*q)->items()[1].localDeletedAtMs, -1);
    EXPECT_TRUE(std::filesystem::exists(recent));
}

TEST_F(ArchiveQueueTest, AMissingOrEmptyDatabaseIsAnErrorNamingItNeverAnEmptyQueue) {
    {
        auto q = ArchiveQueue::open(queueDir());
        ASSERT_TRUE(q);
        ASSERT_TRUE((*q)->enqueue(file("d", 1), {"bucket", "d"}, "file", 0));
    }
    const auto db = std::filesystem::path(queueDir()) / "archive-queue.db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db.string() + suffix);
    auto missing = ArchiveQueue::open(queueDir());
    ASSERT_FALSE(missing) << "the pending upload would be forgotten without a word";
    EXPECT_EQ(missing.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(missing.error().message().find(db.string()), std::string::npos) << missing.error().message();
    EXPECT_NE(missing.error().message().find("is missing"), std::string::npos) << missing.error().message();
    EXPECT_FALSE(readArchiveQueue(queueDir()));
    EXPECT_FALSE(std::filesystem::exists(db)) << "nothing made in its place";

    std::ofstream(db, std::ios::binary | std::ios::trunc).flush();  // 0 bytes
    auto empty = ArchiveQueue::open(queueDir());
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(empty.error().message().find("empty (0 bytes)"), std::string::npos) << empty.error().message();
    EXPECT_EQ(std::filesystem::file_size(db), 0u);

    auto aside = ArchiveQueue::reset(queueDir(), 1234);  // a new queue, on purpose
    ASSERT_TRUE(aside) << aside.error().describe();
    EXPECT_TRUE(std::filesystem::exists(*aside));
    auto fresh = ArchiveQueue::open(queueDir());
    ASSERT_TRUE(fresh) << fresh.error().describe();
    EXPECT_TRUE((*fresh)->items().empty());
}

TEST_F(ArchiveQueueTest, ANewFolderStartsAnEmptyQueue) {
    auto q = ArchiveQueue::open(queueDir());
    ASSERT_TRUE(q) << q.error().describe();
    EXPECT_TRUE((*q)->items().empty());
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(queueDir()) / "archive-queue.id"));
    EXPECT_TRUE(readArchiveQueue((dir_ / "never-made").string())->empty());
}

TEST_F(ArchiveQueueTest, ADamagedOrForeignDatabaseIsRefusedNotEmptied) {
    {
        auto q = ArchiveQueue::open(queueDir());
        ASSERT_TRUE(q);
        ASSERT_TRUE((*q)->enqueue(file("c", 1), {"bucket", "c"}, "file", 0));
    }
    const auto db = std::filesystem::path(queueDir()) / "archive-queue.db";
    auto listed = readArchiveQueue(queueDir());
    ASSERT_TRUE(listed);
    EXPECT_EQ(listed->size(), 1u);
    std::filesystem::remove(db.string() + "-wal");
    std::filesystem::remove(db.string() + "-shm");
    std::ofstream(db, std::ios::binary | std::ios::trunc) << "this is no SQLite database at all, but it is long enough to look like a header!";
    auto damaged = ArchiveQueue::open(queueDir());
    ASSERT_FALSE(damaged);
    EXPECT_EQ(damaged.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(damaged.error().message().find("archive-queue.db"), std::string::npos) << damaged.error().message();
    EXPECT_GT(std::filesystem::file_size(db), 0u);
    EXPECT_FALSE(readArchiveQueue(queueDir()));
}

}  // namespace
}  // namespace sonolink::archive
