// SqliteDatabase and SqliteStatement: one SQLite connection (extended result codes, a busy
// timeout of kBusyTimeoutMs, no symlinks followed) and its prepared statements, every result
// checked and every failure one Error through sqliteError(): a full disk is ResourceExhausted,
// busy or locked Unavailable, a damaged file DataLoss "is damaged", the rest DataLoss. Errors
// name the database by its subject ("the DICOM queue's database /x/queue.db").
// Thread contract: a connection and its statements are used by one thread at a time (the
// owner's lock); the connection is opened FULLMUTEX, so a slip is serialised, not corrupting.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "sonolink/util/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace sonolink::persist {

inline constexpr int kBusyTimeoutMs = 5000;  // a reader of another process may be starting a read

// SQLite's result code `rc` (with its message) while doing `what` to `subject`, as our Error.
[[nodiscard]] Error sqliteError(int rc, std::string_view message, std::string_view what, std::string_view subject);

class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(SqliteStatement&&) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) noexcept;
    ~SqliteStatement();

    // Parameters count from 1, as SQLite's do; values are copied.
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind(int index, std::int64_t value);
    // The next row: true, or false once done. A failure is the database's Error.
    [[nodiscard]] Result<bool> next();
    // Runs a statement that returns no row (a change) to its end, then resets it for reuse.
    [[nodiscard]] Status run();
    void reset();  // for the next run, its bindings kept

    // The current row's columns, counted from 0.
    [[nodiscard]] std::int64_t integer(int column) const;
    [[nodiscard]] std::string text(int column) const;
    [[nodiscard]] bool isInteger(int column) const;
    [[nodiscard]] bool isText(int column) const;
    [[nodiscard]] bool isNull(int column) const;
    [[nodiscard]] std::string columnName(int column) const;

private:
    friend class SqliteDatabase;
    struct Connection;
    SqliteStatement(std::shared_ptr<Connection> connection, sqlite3_stmt* statement, std::string what);
    std::shared_ptr<Connection> connection_;
    sqlite3_stmt* statement_ = nullptr;
    std::string what_;  // "read", "write": what a failure was doing
};

class SqliteDatabase {
public:
    enum class Mode { ReadOnly, ReadWrite, Create };
    [[nodiscard]] static Result<SqliteDatabase> open(const std::string& path, Mode mode, std::string subject, int busyTimeoutMs = kBusyTimeoutMs);

    SqliteDatabase(SqliteDatabase&&) noexcept;
    SqliteDatabase& operator=(SqliteDatabase&&) noexcept;
    ~SqliteDatabase();

    // One or more statements with no result rows (set-up, pragmas).
    [[nodiscard]] Status exec(const std::string& sql, std::string_view what);
    // A statement to bind and step; `what` names what its failures were doing ("read", "write").
    [[nodiscard]] Result<SqliteStatement> prepare(const std::string& sql, std::string_view what);
    // The first column of the first row of a one-value query (a pragma, a count): "" or 0 when
    // there is no row or the value is NULL.
    [[nodiscard]] Result<std::string> scalarText(const std::string& sql);
    [[nodiscard]] Result<std::int64_t> scalarInteger(const std::string& sql);
    // Runs body inside BEGIN IMMEDIATE ... COMMIT; rolled back when body or the commit fails.
    [[nodiscard]] Status transaction(const std::function<Status()>& body, std::string_view what);
    [[nodiscard]] std::int64_t lastInsertId() const;

    [[nodiscard]] const std::string& path() const noexcept;
    [[nodiscard]] const std::string& subject() const noexcept;

private:
    using Connection = SqliteStatement::Connection;
    explicit SqliteDatabase(std::shared_ptr<Connection> connection);
    std::shared_ptr<Connection> connection_;
    struct Transactions;
    std::unique_ptr<Transactions> transactions_;  // BEGIN, COMMIT, ROLLBACK, prepared at first use
};

}  // namespace sonolink::persist
