#include "sonolink/archive/archive_queue.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "encoding.h"
#include "sonolink/util/durable_file.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::archive {
namespace {

constexpr int kApplicationId = 0x534c4151;  // "SLAQ"
constexpr const char* kDatabase = "archive-queue.db";
// Written once the database is made: a folder that has it and no database (or an empty one) lost
// its queue, which is an error, never a fresh empty queue.
constexpr const char* kMarker = "archive-queue.id";
constexpr const char* kColumns =
    "id, file, bucket, key, kind, state, attempts, size_bytes, crc32c, enqueued_at_ms, next_attempt_at_ms, verified_at_ms, "
    "local_deleted_at_ms, last_error, etag";

struct Database {
    sqlite3* db = nullptr;
    ~Database() {
        if (db) sqlite3_close_v2(db);
    }
};

struct Statement {
    sqlite3_stmt* stmt = nullptr;
    ~Statement() {
        if (stmt) sqlite3_finalize(stmt);
    }
};

Error sqlError(sqlite3* db, const std::string& what, const std::string& path) {
    return Error(ErrorCode::DataLoss, fmt::format("archive queue '{}': {}: {}", path, what, db ? sqlite3_errmsg(db) : "cannot open"));
}

Status exec(sqlite3* db, const std::string& sql, const std::string& path) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        Error e(ErrorCode::DataLoss, fmt::format("archive queue '{}': {}", path, message ? message : "SQLite error"));
        sqlite3_free(message);
        return fail(std::move(e));
    }
    return {};
}

ArchiveState stateNamed(std::string_view name) {
    if (name == "uploading") return ArchiveState::Uploading;
    if (name == "verified") return ArchiveState::Verified;
    if (name == "failed") return ArchiveState::Failed;
    return ArchiveState::Queued;
}

std::string text(sqlite3_stmt* s, int column) {
    const auto* t = sqlite3_column_text(s, column);
    return t ? reinterpret_cast<const char*>(t) : "";
}

ArchiveItem rowItem(sqlite3_stmt* s) {
    ArchiveItem i;
    i.id = sqlite3_column_int64(s, 0);
    i.file = text(s, 1);
    i.object = {text(s, 2), text(s, 3)};
    i.kind = text(s, 4);
    i.state = stateNamed(text(s, 5));
    i.attempts = sqlite3_column_int(s, 6);
    i.sizeBytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 7));
    i.crc32c = text(s, 8);
    i.enqueuedAtMs = sqlite3_column_int64(s, 9);
    i.nextAttemptAtMs = sqlite3_column_int64(s, 10);
    i.verifiedAtMs = sqlite3_column_int64(s, 11);
    i.localDeletedAtMs = sqlite3_column_int64(s, 12);
    i.lastError = text(s, 13);
    i.etag = text(s, 14);
    return i;
}

// The first column of the first row of sql, as an integer (the statement finalized at once).
std::optional<std::int64_t> scalar(sqlite3* db, const char* sql) {
    Statement s;
    if (sqlite3_prepare_v2(db, sql, -1, &s.stmt, nullptr) != SQLITE_OK || sqlite3_step(s.stmt) != SQLITE_ROW) return std::nullopt;
    return sqlite3_column_int64(s.stmt, 0);
}

// Opens the database and checks it is ours and whole; creates it when create is set.
Result<std::unique_ptr<Database>> openDatabase(const std::string& path, bool create) {
    auto d = std::make_unique<Database>();
    const int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path.c_str(), &d->db, flags | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
        return fail(sqlError(d->db, "cannot open", path));
    }
    sqlite3_busy_timeout(d->db, 5000);
    const auto id = scalar(d->db, "PRAGMA application_id");
    const auto tables = scalar(d->db, "SELECT count(*) FROM sqlite_master");
    if (!id || !tables) return fail(sqlError(d->db, "not a database (damaged?)", path));
    const bool empty = *tables == 0;
    if (*id == 0 && empty && create) {
        const auto setup = fmt::format("PRAGMA journal_mode=WAL; PRAGMA application_id={}; CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, "
                                       "file TEXT NOT NULL, bucket TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL, "
                                       "attempts INTEGER NOT NULL DEFAULT 0, size_bytes INTEGER NOT NULL DEFAULT 0, crc32c TEXT NOT NULL DEFAULT '', "
                                       "enqueued_at_ms INTEGER NOT NULL, next_attempt_at_ms INTEGER NOT NULL, verified_at_ms INTEGER NOT NULL DEFAULT 0, "
                                       "local_deleted_at_ms INTEGER NOT NULL DEFAULT 0, last_error TEXT NOT NULL DEFAULT '', etag TEXT NOT NULL DEFAULT '')",
                                       kApplicationId);
        if (auto ok = exec(d->db, setup, path); !ok) return fail(std::move(ok.error()));
    } else if (*id != kApplicationId) {
        return fail(ErrorCode::DataLoss, fmt::format("'{}' is not a SonoLink archive queue (application id {:#x}): it is left as it is", path, *id));
    }
    {
        Statement check;
        if (sqlite3_prepare_v2(d->db, "PRAGMA quick_check(1)", -1, &check.stmt, nullptr) != SQLITE_OK || sqlite3_step(check.stmt) != SQLITE_ROW ||
            text(check.stmt, 0) != "ok") {
            return fail(ErrorCode::DataLoss, fmt::format("archive queue '{}' is damaged ({}): it is left as it is", path,
                                                         check.stmt ? text(check.stmt, 0) : sqlite3_errmsg(d->db)));
        }
    }
    if (create) {
        if (auto ok = exec(d->db, "PRAGMA synchronous=FULL", path); !ok) return fail(std::move(ok.error()));
        // Queues made before the stored object's ETag was kept: the column added, empty.
        const auto hasEtag = scalar(d->db, "SELECT count(*) FROM pragma_table_info('items') WHERE name='etag'");
        if (hasEtag && *hasEtag == 0) {
            if (auto ok = exec(d->db, "ALTER TABLE items ADD COLUMN etag TEXT NOT NULL DEFAULT ''", path); !ok) return fail(std::move(ok.error()));
        }
    }
    return d;
}

Result<std::vector<ArchiveItem>> select(sqlite3* db, const std::string& where, const std::string& path, std::string_view columns = kColumns) {
    Statement s;
    const std::string sql = fmt::format("SELECT {} FROM items {} ORDER BY id", columns, where);
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s.stmt, nullptr) != SQLITE_OK) return fail(sqlError(db, "cannot read", path));
    std::vector<ArchiveItem> items;
    int rc;
    while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW) items.push_back(rowItem(s.stmt));
    if (rc != SQLITE_DONE) return fail(sqlError(db, "cannot read", path));
    return items;
}

// A local file's CRC-32C as 8 hex digits, read in 8 MiB pieces.
Result<std::string> crc32cOfFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
    std::vector<std::byte> buffer(std::size_t(8) << 20);
    std::uint32_t crc = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            return fail(ErrorCode::Unavailable, fmt::format("cannot read '{}': {}", path, std::strerror(e)));
        }
        if (n == 0) break;
        crc = crc32cOf(std::span(buffer.data(), static_cast<std::size_t>(n)), crc);
    }
    ::close(fd);
    return crc32cHex(crc);
}

// The database of a queue created here before (the marker says so) that is not there or is
// empty: DataLoss naming it and the way out, never an empty queue in its place.
Status checkNotLost(const std::string& directory, const std::string& path) {
    std::error_code ec;
    const bool created = std::filesystem::exists(directory + "/" + kMarker, ec);
    const bool missing = !std::filesystem::exists(path, ec);
    const bool empty = !missing && std::filesystem::file_size(path, ec) == 0 && !ec;
    if (created && (missing || empty)) {
        return fail(ErrorCode::DataLoss, fmt::format("archive queue '{}': its database {} is {}, though a queue was created in this folder ({}): "
                                                     "the uploads it held are not known. Restore the database from a backup, or start a new, "
                                                     "empty queue deliberately with `sonolink-cli archive queue reset`", directory, path,
                                                     missing ? "missing" : "empty (0 bytes)", kMarker));
    }
    return {};
}

}  // namespace

std::string_view toString(ArchiveState state) noexcept {
    switch (state) {
    case ArchiveState::Queued: return "queued";
    case ArchiveState::Uploading: return "uploading";
    case ArchiveState::Verified: return "verified";
    case ArchiveState::Failed: return "failed";
    }
    return "queued";
}

struct ArchiveQueue::State {
    std::string directory;
    std::string path;
    ArchiveRetry retry;
    int lockFd = -1;
    mutable Mutex mutex;
    std::unique_ptr<Database> database GUARDED_BY(mutex);
    std::mt19937_64 random GUARDED_BY(mutex){std::random_device{}()};

    ~State() {
        database.reset();
        if (lockFd >= 0) ::close(lockFd);
    }

    // One statement with bound values, in its own durable transaction.
    template <typename Bind>
    Status change(const std::string& sql, Bind bind) REQUIRES(mutex) {
        Statement s;
        if (sqlite3_prepare_v2(database->db, sql.c_str(), -1, &s.stmt, nullptr) != SQLITE_OK) return fail(sqlError(database->db, "cannot write", path));
        bind(s.stmt);
        if (sqlite3_step(s.stmt) != SQLITE_DONE) return fail(sqlError(database->db, "cannot write", path));
        return {};
    }
};

Result<std::vector<ArchiveItem>> readArchiveQueue(const std::string& directory) {
    const std::string path = directory + "/" + kDatabase;
    if (auto ok = checkNotLost(directory, path); !ok) return fail(std::move(ok.error()));
    if (!std::filesystem::exists(path)) return std::vector<ArchiveItem>{};
    auto db = openDatabase(path, false);
    if (!db) return fail(std::move(db.error()));
    // Read beside its owner, perhaps before the owner added the ETag column: read it as empty.
    const auto hasEtag = scalar((*db)->db, "SELECT count(*) FROM pragma_table_info('items') WHERE name='etag'");
    const std::string oldColumns = std::string(kColumns).substr(0, std::string_view(kColumns).rfind(", etag")) + ", '' AS etag";
    return select((*db)->db, "", path, hasEtag && *hasEtag > 0 ? std::string_view(kColumns) : std::string_view(oldColumns));
}

ArchiveQueue::ArchiveQueue(std::unique_ptr<State> state) : state_(std::move(state)) {}
ArchiveQueue::~ArchiveQueue() = default;

Result<std::unique_ptr<ArchiveQueue>> ArchiveQueue::open(const std::string& directory, ArchiveRetry retry) {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) return fail(ErrorCode::Unavailable, fmt::format("cannot make the archive queue folder '{}': {}", directory, ec.message()));
    ::chmod(directory.c_str(), 0700);
    auto state = std::make_unique<State>();
    state->directory = directory;
    state->path = directory + "/" + kDatabase;
    state->retry = retry;
    const std::string lock = directory + "/lock";
    state->lockFd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (state->lockFd < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot open '{}': {}", lock, std::strerror(errno)));
    if (::flock(state->lockFd, LOCK_EX | LOCK_NB) != 0) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("archive queue '{}' is in use by another process", directory));
    }
    if (auto ok = checkNotLost(directory, state->path); !ok) return fail(std::move(ok.error()));
    auto db = openDatabase(state->path, true);
    if (!db) return fail(std::move(db.error()));
    ::chmod(state->path.c_str(), 0600);
    if (const auto marker = directory + "/" + kMarker; !std::filesystem::exists(marker)) {
        if (auto ok = writeFileDurably(marker, fmt::format("{}\n", state->path)); !ok) return fail(std::move(ok.error()));
    }
    {
        MutexLock held(state->mutex);  // no other thread has it yet: the analysis asks, and it costs nothing
        state->database = std::move(*db);
        if (auto ok = exec(state->database->db, "UPDATE items SET state='queued' WHERE state='uploading'", state->path); !ok) return fail(std::move(ok.error()));
    }
    return std::unique_ptr<ArchiveQueue>(new ArchiveQueue(std::move(state)));
}

Result<std::string> ArchiveQueue::reset(const std::string& directory, std::int64_t nowMs) {
    const std::string lockPath = directory + "/lock";
    const int lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lockFd < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot open '{}': {}", lockPath, std::strerror(errno)));
    struct Unlock {
        int fd;
        ~Unlock() { ::close(fd); }
    } unlock{lockFd};
    if (::flock(lockFd, LOCK_EX | LOCK_NB) != 0) return fail(ErrorCode::FailedPrecondition, fmt::format("archive queue '{}' is in use by another process", directory));
    const std::string path = directory + "/" + kDatabase;
    const std::string aside = fmt::format("{}.replaced-{}", path, nowMs);
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) {
        if (std::filesystem::exists(path + suffix, ec)) {
            std::filesystem::rename(path + suffix, aside + suffix, ec);
            if (ec) return fail(ErrorCode::Unavailable, fmt::format("cannot move '{}' aside: {}", path + suffix, ec.message()));
        }
    }
    std::filesystem::remove(directory + "/" + kMarker, ec);
    return aside;
}

Result<ArchiveItem> ArchiveQueue::enqueue(const std::string& file, const S3Location& object, const std::string& kind, std::int64_t nowMs) {
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(file, ec).lexically_normal().string();
    if (!std::filesystem::is_regular_file(absolute, ec)) return fail(ErrorCode::NotFound, fmt::format("'{}' is not a file to archive", file));
    MutexLock lock(state_->mutex);
    auto& db = *state_->database;
    Statement find;
    sqlite3_prepare_v2(db.db, fmt::format("SELECT {} FROM items WHERE file=? AND bucket=? AND key=? AND state IN ('queued','uploading','failed')", kColumns).c_str(),
                       -1, &find.stmt, nullptr);
    sqlite3_bind_text(find.stmt, 1, absolute.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(find.stmt, 2, object.bucket.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(find.stmt, 3, object.key.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(find.stmt) == SQLITE_ROW) return rowItem(find.stmt);
    auto ok = state_->change("INSERT INTO items(file, bucket, key, kind, state, enqueued_at_ms, next_attempt_at_ms) VALUES(?,?,?,?,'queued',?,?)",
                             [&](sqlite3_stmt* s) {
                                 sqlite3_bind_text(s, 1, absolute.c_str(), -1, SQLITE_TRANSIENT);
                                 sqlite3_bind_text(s, 2, object.bucket.c_str(), -1, SQLITE_TRANSIENT);
                                 sqlite3_bind_text(s, 3, object.key.c_str(), -1, SQLITE_TRANSIENT);
                                 sqlite3_bind_text(s, 4, kind.c_str(), -1, SQLITE_TRANSIENT);
                                 sqlite3_bind_int64(s, 5, nowMs);
                                 sqlite3_bind_int64(s, 6, nowMs);
                             });
    if (!ok) return fail(std::move(ok.error()));
    auto added = select(db.db, fmt::format("WHERE id={}", sqlite3_last_insert_rowid(db.db)), state_->path);
    if (!added || added->empty()) return fail(ErrorCode::DataLoss, fmt::format("archive queue '{}': the item just added cannot be read", state_->path));
    return added->front();
}

std::vector<ArchiveItem> ArchiveQueue::items() const {
    MutexLock lock(state_->mutex);
    auto all = select(state_->database->db, "", state_->path);
    return all ? std::move(*all) : std::vector<ArchiveItem>{};
}

Result<std::vector<ArchiveItem>> ArchiveQueue::takeDue(std::int64_t nowMs, std::size_t limit) {
    MutexLock lock(state_->mutex);
    auto due = select(state_->database->db, fmt::format("WHERE state='queued' AND next_attempt_at_ms<={}", nowMs), state_->path);
    if (!due) return fail(std::move(due.error()));
    if (due->size() > limit) due->resize(limit);
    for (auto& item : *due) {
        auto ok = state_->change("UPDATE items SET state='uploading' WHERE id=?", [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, item.id); });
        if (!ok) return fail(std::move(ok.error()));
        item.state = ArchiveState::Uploading;
    }
    return due;
}

Status ArchiveQueue::markVerified(std::int64_t id, std::uint64_t sizeBytes, const std::string& crc32c, const std::string& etag, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    return state_->change("UPDATE items SET state='verified', attempts=attempts+1, size_bytes=?, crc32c=?, verified_at_ms=?, last_error='', etag=? "
                          "WHERE id=?",
                          [&](sqlite3_stmt* s) {
                              sqlite3_bind_int64(s, 1, static_cast<sqlite3_int64>(sizeBytes));
                              sqlite3_bind_text(s, 2, crc32c.c_str(), -1, SQLITE_TRANSIENT);
                              sqlite3_bind_int64(s, 3, nowMs);
                              sqlite3_bind_text(s, 4, etag.c_str(), -1, SQLITE_TRANSIENT);
                              sqlite3_bind_int64(s, 5, id);
                          });
}

Status ArchiveQueue::markFailed(std::int64_t id, const std::string& error, bool retryable, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    auto current = select(state_->database->db, fmt::format("WHERE id={}", id), state_->path);
    if (!current || current->empty()) return fail(ErrorCode::NotFound, fmt::format("no archive item {}", id));
    const int attempts = current->front().attempts + 1;
    const auto& r = state_->retry;
    const double delay = std::min(r.maxDelayS, r.initialDelayS * std::pow(2.0, attempts - 1)) *
                         (1.0 - r.jitter * std::uniform_real_distribution<double>(0, 1)(state_->random));
    return state_->change("UPDATE items SET state=?, attempts=?, next_attempt_at_ms=?, last_error=? WHERE id=?", [&](sqlite3_stmt* s) {
        sqlite3_bind_text(s, 1, retryable ? "queued" : "failed", -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 2, attempts);
        sqlite3_bind_int64(s, 3, nowMs + static_cast<std::int64_t>(delay * 1000));
        sqlite3_bind_text(s, 4, error.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(s, 5, id);
    });
}

Status ArchiveQueue::retry(std::int64_t id) {
    MutexLock lock(state_->mutex);
    auto current = select(state_->database->db, fmt::format("WHERE id={}", id), state_->path);
    if (!current || current->empty()) return fail(ErrorCode::NotFound, fmt::format("no archive item {}", id));
    if (current->front().state != ArchiveState::Failed) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("archive item {} is {}, not failed", id, toString(current->front().state)));
    }
    return state_->change("UPDATE items SET state='queued', attempts=0, next_attempt_at_ms=0 WHERE id=?", [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, id); });
}

Status ArchiveQueue::putBack(std::int64_t id) {
    MutexLock lock(state_->mutex);
    return state_->change("UPDATE items SET state='queued' WHERE id=? AND state='uploading'", [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, id); });
}

Result<std::vector<ArchiveItem>> ArchiveQueue::localCopiesDue(std::int64_t cutoffMs) const {
    MutexLock lock(state_->mutex);
    return select(state_->database->db, fmt::format("WHERE state='verified' AND local_deleted_at_ms=0 AND verified_at_ms<{}", cutoffMs), state_->path);
}

Status ArchiveQueue::keepLocalCopy(std::int64_t id, const std::string& why) {
    MutexLock lock(state_->mutex);
    return state_->change("UPDATE items SET local_deleted_at_ms=-1, last_error=? WHERE id=?", [&](sqlite3_stmt* s) {
        sqlite3_bind_text(s, 1, why.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(s, 2, id);
    });
}

Result<bool> ArchiveQueue::deleteLocalCopy(std::int64_t id, std::int64_t nowMs) {
    auto found = [&]() -> Result<std::vector<ArchiveItem>> {
        MutexLock lock(state_->mutex);
        return select(state_->database->db, fmt::format("WHERE id={} AND state='verified' AND local_deleted_at_ms=0", id), state_->path);
    }();
    if (!found) return fail(std::move(found.error()));
    if (found->empty()) return fail(ErrorCode::FailedPrecondition, fmt::format("archive item {} is not a verified item with its local copy", id));
    const auto& item = found->front();
    // Only the file that was verified: one changed since (its size or its CRC-32C) is left alone
    // and named. A file already gone is fine.
    std::error_code ec;
    const auto size = std::filesystem::file_size(item.file, ec);
    if (!ec) {
        auto crc = size == item.sizeBytes ? crc32cOfFile(item.file) : Result<std::string>(std::string());
        if (!crc) return fail(std::move(crc.error()));
        if (size != item.sizeBytes || *crc != item.crc32c) {  // kept for good, and said why
            const auto why = fmt::format("'{}' changed after it was archived ({} bytes, {} verified with CRC-32C {}): kept, not deleted",
                                         item.file, size, item.sizeBytes, item.crc32c);
            if (auto ok = keepLocalCopy(item.id, why); !ok) return fail(std::move(ok.error()));
            return false;
        }
        if (::unlink(item.file.c_str()) != 0 && errno != ENOENT) {
            return fail(ErrorCode::Unavailable, fmt::format("cannot delete '{}': {}", item.file, std::strerror(errno)));
        }
    }
    MutexLock lock(state_->mutex);
    auto ok = state_->change("UPDATE items SET local_deleted_at_ms=? WHERE id=?", [&](sqlite3_stmt* s) {
        sqlite3_bind_int64(s, 1, nowMs);
        sqlite3_bind_int64(s, 2, item.id);
    });
    if (!ok) return fail(std::move(ok.error()));
    return !ec;
}

std::optional<std::int64_t> ArchiveQueue::nextDueMs() const {
    MutexLock lock(state_->mutex);
    Statement s;
    sqlite3_prepare_v2(state_->database->db, "SELECT min(next_attempt_at_ms) FROM items WHERE state='queued'", -1, &s.stmt, nullptr);
    if (sqlite3_step(s.stmt) != SQLITE_ROW || sqlite3_column_type(s.stmt, 0) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(s.stmt, 0);
}

bool ArchiveQueue::settled() const {
    MutexLock lock(state_->mutex);
    Statement s;
    sqlite3_prepare_v2(state_->database->db, "SELECT count(*) FROM items WHERE state IN ('queued','uploading')", -1, &s.stmt, nullptr);
    return sqlite3_step(s.stmt) == SQLITE_ROW && sqlite3_column_int(s.stmt, 0) == 0;
}

const std::string& ArchiveQueue::directory() const noexcept { return state_->directory; }

}  // namespace sonolink::archive
