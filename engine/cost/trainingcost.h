// The cost of a completed training or fine-tuning run (trainingcost.cpp): the seed's
// training_run_cost lines per pricing option, each option's lines and total being for one run
// (CostOption::perRun), and its cost per accepted output the run's cost over the share of runs
// that pass their evaluation.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "cost/cost.h"
#include "performance/training.h"

#include <string>

namespace wb {

CandidateCost costTrainingRun(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu,
                              const TrainingPerformance &training, const Catalog &catalog, const std::string &today);

} // namespace wb
