#include "sonolink/archive/archive_queue.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "encoding.h"
#include "sonolink/persist/folder_lock.h"
#include "sonolink/persist/sqlite_database.h"
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

using persist::SqliteDatabase;
using persist::SqliteStatement;

ArchiveState stateNamed(std::string_view name) {
    if (name == "uploading") return ArchiveState::Uploading;
    if (name == "verified") return ArchiveState::Verified;
    if (name == "failed") return ArchiveState::Failed;
    return ArchiveState::Queued;
}

ArchiveItem rowItem(const SqliteStatement& s) {
    ArchiveItem i;
    i.id = s.integer(0);
    i.file = s.text(1);
    i.object = {s.text(2), s.text(3)};
    i.kind = s.text(4);
    i.state = stateNamed(s.text(5));
    i.attempts = static_cast<int>(s.integer(6));
    i.sizeBytes = static_cast<std::uint64_t>(s.integer(7));
    i.crc32c = s.text(8);
    i.enqueuedAtMs = s.integer(9);
    i.nextAttemptAtMs = s.integer(10);
    i.verifiedAtMs = s.integer(11);
    i.localDeletedAtMs = s.integer(12);
    i.lastError = s.text(13);
    i.etag = s.text(14);
    return i;
}

// Opens the database and checks it is ours and whole; creates it when create is set.
Result<SqliteDatabase> openDatabase(const std::string& path, bool create) {
    auto d = SqliteDatabase::open(path, create ? SqliteDatabase::Mode::Create : SqliteDatabase::Mode::ReadOnly, fmt::format("archive queue '{}'", path));
    if (!d) return fail(std::move(d.error()));
    auto& db = *d;
    const auto id = db.scalarInteger("PRAGMA application_id");
    if (!id) return fail(std::move(id.error()));
    const auto tables = db.scalarInteger("SELECT count(*) FROM sqlite_master");
    if (!tables) return fail(std::move(tables.error()));
    if (*id == 0 && *tables == 0 && create) {
        const auto setup = fmt::format(
            "PRAGMA journal_mode=WAL; PRAGMA application_id={}; CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, "
            "file TEXT NOT NULL, bucket TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL, "
            "attempts INTEGER NOT NULL DEFAULT 0, size_bytes INTEGER NOT NULL DEFAULT 0, crc32c TEXT NOT NULL DEFAULT '', "
            "enqueued_at_ms INTEGER NOT NULL, next_attempt_at_ms INTEGER NOT NULL, verified_at_ms INTEGER NOT NULL DEFAULT 0, "
            "local_deleted_at_ms INTEGER NOT NULL DEFAULT 0, last_error TEXT NOT NULL DEFAULT '', etag TEXT NOT NULL DEFAULT '')",
            kApplicationId);
        if (auto ok = db.exec(setup, "create"); !ok) return fail(std::move(ok.error()));
    } else if (*id != kApplicationId) {
        return fail(ErrorCode::DataLoss, fmt::format("'{}' is not a SonoLink archive queue (application id {:#x}): it is left as it is", path, *id));
    }
    const auto verdict = db.scalarText("PRAGMA quick_check(1)");
    if (!verdict || *verdict != "ok") {
        return fail(ErrorCode::DataLoss,
                    fmt::format("archive queue '{}' is damaged ({}): it is left as it is", path, verdict ? *verdict : verdict.error().message()));
    }
    if (create) {
        if (auto ok = db.exec("PRAGMA synchronous=FULL", "configure"); !ok) return fail(std::move(ok.error()));
        // Queues made before the stored object's ETag was kept: the column added, empty.
        const auto hasEtag = db.scalarInteger("SELECT count(*) FROM pragma_table_info('items') WHERE name='etag'");
        if (!hasEtag) return fail(std::move(hasEtag.error()));
        if (*hasEtag == 0) {
            if (auto ok = db.exec("ALTER TABLE items ADD COLUMN etag TEXT NOT NULL DEFAULT ''", "upgrade"); !ok) return fail(std::move(ok.error()));
        }
    }
    return d;
}

Result<std::vector<ArchiveItem>> select(SqliteDatabase& db, const std::string& where, std::string_view columns = kColumns) {
    auto s = db.prepare(fmt::format("SELECT {} FROM items {} ORDER BY id", columns, where), "read");
    if (!s) return fail(std::move(s.error()));
    std::vector<ArchiveItem> items;
    for (;;) {
        auto row = s->next();
        if (!row) return fail(std::move(row.error()));
        if (!*row) return items;
        items.push_back(rowItem(*s));
    }
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
                                                     "empty queue deliberately with `sonolink-cli archive queue reset`",
                                                     directory, path, missing ? "missing" : "empty (0 bytes)", kMarker));
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
    std::optional<persist::FolderLock> folderLock;  // first: let go after the database closes
    std::string directory;
    std::string path;
    ArchiveRetry retry;
    mutable Mutex mutex;
    std::optional<SqliteDatabase> database GUARDED_BY(mutex);
    std::mt19937_64 random GUARDED_BY(mutex){std::random_device{}()};

    // One statement with bound values, in its own durable transaction.
    template <typename Bind> Status change(const std::string& sql, Bind bind) REQUIRES(mutex) {
        auto s = database->prepare(sql, "write");
        if (!s) return fail(std::move(s.error()));
        bind(*s);
        return s->run();
    }
};

Result<std::vector<ArchiveItem>> readArchiveQueue(const std::string& directory) {
    const std::string path = directory + "/" + kDatabase;
    if (auto ok = checkNotLost(directory, path); !ok) return fail(std::move(ok.error()));
    if (!std::filesystem::exists(path)) return std::vector<ArchiveItem>{};
    auto db = openDatabase(path, false);
    if (!db) return fail(std::move(db.error()));
    // Read beside its owner, perhaps before the owner added the ETag column: read it as empty.
    const auto hasEtag = db->scalarInteger("SELECT count(*) FROM pragma_table_info('items') WHERE name='etag'");
    if (!hasEtag) return fail(std::move(hasEtag.error()));
    const std::string oldColumns = std::string(kColumns).substr(0, std::string_view(kColumns).rfind(", etag")) + ", '' AS etag";
    return select(*db, "", *hasEtag > 0 ? std::string_view(kColumns) : std::string_view(oldColumns));
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
    auto lock = persist::FolderLock::acquire(directory, "the archive queue");
    if (!lock) return fail(std::move(lock.error()));
    state->folderLock = std::move(*lock);
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
        if (auto ok = state->database->exec("UPDATE items SET state='queued' WHERE state='uploading'", "write"); !ok) return fail(std::move(ok.error()));
    }
    return std::unique_ptr<ArchiveQueue>(new ArchiveQueue(std::move(state)));
}

Result<std::string> ArchiveQueue::reset(const std::string& directory, std::int64_t nowMs) {
    const auto lock = persist::FolderLock::acquire(directory, "the archive queue");
    if (!lock) return fail(std::move(lock.error()));
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
    auto find =
        db.prepare(fmt::format("SELECT {} FROM items WHERE file=? AND bucket=? AND key=? AND state IN ('queued','uploading','failed')", kColumns), "read");
    if (!find) return fail(std::move(find.error()));
    find->bind(1, absolute).bind(2, object.bucket).bind(3, object.key);
    auto found = find->next();
    if (!found) return fail(std::move(found.error()));
    if (*found) return rowItem(*find);
    auto ok =
        state_->change("INSERT INTO items(file, bucket, key, kind, state, enqueued_at_ms, next_attempt_at_ms) VALUES(?,?,?,?,'queued',?,?)",
                       [&](SqliteStatement& s) { s.bind(1, absolute).bind(2, object.bucket).bind(3, object.key).bind(4, kind).bind(5, nowMs).bind(6, nowMs); });
    if (!ok) return fail(std::move(ok.error()));
    auto added = select(db, fmt::format("WHERE id={}", db.lastInsertId()));
    if (!added || added->empty()) return fail(ErrorCode::DataLoss, fmt::format("archive queue '{}': the item just added cannot be read", state_->path));
    return added->front();
}

std::vector<ArchiveItem> ArchiveQueue::items() const {
    MutexLock lock(state_->mutex);
    auto all = select(*state_->database, "");
    return all ? std::move(*all) : std::vector<ArchiveItem>{};
}

Result<std::vector<ArchiveItem>> ArchiveQueue::takeDue(std::int64_t nowMs, std::size_t limit) {
    MutexLock lock(state_->mutex);
    auto due = select(*state_->database, fmt::format("WHERE state='queued' AND next_attempt_at_ms<={}", nowMs));
    if (!due) return fail(std::move(due.error()));
    if (due->size() > limit) due->resize(limit);
    for (auto& item : *due) {
        auto ok = state_->change("UPDATE items SET state='uploading' WHERE id=?", [&](SqliteStatement& s) { s.bind(1, item.id); });
        if (!ok) return fail(std::move(ok.error()));
        item.state = ArchiveState::Uploading;
    }
    return due;
}

Status ArchiveQueue::markVerified(std::int64_t id, std::uint64_t sizeBytes, const std::string& crc32c, const std::string& etag, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    return state_->change(
        "UPDATE items SET state='verified', attempts=attempts+1, size_bytes=?, crc32c=?, verified_at_ms=?, last_error='', etag=? "
        "WHERE id=?",
        [&](SqliteStatement& s) { s.bind(1, static_cast<std::int64_t>(sizeBytes)).bind(2, crc32c).bind(3, nowMs).bind(4, etag).bind(5, id); });
}

Status ArchiveQueue::markFailed(std::int64_t id, const std::string& error, bool retryable, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    auto current = select(*state_->database, fmt::format("WHERE id={}", id));
    if (!current || current->empty()) return fail(ErrorCode::NotFound, fmt::format("no archive item {}", id));
    const int attempts = current->front().attempts + 1;
    const auto& r = state_->retry;
    const double delay =
        std::min(r.maxDelayS, r.initialDelayS * std::pow(2.0, attempts - 1)) * (1.0 - r.jitter * std::uniform_real_distribution<double>(0, 1)(state_->random));
    return state_->change("UPDATE items SET state=?, attempts=?, next_attempt_at_ms=?, last_error=? WHERE id=?", [&](SqliteStatement& s) {
        s.bind(1, retryable ? "queued" : "failed").bind(2, std::int64_t{attempts}).bind(3, nowMs + static_cast<std::int64_t>(delay * 1000));
        s.bind(4, error).bind(5, id);
    });
}

Status ArchiveQueue::retry(std::int64_t id) {
    MutexLock lock(state_->mutex);
    auto current = select(*state_->database, fmt::format("WHERE id={}", id));
    if (!current || current->empty()) return fail(ErrorCode::NotFound, fmt::format("no archive item {}", id));
    if (current->front().state != ArchiveState::Failed) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("archive item {} is {}, not failed", id, toString(current->front().state)));
    }
    return state_->change("UPDATE items SET state='queued', attempts=0, next_attempt_at_ms=0 WHERE id=?", [&](SqliteStatement& s) { s.bind(1, id); });
}

Status ArchiveQueue::putBack(std::int64_t id) {
    MutexLock lock(state_->mutex);
    return state_->change("UPDATE items SET state='queued' WHERE id=? AND state='uploading'", [&](SqliteStatement& s) { s.bind(1, id); });
}

Result<std::vector<ArchiveItem>> ArchiveQueue::localCopiesDue(std::int64_t cutoffMs) const {
    MutexLock lock(state_->mutex);
    return select(*state_->database, fmt::format("WHERE state='verified' AND local_deleted_at_ms=0 AND verified_at_ms<{}", cutoffMs));
}

Status ArchiveQueue::keepLocalCopy(std::int64_t id, const std::string& why) {
    MutexLock lock(state_->mutex);
    return state_->change("UPDATE items SET local_deleted_at_ms=-1, last_error=? WHERE id=?", [&](SqliteStatement& s) { s.bind(1, why).bind(2, id); });
}

Result<bool> ArchiveQueue::deleteLocalCopy(std::int64_t id, std::int64_t nowMs) {
    auto found = [&]() -> Result<std::vector<ArchiveItem>> {
        MutexLock lock(state_->mutex);
        return select(*state_->database, fmt::format("WHERE id={} AND state='verified' AND local_deleted_at_ms=0", id));
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
            const auto why = fmt::format("'{}' changed after it was archived ({} bytes, {} verified with CRC-32C {}): kept, not deleted", item.file, size,
                                         item.sizeBytes, item.crc32c);
            if (auto ok = keepLocalCopy(item.id, why); !ok) return fail(std::move(ok.error()));
            return false;
        }
        if (::unlink(item.file.c_str()) != 0 && errno != ENOENT) {
            return fail(ErrorCode::Unavailable, fmt::format("cannot delete '{}': {}", item.file, std::strerror(errno)));
        }
    }
    MutexLock lock(state_->mutex);
    auto ok = state_->change("UPDATE items SET local_deleted_at_ms=? WHERE id=?", [&](SqliteStatement& s) { s.bind(1, nowMs).bind(2, item.id); });
    if (!ok) return fail(std::move(ok.error()));
    return !ec;
}

std::optional<std::int64_t> ArchiveQueue::nextDueMs() const {
    MutexLock lock(state_->mutex);
    auto s = state_->database->prepare("SELECT min(next_attempt_at_ms) FROM items WHERE state='queued'", "read");
    if (!s) return std::nullopt;  // unreadable: nothing is due; the next pass that writes says why
    auto row = s->next();
    if (!row || !*row || s->isNull(0)) return std::nullopt;
    return s->integer(0);
}

bool ArchiveQueue::settled() const {
    MutexLock lock(state_->mutex);
    const auto unsettled = state_->database->scalarInteger("SELECT count(*) FROM items WHERE state IN ('queued','uploading')");
    return unsettled && *unsettled == 0;  // unreadable: not settled
}

const std::string& ArchiveQueue::directory() const noexcept { return state_->directory; }

}  // namespace sonolink::archive
