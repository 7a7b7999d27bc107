#include "sonolink/persist/sqlite_database.h"

#include <sqlite3.h>

#include <utility>

#include <fmt/format.h>

namespace sonolink::persist {

struct SqliteStatement::Connection {
    sqlite3* db = nullptr;
    std::string path;
    std::string subject;
    ~Connection() { sqlite3_close_v2(db); }  // after the last statement: they hold it

    [[nodiscard]] Error error(int rc, std::string_view what) const { return sqliteError(rc, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc), what, subject); }
};

Error sqliteError(int rc, std::string_view message, std::string_view what, std::string_view subject) {
    switch (rc & 0xFF) {
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB: return Error(ErrorCode::DataLoss, fmt::format("{} is damaged: {}", subject, message));
        case SQLITE_FULL: return Error(ErrorCode::ResourceExhausted, fmt::format("cannot {} {}: the disk is full ({})", what, subject, message));
        case SQLITE_BUSY:
        case SQLITE_LOCKED: return Error(ErrorCode::Unavailable, fmt::format("cannot {} {}: another connection holds it ({})", what, subject, message));
        default: return Error(ErrorCode::DataLoss, fmt::format("cannot {} {}: {}", what, subject, message));
    }
}

SqliteStatement::SqliteStatement(std::shared_ptr<Connection> connection, sqlite3_stmt* statement, std::string what)
    : connection_(std::move(connection)), statement_(statement), what_(std::move(what)) {}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : connection_(std::move(other.connection_)), statement_(std::exchange(other.statement_, nullptr)), what_(std::move(other.what_)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(statement_);
        statement_ = std::exchange(other.statement_, nullptr);
        connection_ = std::move(other.connection_);
        what_ = std::move(other.what_);
    }
    return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
}

Result<bool> SqliteStatement::next() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return fail(connection_->error(rc, what_));
}

Status SqliteStatement::run() {
    const int rc = sqlite3_step(statement_);
    sqlite3_reset(statement_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return fail(connection_->error(rc, what_));
    return {};
}

void SqliteStatement::reset() { sqlite3_reset(statement_); }

std::int64_t SqliteStatement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

std::string SqliteStatement::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
}

bool SqliteStatement::isInteger(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_INTEGER; }
bool SqliteStatement::isText(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_TEXT; }
bool SqliteStatement::isNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

std::string SqliteStatement::columnName(int column) const {
    const char* name = sqlite3_column_name(statement_, column);
    return name ? name : "?";
}

struct SqliteDatabase::Transactions {
    SqliteStatement begin, commit, rollback;
};

Result<SqliteDatabase> SqliteDatabase::open(const std::string& path, Mode mode, std::string subject, int busyTimeoutMs) {
    auto connection = std::make_shared<Connection>();
    connection->path = path;
    connection->subject = std::move(subject);
    const int flags = mode == Mode::ReadOnly    ? SQLITE_OPEN_READONLY
                      : mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE
                                                : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path.c_str(), &connection->db, flags | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX, nullptr);
    if (rc != SQLITE_OK) return fail(connection->error(rc, "open"));
    sqlite3_extended_result_codes(connection->db, 1);
    sqlite3_busy_timeout(connection->db, busyTimeoutMs);
    return SqliteDatabase(std::move(connection));
}

SqliteDatabase::SqliteDatabase(std::shared_ptr<Connection> connection) : connection_(std::move(connection)) {}
SqliteDatabase::SqliteDatabase(SqliteDatabase&&) noexcept = default;
SqliteDatabase& SqliteDatabase::operator=(SqliteDatabase&&) noexcept = default;
SqliteDatabase::~SqliteDatabase() = default;

Status SqliteDatabase::exec(const std::string& sql, std::string_view what) {
    char* message = nullptr;
    const int rc = sqlite3_exec(connection_->db, sql.c_str(), nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return {};
    auto error = sqliteError(rc, message ? message : sqlite3_errmsg(connection_->db), what, connection_->subject);
    sqlite3_free(message);
    return fail(std::move(error));
}

Result<SqliteStatement> SqliteDatabase::prepare(const std::string& sql, std::string_view what) {
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v3(connection_->db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
    SqliteStatement statement(connection_, raw, std::string(what));
    if (rc != SQLITE_OK) return fail(connection_->error(rc, what));
    return statement;
}

Result<std::string> SqliteDatabase::scalarText(const std::string& sql) {
    auto s = prepare(sql, "read");
    if (!s) return fail(std::move(s.error()));
    auto row = s->next();
    if (!row) return fail(std::move(row.error()));
    return *row ? s->text(0) : std::string();
}

Result<std::int64_t> SqliteDatabase::scalarInteger(const std::string& sql) {
    auto s = prepare(sql, "read");
    if (!s) return fail(std::move(s.error()));
    auto row = s->next();
    if (!row) return fail(std::move(row.error()));
    return *row ? s->integer(0) : 0;
}

Status SqliteDatabase::transaction(const std::function<Status()>& body, std::string_view what) {
    if (!transactions_) {
        auto begin = prepare("BEGIN IMMEDIATE", what);
        auto commit = prepare("COMMIT", what);
        auto rollback = prepare("ROLLBACK", "roll back");
        for (auto* s : {&begin, &commit, &rollback}) {
            if (!*s) return fail(std::move(s->error()));
        }
        transactions_ = std::make_unique<Transactions>(Transactions{std::move(*begin), std::move(*commit), std::move(*rollback)});
    }
    if (auto ok = transactions_->begin.run(); !ok) return ok;
    auto ok = body();
    if (ok) ok = transactions_->commit.run();
    if (!ok && !sqlite3_get_autocommit(connection_->db)) (void)transactions_->rollback.run();
    return ok;
}

std::int64_t SqliteDatabase::lastInsertId() const { return sqlite3_last_insert_rowid(connection_->db); }
const std::string& SqliteDatabase::path() const noexcept { return connection_->path; }
const std::string& SqliteDatabase::subject() const noexcept { return connection_->subject; }

}  // namespace sonolink::persist
