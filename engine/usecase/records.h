// The use cases of decision records: make one from a scenario as the project shows it, and
// recompute one with this version of the engine and the project's checklist as it stands. The
// window's Record page and `gpuwb record` / `gpuwb report` both go through these.
#pragma once

#include "record/record.h"

#include <optional>
#include <stop_token>
#include <string>

namespace wb {

// Evaluates the scenario as the project shows it (usecase/scenario.h: calibrated from its runs
// when switched on, gated by its checklist) and makes its record (a draft without a decision).
// A stop request returns an error saying so.
Result<std::string> recordScenario(const ScenarioSnapshot &snapshot, const Catalog &catalog,
                                   const std::optional<RecordDecision> &decision, const std::string &created,
                                   std::stop_token stop = {});

// Recomputes a stored record of `scenario` (record/record.h: recomputeDecisionRecord) with the
// project's checklist as it stands, compared with the recorded one and gating the new figures.
Result<Recomputation> recomputeRecord(const RecordView &record, const std::string &scenario, const Catalog &catalog,
                                      const ChecklistTemplate &checklistTemplate, const ProjectChecklist &checklist);

} // namespace wb
