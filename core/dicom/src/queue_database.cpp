#include "queue_database.h"

#include <fcntl.h>
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

#include "sonolink/persist/sqlite_database.h"

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

using persist::SqliteDatabase;
using persist::SqliteStatement;

std::string subjectOf(const std::string& path) { return fmt::format("the DICOM queue's database {}", path); }

std::optional<ItemState> stateFrom(std::string_view text) {
    for (auto s : {ItemState::Queued, ItemState::Sending, ItemState::Sent, ItemState::Committed, ItemState::Failed}) {
        if (toString(s) == text) return s;
    }
    return std::nullopt;
}

// One row into an item; every column of the type the schema says, every value in range.
Result<QueueItem> fromRow(const SqliteStatement& s, const std::string& where) {
    for (int c = 0; c < kColumnCount; ++c) {
        const bool integer = (c >= 11 && c <= 16) || c == 18 || c == 20;
        if (integer ? !s.isInteger(c) : !s.isText(c)) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: column {} is not {}", where, s.columnName(c), integer ? "an integer" : "text"));
        }
    }
    auto text = [&](int c) { return s.text(c); };
    auto integer = [&](int c) { return s.integer(c); };
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
void bindRow(SqliteStatement& s, const QueueItem& i) {
    const auto state = i.state == ItemState::Sending ? ItemState::Queued : i.state;
    int c = 0;
    auto text = [&](std::string_view v) { s.bind(++c, v); };
    auto integer = [&](std::int64_t v) { s.bind(++c, v); };
    text(i.id), text(i.node), text(i.object.file), text(i.object.sopClassUid), text(i.object.sopInstanceUid);
    text(i.object.transferSyntaxUid), text(i.object.studyInstanceUid), text(i.object.patientId), text(i.object.patientName);
    text(i.sourceFile), text(toString(state)), integer(i.attempts), integer(i.enqueuedAtMs), integer(i.nextAttemptAtMs);
    integer(i.sentAtMs), integer(i.committedAtMs), integer(i.lastStatus), text(i.lastError), integer(i.commitmentRequired ? 1 : 0);
    text(i.transactionUid), integer(i.commitmentRequestedAtMs);
}

// That db is a SonoLink queue of a schema this build reads.
Status checkIdentity(SqliteDatabase& db) {
    const auto& path = db.path();
    auto id = db.scalarText("PRAGMA application_id");
    if (!id) return fail(std::move(id.error()));
    if (*id != std::to_string(kApplicationId)) {
        return fail(ErrorCode::DataLoss, fmt::format("{} is not a SonoLink queue database (application id {}, not {})", path, *id, kApplicationId));
    }
    auto version = db.scalarText("PRAGMA user_version");
    if (!version) return fail(std::move(version.error()));
    if (*version != std::to_string(kSchemaVersion)) {
        return fail(ErrorCode::DataLoss, fmt::format("{} holds a queue of schema {}; this SonoLink reads schema {}", path, *version, kSchemaVersion));
    }
    return {};
}

// PRAGMA quick_check: every page, every record well-formed (not index contents).
Status checkIntegrity(SqliteDatabase& db) {
    auto verdict = db.scalarText("PRAGMA quick_check(1)");
    if (!verdict) return fail(std::move(verdict.error()));
    if (*verdict != "ok") return fail(ErrorCode::DataLoss, fmt::format("{} is damaged: {}", db.subject(), *verdict));
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
    SqliteDatabase db;
    SqliteStatement insert;
    SqliteStatement erase;
    std::optional<Sync> synchronous;

    Status setSync(Sync sync) {
        if (synchronous == sync) return {};
        if (auto ok = db.exec(sync == Sync::Durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL", "configure"); !ok) return ok;
        synchronous = sync;
        return {};
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
    auto db = SqliteDatabase::open(path, SqliteDatabase::Mode::ReadOnly, subjectOf(path));
    if (!db) return fail(std::move(db.error()));
    if (auto ok = checkIdentity(*db); !ok) return fail(std::move(ok.error()));
    if (auto ok = checkIntegrity(*db); !ok && reading == Reading::Strict) return fail(std::move(ok.error()));
    auto select = db->prepare(fmt::format("SELECT {} FROM items", kColumns), "read");
    if (!select) return fail(std::move(select.error()));
    for (std::size_t row = 1;; ++row) {
        auto more = select->next();
        if (!more) return fail(std::move(more.error()));
        if (!*more) break;
        auto item = fromRow(*select, fmt::format("{}: record {}", path, row));
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
        auto db = SqliteDatabase::open(temp, SqliteDatabase::Mode::ReadWrite, subjectOf(temp));
        if (!db) return fail(std::move(db.error()));
        const auto setup = fmt::format("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA application_id={}; PRAGMA user_version={}; {};",
                                       kApplicationId, kSchemaVersion, kSchema);
        if (auto ok = db->exec(setup, "create"); !ok) return fail(std::move(ok.error()));
        auto insert = db->prepare(insertSql("INSERT"), "write");
        if (!insert) return fail(std::move(insert.error()));
        if (auto ok = db->exec("BEGIN", "write"); !ok) return fail(std::move(ok.error()));
        for (const auto& item : items | std::views::values) {
            bindRow(*insert, item);
            if (auto ok = insert->run(); !ok) return fail(std::move(ok.error()));
        }
        if (auto ok = db->exec("COMMIT; PRAGMA wal_checkpoint(TRUNCATE)", "write"); !ok) return fail(std::move(ok.error()));
    }  // closed: the last connection folds the WAL into the file and deletes it
    removeCompanions(temp);
    removeCompanions(path);
    if (::rename(temp.c_str(), path.c_str()) != 0) return fail(ioError("rename into", path));
    if (auto ok = syncDirectoryOf(path); !ok) return fail(std::move(ok.error()));
    return open(path);
}

Result<QueueDatabase> QueueDatabase::open(const std::string& path) {
    auto db = SqliteDatabase::open(path, SqliteDatabase::Mode::ReadWrite, subjectOf(path));
    if (!db) return fail(std::move(db.error()));
    if (auto ok = checkIdentity(*db); !ok) return fail(std::move(ok.error()));
    auto insert = db->prepare(insertSql("INSERT OR REPLACE"), "write");
    if (!insert) return fail(std::move(insert.error()));
    auto erase = db->prepare("DELETE FROM items WHERE id = ?", "write");
    if (!erase) return fail(std::move(erase.error()));
    auto handle = std::make_unique<Handle>(Handle{std::move(*db), std::move(*insert), std::move(*erase), std::nullopt});
    ::chmod(path.c_str(), 0600);  // a copy someone made readable is made private again
    return QueueDatabase(path, std::move(handle));
}

QueueDatabase::QueueDatabase(std::string path, std::unique_ptr<Handle> handle) : path_(std::move(path)), handle_(std::move(handle)) {}
QueueDatabase::QueueDatabase(QueueDatabase&& other) noexcept = default;
QueueDatabase& QueueDatabase::operator=(QueueDatabase&& other) noexcept = default;
QueueDatabase::~QueueDatabase() = default;

Status QueueDatabase::put(std::span<const QueueItem> items, Sync sync) {
    auto& h = *handle_;
    if (auto ok = h.setSync(sync); !ok) return ok;
    return h.db.transaction(
        [&]() -> Status {
            for (const auto& item : items) {
                bindRow(h.insert, item);
                if (auto ok = h.insert.run(); !ok) return ok;
            }
            return {};
        },
        "write");
}

Status QueueDatabase::remove(const std::vector<std::string>& ids) {
    auto& h = *handle_;
    if (auto ok = h.setSync(Sync::Durable); !ok) return ok;
    return h.db.transaction(
        [&]() -> Status {
            for (const auto& id : ids) {
                h.erase.bind(1, id);
                if (auto ok = h.erase.run(); !ok) return ok;
            }
            return {};
        },
        "write");
}

}  // namespace sonolink::dicom
