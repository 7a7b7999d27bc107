// The persistent store-and-forward queue on disk: items survive reopening; an item caught mid-send
// by a crash is queued again with the same UID; one process at a time owns a queue; the back-off
// doubles with jitter up to its cap; refused objects fail, commitment reports commit (deleting the
// local copy) or fail with the reason; a corrupt record or a lost copy is named, not ignored; a
// SIGKILL at any moment loses no change that was acknowledged; settled items are forgotten after
// the retention time, failed and unconfirmed ones are not. A database that is missing, empty, a
// directory, no database, another program's or cut short is an error that deletes nothing, and
// recover() queues the lost copies again; the one copy an enqueue cut short leaves is kept aside;
// a crash mid-forget is finished at the next open; the queue is private (0700, 0600).
#include "sonolink/dicom/store_queue.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dicom_test_support.h"
#include "sonolink/dicom/store_forwarder.h"
#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"

namespace sonolink::dicom {
namespace {

// The queue's copies of objects (objects/*.dcm), not the node file beside each.
long copiesIn(const std::string& queueDir) {
    return std::count_if(std::filesystem::directory_iterator(std::filesystem::path(queueDir) / "objects"), std::filesystem::directory_iterator(),
                         [](const auto& entry) { return entry.path().extension() == ".dcm"; });
}

namespace fs = std::filesystem;

class StoreQueueTest : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("sonolink_queue_" + std::to_string(::getpid()));
    UidGenerator uids = *UidGenerator::create(std::nullopt);
    RetryPolicy policy{2.0, 16.0, 0.5, 60.0};

    void SetUp() override {
        fs::remove_all(dir);
        fs::create_directories(dir / "exam");
    }
    void TearDown() override { fs::remove_all(dir); }

    std::string queueDir() const { return (dir / "queue").string(); }

    // A small US Image; returns its path.
    std::string object(int n, std::string* uid = nullptr) {
        const auto path = (dir / "exam" / ("img" + std::to_string(n) + ".dcm")).string();
        const auto written = writeSmallUsImage(path, uids, n);
        EXPECT_FALSE(written.empty());
        if (uid) *uid = written;
        return path;
    }

    std::unique_ptr<StoreQueue> open() {
        auto q = StoreQueue::open(queueDir(), policy);
        EXPECT_TRUE(q) << q.error().message();
        return q ? std::move(*q) : nullptr;
    }
};

TEST(RetryDelay, DoublesFromTheInitialDelayUpToTheCapLessTheJitter) {
    const RetryPolicy p{2.0, 16.0, 0.5, 60.0};
    EXPECT_DOUBLE_EQ(retryDelayS(p, 1, 0.0), 2.0);
    EXPECT_DOUBLE_EQ(retryDelayS(p, 2, 0.0), 4.0);
    EXPECT_DOUBLE_EQ(retryDelayS(p, 4, 0.0), 16.0);
    EXPECT_DOUBLE_EQ(retryDelayS(p, 30, 0.0), 16.0);  // capped
    EXPECT_DOUBLE_EQ(retryDelayS(p, 2, 1.0), 2.0);    // the most jitter takes half
    EXPECT_DOUBLE_EQ(retryDelayS(p, 2, 0.5), 3.0);
}

TEST_F(StoreQueueTest, ItemsSurviveReopeningAndAnEnqueueIsNotRepeated) {
    std::string uid;
    const auto file = object(1, &uid);
    {
        auto q = open();
        auto item = q->enqueue(file, "pacs", false);
        ASSERT_TRUE(item) << item.error().message();
        EXPECT_EQ(item->object.sopInstanceUid, uid);
        EXPECT_EQ(item->state, ItemState::Queued);
        EXPECT_TRUE(fs::exists(item->object.file));
        EXPECT_NE(item->object.file, file);  // the queue's own copy
        auto again = q->enqueue(file, "pacs", false);
        ASSERT_TRUE(again);
        EXPECT_EQ(again->id, item->id);
        auto elsewhere = q->enqueue(file, "archive", false);
        ASSERT_TRUE(elsewhere);
        EXPECT_NE(elsewhere->id, item->id);
    }
    fs::remove(file);  // the original may go: the queue has a copy
    auto q = open();
    const auto items = q->items();
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].object.sopInstanceUid, uid);
    EXPECT_EQ(items[0].node, "pacs");
    EXPECT_FALSE(q->settled());
}

TEST_F(StoreQueueTest, OneProcessOwnsTheQueueButOthersMayReadIt) {
    auto q = open();
    ASSERT_TRUE(q->enqueue(object(1), "pacs", false));
    auto second = StoreQueue::open(queueDir(), policy);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(second.error().message().find("in use by another process"), std::string::npos);
    auto read = readQueue(queueDir());
    ASSERT_TRUE(read);
    EXPECT_EQ(read->size(), 1u);
}

TEST_F(StoreQueueTest, AnItemCaughtMidSendIsQueuedAgainWithItsUid) {
    std::string uid;
    {
        auto q = open();
        ASSERT_TRUE(q->enqueue(object(1, &uid), "pacs", false));
        auto due = q->takeDue("pacs", nowMs(), 10);
        ASSERT_TRUE(due);
        ASSERT_EQ(due->size(), 1u);
        EXPECT_EQ(q->items()[0].state, ItemState::Sending);
        EXPECT_TRUE(q->takeDue("pacs", nowMs(), 10)->empty());  // not handed out twice
        // destroyed here without an outcome: as if the process died
    }
    auto q = open();
    const auto items = q->items();
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].state, ItemState::Queued);
    EXPECT_EQ(items[0].object.sopInstanceUid, uid);
    EXPECT_EQ(q->takeDue("pacs", nowMs(), 10)->size(), 1u);
}

TEST_F(StoreQueueTest, FailuresBackOffOrFailForGoodAndRetryRequeues) {
    auto q = open();
    const auto a = *q->enqueue(object(1), "pacs", false);
    const auto b = *q->enqueue(object(2), "pacs", false);
    const std::int64_t now = nowMs();
    ASSERT_EQ(q->takeDue("pacs", now, 10)->size(), 2u);
    ASSERT_TRUE(q->markFailed(a.id, Error(ErrorCode::Unavailable, "connection refused"), true, now));
    ASSERT_TRUE(q->markFailed(b.id, Error(ErrorCode::InvalidArgument, "refused (status 0xA900)"), false, now));
    const auto ra = *q->item(a.id);
    EXPECT_EQ(ra.state, ItemState::Queued);
    EXPECT_EQ(ra.attempts, 1);
    EXPECT_EQ(ra.lastError, "connection refused");
    EXPECT_GE(ra.nextAttemptAtMs, now + 1000);  // 2 s less up to half
    EXPECT_LE(ra.nextAttemptAtMs, now + 2000);
    EXPECT_TRUE(q->takeDue("pacs", now + 500, 10)->empty());
    EXPECT_EQ(q->nextDueMs("pacs"), ra.nextAttemptAtMs);
    const auto rb = *q->item(b.id);
    EXPECT_EQ(rb.state, ItemState::Failed);
    EXPECT_TRUE(fs::exists(rb.object.file));  // kept for the user's decision
    ASSERT_TRUE(q->retry(b.id));
    EXPECT_EQ(q->item(b.id)->state, ItemState::Queued);
    EXPECT_FALSE(q->retry(a.id));  // only failed items
}

TEST_F(StoreQueueTest, CommitmentReportsCommitOrFailItems) {
    auto q = open();
    const auto a = *q->enqueue(object(1), "pacs", true);
    const auto b = *q->enqueue(object(2), "pacs", true);
    const std::int64_t now = nowMs();
    ASSERT_EQ(q->takeDue("pacs", now, 10)->size(), 2u);
    ASSERT_TRUE(q->markStored(a.id, 0, now));
    ASSERT_TRUE(q->markStored(b.id, 0, now));
    EXPECT_FALSE(q->settled());  // awaiting commitment
    auto awaiting = q->awaitingCommitmentRequest("pacs", now);
    ASSERT_EQ(awaiting.size(), 2u);
    ASSERT_TRUE(q->markCommitmentRequested({a.id, b.id}, "2.25.1", now));
    EXPECT_TRUE(q->awaitingCommitmentRequest("pacs", now + 1000).empty());
    EXPECT_EQ(q->awaitingCommitmentRequest("pacs", now + 60'000).size(), 2u);  // timed out: ask again
    // A request that did not reach the PACS is due again after the retry delay (2 s less up to
    // half), not at once and not after the whole timeout.
    ASSERT_TRUE(q->markCommitmentRequestFailed({a.id, b.id}, now));
    EXPECT_TRUE(q->awaitingCommitmentRequest("pacs", now + 900).empty());
    EXPECT_EQ(q->awaitingCommitmentRequest("pacs", now + 2000).size(), 2u);
    EXPECT_EQ(q->item(a.id)->transactionUid, "2.25.1");  // a late report of that request still matches
    ASSERT_TRUE(q->applyCommitment("2.25.1", {a.object.sopInstanceUid}, {{b.object.sopInstanceUid, "failure reason 0x0112"}}, now + 10));
    EXPECT_EQ(q->item(a.id)->state, ItemState::Committed);
    EXPECT_FALSE(fs::exists(a.object.file));
    EXPECT_EQ(q->item(b.id)->state, ItemState::Failed);
    EXPECT_NE(q->item(b.id)->lastError.find("0x0112"), std::string::npos);
    EXPECT_TRUE(fs::exists(b.object.file));
    EXPECT_TRUE(q->settled());
}

TEST_F(StoreQueueTest, SettledItemsAreForgottenAfterTheRetentionAndIdsGoOn) {
    auto q = open();
    const auto committed = *q->enqueue(object(1), "pacs", true);
    const auto sent = *q->enqueue(object(2), "archive", false);
    const auto failed = *q->enqueue(object(3), "archive", false);
    const auto awaiting = *q->enqueue(object(4), "pacs", true);
    const auto queued = *q->enqueue(object(5), "archive", false);
    const std::int64_t t = nowMs();
    ASSERT_EQ(q->takeDue("pacs", t, 10)->size(), 2u);
    ASSERT_EQ(q->takeDue("archive", t, 2)->size(), 2u);
    ASSERT_TRUE(q->markStored(committed.id, 0, t));
    ASSERT_TRUE(q->markStored(awaiting.id, 0, t));
    ASSERT_TRUE(q->markStored(sent.id, 0, t));
    ASSERT_TRUE(q->markFailed(failed.id, Error(ErrorCode::InvalidArgument, "refused"), false, t));
    ASSERT_TRUE(q->markCommitmentRequested({committed.id}, "2.25.7", t));
    ASSERT_TRUE(q->applyCommitment("2.25.7", {committed.object.sopInstanceUid}, {}, t));

    EXPECT_EQ(*q->forgetSettledBefore(t), 0u) << "nothing settled before t";
    EXPECT_TRUE(fs::exists(sent.object.file)) << "a node that does not commit: the copy is kept for the retention time";
    ASSERT_EQ(*q->forgetSettledBefore(t + 1), 2u);
    std::vector<std::string> left;
    for (const auto& i : q->items()) left.push_back(i.id);
    EXPECT_EQ(left, (std::vector<std::string>{failed.id, awaiting.id, queued.id}));
    EXPECT_FALSE(fs::exists(sent.object.file));
    EXPECT_TRUE(fs::exists(failed.object.file)) << "a failed item waits for the user";
    EXPECT_TRUE(fs::exists(awaiting.object.file)) << "sent but not yet committed: the copy stays";

    // Forget the newest too: the next id still follows the highest ever given.
    ASSERT_TRUE(q->markStored(queued.id, 0, t));
    ASSERT_EQ(*q->forgetSettledBefore(t + 1), 1u);
    q.reset();
    q = open();
    EXPECT_EQ(q->items().size(), 2u);
    EXPECT_EQ(q->enqueue(object(6), "archive", false)->id, "000006");
    ASSERT_EQ(readQueue(queueDir())->size(), 3u);
}

// Changes a record behind the queue's back, as a disk or a user might.
void tamper(const fs::path& database, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(database.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
    sqlite3_free(message);
    sqlite3_close(db);
}

TEST_F(StoreQueueTest, ACorruptRecordIsNamedAndALostCopyFailsItsItem) {
    std::string id;
    {
        auto q = open();
        id = q->enqueue(object(1), "pacs", false)->id;
        fs::remove(q->item(id)->object.file);
    }
    {
        auto q = open();
        const auto item = *q->item(id);
        EXPECT_EQ(item.state, ItemState::Failed);
        EXPECT_NE(item.lastError.find("is missing"), std::string::npos);
    }
    EXPECT_EQ(open()->item(id)->state, ItemState::Failed) << "the failure was saved, not only found";
    const auto database = fs::path(queueDir()) / "queue.db";
    tamper(database, "UPDATE items SET state = 'lost in space'");
    auto q = StoreQueue::open(queueDir(), policy);
    ASSERT_FALSE(q);
    EXPECT_EQ(q.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(q.error().message().find(database.string() + ": record 1"), std::string::npos) << q.error().message();
    EXPECT_NE(q.error().message().find("unknown state 'lost in space'"), std::string::npos) << q.error().message();
}

// A queue process killed at random moments while it enqueues and records attempts: every
// enqueue it acknowledged is there after the restart, with its copy and its UID; at most the
// one enqueue the kill cut short is kept aside; the database passes its integrity check.
TEST_F(StoreQueueTest, ASigkillAtAnyMomentLosesNoAcknowledgedChange) {
    std::vector<std::string> paths;
    for (int n = 0; n < 40; ++n) paths.push_back(object(n));
    std::set<std::string> acknowledged;
    for (int round = 0; round < 5; ++round) {
        int pipeFds[2];
        ASSERT_EQ(::pipe(pipeFds), 0);
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            ::close(pipeFds[0]);
            auto q = StoreQueue::open(queueDir(), policy);
            if (!q) ::_exit(2);
            for (int n = 0;; n = (n + 1) % static_cast<int>(paths.size())) {
                auto item = (*q)->enqueue(paths[static_cast<std::size_t>(n)], "pacs-" + std::to_string(round), false);
                if (!item) ::_exit(3);
                (void)(*q)->takeDue(item->node, nowMs(), 4);
                (void)(*q)->markFailed(item->id, Error(ErrorCode::Unavailable, "down"), true, nowMs());
                const std::string line = item->id + "\n";
                if (::write(pipeFds[1], line.data(), line.size()) < 0) ::_exit(4);
            }
        }
        ::close(pipeFds[1]);
        ::usleep(static_cast<useconds_t>(150'000 + 70'000 * round));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status)) << "the child ended by itself: " << status;
        std::string text(1 << 20, '\0');
        std::size_t got = 0;
        for (ssize_t n; (n = ::read(pipeFds[0], text.data() + got, text.size() - got)) > 0;) got += static_cast<std::size_t>(n);
        ::close(pipeFds[0]);
        text.resize(got);
        for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
            acknowledged.insert(text.substr(start, end - start));
        }
        auto q = open();
        ASSERT_TRUE(q) << "round " << round;
        for (const auto& id : acknowledged) {
            const auto item = q->item(id);
            ASSERT_TRUE(item) << "round " << round << ": acknowledged item " << id << " is gone";
            EXPECT_TRUE(fs::exists(item->object.file)) << id;
        }
        // Each kill may have cut short one enqueue whose record was saved but not acknowledged.
        EXPECT_LE(q->items().size(), acknowledged.size() + static_cast<std::size_t>(round) + 1) << "round " << round;
    }
    EXPECT_GT(acknowledged.size(), 20u) << "the children did too little to prove anything";
    const auto orphans = fs::path(queueDir()) / "orphans";
    const auto aside = fs::exists(orphans) ? std::distance(fs::directory_iterator(orphans), fs::directory_iterator()) : 0;
    EXPECT_LE(aside, 5) << "at most one cut-short enqueue per kill";
}

// Every way a database can be lost while the copies stay: refused, nothing deleted, and the
// recover command named (the reported bug: the queue started empty and deleted every copy).
TEST_F(StoreQueueTest, ADatabaseThatIsMissingEmptyForeignOrADirectoryIsAnErrorAndNoCopyIsDeleted) {
    const auto database = fs::path(queueDir()) / "queue.db";
    const std::vector<std::pair<std::string, std::function<void()>>> damages{
        {"missing", [&] { fs::remove(database); }},
        {"empty", [&] { std::ofstream(database, std::ios::trunc); }},
        {"a directory",
         [&] {
             fs::remove(database);
             fs::create_directory(database);
         }},
        {"not a database", [&] { std::ofstream(database, std::ios::trunc) << std::string(4096, 'x'); }},
        {"another program's database",
         [&] {
             fs::remove(database);
             tamper(database, "CREATE TABLE items (id TEXT)");
         }},
    };
    for (const auto& [what, damage] : damages) {
        fs::remove_all(queueDir());
        {
            auto q = open();
            for (int n = 1; n <= 3; ++n) ASSERT_TRUE(q->enqueue(object(n), "pacs", false));
        }
        damage();
        auto q = StoreQueue::open(queueDir(), policy);
        ASSERT_FALSE(q) << what;
        EXPECT_EQ(q.error().code(), ErrorCode::DataLoss) << what;
        EXPECT_NE(q.error().message().find("3 copies"), std::string::npos) << what << ": " << q.error().message();
        EXPECT_NE(q.error().message().find("dicom queue recover"), std::string::npos) << what << ": " << q.error().message();
        EXPECT_EQ(copiesIn(queueDir()), 3) << what;
        auto listed = readQueue(queueDir());
        EXPECT_FALSE(listed) << what << ": queue list must not show an empty queue";
    }
}

// A database cut short fails SQLite's integrity check; recover() moves it aside and queues the
// copies it lost again, with their own UIDs.
TEST_F(StoreQueueTest, ADatabaseCutShortIsDamageAndRecoverRequeuesTheLostCopies) {
    std::vector<std::string> queuedWith(6);
    {
        auto q = open();
        for (int n = 0; n < 6; ++n) ASSERT_TRUE(q->enqueue(object(n, &queuedWith[n]), "pacs", false));
    }
    const auto database = fs::path(queueDir()) / "queue.db";
    fs::resize_file(database, fs::file_size(database) / 2);
    auto q = StoreQueue::open(queueDir(), policy);
    ASSERT_FALSE(q);
    EXPECT_EQ(q.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(q.error().message().find("is damaged"), std::string::npos) << q.error().message();
    EXPECT_EQ(copiesIn(queueDir()), 6);

    auto recovered = StoreQueue::recover(queueDir(), "pacs", false, policy);
    ASSERT_TRUE(recovered) << recovered.error().message();
    EXPECT_EQ(recovered->kept + recovered->requeued, 6u);
    EXPECT_GE(recovered->requeued, 3u);
    EXPECT_EQ(recovered->setAside, 0u);
    EXPECT_FALSE(recovered->notes.empty()) << "the damaged database is named where it was kept";
    auto reopened = open();
    ASSERT_TRUE(reopened);
    std::vector<std::string> queuedUids;
    for (const auto& i : reopened->items()) {
        EXPECT_EQ(i.state, ItemState::Queued);
        EXPECT_TRUE(fs::exists(i.object.file));
        queuedUids.push_back(i.object.sopInstanceUid);
    }
    std::sort(queuedUids.begin(), queuedUids.end());
    std::sort(queuedWith.begin(), queuedWith.end());
    EXPECT_EQ(queuedUids, queuedWith) << "every object once, with the UID it was queued with";
}

// The one copy a crash between copying and recording leaves (the enqueue cut short; its caller
// never heard back) is kept aside in orphans/, not deleted, and the queue opens.
TEST_F(StoreQueueTest, OneCopyWithoutARecordIsAnEnqueueCutShortAndIsKeptAside) {
    {
        auto q = open();
        ASSERT_TRUE(q->enqueue(object(1), "pacs", false));
        ASSERT_TRUE(q->enqueue(object(2), "pacs", false));
    }
    fs::copy_file(object(3), fs::path(queueDir()) / "objects" / "000003.dcm");
    auto q = open();
    ASSERT_TRUE(q);
    EXPECT_EQ(q->items().size(), 2u);
    EXPECT_FALSE(fs::exists(fs::path(queueDir()) / "objects" / "000003.dcm"));
    EXPECT_TRUE(fs::exists(fs::path(queueDir()) / "orphans" / "000003.dcm"));
    EXPECT_EQ(q->enqueue(object(4), "pacs", false)->id, "000004") << "its id is not given again";
}

// Past item 999999 ids have seven digits: the enqueue a crash cut short is still recognised as
// the newest (ids compare as numbers, not as text).
TEST_F(StoreQueueTest, AnEnqueueCutShortPastAMillionItemsIsStillKeptAside) {
    {
        auto q = open();
        ASSERT_TRUE(q->enqueue(object(1), "pacs", false));
    }
    { std::ofstream(fs::path(queueDir()) / "next_id") << "999999"; }
    std::string id;
    {
        auto q = open();
        id = q->enqueue(object(2), "pacs", false)->id;
    }
    ASSERT_EQ(id, "999999");
    fs::copy_file(object(3), fs::path(queueDir()) / "objects" / "1000000.dcm");
    auto q = open();
    ASSERT_TRUE(q) << "one copy past the newest record: an enqueue cut short";
    EXPECT_TRUE(fs::exists(fs::path(queueDir()) / "orphans" / "1000000.dcm"));
}

// Forgetting settled items renames their copies first: a crash in the middle leaves copies the
// next open recognises as being forgotten, and it finishes the job (nothing counted as lost).
TEST_F(StoreQueueTest, ACrashInTheMiddleOfForgettingIsFinishedAtTheNextOpen) {
    std::string id;
    std::string copy;
    {
        auto q = open();
        auto item = q->enqueue(object(1), "pacs", false);
        id = item->id;
        copy = item->object.file;
        ASSERT_TRUE(q->markStored(id, 0, 1000));
        ASSERT_TRUE(q->enqueue(object(2), "pacs", false));
    }
    fs::rename(copy, copy + ".forgotten");  // the state a crash after the renames leaves
    auto q = open();
    ASSERT_TRUE(q);
    EXPECT_FALSE(q->item(id)) << "the forget is finished";
    EXPECT_FALSE(fs::exists(copy + ".forgotten"));
    EXPECT_EQ(q->items().size(), 1u);
}

// Database and copies name patients: only their owner may read them, whatever the umask.
TEST_F(StoreQueueTest, TheQueueIsReadableByItsOwnerOnly) {
    const auto old = ::umask(022);
    {
        auto q = open();
        ASSERT_TRUE(q->enqueue(object(1), "pacs", false));
    }
    ::umask(old);
    auto mode = [](const fs::path& p) { return fs::status(p).permissions() & fs::perms::all; };
    const fs::path d = queueDir();
    EXPECT_EQ(mode(d), fs::perms::owner_all);
    EXPECT_EQ(mode(d / "objects"), fs::perms::owner_all);
    EXPECT_EQ(mode(d / "queue.db"), fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(mode(d / "objects" / "000001.dcm"), fs::perms::owner_read | fs::perms::owner_write);
    // A queue made by an older version, world-readable: made private when opened.
    fs::permissions(d, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(d / "queue.db", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
    ASSERT_TRUE(open());
    EXPECT_EQ(mode(d), fs::perms::owner_all);
    EXPECT_EQ(mode(d / "queue.db"), fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(StoreQueueTest, ANonDicomFileIsRefusedAtTheDoor) {
    const auto bogus = (dir / "exam" / "notes.txt").string();
    std::ofstream(bogus) << "hello";
    auto q = open();
    auto item = q->enqueue(bogus, "pacs", false);
    ASSERT_FALSE(item);
    EXPECT_EQ(item.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(item.error().message().find(bogus), std::string::npos);
    EXPECT_TRUE(q->items().empty());
}

}  // namespace
}  // namespace sonolink::dicom
