// Project files (.gpuwb): SQLite documents holding scenarios (a brief each, as canonical JSON,
// with its own dated prices), result snapshots stamped with the engine version that produced
// them (the latest of each scenario, written when it is saved with results), and tables that later features fill (vendor checklist answers, benchmark
// evidence, decision records). The store library links SQLite; nothing here uses Qt.
//
// Guarantees:
// - A project lives in memory while it is open; the file on disk is only ever replaced whole:
//   save writes a complete database to a temporary file in the same folder, flushes it, and
//   renames it over the old one. A crash or a failed save leaves the old file as it was; no
//   -wal, -shm or journal file is left beside it.
// - Opening reads the bytes, checks the header and application id, then loads them into a
//   defensive in-memory connection (no triggers, no views, no trusted schema, cell-size checks, no
//   memory mapping, bounded work) and runs quick_check. A stranger's file can fail to open; it
//   cannot run code, hang, or be modified. A missing path is never created.
// - A file from a newer version opens read-only when it says this version can read it, and is
//   refused (naming the writer) otherwise. An older file is migrated in memory; saving it over
//   the original first keeps a backup copy of the original.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "core/result.h"
#include "evidence/evidence.h"
#include "procurement/vendors.h"
#include "record/record.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace wb {

namespace store {
class FileLock;
}

inline constexpr std::int32_t kProjectApplicationId = 0x47505557;  // "GPUW"
inline constexpr int kProjectSchemaVersion = 5;
inline constexpr std::uint64_t kProjectMaxBytes = 1ull << 30;  // larger files are refused
inline constexpr std::size_t kMaxRunsPerImport = 100;           // measured runs one results file may add

struct Scenario
{
    std::string name;
    std::string briefJson;   // canonicalBriefJson (brief/brief.h)
    std::string modified;    // ISO date-time (UTC)
    bool evidenceCalibration = true;  // figures use the calibration from the scenario's measured runs
};

struct ResultSnapshot
{
    std::string scenario;
    std::string engineVersion;
    std::string created;
    std::string resultsJson;
};

// A decision record as stored (record/record.h reads its content). Records are never edited or
// removed; a rename moves them with their scenario, and they outlive its removal.
struct StoredRecord
{
    long long id = 0;
    std::string scenario;
    std::string created;
    std::string contentJson;
};

enum class OpenAccess { ReadWrite, ReadOnly };

class Project
{
public:
    Project(Project &&) noexcept;
    Project &operator=(Project &&) noexcept;
    ~Project();

    // An empty project (schema kProjectSchemaVersion), not yet saved anywhere.
    static Project create();
    // Opens a file. With ReadWrite it takes the file's lock (path + ".lock"), held until the
    // project is closed; when another instance holds it, or the lock cannot be created (a
    // read-only folder), the project opens read-only and readOnlyReason() says which. Errors
    // name the file and say what is wrong; nothing is written.
    static Result<Project> open(const std::string &path, OpenAccess access = OpenAccess::ReadWrite);
    // The same checks on bytes already in memory (fuzzing, recovery); name is for messages.
    static Result<Project> openBytes(const std::string &bytes, const std::string &name);

    // Saves to path (the file this project came from, or a new one). Fails without touching an
    // existing file at path; the message names the path and the reason.
    Status save(const std::string &path);
    // Writes a copy to path without making it this project's file (export).
    Status saveCopy(const std::string &path) const;
    // Autosave: writes the working copy to recoveryFileFor(documentKey), the same atomic way,
    // marked with the key so that a later start can offer it back. documentKey is the project's
    // path, or any stable id for an unsaved document.
    Status saveRecovery(const std::string &documentKey) const;
    // The key a recovery file was written for ("" for an ordinary project file).
    std::string recoveryKey() const;

    const std::string &path() const { return m_path; }
    bool readOnly() const { return m_readOnly; }
    bool lockedByOther() const { return m_lockedByOther; }
    // Why the project is read-only, in a phrase ("is open for writing in another instance");
    // empty when it is not.
    const std::string &readOnlyReason() const { return m_readOnlyReason; }
    // Set when the file was written by an older version and has been migrated in memory.
    std::optional<int> migratedFrom() const { return m_migratedFrom; }
    // The version of GPU Workbench that last wrote the file ("" for a new project).
    const std::string &writer() const { return m_writer; }
    int fileSchemaVersion() const { return m_fileSchema; }

    // Scenarios, in their order.
    std::vector<Scenario> scenarios() const;
    std::optional<Scenario> scenario(const std::string &name) const;
    // Adds or replaces a scenario. The JSON must be an object; it is stored canonically. Errors
    // name the scenario.
    Status putScenario(const std::string &name, const std::string &briefJson);
    Status renameScenario(const std::string &from, const std::string &to);
    Status duplicateScenario(const std::string &from, const std::string &to);
    Status removeScenario(const std::string &name);
    // Puts the named scenarios in this order (names not listed keep their place after them).
    Status orderScenarios(const std::vector<std::string> &names);

    // Result snapshots, oldest first; all scenarios' when scenario is empty.
    std::vector<ResultSnapshot> snapshots(const std::string &scenario = {}) const;
    // Records a scenario's results (the results JSON), replacing its earlier snapshot.
    Status putSnapshot(const std::string &scenario, const std::string &engineVersion, const std::string &resultsJson);

    // The vendor checklist: the template version it answers, the team's own sections and items,
    // the vendors and their answers. A file whose checklist rows are not valid (an unknown
    // answer, a bad date, an answer naming no vendor, evidence naming no stored file) does not
    // open (openBytes says which row).
    ProjectChecklist checklist() const;
    // Replaces the checklist as a whole (one transaction): vendor names must be unique and valid,
    // every attachment an answer names must be stored (attach()) first. Errors name the vendor.
    Status putChecklist(const ProjectChecklist &checklist);
    // Whether putChecklist would store it, writing nothing; the same errors.
    Status checkChecklist(const ProjectChecklist &checklist) const;
    // Stores a file's bytes as evidence (kAttachmentMaxBytes at most; larger is refused, saying
    // the size and the limit) and returns its reference; the same bytes are stored once. Stored
    // files stay in the project (an undo may bring their answer back).
    Result<Attachment> attach(const std::string &fileName, const std::string &bytes);
    // A stored file's bytes, by SHA-256; empty when the project does not hold it.
    std::optional<std::string> attachment(const std::string &sha256) const;

    // Measured runs (evidence/evidence.h), in import order; one scenario's when named. Each is
    // read again from its stored file with the mapping decided at import (openBytes refuses a
    // file whose runs do not read, naming the run).
    std::vector<EvidenceRun> evidence(const std::string &scenario = {}) const;
    // Stores a run whose file is stored (attach()): a new id when run.id is 0, else that id (an
    // undo restoring it). Returns the id.
    Result<long long> putEvidence(const EvidenceRun &run);
    Status removeEvidence(long long id);
    // Decision records, oldest first; one scenario's when named.
    std::vector<StoredRecord> records(const std::string &scenario = {}) const;
    // Stores a record of an existing scenario and returns its id (records are append-only): a
    // new id when id is 0, else that id (the redo of an undone recording).
    Result<long long> putRecord(const std::string &scenario, const std::string &created, const std::string &contentJson,
                                long long id = 0);
    // Takes back a record just made (the undo of recording it); nothing else removes a record.
    Status removeRecord(long long id);
    // Whether a scenario's figures use the calibration from its runs (on by default).
    Status setEvidenceCalibration(const std::string &scenario, bool on);

    // Several writes as one step: when one of them fails, none stays (the project is as it was
    // before) and its error is returned.
    Status transact(const std::function<Status()> &writes);

    // The document as SQL-independent text (meta excluded), for comparing two projects.
    std::string contentDigest() const;

private:
    Project();
    sqlite3 *m_db = nullptr;
    std::string m_path;
    bool m_readOnly = false;
    bool m_lockedByOther = false;
    std::optional<int> m_migratedFrom;
    std::string m_writer;
    int m_fileSchema = kProjectSchemaVersion;
    bool m_backupDone = false;
    std::string m_readOnlyReason;
    std::unique_ptr<store::FileLock> m_lock;
};

// A scenario's brief, parsed: the one way the document, the CLI and the scenario comparison read
// a stored scenario. Errors name the file (path, or the project's own when empty) and scenario.
Result<Brief> scenarioBrief(const Project &project, const std::string &scenario, const Catalog &catalog,
                            const std::string &path = {});

// The questions a project's checklist asks: the shipped template (loadChecklistTemplate, under
// `resources`) with the team's own sections and items; the checklist's template version is the
// shipped one's until answers are stored against it.
Result<ChecklistTemplate> checklistTemplateOf(const Project &project, const std::string &resources = {});

// Reads a checklist answers file (procurement/vendors.h) against the project's questions and
// returns the project's checklist with it merged, for the caller to store (putChecklist) or to
// undo. Files its answers give as "evidence_file" (relative to the answers file) are read and
// checked first (regular files, kAttachmentMaxBytes each) and attached only when all are;
// "attachment" entries must name files the project holds. Errors name the file and the field.
Result<ProjectChecklist> importAnswers(Project &project, const std::string &path, const ChecklistTemplate &tmpl);

// Reads a benchmark results file (evidence/runs.h) and maps each of its runs to a scenario's
// candidate (evidence/evidence.h: what the file does not say comes from `mapping`, or for the
// deployment from the candidate). Every run must map, or nothing happens and the error names the
// file, the run and the field; then the file is attached and the runs returned, unstored (id 0),
// for the caller to store (putEvidence) or to undo.
Result<std::vector<EvidenceRun>> prepareEvidence(Project &project, const std::string &path, const std::string &scenario,
                                                 std::size_t candidate, const RunMapping &mapping,
                                                 const std::string &importedBy, const Catalog &catalog);

// Where autosaved working copies live: $GPUWB_RECOVERY_DIR, else
// $XDG_STATE_HOME/gpu-workbench/recovery, else ~/.local/state/gpu-workbench/recovery.
std::string recoveryDir();
// The recovery file for a document (its path, or an id for an unsaved one).
std::string recoveryFileFor(const std::string &documentKey);
// Recovery files left by sessions that did not close cleanly, newest first; a file another
// running process keeps (claimRecovery) is not one of them.
std::vector<std::string> pendingRecoveryFiles();
// Marks a recovery file as kept by this process (Project::saveRecovery does).
void claimRecovery(const std::string &recoveryFile);
// Deletes the recovery data of a document (after a clean save or close, or when the user
// declines to recover it).
void discardRecovery(const std::string &documentKey);

// A scenario's inputs for a decision record (record/record.h): its brief, runs and calibration
// switch, the project's checklist with its questions, and its latest record. Errors name the
// scenario (or the checklist template).
Result<ScenarioSnapshot> scenarioSnapshot(const Project &project, const std::string &scenario, const std::string &resources = {});

} // namespace wb
