#include "sqlite.h"

#include "core/fault.h"

#include "catalog/prices.h"

#include <ctime>

namespace wb::store {

Statement::Statement(sqlite3 *db, const char *sql) : m_db(db)
{
    if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
        m_stmt = nullptr;
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement &Statement::bind(int i, const std::string &v)
{
    sqlite3_bind_text(m_stmt, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
}

Statement &Statement::bindBlob(int i, const std::string &v)
{
    sqlite3_bind_blob64(m_stmt, i, v.data(), sqlite3_uint64(v.size()), SQLITE_TRANSIENT);
    return *this;
}

Statement &Statement::bind(int i, double v)
{
    sqlite3_bind_double(m_stmt, i, v);
    return *this;
}

Statement &Statement::bind(int i, long long v)
{
    sqlite3_bind_int64(m_stmt, i, v);
    return *this;
}

Statement &Statement::bindNull(int i)
{
    sqlite3_bind_null(m_stmt, i);
    return *this;
}

int Statement::step()
{
    return m_stmt ? sqlite3_step(m_stmt) : SQLITE_ERROR;
}

Status Statement::run(const std::string &what)
{
    if (faultInjected("store-write"))
        return Error{"", "", what + ": injected store failure"};
    if (step() != SQLITE_DONE)
        return Error{"", "", what + ": " + error()};
    return Ok{};
}

std::string Statement::text(int i) const
{
    const unsigned char *t = sqlite3_column_text(m_stmt, i);
    return t ? std::string(reinterpret_cast<const char *>(t), std::size_t(sqlite3_column_bytes(m_stmt, i))) : "";
}

std::string Statement::blob(int i) const
{
    const void *b = sqlite3_column_blob(m_stmt, i);
    return b ? std::string(static_cast<const char *>(b), std::size_t(sqlite3_column_bytes(m_stmt, i))) : "";
}

Status exec(sqlite3 *db, const char *sql)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    std::string error = rc == SQLITE_OK ? std::string() : message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    if (rc != SQLITE_OK)
        return Error{"", "", error};
    return Ok{};
}

// A savepoint rather than BEGIN, so that a transaction can hold others (Project::transact around
// writes that each take their own): the outermost acts as BEGIN DEFERRED, an inner one commits
// into it.
Transaction::Transaction(sqlite3 *db) : m_db(db), m_begun(exec(db, "SAVEPOINT wb_tx"))
{
}

Transaction::~Transaction()
{
    // A destructor cannot report: if the rollback itself fails, SQLite has already rolled the
    // transaction back (or will when the connection closes), and the caller sees the error that
    // made it unwind.
    if (m_begun && !m_done)
        (void)exec(m_db, "ROLLBACK TO wb_tx; RELEASE wb_tx");
}

Status Transaction::commit()
{
    if (!m_begun)
        return m_begun;
    Status s = exec(m_db, "RELEASE wb_tx");
    m_done = s.ok();
    return s;
}

sqlite3 *openDefensive()
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY, nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return nullptr;
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 256 * 1024 * 1024);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 1000000);
    sqlite3_limit(db, SQLITE_LIMIT_COLUMN, 100);
    sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 100);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    if (!exec(db, "PRAGMA cell_size_check=ON; PRAGMA mmap_size=0; PRAGMA trusted_schema=OFF; PRAGMA foreign_keys=OFF;")) {
        sqlite3_close(db);
        return nullptr;
    }
    return db;
}

Deadline::Deadline(sqlite3 *db, std::chrono::seconds limit)
    : m_db(db), m_until(std::chrono::steady_clock::now() + limit)
{
    sqlite3_progress_handler(m_db, 10000, &Deadline::check, this);
}

Deadline::~Deadline()
{
    sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
}

int Deadline::check(void *self)
{
    return std::chrono::steady_clock::now() > static_cast<Deadline *>(self)->m_until ? 1 : 0;
}

std::string metaValue(sqlite3 *db, const char *key)
{
    Statement s(db, "SELECT value FROM meta WHERE key = ?1");
    s.bind(1, std::string(key));
    return s.step() == SQLITE_ROW ? s.text(0) : std::string();
}

Status setMeta(sqlite3 *db, const std::string &key, const std::string &value)
{
    Statement s(db, "INSERT INTO meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    return s.bind(1, key).bind(2, value).run("the project's " + key + " entry could not be written");
}

std::string nowIso()
{
    return nowUtcIso();
}

Error fail(const std::string &file, const std::string &message)
{
    return Error{file, "", message};
}

} // namespace wb::store
