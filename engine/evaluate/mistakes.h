// The seed's six common mistakes ("errores comunes"), checked over a comparison's priced
// candidates and worded for the brief's kind: a service (per accepted output), a media pipeline
// (per accepted image or clip, at a batch) or a training run (per accepted run). Internal to
// summarizeCost (recommend.cpp).
#pragma once

#include "catalog/catalog.h"
#include "cost/cost.h"
#include "evaluate/evaluate.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace wb::detail {

// Mistakes 1 to 5. `rent`: the candidate and option of the cheapest rented GPU option, if any
// (mistake 1 compares the cheapest hourly rate with it).
void warnCommonMistakes(const Brief &brief, const std::vector<CandidateResult> &results, const Catalog &catalog,
                        std::optional<std::pair<std::size_t, const CostOption *>> rent, std::vector<Warning> &warnings);

// Mistake 6: a reservation or purchase sized only for today's model, on the recommended candidate.
void warnTodaysModel(const Brief &brief, const CandidateResult &recommended, Route route, std::vector<Warning> &warnings);

} // namespace wb::detail
