#include "report/labels.h"

#include <fmt/format.h>

namespace wb {

std::string recommendationHeadline(const Recommendation &r, const Candidate *candidate)
{
    std::string s(enumName(r.route));
    if (candidate)
        s += ", " + candidateLabel(*candidate) + (r.term ? fmt::format(" ({})", enumName(*r.term)) : "");
    return s + fmt::format(", ${:.6f} per accepted output, ${:.2f} a month", r.costPerAcceptedOutput, r.usdPerMonth);
}

} // namespace wb
