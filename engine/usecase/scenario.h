// The use cases of a project's scenario: the one place where its evaluation is put together, for
// the window (whose evaluator only runs this on its thread) and for gpuwb alike. A scenario's
// figures are the engine's evaluation of its brief, calibrated from its measured runs when its
// switch is on (evidence/evidence.h), then gated by the project's checklist (procurement/gate.h);
// after the full evaluation its runs are compared with the predictions. Nothing in app/ or ui/
// calls the calibration, the gate or the comparison itself (a layering test checks it).
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "evaluate/evaluate.h"
#include "evidence/evidence.h"
#include "procurement/vendors.h"
#include "store/project.h"

#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

namespace wb {

using Calibrations = std::vector<EvidenceCalibration>;

// The last calibration fitted, and its calibrationKey(): a calibration costs seconds (many
// evaluations of the runs), so a window keeps it while the runs and the brief's model side stay
// the same. Safe to share between threads.
class CalibrationCache
{
public:
    // The calibration kept for `key`; null when another (or none) is kept.
    std::shared_ptr<const Calibrations> find(const std::string &key) const;
    void keep(std::string key, std::shared_ptr<const Calibrations> calibrations);

private:
    mutable std::mutex m_mutex;
    std::string m_key;
    std::shared_ptr<const Calibrations> m_calibrations;
};

// A scenario's measured runs and its calibration switch; `key` (calibrationKey of the brief and
// the runs) finds a kept calibration in ScenarioRunOptions::cache.
struct ScenarioEvidence
{
    std::vector<EvidenceRun> runs;
    bool calibrate = true;
    std::string key;
};

// What gates a project's scenario: its name, the checklist template and the vendors' answers.
struct ScenarioGate
{
    std::string scenario;
    ChecklistTemplate checklistTemplate;
    ProjectChecklist checklist;
};

struct ScenarioRunOptions
{
    bool quickFirst = false;   // a quick first pass (Results::preview, uncalibrated unless the
                               // cache holds this key's calibration) before the full one
    bool analyse = false;      // after the full pass, compare the runs with the predictions
    std::string today;         // EvaluateOptions::today
    std::stop_token stop;
    CalibrationCache *cache = nullptr;
    // The brief's fits, when the caller has made them (EvaluateOptions::fits); otherwise the
    // first pass fits and the second reuses its fits.
    std::shared_ptr<const std::vector<FitResult>> fits;
    // Each pass gated by the project's checklist as it is made (gateScenario), when given.
    std::shared_ptr<const ScenarioGate> gate;
    // Each pass's figures, gated when `gate` is given, in order, on the calling thread: shared,
    // not copied (the window keeps them as they come).
    std::function<void(std::shared_ptr<const Results>)> onPass;
};

struct ScenarioEvaluation
{
    std::shared_ptr<Results> results = std::make_shared<Results>();  // the full pass (gated with `gate`)
    std::shared_ptr<const Calibrations> calibrations;   // applied; null or empty: none
    std::shared_ptr<const EvidenceAnalysis> analysis;   // with `analyse` and runs; null otherwise
    bool stopped = false;                               // the stop was requested: figures incomplete
};

// Evaluates the brief as its scenario: never throws. An exception in the engine ends the run with
// results whose engineError says so; a calibration that fails leaves the figures uncalibrated
// (they then claim no calibration); a comparison that fails is left out.
ScenarioEvaluation evaluateScenario(const Brief &brief, const Catalog &catalog, const ScenarioEvidence &evidence,
                                    const ScenarioRunOptions &options = {});

// Applies the project's checklist to a scenario's figures fresh from evaluateScenario (once:
// gateByChecklist adds a reason and a warning). Without a template there is nothing to gate.
void gateScenario(Results &results, const std::string &scenario, const ChecklistTemplate *checklistTemplate,
                  const ProjectChecklist &checklist);
void gateScenario(Results &results, const ScenarioGate &gate);

// A scenario of a project, evaluated as the project shows it (calibrated, gated), with its
// checklist for the exports. Errors name `path` (the project's own file when empty) and the scenario.
struct ProjectEvaluation
{
    Brief brief;
    Results results;
    ChecklistTemplate checklistTemplate;
    ProjectChecklist checklist;
};
Result<ProjectEvaluation> evaluateProjectScenario(const Project &project, const std::string &scenario,
                                                  const Catalog &catalog, const std::string &path = {});

// A scenario's runs against the predictions before and (with `calibrate`) after their calibration
// (`gpuwb evidence compare`).
struct EvidenceComparison
{
    Calibrations calibrations;
    std::vector<RunPrediction> predictions;
};
EvidenceComparison compareEvidence(const Brief &brief, const std::vector<EvidenceRun> &runs, bool calibrate,
                                   const Catalog &catalog);

} // namespace wb
