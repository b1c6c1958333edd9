#include "store/project.h"

#include "core/fileio.h"
#include "core/limits.h"
#include "core/version.h"
#include "checklist.h"
#include "evidence.h"
#include "lock.h"
#include "schema.h"
#include "sqlite.h"
#include "untrusted.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace wb {

namespace fs = std::filesystem;
using namespace store;

namespace {

// Writes the database to path atomically (core/fileio.h); extraMeta goes into the copy only.
Status writeDatabase(sqlite3 *db, const std::string &path, const std::map<std::string, std::string> &extraMeta = {})
{
    return writeAtomically(
        path,
        [&](const std::string &temp) -> Status {
            // Copy every page into the new file with SQLite's online backup (the in-memory
            // database has no file of its own), then close it: a closed, complete database in
            // rollback-journal mode.
            sqlite3 *copy = nullptr;
            bool ok = sqlite3_open_v2(temp.c_str(), &copy, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK;
            std::string why = copy ? sqlite3_errmsg(copy) : "out of memory";
            if (ok) {
                sqlite3_backup *backup = sqlite3_backup_init(copy, "main", db, "main");
                ok = backup && sqlite3_backup_step(backup, -1) == SQLITE_DONE;
                sqlite3_backup_finish(backup);
                why = sqlite3_errmsg(copy);
            }
            for (const auto &[k, v] : extraMeta) {
                if (!ok)
                    break;
                if (Status s = setMeta(copy, k, v); !s) {
                    ok = false;
                    why = s.error().message;
                }
            }
            ok = sqlite3_close(copy) == SQLITE_OK && ok;
            if (!ok)
                return Error{"", "", why};
            return Ok{};
        },
        "cannot be saved");
}

} // namespace

Project::Project() = default;

Project::Project(Project &&other) noexcept
{
    *this = std::move(other);
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
        m_readOnlyReason = std::move(other.m_readOnlyReason);
        m_lock = std::move(other.m_lock);
    }
    return *this;
}

Project::~Project()
{
    // The lock goes first (m_lock's destructor); the connection after it.
    m_lock.reset();
    sqlite3_close(m_db);
}

Project Project::create()
{
    Project p;
    p.m_db = openDefensive();
    // A new in-memory database cannot fail these but for memory; a project without its schema
    // would fail every later call with SQLite's message.
    (void)createSchema(p.m_db);
    (void)exec(p.m_db, ("PRAGMA application_id=" + std::to_string(kProjectApplicationId)).c_str());
    (void)setMeta(p.m_db, "format", "gpu-workbench-project");
    (void)setMeta(p.m_db, "writer", WB_ENGINE_VERSION);
    (void)setMeta(p.m_db, "readable_by_schema", std::to_string(kProjectSchemaVersion));
    (void)setMeta(p.m_db, "created", nowIso());
    return p;
}

Result<Project> Project::openBytes(const std::string &bytes, const std::string &name)
{
    if (Status header = checkHeader(bytes, name); !header)
        return header.error();
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
    if (Status s = exec(p.m_db, "PRAGMA cell_size_check=ON; PRAGMA mmap_size=0;"); !s)
        return fail(name, "cannot be opened: " + s.error().message);
    const Deadline deadline(p.m_db, std::chrono::seconds(20));

    const Result<Contents> contents = checkContents(p.m_db, name);
    if (!contents)
        return contents.error();
    const int schema = contents->schemaVersion;
    const std::set<std::string> &tables = contents->tables;
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
        for (const std::string &t : tablesOf(kProjectSchemaVersion))
            if (!tables.count(t))
                return fail(name, "declares itself readable by this version but lacks the table " + t);
        p.m_readOnly = true;
        p.m_readOnlyReason = "was written by a newer version (GPU Workbench "
                             + (p.m_writer.empty() ? std::string("of unknown version") : p.m_writer) + ", project schema "
                             + std::to_string(schema) + "); this version reads it but does not write it, so that "
                             + "nothing the newer version stored is lost";
    } else {
        const std::set<std::string> &expected = tablesOf(schema);
        if (expected.empty())
            return fail(name, "has an unknown project schema version " + std::to_string(schema));
        for (const std::string &t : expected)
            if (!tables.count(t))
                return fail(name, "is damaged (the table " + t + " is missing)");
        for (const std::string &t : tables)
            if (!expected.count(t))
                return fail(name, "contains a table this version does not know (\"" + t + "\"); it was not opened");
    }
    // Every stored brief must at least be a JSON object; the engine validates it on use.
    {
        Statement s(p.m_db, "SELECT name, brief_json FROM scenarios");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) {
            if (auto canonical = canonicalBriefJson(s.text(1)); !canonical)
                return fail(name, "is damaged: the brief of scenario \"" + s.text(0) + "\" " + canonical.error().message);
        }
        if (rc != SQLITE_DONE)
            return fail(name, "is damaged and cannot be opened (" + s.error() + ")");
    }
    if (schema < kProjectSchemaVersion) {
        // Migrate in memory, in one transaction; the file changes only on a confirmed save.
        Transaction t(p.m_db);
        Status s = t.begun();
        if (s)
            s = migrate(p.m_db, schema);
        if (s)
            s = setMeta(p.m_db, "readable_by_schema", std::to_string(kProjectSchemaVersion));
        if (s)
            s = t.commit();
        if (!s)
            return fail(name, "could not be upgraded from schema " + std::to_string(schema) + ": " + s.error().message);
        p.m_migratedFrom = schema;
    }
    // The checklist's rows are read once here so that a damaged one refuses the file, naming it.
    if (const auto checklist = readChecklist(p.m_db); !checklist)
        return fail(name, checklist.error().message);
    if (const auto runs = readEvidence(p.m_db); !runs)
        return fail(name, runs.error().message);
    return p;
}

Result<Project> Project::open(const std::string &path, OpenAccess access)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        return fail(path, "cannot be read: " + ec.message());  // a loop of links, a folder without access
    if (ec || !fs::exists(st))
        return fail(path, "does not exist");
    if (!fs::is_regular_file(st))
        return fail(path, "is not a file");
    // Lock, then read: a writer that read the file before taking the lock could save over a
    // change made in between (two imports 5 ms apart lost one scenario).
    const std::string absolute = fs::absolute(path).string();
    FileLock::Attempt lock;
    if (access == OpenAccess::ReadWrite) {
        lock = FileLock::acquire(absolute);
        if (lock.outcome == FileLock::Outcome::Acquired)
            removeStaleSaves(absolute);  // what a killed save left, now that no save can be running
    }
    const auto size = fs::file_size(path, ec);
    if (ec)
        return fail(path, "cannot be read: " + ec.message());
    if (size > kProjectMaxBytes)
        return fail(path, "is too large to be a GPU Workbench project (" + std::to_string(size) + " bytes)");
    Result<std::string> bytes = readTextFile(path, std::size_t(kProjectMaxBytes));
    if (!bytes)
        return bytes.error();
    Result<Project> opened = openBytes(*bytes, path);
    if (!opened)
        return opened;
    Project p = std::move(opened).value();
    p.m_path = absolute;
    if (access == OpenAccess::ReadOnly) {
        p.m_readOnly = true;
        p.m_readOnlyReason = "was opened read-only";
    } else if (!p.m_readOnly) {
        p.m_lock = std::move(lock.lock);
        if (lock.outcome != FileLock::Outcome::Acquired) {
            p.m_readOnly = true;
            p.m_lockedByOther = lock.outcome == FileLock::Outcome::HeldByOther;
            p.m_readOnlyReason = p.m_lockedByOther ? "is open for writing in another instance" : lock.reason;
        }
    }
    return p;
}

Status Project::save(const std::string &path)
{
    if (m_readOnly)
        return fail(path, "cannot be saved from this window: " + m_path + " " + m_readOnlyReason
                              + "; use Save As to write a copy elsewhere");
    const std::string target = fs::absolute(path).string();
    std::unique_ptr<FileLock> newLock;
    if (target != m_path) {
        FileLock::Attempt lock = FileLock::acquire(target);
        if (lock.outcome == FileLock::Outcome::HeldByOther)
            return fail(path, "cannot be saved: it is open in another instance");
        if (lock.outcome == FileLock::Outcome::CannotCreate)
            return fail(path, "cannot be saved: " + lock.reason);
        newLock = std::move(lock.lock);
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
    if (Status s = setMeta(m_db, "writer", WB_ENGINE_VERSION); !s)
        return fail(path, "cannot be saved: " + s.error().message);
    if (Status s = setMeta(m_db, "modified", nowIso()); !s)
        return fail(path, "cannot be saved: " + s.error().message);
    if (Status s = writeDatabase(m_db, target); !s)
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
    Status written = writeDatabase(m_db, recoveryFileFor(documentKey), {{"recovers", documentKey}});
    if (written)
        claimRecovery(recoveryFileFor(documentKey));
    return written;
}

std::string Project::recoveryKey() const
{
    return metaValue(m_db, "recovers");
}

std::vector<Scenario> Project::scenarios() const
{
    std::vector<Scenario> list;
    Statement s(m_db, "SELECT name, brief_json, modified, evidence_calibration FROM scenarios ORDER BY position, id");
    while (s.step() == SQLITE_ROW)
        list.push_back({s.text(0), s.text(1), s.text(2), s.integer(3) != 0});
    return list;
}

std::optional<Scenario> Project::scenario(const std::string &name) const
{
    Statement s(m_db, "SELECT name, brief_json, modified, evidence_calibration FROM scenarios WHERE name = ?1");
    s.bind(1, name);
    if (s.step() != SQLITE_ROW)
        return std::nullopt;
    return Scenario{s.text(0), s.text(1), s.text(2), s.integer(3) != 0};
}

Status Project::putScenario(const std::string &name, const std::string &briefJson)
{
    if (name.empty())
        return Error{"", "", "a scenario needs a name"};
    const auto canonical = canonicalBriefJson(briefJson);
    if (!canonical)
        return Error{"", "", "the brief of scenario \"" + name + "\" " + canonical.error().message};
    Statement s(m_db, "INSERT INTO scenarios(position, name, brief_json, modified) "
                      "VALUES((SELECT COALESCE(MAX(position), 0) + 1 FROM scenarios), ?1, ?2, ?3) "
                      "ON CONFLICT(name) DO UPDATE SET brief_json = excluded.brief_json, modified = excluded.modified");
    return s.bind(1, name).bind(2, *canonical).bind(3, nowIso()).run("scenario \"" + name + "\" could not be stored");
}

Status Project::renameScenario(const std::string &from, const std::string &to)
{
    if (!scenario(from))
        return Error{"", "", "there is no scenario \"" + from + "\""};
    if (to.empty() || scenario(to))
        return Error{"", "", to.empty() ? "a scenario needs a name" : "a scenario named \"" + to + "\" already exists"};
    Transaction t(m_db);
    if (!t.begun())
        return t.begun();
    Statement a(m_db, "UPDATE scenarios SET name = ?2, modified = ?3 WHERE name = ?1");
    Statement b(m_db, "UPDATE result_snapshots SET scenario = ?2 WHERE scenario = ?1");
    Statement c(m_db, "UPDATE evidence_runs SET scenario = ?2 WHERE scenario = ?1");
    Statement d(m_db, "UPDATE decision_records SET scenario = ?2 WHERE scenario = ?1");
    const std::string what = "scenario \"" + from + "\" could not be renamed";
    if (Status s = a.bind(1, from).bind(2, to).bind(3, nowIso()).run(what); !s)
        return s;
    if (Status s = b.bind(1, from).bind(2, to).run(what); !s)
        return s;
    if (Status s = c.bind(1, from).bind(2, to).run(what); !s)
        return s;
    if (Status s = d.bind(1, from).bind(2, to).run(what); !s)
        return s;
    return t.commit();
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
    Transaction t(m_db);
    if (!t.begun())
        return t.begun();
    const std::string what = "scenario \"" + name + "\" could not be removed";
    Statement a(m_db, "DELETE FROM scenarios WHERE name = ?1");
    if (Status s = a.bind(1, name).run(what); !s)
        return s;
    Statement b(m_db, "DELETE FROM result_snapshots WHERE scenario = ?1");
    if (Status s = b.bind(1, name).run(what); !s)
        return s;
    return t.commit();
}

Status Project::orderScenarios(const std::vector<std::string> &names)
{
    Transaction t(m_db);
    if (!t.begun())
        return t.begun();
    const std::string what = "the scenarios could not be reordered";
    Statement shift(m_db, "UPDATE scenarios SET position = position + ?1");
    if (Status s = shift.bind(1, static_cast<long long>(names.size()) + 1).run(what); !s)
        return s;
    for (std::size_t i = 0; i < names.size(); ++i) {
        Statement s(m_db, "UPDATE scenarios SET position = ?2 WHERE name = ?1");
        if (Status r = s.bind(1, names[i]).bind(2, static_cast<long long>(i)).run(what); !r)
            return r;
    }
    return t.commit();
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

Status Project::putSnapshot(const std::string &scenarioName, const std::string &engineVersion,
                            const std::string &resultsJson)
{
    if (!scenario(scenarioName))
        return Error{"", "", "there is no scenario \"" + scenarioName + "\""};
    Transaction t(m_db);
    if (!t.begun())
        return t.begun();
    const std::string what = "the results of scenario \"" + scenarioName + "\" could not be stored";
    Statement remove(m_db, "DELETE FROM result_snapshots WHERE scenario = ?1");
    if (Status s = remove.bind(1, scenarioName).run(what); !s)
        return s;
    Statement s(m_db, "INSERT INTO result_snapshots(scenario, engine_version, created, results_json) VALUES(?1, ?2, ?3, ?4)");
    if (Status r = s.bind(1, scenarioName).bind(2, engineVersion).bind(3, nowIso()).bind(4, resultsJson).run(what); !r)
        return r;
    return t.commit();
}

ProjectChecklist Project::checklist() const
{
    // openBytes checked every row, and putChecklist writes only valid ones.
    auto read = readChecklist(m_db);
    return read ? std::move(read).value() : ProjectChecklist{};
}

Status Project::putChecklist(const ProjectChecklist &checklist)
{
    return writeChecklist(m_db, checklist);
}

Status Project::checkChecklist(const ProjectChecklist &checklist) const
{
    return checkStorable(m_db, checklist);
}

Status Project::transact(const std::function<Status()> &writes)
{
    Transaction t(m_db);
    if (!t.begun())
        return t.begun();
    if (Status s = writes(); !s)
        return s;
    return t.commit();
}

Result<Attachment> Project::attach(const std::string &fileName, const std::string &bytes)
{
    return storeAttachment(m_db, fileName, bytes);
}

std::optional<std::string> Project::attachment(const std::string &sha256) const
{
    return attachmentBytes(m_db, sha256);
}

std::vector<EvidenceRun> Project::evidence(const std::string &scenarioName) const
{
    // openBytes read every run, and putEvidence stores only runs whose file is held.
    auto read = readEvidence(m_db, scenarioName);
    return read ? std::move(read).value() : std::vector<EvidenceRun>{};
}

Result<long long> Project::putEvidence(const EvidenceRun &run)
{
    if (run.scenario.empty() || !scenario(run.scenario))
        return Error{"", "", "there is no scenario \"" + run.scenario + "\""};
    return writeEvidence(m_db, run);
}

Status Project::removeEvidence(long long id)
{
    return deleteEvidence(m_db, id);
}

Status Project::setEvidenceCalibration(const std::string &scenarioName, bool on)
{
    if (!scenario(scenarioName))
        return Error{"", "", "there is no scenario \"" + scenarioName + "\""};
    Statement s(m_db, "UPDATE scenarios SET evidence_calibration = ?2 WHERE name = ?1");
    return s.bind(1, scenarioName).bind(2, static_cast<long long>(on ? 1 : 0)).run("the calibration switch could not be stored");
}

std::vector<StoredRecord> Project::records(const std::string &scenarioName) const
{
    std::vector<StoredRecord> list;
    Statement s(m_db, "SELECT id, scenario, created, content_json FROM decision_records "
                      "WHERE ?1 = '' OR scenario = ?1 ORDER BY id");
    s.bind(1, scenarioName);
    while (s.step() == SQLITE_ROW)
        list.push_back({s.integer(0), s.text(1), s.text(2), s.text(3)});
    return list;
}

Result<long long> Project::putRecord(const std::string &scenarioName, const std::string &created, const std::string &contentJson,
                                     long long id)
{
    if (!scenario(scenarioName))
        return Error{"", "", "there is no scenario \"" + scenarioName + "\""};
    Statement s(m_db, "INSERT INTO decision_records (id, scenario, created, content_json) VALUES (?4, ?1, ?2, ?3)");
    s.bind(1, scenarioName).bind(2, created).bind(3, contentJson);
    if (id > 0)
        s.bind(4, id);
    if (Status r = s.run("the decision record of scenario \"" + scenarioName + "\" could not be stored"); !r)
        return r.error();
    return static_cast<long long>(sqlite3_last_insert_rowid(m_db));
}

Status Project::removeRecord(long long id)
{
    Statement s(m_db, "DELETE FROM decision_records WHERE id = ?1");
    return s.bind(1, id).run("decision record " + std::to_string(id) + " could not be taken back");
}

std::string Project::contentDigest() const
{
    std::ostringstream out;
    for (const Scenario &s : scenarios())
        out << "scenario " << s.name << (s.evidenceCalibration ? "" : " (uncalibrated)") << "\n" << s.briefJson << "\n";
    for (const ResultSnapshot &r : snapshots())
        out << "snapshot " << r.scenario << "|" << r.engineVersion << "|" << r.created << "\n" << r.resultsJson << "\n";
    const ProjectChecklist c = checklist();
    out << "checklist " << c.templateVersion << "\n";
    for (const ChecklistItem &i : c.extraItems)
        out << "item " << i.id << "|" << i.section << "|" << i.question << "\n";
    for (const Vendor &v : c.vendors) {
        out << "vendor " << v.name << "|" << enumName(v.offer) << "|" << v.contact << "|" << v.contacted << "\n";
        for (const VendorAnswer &a : v.answers)
            out << "answer " << a.item << "|" << enumName(a.answer) << "|" << a.text << "|" << a.link << "|"
                << (a.file ? a.file->sha256 : "") << "|" << a.answeredOn << "|" << a.answeredBy << "\n";
    }
    for (const StoredRecord &r : records())
        out << "record " << r.id << "|" << r.scenario << "|" << r.created << "\n" << r.contentJson << "\n";
    for (const EvidenceRun &e : evidence())
        out << "run " << e.id << "|" << e.scenario << "|" << e.candidate << "|" << e.file.sha256 << "|" << e.index << "|"
            << e.mapping.gpu << "|" << e.mapping.gpus.value_or(0) << "|" << e.mapping.requestRatePerS.value_or(0) << "|"
            << e.mapping.concurrency.value_or(0) << "|" << e.importedBy << "|" << e.importedAt << "\n";
    return out.str();
}

Result<Brief> scenarioBrief(const Project &project, const std::string &scenario, const Catalog &catalog,
                            const std::string &path)
{
    const std::string file = path.empty() ? project.path() : path;
    const std::optional<Scenario> stored = project.scenario(scenario);
    if (!stored)
        return Error{file, "", "there is no scenario \"" + scenario + "\""};
    return parseBrief(stored->briefJson, file + " (scenario \"" + stored->name + "\")", catalog);
}

Result<ScenarioSnapshot> scenarioSnapshot(const Project &project, const std::string &scenario, const std::string &resources)
{
    const std::optional<Scenario> stored = project.scenario(scenario);
    if (!stored)
        return Error{project.path(), "", "there is no scenario \"" + scenario + "\""};
    ScenarioSnapshot s;
    s.scenario = stored->name;
    s.briefJson = stored->briefJson;
    s.runs = project.evidence(stored->name);
    s.calibrate = stored->evidenceCalibration;
    auto tmpl = checklistTemplateOf(project, resources);
    if (!tmpl)
        return tmpl.error();
    s.checklistTemplate = std::move(tmpl).value();
    s.checklist = project.checklist();
    const std::vector<StoredRecord> records = project.records(stored->name);
    if (!records.empty())
        s.supersedes = records.back().id;
    return s;
}

} // namespace wb
