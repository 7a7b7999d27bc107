#include "queue_database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <ranges>
#include <utility>

#include <fmt/format.h>

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

constexpr int kApplicationId = 0x534C5131;  // "SLQ1": this file is a SonoLink queue
constexpr int kSchemaVersion = 1;

constexpr const char* kSchema = R"(
CREATE TABLE items (
  id TEXT PRIMARY KEY NOT NULL, node TEXT NOT NULL, file TEXT NOT NULL, sop_class_uid TEXT NOT NULL,
  sop_instance_uid TEXT NOT NULL, transfer_syntax_uid TEXT NOT NULL, study_instance_uid TEXT NOT NULL,
  patient_id TEXT NOT NULL, patient_name TEXT NOT NULL, source_file TEXT NOT NULL, state TEXT NOT NULL,
  attempts INTEGER NOT NULL, enqueued_at_ms INTEGER NOT NULL, next_attempt_at_ms INTEGER NOT NULL,
  sent_at_ms INTEGER NOT NULL, committed_at_ms INTEGER NOT NULL, last_status INTEGER NOT NULL,
  last_error TEXT NOT NULL, commitment_required INTEGER NOT NULL, transaction_uid TEXT NOT NULL,
  commitment_requested_at_ms INTEGER NOT NULL) STRICT)";
constexpr const char* kColumns =
    "id, node, file, sop_class_uid, sop_instance_uid, transfer_syntax_uid, study_instance_uid, patient_id, patient_name, "
    "source_file, state, attempts, enqueued_at_ms, next_attempt_at_ms, sent_at_ms, committed_at_ms, last_status, last_error, "
    "commitment_required, transaction_uid, commitment_requested_at_ms";
constexpr int kColumnCount = 21;

std::string insertSql(std::string_view verb) {
    std::string marks;
    for (int c = 0; c < kColumnCount; ++c) marks += c ? ",?" : "?";
    return fmt::format("{} INTO items ({}) VALUES ({})", verb, kColumns, marks);
}

struct DbCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StatementFinalizer {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;
using Statement = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

Error sqliteError(sqlite3* db, int rc, std::string_view what, const std::string& path) {
    const int code = rc & 0xFF;
    const auto message = db ? std::string(sqlite3_errmsg(db)) : std::string(sqlite3_errstr(rc));
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
        return Error(ErrorCode::DataLoss, fmt::format("the DICOM queue's database {} is damaged: {}", path, message));
    }
    return Error(code == SQLITE_FULL ? ErrorCode::ResourceExhausted : ErrorCode::DataLoss,
                 fmt::format("cannot {} the DICOM queue's database {}: {}", what, path, message));
}

Result<Db> openDb(const std::string& path, int flags) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX, nullptr);
    Db db(raw);
    if (rc != SQLITE_OK) return fail(sqliteError(db.get(), rc, "open", path));
    sqlite3_extended_result_codes(db.get(), 1);
    sqlite3_busy_timeout(db.get(), 5000);  // a reader of another process may be starting a read
    return db;
}

Status exec(sqlite3* db, const std::string& sql, std::string_view what, const std::string& path) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    if (message) sqlite3_free(message);
    if (rc != SQLITE_OK) return fail(sqliteError(db, rc, what, path));
    return {};
}

Result<Statement> prepare(sqlite3* db, const std::string& sql, const std::string& path) {
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
    Statement s(raw);
    if (rc != SQLITE_OK) return fail(sqliteError(db, rc, "read", path));
    return s;
}

// The first column of the first row of a one-value query (a pragma).
Result<std::string> scalar(sqlite3* db, const std::string& sql, const std::string& path) {
    auto s = prepare(db, sql, path);
    if (!s) return fail(std::move(s.error()));
    const int rc = sqlite3_step(s->get());
    if (rc == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s->get(), 0));
        return std::string(text ? text : "");
    }
    if (rc == SQLITE_DONE) return std::string();
    return fail(sqliteError(db, rc, "read", path));
}

std::optional<ItemState> stateFrom(std::string_view text) {
    for (auto s : {ItemState::Queued, ItemState::Sending, ItemState::Sent, ItemState::Committed, ItemState::Failed}) {
        if (toString(s) == text) return s;
    }
    return std::nullopt;
}

// One row into an item; every column of the type the schema says, every value in range.
Result<QueueItem> fromRow(sqlite3_stmt* s, const std::string& where) {
    for (int c = 0; c < kColumnCount; ++c) {
        const bool integer = (c >= 11 && c <= 16) || c == 18 || c == 20;
        const int type = sqlite3_column_type(s, c);
        if (type != (integer ? SQLITE_INTEGER : SQLITE_TEXT)) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: column {} is not {}", where, sqlite3_column_name(s, c), integer ? "an integer" : "text"));
        }
    }
    auto text = [&](int c) {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
        return std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, c)));
    };
    auto integer = [&](int c) { return static_cast<std::int64_t>(sqlite3_column_int64(s, c)); };
    QueueItem i;
    i.id = text(0);
    if (i.id.empty() || i.id.size() > 18 || i.id.find_first_not_of("0123456789") != std::string::npos) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: not an item id: '{}'", where, i.id));
    }
    i.node = text(1);
    i.object = {text(2), text(3), text(4), text(5), text(6), text(7), text(8)};
    i.sourceFile = text(9);
    const auto state = stateFrom(text(10));
    if (!state) return fail(ErrorCode::DataLoss, fmt::format("{}: item {}: unknown state '{}'", where, i.id, text(10)));
    i.state = *state;
    const auto attempts = integer(11);
    const auto status = integer(16);
    if (attempts < 0 || attempts > std::numeric_limits<int>::max() || status < 0 || status > 0xFFFF) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: item {}: attempts {} or status {} out of range", where, i.id, attempts, status));
    }
    i.attempts = static_cast<int>(attempts);
    i.enqueuedAtMs = integer(12);
    i.nextAttemptAtMs = integer(13);
    i.sentAtMs = integer(14);
    i.committedAtMs = integer(15);
    i.lastStatus = static_cast<std::uint16_t>(status);
    i.lastError = text(17);
    i.commitmentRequired = integer(18) != 0;
    i.transactionUid = text(19);
    i.commitmentRequestedAtMs = integer(20);
    return i;
}

// Binds item to the insert; "sending" is never stored: after a restart it means "queued".
void bindRow(sqlite3_stmt* s, const QueueItem& i) {
    const auto state = i.state == ItemState::Sending ? ItemState::Queued : i.state;
    int c = 0;
    auto text = [&](std::string_view v) { sqlite3_bind_text(s, ++c, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); };
    auto integer = [&](std::int64_t v) { sqlite3_bind_int64(s, ++c, v); };
    text(i.id), text(i.node), text(i.object.file), text(i.object.sopClassUid), text(i.object.sopInstanceUid);
    text(i.object.transferSyntaxUid), text(i.object.studyInstanceUid), text(i.object.patientId), text(i.object.patientName);
    text(i.sourceFile), text(toString(state)), integer(i.attempts), integer(i.enqueuedAtMs), integer(i.nextAttemptAtMs);
    integer(i.sentAtMs), integer(i.committedAtMs), integer(i.lastStatus), text(i.lastError), integer(i.commitmentRequired ? 1 : 0);
    text(i.transactionUid), integer(i.commitmentRequestedAtMs);
}

// That db is a SonoLink queue of a schema this build reads.
Status checkIdentity(sqlite3* db, const std::string& path) {
    auto id = scalar(db, "PRAGMA application_id", path);
    if (!id) return fail(std::move(id.error()));
    if (*id != std::to_string(kApplicationId)) {
        return fail(ErrorCode::DataLoss, fmt::format("{} is not a SonoLink queue database (application id {}, not {})", path, *id, kApplicationId));
    }
    auto version = scalar(db, "PRAGMA user_version", path);
    if (!version) return fail(std::move(version.error()));
    if (*version != std::to_string(kSchemaVersion)) {
        return fail(ErrorCode::DataLoss, fmt::format("{} holds a queue of schema {}; this SonoLink reads schema {}", path, *version, kSchemaVersion));
    }
    return {};
}

// PRAGMA quick_check: every page, every record well-formed (not index contents).
Status checkIntegrity(sqlite3* db, const std::string& path) {
    auto verdict = scalar(db, "PRAGMA quick_check(1)", path);
    if (!verdict) return fail(std::move(verdict.error()));
    if (*verdict != "ok") return fail(ErrorCode::DataLoss, fmt::format("the DICOM queue's database {} is damaged: {}", path, *verdict));
    return {};
}

Error ioError(std::string_view what, const std::string& path) {
    const int e = errno;
    return Error(e == ENOSPC || e == EDQUOT ? ErrorCode::ResourceExhausted : ErrorCode::DataLoss,
                 fmt::format("cannot {} {}: {}", what, path, std::strerror(e)));
}

// Removes the WAL and shared-memory files a database at path would adopt (stale ones would be
// replayed into a fresh database).
void removeCompanions(const std::string& path) {
    std::error_code ignored;
    fs::remove(path + "-wal", ignored);
    fs::remove(path + "-shm", ignored);
}

}  // namespace

struct QueueDatabase::Handle {
    Db db;
    Statement insert;
    Statement erase;
    Statement begin;
    Statement commit;
    Statement rollback;
    std::optional<Sync> synchronous;

    Status setSync(Sync sync, const std::string& path) {
        if (synchronous == sync) return {};
        if (auto ok = exec(db.get(), sync == Sync::Durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL", "configure", path); !ok) return ok;
        synchronous = sync;
        return {};
    }
    Status step(sqlite3_stmt* s, std::string_view what, const std::string& path) {
        const int rc = sqlite3_step(s);
        sqlite3_reset(s);
        if (rc != SQLITE_DONE) return fail(sqliteError(db.get(), rc, what, path));
        return {};
    }
    // Runs body inside BEGIN IMMEDIATE ... COMMIT; rolled back if anything fails.
    template <typename Body>
    Status transaction(Body body, std::string_view what, const std::string& path) {
        if (auto ok = step(begin.get(), what, path); !ok) return ok;
        auto ok = body();
        if (ok) ok = step(commit.get(), what, path);
        if (!ok && !sqlite3_get_autocommit(db.get())) (void)step(rollback.get(), "roll back", path);
        return ok;
    }
};

Result<QueueDatabase::Contents> QueueDatabase::read(const std::string& path, Reading reading) {
    Contents contents;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return contents;
        return fail(ioError("read", path));
    }
    contents.found = true;
    if (!S_ISREG(st.st_mode)) return fail(ErrorCode::DataLoss, fmt::format("the DICOM queue's database {} is not a regular file", path));
    auto db = openDb(path, SQLITE_OPEN_READONLY);
    if (!db) return fail(std::move(db.error()));
    if (auto ok = checkIdentity(db->get(), path); !ok) return fail(std::move(ok.error()));
    if (auto ok = checkIntegrity(db->get(), path); !ok && reading == Reading::Strict) return fail(std::move(ok.error()));
    auto select = prepare(db->get(), fmt::format("SELECT {} FROM items", kColumns), path);
    if (!select) return fail(std::move(select.error()));
    for (std::size_t row = 1;; ++row) {
        const int rc = sqlite3_step(select->get());
        if (rc == SQLITE_DONE) break;
        if (rc != SQLITE_ROW) return fail(sqliteError(db->get(), rc, "read", path));
        auto item = fromRow(select->get(), fmt::format("{}: record {}", path, row));
        if (!item && reading == Reading::Lenient) {
            ++contents.badRows;
            continue;
        }
        if (!item) return fail(std::move(item.error()));
        contents.items[item->id] = std::move(*item);
    }
    return contents;
}

Result<QueueDatabase> QueueDatabase::create(const std::string& path, const Items& items) {
    const std::string temp = path + ".tmp";
    std::error_code ignored;
    fs::remove(temp, ignored);
    removeCompanions(temp);
    {
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);  // it names patients
        if (fd < 0) return fail(ioError("create", temp));
        ::close(fd);
    }
    {
        auto db = openDb(temp, SQLITE_OPEN_READWRITE);
        if (!db) return fail(std::move(db.error()));
        const auto setup = fmt::format("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA application_id={}; PRAGMA user_version={}; {};",
                                       kApplicationId, kSchemaVersion, kSchema);
        if (auto ok = exec(db->get(), setup, "create", temp); !ok) return fail(std::move(ok.error()));
        auto insert = prepare(db->get(), insertSql("INSERT"), temp);
        if (!insert) return fail(std::move(insert.error()));
        if (auto ok = exec(db->get(), "BEGIN", "write", temp); !ok) return fail(std::move(ok.error()));
        for (const auto& item : items | std::views::values) {
            bindRow(insert->get(), item);
            const int rc = sqlite3_step(insert->get());
            sqlite3_reset(insert->get());
            if (rc != SQLITE_DONE) return fail(sqliteError(db->get(), rc, "write", temp));
        }
        if (auto ok = exec(db->get(), "COMMIT; PRAGMA wal_checkpoint(TRUNCATE)", "write", temp); !ok) return fail(std::move(ok.error()));
    }  // closed: the last connection folds the WAL into the file and deletes it
    removeCompanions(temp);
    removeCompanions(path);
    if (::rename(temp.c_str(), path.c_str()) != 0) return fail(ioError("rename into", path));
    if (auto ok = syncDirectoryOf(path); !ok) return fail(std::move(ok.error()));
    return open(path);
}

Result<QueueDatabase> QueueDatabase::open(const std::string& path) {
    auto db = openDb(path, SQLITE_OPEN_READWRITE);
    if (!db) return fail(std::move(db.error()));
    auto handle = std::make_unique<Handle>();
    handle->db = std::move(*db);
    if (auto ok = checkIdentity(handle->db.get(), path); !ok) return fail(std::move(ok.error()));
    auto* raw = handle->db.get();
    auto insert = prepare(raw, insertSql("INSERT OR REPLACE"), path);
    auto erase = prepare(raw, "DELETE FROM items WHERE id = ?", path);
    auto begin = prepare(raw, "BEGIN IMMEDIATE", path);
    auto commit = prepare(raw, "COMMIT", path);
    auto rollback = prepare(raw, "ROLLBACK", path);
    for (auto* s : {&insert, &erase, &begin, &commit, &rollback}) {
        if (!*s) return fail(std::move(s->error()));
    }
    handle->insert = std::move(*insert);
    handle->erase = std::move(*erase);
    handle->begin = std::move(*begin);
    handle->commit = std::move(*commit);
    handle->rollback = std::move(*rollback);
    ::chmod(path.c_str(), 0600);  // a copy someone made readable is made private again
    return QueueDatabase(path, std::move(handle));
}

QueueDatabase::QueueDatabase(std::string path, std::unique_ptr<Handle> handle) : path_(std::move(path)), handle_(std::move(handle)) {}
QueueDatabase::QueueDatabase(QueueDatabase&& other) noexcept = default;
QueueDatabase& QueueDatabase::operator=(QueueDatabase&& other) noexcept = default;
QueueDatabase::~QueueDatabase() = default;

Status QueueDatabase::put(std::span<const QueueItem> items, Sync sync) {
    auto& h = *handle_;
    if (auto ok = h.setSync(sync, path_); !ok) return ok;
    return h.transaction([&]() -> Status {
        for (const auto& item : items) {
            bindRow(h.insert.get(), item);
            if (auto ok = h.step(h.insert.get(), "write", path_); !ok) return ok;
        }
        return {};
    }, "write", path_);
}

Status QueueDatabase::remove(const std::vector<std::string>& ids) {
    auto& h = *handle_;
    if (auto ok = h.setSync(Sync::Durable, path_); !ok) return ok;
    return h.transaction([&]() -> Status {
        for (const auto& id : ids) {
            sqlite3_bind_text(h.erase.get(), 1, id.data(), static_cast<int>(id.size()), SQLITE_TRANSIENT);
            if (auto ok = h.step(h.erase.get(), "write", path_); !ok) return ok;
        }
        return {};
    }, "write", path_);
}

}  // namespace sonolink::dicom
