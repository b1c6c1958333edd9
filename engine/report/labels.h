// Text both presentations use, so that the CLI's table and the window say the same thing in
// the same words: the recommendation's headline; with it, through the brief headers included
// here, candidateLabel (brief.h) and rankingHeldBackText (completeness.h).
#pragma once

#include "brief/brief.h"
#include "brief/completeness.h"
#include "core/types.h"
#include "cost/cost.h"
#include "evaluate/evaluate.h"

#include <string>
#include <vector>

namespace wb {

// "api, $0.000460 per accepted output, $4,966.92 a month" or "rent, 8x h100-sxm-80gb TP2
// (on-demand), ...": the results' recommendation in one line, without its reasons, naming the
// deployment priced (a candidate's resize when it has one). Empty without a recommendation.
std::string recommendationHeadline(const Results &results);

// A cost line item in words ("idle_capacity" -> "Idle capacity"), and its place in the one order
// every chart and table lists line items in; unknown names go last, as they are.
std::string costLineTitle(const std::string &name);
int costLineOrder(const std::string &name);
// A cost line's colour index (charts): distinct among the lines one option of any kind has.
int costLineColour(const std::string &name);

// The deployment a candidate's figures stand for: its label, or for a candidate sized to hold
// the brief "2x l40s-48gb (sized from 1)".
std::string deploymentLabel(const CandidateResult &result);
// Where a candidate's step-model factors come from: "shipped calibration" or "calibrated from N runs".
std::string provenanceText(const CandidateResult &result);

} // namespace wb
