// The persistence kit both durable queues stand on: SQLite's failures mapped to one set of
// error codes (a full disk, a busy database, a damaged file), checked statements, transactions
// that roll back, and the folder lock that makes a queue one process's.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sonolink/persist/folder_lock.h"
#include "sonolink/persist/sqlite_database.h"

namespace sonolink::persist {
namespace {

namespace fs = std::filesystem;

class PersistTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("sonolink-persist-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const char* name) const { return (dir_ / name).string(); }

    SqliteDatabase made(const std::string& file, int busyMs = kBusyTimeoutMs) {
        auto db = SqliteDatabase::open(file, SqliteDatabase::Mode::Create, "the test's database " + file, busyMs);
        EXPECT_TRUE(db) << db.error().message();
        EXPECT_TRUE(db->exec("PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS t(v TEXT NOT NULL)", "create"));
        return std::move(*db);
    }
    fs::path dir_;
};

TEST_F(PersistTest, SqliteResultCodesMapToOneSetOfErrors) {
    EXPECT_EQ(sqliteError(SQLITE_FULL, "database or disk is full", "write", "db").code(), ErrorCode::ResourceExhausted);
    EXPECT_EQ(sqliteError(SQLITE_IOERR_WRITE, "disk I/O error", "write", "db").code(), ErrorCode::DataLoss);
    EXPECT_EQ(sqliteError(SQLITE_BUSY_SNAPSHOT, "database is locked", "write", "db").code(), ErrorCode::Unavailable);
    EXPECT_EQ(sqliteError(SQLITE_LOCKED, "database table is locked", "read", "db").code(), ErrorCode::Unavailable);
    const auto damaged = sqliteError(SQLITE_CORRUPT, "database disk image is malformed", "read", "the queue's database /q.db");
    EXPECT_EQ(damaged.code(), ErrorCode::DataLoss);
    EXPECT_EQ(damaged.message(), "the queue's database /q.db is damaged: database disk image is malformed");
    EXPECT_EQ(sqliteError(SQLITE_NOTADB, "file is not a database", "open", "db").message(), "db is damaged: file is not a database");
}

TEST_F(PersistTest, AStatementThatCannotBePreparedIsAnErrorNamingTheDatabase) {
    auto db = made(path("a.db"));
    auto bad = db.prepare("SELECT v FROM nowhere", "read");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(bad.error().message().find("cannot read the test's database"), std::string::npos) << bad.error().message();
    EXPECT_NE(bad.error().message().find("no such table: nowhere"), std::string::npos) << bad.error().message();
}

TEST_F(PersistTest, RowsGoInAndComeBackAsBound) {
    auto db = made(path("a.db"));
    auto insert = db.prepare("INSERT INTO t(v) VALUES(?)", "write");
    ASSERT_TRUE(insert) << insert.error().message();
    for (const char* v : {"one", "two", "three"}) ASSERT_TRUE(insert->bind(1, std::string_view(v)).run());
    EXPECT_EQ(db.lastInsertId(), 3);
    auto count = db.scalarInteger("SELECT count(*) FROM t");
    ASSERT_TRUE(count);
    EXPECT_EQ(*count, 3);
    auto select = db.prepare("SELECT v, rowid FROM t ORDER BY rowid", "read");
    ASSERT_TRUE(select);
    std::string joined;
    for (auto row = select->next(); row && *row; row = select->next()) {
        EXPECT_TRUE(select->isText(0));
        EXPECT_TRUE(select->isInteger(1));
        joined += select->text(0) + std::to_string(select->integer(1));
    }
    EXPECT_EQ(joined, "one1two2three3");
    EXPECT_EQ(select->columnName(0), "v");
}

TEST_F(PersistTest, ATransactionWhoseBodyFailsLeavesNothingBehind) {
    auto db = made(path("a.db"));
    auto insert = db.prepare("INSERT INTO t(v) VALUES(?)", "write");
    ASSERT_TRUE(insert);
    const auto failed = db.transaction(
        [&]() -> Status {
            if (auto ok = insert->bind(1, std::string_view("kept?")).run(); !ok) return ok;
            return fail(ErrorCode::Internal, "the body gives up");
        },
        "write");
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().message(), "the body gives up");
    EXPECT_EQ(*db.scalarInteger("SELECT count(*) FROM t"), 0);
    ASSERT_TRUE(db.transaction([&] { return insert->bind(1, std::string_view("kept")).run(); }, "write"));
    EXPECT_EQ(*db.scalarText("SELECT v FROM t"), "kept");
}

TEST_F(PersistTest, AFullDatabaseIsResourceExhaustedAndRollsBack) {
    auto db = made(path("a.db"));
    // SQLite's own page limit stands in for a full disk: the same SQLITE_FULL, the same path.
    ASSERT_TRUE(db.exec("PRAGMA max_page_count=" + std::to_string(*db.scalarInteger("PRAGMA page_count") + 1), "configure"));
    auto insert = db.prepare("INSERT INTO t(v) VALUES(?)", "write");
    ASSERT_TRUE(insert);
    const std::string big(64 * 1024, 'x');
    const auto full = db.transaction(
        [&]() -> Status {
            for (int i = 0; i < 64; ++i) {
                if (auto ok = insert->bind(1, big).run(); !ok) return ok;
            }
            return {};
        },
        "write");
    ASSERT_FALSE(full);
    EXPECT_EQ(full.error().code(), ErrorCode::ResourceExhausted) << full.error().message();
    EXPECT_NE(full.error().message().find("cannot write the test's database"), std::string::npos) << full.error().message();
    EXPECT_NE(full.error().message().find("the disk is full"), std::string::npos) << full.error().message();
    EXPECT_EQ(*db.scalarInteger("SELECT count(*) FROM t"), 0);  // rolled back whole
}

TEST_F(PersistTest, ADatabaseHeldByAnotherWriterIsUnavailableAfterTheBusyTimeout) {
    const auto file = path("a.db");
    auto holder = made(file);
    auto waiter = made(file, 50);
    ASSERT_TRUE(holder.exec("BEGIN IMMEDIATE; INSERT INTO t(v) VALUES('held')", "write"));
    auto insert = waiter.prepare("INSERT INTO t(v) VALUES('late')", "write");
    ASSERT_TRUE(insert);
    const auto busy = waiter.transaction([&] { return insert->run(); }, "write");
    ASSERT_FALSE(busy);
    EXPECT_EQ(busy.error().code(), ErrorCode::Unavailable) << busy.error().message();
    ASSERT_TRUE(holder.exec("COMMIT", "write"));
    EXPECT_TRUE(waiter.transaction([&] { return insert->run(); }, "write"));
    EXPECT_EQ(*holder.scalarInteger("SELECT count(*) FROM t"), 2);
}

TEST_F(PersistTest, AFileThatIsNoDatabaseIsNamedDamaged) {
    const auto file = path("junk.db");
    std::ofstream(file) << std::string(4096, 'x');
    auto db = SqliteDatabase::open(file, SqliteDatabase::Mode::ReadOnly, "the queue's database " + file);
    ASSERT_TRUE(db);  // SQLite reads lazily: the first statement finds out
    auto id = db->scalarInteger("PRAGMA application_id");
    ASSERT_FALSE(id);
    EXPECT_EQ(id.error().code(), ErrorCode::DataLoss);
    EXPECT_EQ(id.error().message(), "the queue's database " + file + " is damaged: file is not a database");
}

TEST_F(PersistTest, AMissingDatabaseIsNotCreatedUnlessAsked) {
    auto db = SqliteDatabase::open(path("none.db"), SqliteDatabase::Mode::ReadWrite, "db");
    ASSERT_FALSE(db);
    EXPECT_NE(db.error().message().find("cannot open db"), std::string::npos) << db.error().message();
    EXPECT_FALSE(fs::exists(path("none.db")));
}

TEST_F(PersistTest, AFolderLockIsOneOwnersUntilItGoes) {
    const auto folder = dir_.string();
    {
        auto first = FolderLock::acquire(folder, "the test queue");
        ASSERT_TRUE(first) << first.error().message();
        auto second = FolderLock::acquire(folder, "the test queue");
        ASSERT_FALSE(second);
        EXPECT_EQ(second.error().code(), ErrorCode::FailedPrecondition);
        EXPECT_EQ(second.error().message(), "the test queue at " + folder + " is in use by another process");
        FolderLock moved = std::move(*first);  // the lock travels with its owner
        EXPECT_FALSE(FolderLock::acquire(folder, "the test queue"));
    }
    EXPECT_TRUE(FolderLock::acquire(folder, "the test queue"));
    EXPECT_EQ(fs::status(dir_ / "lock").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(PersistTest, AFolderThatCannotHoldTheLockSaysWhy) {
    auto lock = FolderLock::acquire(path("no-such-folder"), "the test queue");
    ASSERT_FALSE(lock);
    EXPECT_EQ(lock.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(lock.error().message().find("cannot open " + path("no-such-folder") + "/lock"), std::string::npos) << lock.error().message();
}

}  // namespace
}  // namespace sonolink::persist
