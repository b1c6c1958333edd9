// Text both presentations use, so that the CLI's table and the window say the same thing in
// the same words: the recommendation's headline; with it, through the brief headers included
// here, candidateLabel (brief.h) and rankingHeldBackText (completeness.h).
#pragma once

#include "brief/brief.h"
#include "brief/completeness.h"
#include "core/types.h"
#include "cost/cost.h"

#include <string>
#include <vector>

namespace wb {

// "api, $0.000460 per accepted output, $4,966.92 a month" or "rent, 8x h100-sxm-80gb TP2
// (on-demand), ...": the recommendation in one line, without its reasons.
// `candidate` is the recommended candidate (nullptr for the API route).
std::string recommendationHeadline(const Recommendation &recommendation, const Candidate *candidate);

} // namespace wb
