// RecordDecision records: a scenario frozen for review (the method's "registro de decisión": keep the
// inputs, the outputs and the acceptance criteria). A record holds the brief, the catalog and
// price entries its figures used (with sources and dates), the step-model calibration applied,
// the results, the checklist's state, the imported runs, the option chosen with its rationale and
// sign-off, the engine version, and the SHA-256 of its canonical content. Records are never
// edited: a later one supersedes. A record can be recomputed with this version of the engine and
// catalog; the differences list every input and figure that moved, with both values.
//
// The content is canonical JSON (object keys sorted, compact): the hash covers it whole except
// its own "sha256" member.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "core/result.h"
#include "evaluate/evaluate.h"
#include "evidence/evidence.h"
#include "procurement/vendors.h"

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace wb {

// What was decided. Exactly one of: a candidate at one of its pricing terms, a candidate's
// hybrid with the model API, or the model API (no candidate).
struct RecordDecision
{
    std::optional<std::size_t> candidate;  // index into the brief's candidates
    std::optional<PricingTerm> term;
    bool hybrid = false;
    std::string rationale;                 // why, in the team's words (required)
    std::vector<std::string> signOff;      // who signs, "Name, role" each (at least one)
    std::string date;                      // ISO date of the decision
};

// What the record is made from: a scenario as the project evaluates it.
struct RecordInputs
{
    std::string scenario;
    std::string briefJson;                         // the scenario's brief as stored
    const Brief *brief = nullptr;
    const Results *results = nullptr;
    const Catalog *catalog = nullptr;
    std::vector<EvidenceCalibration> calibrations;  // applied from the scenario's runs (may be empty)
    std::vector<EvidenceRun> runs;                  // the scenario's measured runs
    const ChecklistTemplate *checklistTemplate = nullptr;  // the project's checklist (none: a brief alone)
    const ProjectChecklist *checklist = nullptr;
    std::string created;                            // ISO date-time, UTC
    std::optional<long long> supersedes;            // the record this one replaces
};

// The record's canonical JSON: besides the above, the benchmark plan (its acceptance criteria),
// the runs measured against their predictions, and each vendor's open checklist items at the
// decision's commitment (reserve: reserved; buy: purchase; otherwise on demand). With a decision, it is checked (the candidate exists, the term is
// one of its priced options, the route is available, a rationale and a sign-off are given, the
// date is an ISO date); errors name the field. Without one, a draft (for a report of the
// scenario as it stands), marked as such.
Result<std::string> makeDecisionRecord(const RecordInputs &inputs, const std::optional<RecordDecision> &decision);

// A scenario's inputs as a project holds them, copied out so that a record can be made away
// from the project (another thread): its brief, runs and calibration switch, and the project's
// checklist (store/project.h fills it: scenarioSnapshot).
struct ScenarioSnapshot
{
    std::string scenario;
    std::string briefJson;
    std::vector<EvidenceRun> runs;
    bool calibrate = true;
    std::optional<ChecklistTemplate> checklistTemplate;
    ProjectChecklist checklist;
    std::optional<long long> supersedes;   // the scenario's latest record
};
// (usecase/records.h evaluates it as the project shows it and makes its record: recordScenario.)

// A stored record, read back.
struct RecordView
{
    std::string scenario, created, engineVersion, sha256;
    bool intact = false;          // the content hashes to its sha256
    bool draft = false;
    std::optional<long long> supersedes;
    std::string briefJson;        // as recorded
    std::string resultsJson;      // the figures as recorded (the results JSON of the spec)
    std::string contentJson;      // the whole record
    std::string today;            // the date its prices were aged against
    std::string decisionText;     // "4x b200-180gb (rent): why ...", or "draft: no decision recorded"
    std::string choice;           // the option and route alone, "4x b200-180gb (rent)" (empty for a draft)
    std::optional<RecordDecision> decision;
};
Result<RecordView> readDecisionRecord(const std::string &contentJson, const std::string &name);

// One difference between a record and its recomputation: a JSON pointer into the record's
// catalog entries (an input) or into its results (a figure), and both values as JSON text
// ("(none)" where one side has no such value).
struct RecordChange
{
    bool input = false;
    std::string pointer;
    std::string before, after;
};
struct Recomputation
{
    std::string resultsJson;               // the figures today
    std::vector<RecordChange> changes;     // empty: nothing moved
    std::vector<std::string> notes;        // what could not be reproduced, and why
};
// What a record is recomputed with: this version's catalog, and the project's checklist as it
// stands (its exchange JSON, compared with the recorded one, and the gate that applies it to the
// new figures: gateByChecklist, procurement/gate.h).
struct RecomputeWith
{
    const Catalog *catalog = nullptr;
    std::string checklistJson;
    std::function<void(Results &)> gate;
};
// Evaluates the record's brief again with this engine, catalog and checklist, its prices aged
// against the record's date and its recorded calibration applied, and lists what changed.
Result<Recomputation> recomputeDecisionRecord(const RecordView &record, const RecomputeWith &with);

std::string recomputationMarkdown(const RecordView &record, const Recomputation &r);
std::string recomputationJson(const RecordView &record, const Recomputation &r);

} // namespace wb
