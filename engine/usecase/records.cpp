#include "usecase/records.h"

#include "usecase/scenario.h"

#include "procurement/gate.h"

namespace wb {

Result<std::string> recordScenario(const ScenarioSnapshot &s, const Catalog &catalog,
                                   const std::optional<RecordDecision> &decision, const std::string &created,
                                   std::stop_token stop)
{
    auto brief = parseBrief(s.briefJson, "scenario \"" + s.scenario + "\"", catalog);
    if (!brief)
        return brief.error();
    ScenarioRunOptions options;
    options.stop = stop;
    ScenarioEvaluation done = evaluateScenario(*brief, catalog, {s.runs, s.calibrate, {}}, options);
    if (done.stopped || done.results->cancelled)
        return Error{"", "", "the record was not made: stopped before the figures were complete"};
    if (done.results->engineError)
        return Error{"", "", "the record was not made: the engine failed (" + *done.results->engineError + ")"};
    gateScenario(*done.results, s.scenario, s.checklistTemplate ? &*s.checklistTemplate : nullptr, s.checklist);
    RecordInputs in;
    in.scenario = s.scenario;
    in.briefJson = s.briefJson;
    in.brief = &*brief;
    in.results = done.results.get();
    in.catalog = &catalog;
    if (s.calibrate && done.calibrations)
        in.calibrations = *done.calibrations;
    in.runs = s.runs;
    if (s.checklistTemplate) {
        in.checklistTemplate = &*s.checklistTemplate;
        in.checklist = &s.checklist;
    }
    in.created = created;
    in.supersedes = s.supersedes;
    return makeDecisionRecord(in, decision);
}

Result<Recomputation> recomputeRecord(const RecordView &record, const std::string &scenario, const Catalog &catalog,
                                      const ChecklistTemplate &checklistTemplate, const ProjectChecklist &checklist)
{
    RecomputeWith with;
    with.catalog = &catalog;
    with.checklistJson = answersToJson(checklistTemplate, checklist);
    with.gate = [&](Results &results) { gateScenario(results, scenario, &checklistTemplate, checklist); };
    return recomputeDecisionRecord(record, with);
}

} // namespace wb
