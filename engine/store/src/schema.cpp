#include "schema.h"

#include "core/limits.h"
#include "sqlite.h"
#include "store/project.h"

#include <nlohmann/json.hpp>

#include <map>
#include <vector>

namespace wb::store {

namespace {

// Schema 1: the first project files.
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
// Schema 2 adds the tables later features fill.
const char *kMigrate1to2 = R"(
CREATE TABLE checklist_answers (id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, section TEXT NOT NULL,
                                question TEXT NOT NULL, answer TEXT NOT NULL DEFAULT '',
                                evidence TEXT NOT NULL DEFAULT '') STRICT;
CREATE TABLE benchmark_evidence (id INTEGER PRIMARY KEY, scenario TEXT, kind TEXT NOT NULL, source TEXT NOT NULL,
                                 imported TEXT NOT NULL, content TEXT NOT NULL) STRICT;
CREATE TABLE decision_records (id INTEGER PRIMARY KEY, scenario TEXT, created TEXT NOT NULL,
                               content_json TEXT NOT NULL) STRICT;
)";

// Schema 3 drops price_overrides: prices belong to a scenario's brief (its cost.prices, which the
// window's price quotes write), so that a brief exported from a project costs the same outside
// it. Rows an older file holds are copied into every scenario's brief first: nothing is lost.
Status migrate2to3(sqlite3 *db)
{
    std::vector<nlohmann::ordered_json> prices;
    {
        Statement s(db, "SELECT gpu, provider, term, usd_per_gpu_hour, usd_per_gpu, observed, source, note "
                        "FROM price_overrides ORDER BY id");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) {
            nlohmann::ordered_json p = {{"gpu", s.text(0)}, {"provider", s.text(1)}, {"term", s.text(2)}};
            if (!s.isNull(3))
                p["usd_per_gpu_hour"] = s.real(3);
            if (!s.isNull(4))
                p["usd_per_gpu"] = s.real(4);
            p["observed"] = s.text(5);
            p["source"] = s.text(6);
            if (!s.text(7).empty())
                p["note"] = s.text(7);
            prices.push_back(std::move(p));
        }
        if (rc != SQLITE_DONE)
            return Error{"", "", "its price overrides cannot be read: " + s.error()};
    }
    if (!prices.empty()) {
        std::vector<std::pair<long long, std::string>> briefs;
        {
            Statement s(db, "SELECT id, brief_json FROM scenarios");
            while (s.step() == SQLITE_ROW)
                briefs.emplace_back(s.integer(0), s.text(1));
        }
        for (auto &[id, text] : briefs) {
            if (limits::checkJsonText(text))
                continue;  // openBytes refuses such a file before this
            nlohmann::ordered_json brief = nlohmann::ordered_json::parse(text, nullptr, false);
            if (!brief.is_object())
                continue;  // openBytes refuses such a file before this
            nlohmann::ordered_json &cost = brief["cost"];
            if (!cost.is_object())
                cost = nlohmann::ordered_json::object();
            nlohmann::ordered_json &list = cost["prices"];
            if (!list.is_array())
                list = nlohmann::ordered_json::array();
            for (const auto &p : prices)
                list.push_back(p);
            Statement u(db, "UPDATE scenarios SET brief_json = ?2 WHERE id = ?1");
            if (Status s = u.bind(1, id).bind(2, brief.dump(2)).run("a scenario could not take the project's prices"); !s)
                return s;
        }
    }
    return exec(db, "DROP TABLE price_overrides");
}

// Schema 4: the vendor checklist (vendors, their answers, evidence files, the team's own items
// and sections). checklist_answers was created by schema 2 but never written; any row a file
// holds anyway is kept, untouched, in legacy_checklist_answers.
const char *kMigrate3to4 = R"(
ALTER TABLE checklist_answers RENAME TO legacy_checklist_answers;
CREATE TABLE vendors (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL UNIQUE, offer TEXT NOT NULL,
                      providers_json TEXT NOT NULL DEFAULT '[]', candidates_json TEXT NOT NULL DEFAULT '[]',
                      contact TEXT NOT NULL DEFAULT '', contacted TEXT NOT NULL DEFAULT '',
                      notes TEXT NOT NULL DEFAULT '') STRICT;
CREATE TABLE checklist_answers (id INTEGER PRIMARY KEY, vendor INTEGER NOT NULL REFERENCES vendors(id), item TEXT NOT NULL,
                                answer TEXT NOT NULL, text TEXT NOT NULL DEFAULT '', evidence_link TEXT NOT NULL DEFAULT '',
                                attachment TEXT REFERENCES attachments(sha256), answered_on TEXT NOT NULL DEFAULT '',
                                answered_by TEXT NOT NULL DEFAULT '', UNIQUE(vendor, item)) STRICT;
CREATE TABLE attachments (sha256 TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, bytes INTEGER NOT NULL,
                          content BLOB NOT NULL) STRICT;
CREATE TABLE checklist_sections (id INTEGER PRIMARY KEY, section TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                                 title_es TEXT NOT NULL DEFAULT '') STRICT;
CREATE TABLE checklist_items (id INTEGER PRIMARY KEY, item TEXT NOT NULL UNIQUE, section TEXT NOT NULL,
                              question TEXT NOT NULL, question_es TEXT NOT NULL DEFAULT '', evidence TEXT NOT NULL,
                              required_from TEXT NOT NULL) STRICT;
)";

// Schema 5: measured runs (each the original file, an attachment, and how it maps to a scenario's
// candidate) and, per scenario, whether its figures use the calibration from its runs. The
// unused benchmark_evidence table of schema 2 stays as it was.
const char *kMigrate4to5 = R"(
CREATE TABLE evidence_runs (id INTEGER PRIMARY KEY, scenario TEXT NOT NULL, candidate INTEGER NOT NULL,
                            file TEXT NOT NULL REFERENCES attachments(sha256), file_name TEXT NOT NULL,
                            run_index INTEGER NOT NULL, gpu TEXT NOT NULL DEFAULT '', gpus INTEGER,
                            tensor_parallel INTEGER, serving_stack TEXT, request_rate REAL, concurrency INTEGER,
                            input_tokens REAL, output_tokens REAL, from_candidate TEXT NOT NULL DEFAULT '',
                            imported_by TEXT NOT NULL DEFAULT '', imported_at TEXT NOT NULL) STRICT;
ALTER TABLE scenarios ADD COLUMN evidence_calibration INTEGER NOT NULL DEFAULT 1;
)";

} // namespace

Status createSchema(sqlite3 *db)
{
    if (Status s = exec(db, kSchema1); !s)
        return s;
    return migrate(db, 1);
}

const std::set<std::string> &tablesOf(int schemaVersion)
{
    static const std::map<int, std::set<std::string>> tables = {
        {1, {"meta", "scenarios", "price_overrides", "result_snapshots"}},
        {2, {"meta", "scenarios", "price_overrides", "result_snapshots", "checklist_answers", "benchmark_evidence",
             "decision_records"}},
        {3, {"meta", "scenarios", "result_snapshots", "checklist_answers", "benchmark_evidence", "decision_records"}},
        {4, {"meta", "scenarios", "result_snapshots", "checklist_answers", "benchmark_evidence", "decision_records",
             "legacy_checklist_answers", "vendors", "attachments", "checklist_sections", "checklist_items"}},
        {5, {"meta", "scenarios", "result_snapshots", "checklist_answers", "benchmark_evidence", "decision_records",
             "legacy_checklist_answers", "vendors", "attachments", "checklist_sections", "checklist_items",
             "evidence_runs"}},
    };
    static const std::set<std::string> none;
    const auto it = tables.find(schemaVersion);
    return it == tables.end() ? none : it->second;
}

Status migrate(sqlite3 *db, int from)
{
    if (from < 2)
        if (Status s = exec(db, kMigrate1to2); !s)
            return s;
    if (from < 3)
        if (Status s = migrate2to3(db); !s)
            return s;
    if (from < 4)
        if (Status s = exec(db, kMigrate3to4); !s)
            return s;
    if (from < 5)
        if (Status s = exec(db, kMigrate4to5); !s)
            return s;
    return exec(db, ("PRAGMA user_version=" + std::to_string(kProjectSchemaVersion)).c_str());
}

} // namespace wb::store
