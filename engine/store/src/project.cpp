#include "store/project.h"

#include "core/version.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <sys/file.h>
#include <csignal>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace wb {

namespace fs = std::filesystem;

namespace {

// Schema 1: the first project files. Schema 2 adds the tables later features fill.
const char *kSchema1 = R"(
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
CREATE TABLE scenarios (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL UNIQUE,
                        brief_json TEXT NOT NULL, modified TEXT NOT NULL) STRICT;
CREATE TABLE price_overrides (id INTEGER PRIMARY KEY, gpu TEXT NOT NULL, provider TEXT NOT NULL, term TEXT NOT NULL,
                              usd_per_gpu_hour REAL, usd_per_gpu REAL, observed TEXT NOT NULL, source TEXT NOT NULL,
                              note TEXT NOT NULL DEFAULT '') STRICT;
CREATE TABLE result_snapshots (id INTEGER PRIMARY KEY, scenario TEXT NOT NULL, engine_version TEXT NOT NULL,
                               created TEXT NOT NULL, results_json TEXT NOT NULL) STRICT;
)";
const char *kMigrate1to2 = R"(
CREATE TABLE checklist_answers (id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, section TEXT NOT NULL,
                                question TEXT NOT NULL, answer TEXT NOT NULL DEFAULT '',
                                evidence TEXT NOT NULL DEFAULT '') STRICT;
CREATE TABLE benchmark_evidence (id INTEGER PRIMARY KEY, scenario TEXT, kind TEXT NOT NULL, source TEXT NOT NULL,
                                 imported TEXT NOT NULL, content TEXT NOT NULL) STRICT;
CREATE TABLE decision_records (id INTEGER PRIMARY KEY, scenario TEXT, created TEXT NOT NULL,
                               content_json TEXT NOT NULL) STRICT;
)";

// The tables each schema version has.
const std::map<int, std::set<std::string>> kTables = {
    {1, {"meta", "scenarios", "price_overrides", "result_snapshots"}},
    {2, {"meta", "scenarios", "price_overrides", "result_snapshots", "checklist_answers", "benchmark_evidence",
         "decision_records"}},
};

std::string nowIso()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

class Statement
{
public:
    Statement(sqlite3 *db, const char *sql) : m_db(db)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            m_stmt = nullptr;
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool ok() const { return m_stmt != nullptr; }
    Statement &bind(int i, const std::string &v)
    {
        sqlite3_bind_text(m_stmt, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement &bind(int i, double v)
    {
        sqlite3_bind_double(m_stmt, i, v);
        return *this;
    }
    Statement &bind(int i, long long v)
    {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    Statement &bindNull(int i)
    {
        sqlite3_bind_null(m_stmt, i);
        return *this;
    }
    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return m_stmt ? sqlite3_step(m_stmt) : SQLITE_ERROR; }
    std::string text(int i) const
    {
        const unsigned char *t = sqlite3_column_text(m_stmt, i);
        return t ? std::string(reinterpret_cast<const char *>(t), std::size_t(sqlite3_column_bytes(m_stmt, i))) : "";
    }
    double real(int i) const { return sqlite3_column_double(m_stmt, i); }
    long long integer(int i) const { return sqlite3_column_int64(m_stmt, i); }
    bool isNull(int i) const { return sqlite3_column_type(m_stmt, i) == SQLITE_NULL; }
    std::string error() const { return sqlite3_errmsg(m_db); }

private:
    sqlite3 *m_db;
    sqlite3_stmt *m_stmt = nullptr;
};

bool exec(sqlite3 *db, const char *sql, std::string *error = nullptr)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK && error)
        *error = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    return rc == SQLITE_OK;
}

// Bounded work: an operation on an opened file that runs longer than this is a hostile or broken
// file, not a project; it is interrupted instead of hanging the caller.
struct Deadline
{
    std::chrono::steady_clock::time_point until;
};

int progressCheck(void *arg)
{
    const auto *d = static_cast<const Deadline *>(arg);
    return std::chrono::steady_clock::now() > d->until ? 1 : 0;
}

// A connection configured for files from anywhere (SQLite's "defensive" recommendations for
// untrusted databases: https://www.sqlite.org/security.html).
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
    exec(db, "PRAGMA cell_size_check=ON; PRAGMA mmap_size=0; PRAGMA trusted_schema=OFF; PRAGMA foreign_keys=OFF;");
    return db;
}

std::uint32_t bigEndian(const std::string &b, std::size_t at, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | static_cast<unsigned char>(b[at + std::size_t(i)]);
    return v;
}

Error fail(const std::string &file, const std::string &message)
{
    return Error{file, "", message};
}

std::string metaValue(sqlite3 *db, const char *key)
{
    Statement s(db, "SELECT value FROM meta WHERE key = ?1");
    s.bind(1, std::string(key));
    return s.step() == SQLITE_ROW ? s.text(0) : std::string();
}

void setMeta(sqlite3 *db, const std::string &key, const std::string &value)
{
    Statement s(db, "INSERT INTO meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    s.bind(1, key).bind(2, value).step();
}

std::string canonicalJson(const std::string &text, std::string *error)
{
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        *error = j.is_discarded() ? "is not valid JSON" : "is not a JSON object";
        return {};
    }
    return j.dump(2);
}

std::string errnoMessage(int e)
{
    return std::strerror(e);
}

// Writes the database to path atomically: a complete copy in a temporary file of the same folder,
// flushed, then renamed over path. extraMeta is written into the copy only.
Status writeDatabase(sqlite3 *db, const std::string &path, const std::map<std::string, std::string> &extraMeta = {})
{
    static std::atomic<unsigned> counter{0};
    const fs::path target = fs::absolute(path);
    const fs::path dir = target.parent_path();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return fail(path, "cannot be saved: the folder " + dir.string() + " does not exist");
    if (fs::is_directory(target, ec))
        return fail(path, "cannot be saved: a folder of that name is in the way");
    // Temporary files of saves that were killed half-way (their process is gone) are litter:
    // remove them. Those of a save running in another live process are left alone.
    const std::string prefix = "." + target.filename().string() + ".saving-";
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        const long pid = std::atol(name.c_str() + prefix.size());
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) {
            std::error_code ignored;
            fs::remove(entry.path(), ignored);
        }
    }
    const fs::path temp = dir / (prefix + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    // Create the temporary file ourselves first: the operating system's reason (read-only
    // folder, permission) is clearer than SQLite's "unable to open database file".
    const int probe = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (probe < 0)
        return fail(path, "cannot be saved: " + errnoMessage(errno) + " (writing in " + dir.string() + ")");
    ::close(probe);
    ::unlink(temp.c_str());
    const auto cleanup = [&] {
        std::error_code ignored;
        fs::remove(temp, ignored);
        fs::remove(temp.string() + "-journal", ignored);
    };

    // Copy every page into a new file with SQLite's online backup (the in-memory database has no
    // file of its own), then close it: a closed, complete database in rollback-journal mode.
    {
        sqlite3 *copy = nullptr;
        bool ok = sqlite3_open_v2(temp.c_str(), &copy, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) == SQLITE_OK;
        std::string why = copy ? sqlite3_errmsg(copy) : "out of memory";
        if (ok) {
            sqlite3_backup *backup = sqlite3_backup_init(copy, "main", db, "main");
            ok = backup && sqlite3_backup_step(backup, -1) == SQLITE_DONE;
            sqlite3_backup_finish(backup);
            why = sqlite3_errmsg(copy);
        }
        if (ok)
            for (const auto &[k, v] : extraMeta)
                setMeta(copy, k, v);
        ok = sqlite3_close(copy) == SQLITE_OK && ok;
        if (!ok) {
            cleanup();
            return fail(path, "cannot be saved: " + why);
        }
    }
    const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int e = errno;
        if (fd >= 0)
            ::close(fd);
        cleanup();
        return fail(path, "cannot be saved: " + errnoMessage(e));
    }
    ::close(fd);
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        const int e = errno;
        cleanup();
        return fail(path, "cannot be saved: " + errnoMessage(e));
    }
    // Make the rename itself durable.
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return Ok{};
}

} // namespace

// An advisory lock held while a project is open for writing: flock on path + ".lock", which the
// kernel releases if the process dies, so a crash never leaves a stale lock.
struct Project::Lock
{
    int fd = -1;
    std::string path;
    ~Lock()
    {
        if (fd >= 0) {
            ::unlink(path.c_str());
            ::flock(fd, LOCK_UN);
            ::close(fd);
        }
    }
    static std::unique_ptr<Lock> acquire(const std::string &projectPath)
    {
        auto lock = std::make_unique<Lock>();
        lock->path = projectPath + ".lock";
        lock->fd = ::open(lock->path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (lock->fd < 0)
            return nullptr;
        if (::flock(lock->fd, LOCK_EX | LOCK_NB) != 0) {
            ::close(lock->fd);
            lock->fd = -1;
            return nullptr;
        }
        const std::string owner = std::to_string(::getpid()) + "\n";
        if (::ftruncate(lock->fd, 0) == 0 && ::write(lock->fd, owner.data(), owner.size()) < 0) {
            // The pid is only informative; the flock is the lock.
        }
        return lock;
    }
};

Project::Project() = default;
Project::Project(Project &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path)), m_readOnly(other.m_readOnly),
      m_lockedByOther(other.m_lockedByOther), m_migratedFrom(other.m_migratedFrom), m_writer(std::move(other.m_writer)),
      m_fileSchema(other.m_fileSchema), m_backupDone(other.m_backupDone), m_lock(std::move(other.m_lock))
{
}
Project &Project::operator=(Project &&other) noexcept
{
    if (this != &other) {
        sqlite3_close(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
        m_readOnly = other.m_readOnly;
        m_lockedByOther = other.m_lockedByOther;
        m_migratedFrom = other.m_migratedFrom;
        m_writer = std::move(other.m_writer);
        m_fileSchema = other.m_fileSchema;
        m_backupDone = other.m_backupDone;
        m_lock = std::move(other.m_lock);
    }
    return *this;
}
Project::~Project()
{
    sqlite3_close(m_db);
}

Project Project::create()
{
    Project p;
    p.m_db = openDefensive();
    exec(p.m_db, kSchema1);
    exec(p.m_db, kMigrate1to2);
    exec(p.m_db, ("PRAGMA application_id=" + std::to_string(kProjectApplicationId) + "; PRAGMA user_version="
                  + std::to_string(kProjectSchemaVersion) + ";")
                     .c_str());
    setMeta(p.m_db, "format", "gpu-workbench-project");
    setMeta(p.m_db, "writer", WB_ENGINE_VERSION);
    setMeta(p.m_db, "readable_by_schema", std::to_string(kProjectSchemaVersion));
    setMeta(p.m_db, "created", nowIso());
    return p;
}

Result<Project> Project::openBytes(const std::string &bytes, const std::string &name)
{
    // The header, before SQLite sees anything (https://www.sqlite.org/fileformat.html).
    if (bytes.empty())
        return fail(name, "is empty (0 bytes); it is not a GPU Workbench project");
    if (bytes.size() < 100)
        return fail(name, "is too short to be a GPU Workbench project (" + std::to_string(bytes.size()) + " bytes)");
    if (bytes.compare(0, 16, std::string("SQLite format 3\0", 16)) != 0)
        return fail(name, "is not a GPU Workbench project (it is not an SQLite database)");
    const std::uint32_t appId = bigEndian(bytes, 68, 4);
    if (appId != std::uint32_t(kProjectApplicationId)) {
        char buf[120];
        std::snprintf(buf, sizeof buf, "is an SQLite database of another program (application id 0x%08x), not a "
                                       "GPU Workbench project", appId);
        return fail(name, buf);
    }
    std::uint32_t pageSize = bigEndian(bytes, 16, 2);
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
        return fail(name, "is damaged (invalid page size in its header)");
    const std::uint32_t pages = bigEndian(bytes, 28, 4);
    const bool pagesValid = bigEndian(bytes, 92, 4) == bigEndian(bytes, 24, 4) && pages > 0;
    if (pagesValid && std::uint64_t(pages) * pageSize > bytes.size())
        return fail(name, "is truncated (" + std::to_string(bytes.size()) + " of "
                              + std::to_string(std::uint64_t(pages) * pageSize) + " bytes)");
    if (bytes.size() % pageSize != 0)
        return fail(name, "is truncated or damaged (its size is not a whole number of pages)");

    Project p;
    p.m_db = openDefensive();
    if (!p.m_db)
        return fail(name, "cannot be opened: out of memory");
    auto *buffer = static_cast<unsigned char *>(sqlite3_malloc64(bytes.size()));
    if (!buffer)
        return fail(name, "cannot be opened: out of memory");
    std::memcpy(buffer, bytes.data(), bytes.size());
    if (sqlite3_deserialize(p.m_db, "main", buffer, sqlite3_int64(bytes.size()), sqlite3_int64(bytes.size()),
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        != SQLITE_OK)
        return fail(name, "cannot be opened: " + std::string(sqlite3_errmsg(p.m_db)));
    exec(p.m_db, "PRAGMA cell_size_check=ON; PRAGMA mmap_size=0;");
    Deadline deadline{std::chrono::steady_clock::now() + std::chrono::seconds(20)};
    sqlite3_progress_handler(p.m_db, 10000, progressCheck, &deadline);
    const auto damaged = [&](const std::string &detail) {
        return fail(name, "is damaged and cannot be opened (" + detail + ")");
    };

    {
        Statement check(p.m_db, "PRAGMA quick_check(1)");
        const int rc = check.step();
        if (rc != SQLITE_ROW)
            return damaged(rc == SQLITE_INTERRUPT ? "checking it took too long" : check.error());
        if (check.text(0) != "ok")
            return damaged(check.text(0));
    }
    // What the file holds: our tables only; never triggers or views (which could run code when
    // read), nor anything unexpected.
    int schema = 0;
    {
        Statement v(p.m_db, "PRAGMA user_version");
        if (v.step() != SQLITE_ROW)
            return damaged(v.error());
        schema = int(v.integer(0));
    }
    std::set<std::string> tables;
    {
        Statement s(p.m_db, "SELECT type, name FROM sqlite_schema");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) {
            const std::string type = s.text(0), object = s.text(1);
            if (type == "trigger" || type == "view")
                return fail(name, "contains a " + type + " (\"" + object + "\"), which a GPU Workbench project never "
                                  "has; it was not opened and nothing in it was run");
            if (type == "table")
                tables.insert(object);
            else if (type != "index")
                return fail(name, "contains an unexpected " + type + " (\"" + object + "\"); it was not opened");
        }
        if (rc != SQLITE_DONE)
            return damaged(s.error());
    }
    if (schema < 1)
        return fail(name, "is not a GPU Workbench project (no schema version)");
    if (!tables.count("meta"))
        return fail(name, "is not a GPU Workbench project (its meta table is missing)");
    p.m_fileSchema = schema;
    p.m_writer = metaValue(p.m_db, "writer");
    if (metaValue(p.m_db, "format") != "gpu-workbench-project")
        return fail(name, "is not a GPU Workbench project (its format entry is missing)");

    if (schema > kProjectSchemaVersion) {
        // A newer file: readable here only if it says so, and then never written.
        const int readableBy = std::atoi(metaValue(p.m_db, "readable_by_schema").c_str());
        if (readableBy < 1 || readableBy > kProjectSchemaVersion)
            return fail(name, "was written by GPU Workbench " + (p.m_writer.empty() ? std::string("(unknown version)") : p.m_writer)
                                  + " (project schema " + std::to_string(schema) + "), which this version ("
                                  + WB_ENGINE_VERSION + ", schema " + std::to_string(kProjectSchemaVersion)
                                  + ") cannot read; it was not changed");
        for (const std::string &t : kTables.at(kProjectSchemaVersion))
            if (!tables.count(t))
                return fail(name, "declares itself readable by this version but lacks the table " + t);
        p.m_readOnly = true;
    } else {
        const auto expected = kTables.find(schema);
        if (expected == kTables.end())
            return fail(name, "has an unknown project schema version " + std::to_string(schema));
        for (const std::string &t : expected->second)
            if (!tables.count(t))
                return fail(name, "is damaged (the table " + t + " is missing)");
        for (const std::string &t : tables)
            if (!expected->second.count(t))
                return fail(name, "contains a table this version does not know (\"" + t + "\"); it was not opened");
        if (schema < kProjectSchemaVersion) {
            // Migrate in memory, in one transaction; the file changes only on a confirmed save.
            std::string error;
            if (!exec(p.m_db, "BEGIN") || !exec(p.m_db, kMigrate1to2, &error)
                || !exec(p.m_db, ("PRAGMA user_version=" + std::to_string(kProjectSchemaVersion)).c_str(), &error)
                || !exec(p.m_db, "COMMIT", &error)) {
                exec(p.m_db, "ROLLBACK");
                return fail(name, "could not be upgraded from schema " + std::to_string(schema) + ": " + error);
            }
            setMeta(p.m_db, "readable_by_schema", std::to_string(kProjectSchemaVersion));
            p.m_migratedFrom = schema;
        }
    }
    // Every stored brief must at least be a JSON object; the engine validates it on use.
    {
        Statement s(p.m_db, "SELECT name, brief_json FROM scenarios");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) {
            std::string error;
            canonicalJson(s.text(1), &error);
            if (!error.empty())
                return fail(name, "is damaged: the brief of scenario \"" + s.text(0) + "\" " + error);
        }
        if (rc != SQLITE_DONE)
            return damaged(s.error());
    }
    sqlite3_progress_handler(p.m_db, 0, nullptr, nullptr);
    return p;
}

Result<Project> Project::open(const std::string &path, OpenAccess access)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st))
        return fail(path, "does not exist");
    if (!fs::is_regular_file(st))
        return fail(path, "is not a file");
    const auto size = fs::file_size(path, ec);
    if (ec)
        return fail(path, "cannot be read: " + ec.message());
    if (size > kProjectMaxBytes)
        return fail(path, "is too large to be a GPU Workbench project (" + std::to_string(size) + " bytes)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(path, "cannot be read: " + errnoMessage(errno));
    std::string bytes(std::size_t(size), '\0');
    in.read(bytes.data(), std::streamsize(size));
    if (!in)
        return fail(path, "cannot be read completely");
    Result<Project> opened = openBytes(bytes, path);
    if (!opened)
        return opened;
    Project p = std::move(opened).value();
    p.m_path = fs::absolute(path).string();
    if (access == OpenAccess::ReadOnly) {
        p.m_readOnly = true;
    } else if (!p.m_readOnly) {
        p.m_lock = Lock::acquire(p.m_path);
        if (!p.m_lock) {
            p.m_readOnly = true;
            p.m_lockedByOther = true;
        }
    }
    return p;
}

Status Project::save(const std::string &path)
{
    if (m_readOnly)
        return fail(path, "cannot be saved from this window: " + m_path
                              + (m_lockedByOther ? " is open for writing in another instance"
                                 : m_fileSchema > kProjectSchemaVersion ? " was written by a newer version"
                                                                        : " was opened read-only")
                              + "; use Save As to write a copy elsewhere");
    const std::string target = fs::absolute(path).string();
    std::unique_ptr<Lock> newLock;
    if (target != m_path) {
        newLock = Lock::acquire(target);
        if (!newLock)
            return fail(path, "cannot be saved: it is open in another instance");
    }
    // An upgraded file keeps a copy of what the older version wrote before it is replaced.
    std::error_code ec;
    if (m_migratedFrom && !m_backupDone && fs::exists(target, ec)) {
        const std::string backup = target + ".schema" + std::to_string(*m_migratedFrom) + ".bak";
        fs::copy_file(target, backup, fs::copy_options::overwrite_existing, ec);
        if (ec)
            return fail(path, "cannot be saved: the backup copy " + backup + " could not be written (" + ec.message() + ")");
        m_backupDone = true;
    }
    setMeta(m_db, "writer", WB_ENGINE_VERSION);
    setMeta(m_db, "modified", nowIso());
    Status s = writeDatabase(m_db, target);
    if (!s)
        return s;
    if (newLock)
        m_lock = std::move(newLock);
    m_path = target;
    m_writer = WB_ENGINE_VERSION;
    m_fileSchema = kProjectSchemaVersion;
    return Ok{};
}

Status Project::saveCopy(const std::string &path) const
{
    return writeDatabase(m_db, path);
}

Status Project::saveRecovery(const std::string &documentKey) const
{
    std::error_code ec;
    fs::create_directories(recoveryDir(), ec);
    if (ec)
        return fail(recoveryDir(), "cannot hold recovery data: " + ec.message());
    return writeDatabase(m_db, recoveryFileFor(documentKey), {{"recovers", documentKey}});
}

std::string Project::recoveryKey() const
{
    return metaValue(m_db, "recovers");
}

std::vector<Scenario> Project::scenarios() const
{
    std::vector<Scenario> list;
    Statement s(m_db, "SELECT name, brief_json, modified FROM scenarios ORDER BY position, id");
    while (s.step() == SQLITE_ROW)
        list.push_back({s.text(0), s.text(1), s.text(2)});
    return list;
}

std::optional<Scenario> Project::scenario(const std::string &name) const
{
    Statement s(m_db, "SELECT name, brief_json, modified FROM scenarios WHERE name = ?1");
    s.bind(1, name);
    if (s.step() != SQLITE_ROW)
        return std::nullopt;
    return Scenario{s.text(0), s.text(1), s.text(2)};
}

Status Project::putScenario(const std::string &name, const std::string &briefJson)
{
    if (name.empty())
        return Error{"", "", "a scenario needs a name"};
    std::string error;
    const std::string canonical = canonicalJson(briefJson, &error);
    if (!error.empty())
        return Error{"", "", "the brief of scenario \"" + name + "\" " + error};
    Statement s(m_db, "INSERT INTO scenarios(position, name, brief_json, modified) "
                      "VALUES((SELECT COALESCE(MAX(position), 0) + 1 FROM scenarios), ?1, ?2, ?3) "
                      "ON CONFLICT(name) DO UPDATE SET brief_json = excluded.brief_json, modified = excluded.modified");
    s.bind(1, name).bind(2, canonical).bind(3, nowIso());
    if (s.step() != SQLITE_DONE)
        return Error{"", "", "scenario \"" + name + "\" could not be stored: " + s.error()};
    return Ok{};
}

Status Project::renameScenario(const std::string &from, const std::string &to)
{
    if (!scenario(from))
        return Error{"", "", "there is no scenario \"" + from + "\""};
    if (to.empty() || scenario(to))
        return Error{"", "", to.empty() ? "a scenario needs a name" : "a scenario named \"" + to + "\" already exists"};
    exec(m_db, "BEGIN");
    Statement a(m_db, "UPDATE scenarios SET name = ?2, modified = ?3 WHERE name = ?1");
    Statement b(m_db, "UPDATE result_snapshots SET scenario = ?2 WHERE scenario = ?1");
    a.bind(1, from).bind(2, to).bind(3, nowIso());
    b.bind(1, from).bind(2, to);
    if (a.step() != SQLITE_DONE || b.step() != SQLITE_DONE) {
        exec(m_db, "ROLLBACK");
        return Error{"", "", "scenario \"" + from + "\" could not be renamed"};
    }
    exec(m_db, "COMMIT");
    return Ok{};
}

Status Project::duplicateScenario(const std::string &from, const std::string &to)
{
    const auto source = scenario(from);
    if (!source)
        return Error{"", "", "there is no scenario \"" + from + "\""};
    if (scenario(to))
        return Error{"", "", "a scenario named \"" + to + "\" already exists"};
    return putScenario(to, source->briefJson);
}

Status Project::removeScenario(const std::string &name)
{
    if (!scenario(name))
        return Error{"", "", "there is no scenario \"" + name + "\""};
    Statement a(m_db, "DELETE FROM scenarios WHERE name = ?1");
    Statement b(m_db, "DELETE FROM result_snapshots WHERE scenario = ?1");
    a.bind(1, name);
    b.bind(1, name);
    a.step();
    b.step();
    return Ok{};
}

Status Project::orderScenarios(const std::vector<std::string> &names)
{
    exec(m_db, "BEGIN");
    Statement shift(m_db, "UPDATE scenarios SET position = position + ?1");
    shift.bind(1, static_cast<long long>(names.size()) + 1);
    shift.step();
    for (std::size_t i = 0; i < names.size(); ++i) {
        Statement s(m_db, "UPDATE scenarios SET position = ?2 WHERE name = ?1");
        s.bind(1, names[i]).bind(2, static_cast<long long>(i));
        s.step();
    }
    exec(m_db, "COMMIT");
    return Ok{};
}

std::vector<GpuPrice> Project::priceOverrides() const
{
    std::vector<GpuPrice> list;
    Statement s(m_db, "SELECT gpu, provider, term, usd_per_gpu_hour, usd_per_gpu, observed, source, note "
                      "FROM price_overrides ORDER BY id");
    while (s.step() == SQLITE_ROW) {
        GpuPrice p;
        p.gpu = s.text(0);
        p.provider = s.text(1);
        p.term = enumFromString<PricingTerm>(s.text(2)).value_or(PricingTerm::OnDemand);
        p.usdPerGpuHour = s.isNull(3) ? 0 : s.real(3);
        p.usdPerGpu = s.isNull(4) ? 0 : s.real(4);
        p.observed = s.text(5);
        p.source = s.text(6);
        p.note = s.text(7);
        p.origin = "project";
        list.push_back(std::move(p));
    }
    return list;
}

Status Project::addPriceOverride(const GpuPrice &p)
{
    if (!isIsoDate(p.observed))
        return Error{"", "", "a price needs the date it was observed (YYYY-MM-DD)"};
    if (p.source.empty())
        return Error{"", "", "a price needs its source"};
    Statement s(m_db, "INSERT INTO price_overrides(gpu, provider, term, usd_per_gpu_hour, usd_per_gpu, observed, source, "
                      "note) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    s.bind(1, p.gpu).bind(2, p.provider).bind(3, std::string(enumName(p.term)));
    if (p.term == PricingTerm::Purchase)
        s.bindNull(4).bind(5, p.usdPerGpu);
    else
        s.bind(4, p.usdPerGpuHour).bindNull(5);
    s.bind(6, p.observed).bind(7, p.source).bind(8, p.note);
    if (s.step() != SQLITE_DONE)
        return Error{"", "", "the price could not be stored: " + s.error()};
    return Ok{};
}

std::vector<ResultSnapshot> Project::snapshots(const std::string &scenarioName) const
{
    std::vector<ResultSnapshot> list;
    Statement s(m_db, "SELECT scenario, engine_version, created, results_json FROM result_snapshots "
                      "WHERE ?1 = '' OR scenario = ?1 ORDER BY id");
    s.bind(1, scenarioName);
    while (s.step() == SQLITE_ROW)
        list.push_back({s.text(0), s.text(1), s.text(2), s.text(3)});
    return list;
}

Status Project::addSnapshot(const std::string &scenarioName, const std::string &engineVersion,
                            const std::string &resultsJson)
{
    if (!scenario(scenarioName))
        return Error{"", "", "there is no scenario \"" + scenarioName + "\""};
    Statement s(m_db, "INSERT INTO result_snapshots(scenario, engine_version, created, results_json) VALUES(?1, ?2, ?3, ?4)");
    s.bind(1, scenarioName).bind(2, engineVersion).bind(3, nowIso()).bind(4, resultsJson);
    if (s.step() != SQLITE_DONE)
        return Error{"", "", "the snapshot could not be stored: " + s.error()};
    return Ok{};
}

std::string Project::contentDigest() const
{
    std::ostringstream out;
    for (const Scenario &s : scenarios())
        out << "scenario " << s.name << "\n" << s.briefJson << "\n";
    for (const GpuPrice &p : priceOverrides())
        out << "price " << p.gpu << "|" << p.provider << "|" << enumName(p.term) << "|" << p.usdPerGpuHour << "|"
            << p.usdPerGpu << "|" << p.observed << "|" << p.source << "|" << p.note << "\n";
    for (const ResultSnapshot &r : snapshots())
        out << "snapshot " << r.scenario << "|" << r.engineVersion << "|" << r.created << "\n" << r.resultsJson << "\n";
    return out.str();
}

std::string recoveryDir()
{
    if (const char *dir = std::getenv("GPUWB_RECOVERY_DIR"); dir && *dir)
        return dir;
    if (const char *state = std::getenv("XDG_STATE_HOME"); state && *state)
        return std::string(state) + "/gpu-workbench/recovery";
    const char *home = std::getenv("HOME");
    return std::string(home ? home : "/tmp") + "/.local/state/gpu-workbench/recovery";
}

std::string recoveryFileFor(const std::string &documentKey)
{
    // FNV-1a of the key: a stable file name per document.
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : documentKey)
        h = (h ^ c) * 1099511628211ull;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx.gpuwb", static_cast<unsigned long long>(h));
    return recoveryDir() + "/" + buf;
}

std::vector<std::string> pendingRecoveryFiles()
{
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(recoveryDir(), ec))
        if (entry.is_regular_file(ec) && entry.path().extension() == ".gpuwb")
            found.emplace_back(entry.last_write_time(ec), entry.path().string());
    std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<std::string> list;
    for (auto &f : found)
        list.push_back(std::move(f.second));
    return list;
}

void discardRecovery(const std::string &documentKey)
{
    std::error_code ec;
    fs::remove(recoveryFileFor(documentKey), ec);
}

} // namespace wb
