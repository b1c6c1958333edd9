#include "report/labels.h"

#include "core/format.h"

#include <fmt/format.h>

namespace wb {

std::string recommendationHeadline(const Results &results)
{
    if (!results.cost.recommendation)
        return {};
    const Recommendation &r = *results.cost.recommendation;
    // The route in words ("model API", not its JSON spelling "api").
    std::string s = r.route == Route::Api ? std::string("model API") : std::string(enumName(r.route));
    if (r.candidate && *r.candidate < results.results.size()) {
        // The GPUs as priced: the option's count (replicas for the peak), by the catalog's name.
        const CandidateResult &d = deployment(results.results[*r.candidate]);
        int gpus = d.candidate.gpus;
        for (const CostOption &o : d.cost.options)
            if (o.term == r.term)
                gpus = o.gpus;
        // A hybrid's GPUs are its base replicas'; the API takes what bursts add above them.
        const bool hybrid = r.route == Route::Hybrid && results.cost.hybrid;
        if (hybrid)
            gpus = results.cost.hybrid->gpus;
        s += fmt::format(", {} x {} TP{}", gpus, d.gpuName.empty() ? d.candidate.gpu : d.gpuName, d.candidate.tensorParallel)
            + (d.candidate.pipelineParallel > 1 ? fmt::format(" PP{}", d.candidate.pipelineParallel) : std::string())
            + (r.term ? fmt::format(" ({})", termWords(*r.term)) : "")
            + (hybrid && results.cost.api ? fmt::format(" for the base, the model API ({}) for the bursts", results.cost.api->provider)
                                          : std::string());
    } else if (r.route == Route::Api && !r.provider.empty()) {
        s += " (" + r.provider + ")";
    }
    s += r.perRun ? fmt::format(", ${} per {}, ${} a run", usdAmount(r.costPerAcceptedOutput), r.unit, usdAmount(r.usdPerMonth))
                  : fmt::format(", ${:.6f} per {}, ${} a month", r.costPerAcceptedOutput, r.unit, usdAmount(r.usdPerMonth));
    // A commitment the vendor checklist does not yet back (procurement/gate.h).
    return r.evidence ? s + ", subject to evidence" : s;
}

namespace {

// Colours are chosen so that the lines of one kind's option (serving, a training run, media
// generation) never share one among the twelve a chart has, nor with the model API's bar beside
// them, except a training chart's: its API bar's usage shares checkpoint writes' colour and its
// retries share lost work's (twelve colours do not cover both sets).
struct LineItem
{
    const char *name, *title;
    int colour;
};
constexpr LineItem kLineItems[] = {
    {"gpu_compute", "GPU time on accepted work", 0}, {"gpu_hours", "GPU-hours of training", 1},
    {"checkpointing", "Checkpoint writes", 2}, {"failed_run_waste", "Work lost to interruptions and restarts", 5},
    {"api_usage", "API usage on accepted work", 2},
    {"retry_waste", "Retries and rejected outputs", 5}, {"failed_renders", "Failed renders and rejected outputs", 5},
    {"idle_capacity", "Idle capacity", 6}, {"storage", "Storage", 7}, {"serving_stack", "Serving stack", 8},
    {"queue_overhead", "Job queue", 8}, {"network", "Network egress", 9},
    {"moderation_or_quality_filtering", "Moderation and quality filtering", 4}, {"operator_review", "Operator review", 1},
    {"observability", "Observability", 10}, {"vendor_support", "Vendor support", 11}, {"platform_labour", "Platform labour", 3},
    {"depreciation", "Depreciation", 0}, {"power", "Power", 1}, {"colocation", "Colocation", 2},
    {"hardware_support", "Hardware support", 11}, {"api_retry_waste", "API retries and rejected outputs", 5},
    {"api_observability", "API observability", 10}, {"api_platform_labour", "API platform labour", 3}};

} // namespace

std::string costLineTitle(const std::string &name)
{
    for (const LineItem &l : kLineItems)
        if (name == l.name)
            return l.title;
    return name;
}

int costLineColour(const std::string &name)
{
    for (const LineItem &l : kLineItems)
        if (name == l.name)
            return l.colour;
    return 7;
}

int costLineOrder(const std::string &name)
{
    for (std::size_t i = 0; i < std::size(kLineItems); ++i)
        if (name == kLineItems[i].name)
            return int(i);
    return int(std::size(kLineItems));
}

std::string deploymentLabel(const CandidateResult &result)
{
    std::string label = !result.resized ? candidateLabel(result.candidate)
        : result.resized->candidate.gpus == result.candidate.gpus
            ? candidateLabel(result.resized->candidate) + " (laid out to fit)"
            : candidateLabel(result.resized->candidate) + fmt::format(" (sized from {})", result.candidate.gpus);
    if (!result.provenance.empty())
        label += " [" + result.provenance + "]";
    return label;
}

std::string provenanceText(const CandidateResult &result)
{
    return result.provenance.empty() ? std::string("shipped calibration") : result.provenance;
}

} // namespace wb
