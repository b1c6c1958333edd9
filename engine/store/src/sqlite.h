// Thin helpers over SQLite's C API for the store: statements, checked execution, the defensive
// connection every project lives in, and the meta table.
#pragma once

#include "core/result.h"

#include <sqlite3.h>

#include <chrono>
#include <string>

namespace wb::store {

class Statement
{
public:
    Statement(sqlite3 *db, const char *sql);
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool ok() const { return m_stmt != nullptr; }
    Statement &bind(int i, const std::string &v);
    Statement &bind(int i, double v);
    Statement &bind(int i, long long v);
    Statement &bindNull(int i);
    Statement &bindBlob(int i, const std::string &v);
    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step();
    // step() for a statement that returns no rows; the error says what failed.
    Status run(const std::string &what);
    std::string text(int i) const;
    std::string blob(int i) const;
    double real(int i) const { return sqlite3_column_double(m_stmt, i); }
    long long integer(int i) const { return sqlite3_column_int64(m_stmt, i); }
    bool isNull(int i) const { return sqlite3_column_type(m_stmt, i) == SQLITE_NULL; }
    std::string error() const { return sqlite3_errmsg(m_db); }

private:
    sqlite3 *m_db;
    sqlite3_stmt *m_stmt = nullptr;
};

// Runs SQL that returns no rows; the error is SQLite's message.
Status exec(sqlite3 *db, const char *sql);

// A transaction that rolls back unless committed.
class Transaction
{
public:
    explicit Transaction(sqlite3 *db);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    const Status &begun() const { return m_begun; }
    Status commit();

private:
    sqlite3 *m_db;
    Status m_begun;
    bool m_done = false;
};

// An in-memory connection configured for files from anywhere (SQLite's "defensive"
// recommendations for untrusted databases: https://www.sqlite.org/security.html); nullptr when
// out of memory.
sqlite3 *openDefensive();

// Bounded work: an operation on an opened file that runs longer than this is a hostile or broken
// file, not a project; it is interrupted instead of hanging the caller.
class Deadline
{
public:
    Deadline(sqlite3 *db, std::chrono::seconds limit);
    ~Deadline();
    Deadline(const Deadline &) = delete;
    Deadline &operator=(const Deadline &) = delete;

private:
    static int check(void *self);
    sqlite3 *m_db;
    std::chrono::steady_clock::time_point m_until;
};

std::string metaValue(sqlite3 *db, const char *key);
Status setMeta(sqlite3 *db, const std::string &key, const std::string &value);

// ISO date-time (UTC) now.
std::string nowIso();

Error fail(const std::string &file, const std::string &message);

} // namespace wb::store
