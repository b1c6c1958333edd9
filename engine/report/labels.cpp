#include "report/labels.h"

#include <fmt/format.h>

namespace wb {

std::string candidateLabel(const Candidate &c)
{
    std::string label = std::to_string(c.gpus) + "x " + c.gpu + " TP" + std::to_string(c.tensorParallel);
    if (c.pipelineParallel > 1)
        label += " PP" + std::to_string(c.pipelineParallel);
    return label;
}


std::string recommendationHeadline(const Recommendation &r, const Candidate *candidate)
{
    std::string s(enumName(r.route));
    if (candidate)
        s += ", " + candidateLabel(*candidate) + (r.term ? fmt::format(" ({})", enumName(*r.term)) : "");
    return s + fmt::format(", ${:.6f} per accepted output, ${:.2f} a month", r.costPerAcceptedOutput, r.usdPerMonth);
}

std::string rankingHeldBackText(const std::vector<BriefItem> &missing)
{
    if (missing.empty())
        return {};
    std::string items;
    for (const BriefItem &item : missing)
        items += fmt::format("{}{} ({})", items.empty() ? "" : "; ", item.name, item.pointer);
    return "the ranking and recommendation are held back until the brief gives: " + items;
}

} // namespace wb
