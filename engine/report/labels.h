// Text both presentations use, so that the CLI's table and the window say the same thing in
// the same words: candidate labels, the recommendation's headline and why a ranking is held back.
#pragma once

#include "brief/completeness.h"
#include "core/types.h"
#include "cost/cost.h"

#include <string>
#include <vector>

namespace wb {

// "8x h100-sxm-80gb TP2 PP2": count, GPU id and the parallelism that is not 1 (TP always).
std::string candidateLabel(const Candidate &candidate);

// "api, $0.000460 per accepted output, $4,966.92 a month" or "rent, 8x h100-sxm-80gb TP2
// (on-demand), ...": the recommendation in one line, without its reasons.
// `candidate` is the recommended candidate (nullptr for the API route).
std::string recommendationHeadline(const Recommendation &recommendation, const Candidate *candidate);

// "the ranking and recommendation are held back until the brief gives: latency targets
// (/workload/slo); acceptance (/workload/acceptance)"; empty when nothing holds them back.
std::string rankingHeldBackText(const std::vector<BriefItem> &missing);

} // namespace wb
