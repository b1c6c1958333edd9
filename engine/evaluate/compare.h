// Two scenarios side by side: what changed in the brief (field by field, as JSON pointers) and
// what changed in the results (the decision's figures per candidate, matched by GPU,
// parallelism, serving stack and weight precision: not by the count entered, which the
// deployment does not depend on).
#pragma once

#include "evaluate/evaluate.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct FieldChange
{
    std::string pointer;  // "/workload/traffic/request_rate_per_s"
    std::string before;   // the value in the first brief as compact JSON; "" when absent
    std::string after;    // the value in the second; "" when absent
};

// Every leaf that differs between two briefs' JSON texts, in document order. Invalid JSON on
// either side gives one change at "" holding the texts.
std::vector<FieldChange> diffBriefs(const std::string &beforeJson, const std::string &afterJson);

struct FigureChange
{
    std::string candidate;  // "h100-sxm-80gb TP2 PP1 vllm"
    std::string figure;     // "cost per accepted output" (in the engine's units: USD, seconds, fractions)
    std::optional<double> before, after;  // absent: not computed, or the candidate is not in that scenario
    bool lowerIsBetter = true;
};

// The decision's figures of every candidate in either result: fit headroom, output tokens/s per
// GPU, highest rate within the SLO, TTFT and TPOT p99 at the brief's traffic, cost per accepted
// output (cheapest price). Candidates of one scenario only appear with one side empty.
std::vector<FigureChange> compareResults(const Results &before, const Results &after);

} // namespace wb
