#include "usecase/scenario.h"

#include "core/guard.h"
#include "procurement/gate.h"

namespace wb {

std::shared_ptr<const Calibrations> CalibrationCache::find(const std::string &key) const
{
    const std::lock_guard lock(m_mutex);
    return key == m_key ? m_calibrations : nullptr;
}

void CalibrationCache::keep(std::string key, std::shared_ptr<const Calibrations> calibrations)
{
    const std::lock_guard lock(m_mutex);
    m_key = std::move(key);
    m_calibrations = std::move(calibrations);
}

ScenarioEvaluation evaluateScenario(const Brief &brief, const Catalog &catalog, const ScenarioEvidence &evidence,
                                    const ScenarioRunOptions &options)
{
    ScenarioEvaluation out;
    const bool calibrating = evidence.calibrate && !evidence.runs.empty();
    // A kept calibration only when it is this brief's and runs' (the quick pass of another
    // scenario, or of changed runs, is uncalibrated until its own calibration is done).
    if (calibrating && options.cache)
        out.calibrations = options.cache->find(evidence.key);
    std::shared_ptr<const std::vector<FitResult>> fits = options.fits;
    const auto pass = [&](bool preview) {
        if (calibrating && !preview && !out.calibrations) {
            auto fitted = guarded("the calibration from measured runs", [&] {
                return calibrateFromEvidence(brief, evidence.runs, catalog, catalog.efficiency(), options.stop);
            });
            if (options.stop.stop_requested())
                return false;
            // Kept even when it failed: the next edit does not fit it again.
            out.calibrations = std::make_shared<const Calibrations>(fitted ? std::move(fitted).value() : Calibrations{});
            if (options.cache)
                options.cache->keep(evidence.key, out.calibrations);
        }
        EvaluateOptions eo;
        eo.today = options.today;
        eo.stop = options.stop;
        eo.preview = preview;
        eo.fits = fits;
        if (calibrating && out.calibrations)
            eo.candidateEfficiency = candidateEfficiencies(*out.calibrations);
        auto done = guarded("the engine", [&] { return evaluate(brief, catalog, eo); });
        if (done) {
            out.results = std::make_shared<Results>(std::move(done).value());
        } else {
            // A failure outside the candidates' workers (they catch their own): the run reports it
            // and ends.
            out.results = std::make_shared<Results>();
            out.results->briefName = brief.name;
            out.results->engineError = done.error().message;
        }
        if (!fits && !out.results->engineError && !out.results->cancelled)
            fits = fitsOf(*out.results);
        if (options.gate && !out.results->engineError)
            gateScenario(*out.results, *options.gate);
        if (options.onPass)
            options.onPass(out.results);
        return !out.results->engineError && !options.stop.stop_requested();
    };
    if (options.quickFirst && !pass(true)) {
        out.stopped = options.stop.stop_requested();
        return out;
    }
    if (!pass(false)) {
        out.stopped = options.stop.stop_requested();
        return out;
    }
    if (options.analyse && !evidence.runs.empty()) {
        auto analysis = guarded("the comparison with the measured runs", [&] {
            return analyzeEvidence(brief, evidence.runs, catalog, catalog.efficiency(),
                                   calibrating && out.calibrations ? *out.calibrations : Calibrations{}, options.stop);
        });
        if (analysis && !options.stop.stop_requested())
            out.analysis = std::make_shared<const EvidenceAnalysis>(std::move(analysis).value());
    }
    out.stopped = options.stop.stop_requested();
    return out;
}

void gateScenario(Results &results, const std::string &scenario, const ChecklistTemplate *checklistTemplate,
                  const ProjectChecklist &checklist)
{
    if (checklistTemplate && !scenario.empty())
        gateByChecklist(results, scenario, *checklistTemplate, checklist);
}

void gateScenario(Results &results, const ScenarioGate &gate)
{
    gateScenario(results, gate.scenario, &gate.checklistTemplate, gate.checklist);
}

Result<ProjectEvaluation> evaluateProjectScenario(const Project &project, const std::string &scenario,
                                                  const Catalog &catalog, const std::string &path)
{
    const std::optional<Scenario> stored = project.scenario(scenario);
    auto brief = scenarioBrief(project, scenario, catalog, path);
    if (!brief)
        return brief.error();
    auto tmpl = checklistTemplateOf(project);
    if (!tmpl)
        return tmpl.error();
    ScenarioEvidence evidence;
    evidence.runs = project.evidence(scenario);
    evidence.calibrate = !stored || stored->evidenceCalibration;
    ProjectEvaluation out{std::move(brief).value(), {}, std::move(tmpl).value(), project.checklist()};
    out.results = std::move(*evaluateScenario(out.brief, catalog, evidence).results);
    gateScenario(out.results, scenario, &out.checklistTemplate, out.checklist);
    return out;
}

EvidenceComparison compareEvidence(const Brief &brief, const std::vector<EvidenceRun> &runs, bool calibrate,
                                   const Catalog &catalog)
{
    EvidenceComparison out;
    if (calibrate)
        out.calibrations = calibrateFromEvidence(brief, runs, catalog, catalog.efficiency());
    out.predictions = predictRuns(brief, runs, catalog, catalog.efficiency(), out.calibrations);
    return out;
}

} // namespace wb
