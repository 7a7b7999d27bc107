// The archive's upload queue without a server: what a crash leaves, what is queued twice, the
// back-off, retention (which deletes only what was verified, and not a file changed since), one
// owner at a time, and a damaged database refused rather than emptied.
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
        dir_ = std::filesystem::temp_directory_path() / ("archive-queue-" + std::to_string(::getpid()) + "-" +
                                                          ::testing::UnitTest::GetInstance()->current_test_info()->name());
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
    ASSERT_TRUE((*q)->markVerified(1, 10, crc, 1000));
    ASSERT_TRUE((*q)->markVerified(2, 10, crc, 5000));
    auto deleted = (*q)->deleteLocalVerifiedBefore(2000, 6000);
    ASSERT_TRUE(deleted) << deleted.error().describe();
    EXPECT_EQ(*deleted, std::vector<std::string>{(*q)->items()[0].file});
    EXPECT_FALSE(std::filesystem::exists(old));
    EXPECT_TRUE(std::filesystem::exists(recent));
    EXPECT_TRUE(std::filesystem::exists(pending));
    EXPECT_EQ((*q)->items()[0].localDeletedAtMs, 6000);
    EXPECT_TRUE((*q)->deleteLocalVerifiedBefore(2000, 7000)->empty());  // once

    ASSERT_TRUE((*q)->markVerified(4, 10, crc, 1000));
    std::ofstream(changed, std::ios::trunc) << "yyyyyyyyyy";  // rewritten after its upload: the same size, other bytes
    auto kept = (*q)->deleteLocalVerifiedBefore(2000, 8000);
    ASSERT_TRUE(kept) << kept.error().describe();
    EXPECT_TRUE(kept->empty()) << "the size alone does not say the file is the one archived";
    EXPECT_TRUE(std::filesystem::exists(changed));
    const auto item = (*q)->items()[3];
    EXPECT_EQ(item.localDeletedAtMs, -1);
    EXPECT_NE(item.lastError.find("changed after it was archived"), std::string::npos) << item.lastError;
    EXPECT_TRUE((*q)->deleteLocalVerifiedBefore(2000, 9000)->empty()) << "kept for good, not read again every pass";

    ASSERT_TRUE((*q)->markVerified(3, 10, crc, 1000));  // and a longer file: its size tells
    std::ofstream(pending, std::ios::app) << "more";
    ASSERT_TRUE((*q)->deleteLocalVerifiedBefore(2000, 9000)->empty());
    EXPECT_TRUE(std::filesystem::exists(pending));
    EXPECT_EQ((*q)->items()[2].localDeletedAtMs, -1);
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
