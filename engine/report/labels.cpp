#include "report/labels.h"

#include <fmt/format.h>

namespace wb {

std::string recommendationHeadline(const Results &results)
{
    if (!results.cost.recommendation)
        return {};
    const Recommendation &r = *results.cost.recommendation;
    const Candidate *candidate = r.candidate && *r.candidate < results.results.size()
                                     ? &deployment(results.results[*r.candidate]).candidate
                                     : nullptr;
    std::string s(enumName(r.route));
    if (candidate)
        s += ", " + candidateLabel(*candidate) + (r.term ? fmt::format(" ({})", enumName(*r.term)) : "");
    return s + fmt::format(", ${:.6f} per accepted output, ${:.2f} a month", r.costPerAcceptedOutput, r.usdPerMonth);
}

std::string deploymentLabel(const CandidateResult &result)
{
    if (!result.resized)
        return candidateLabel(result.candidate);
    return candidateLabel(result.resized->candidate) + fmt::format(" (sized from {})", result.candidate.gpus);
}

} // namespace wb
