#include "brief/completeness.h"

#include <algorithm>

namespace wb {

int Completeness::givenCount() const
{
    return int(std::count_if(items.begin(), items.end(), [](const BriefItem &i) { return i.given; }));
}

double Completeness::fraction() const
{
    return items.empty() ? 1.0 : double(givenCount()) / double(items.size());
}

bool Completeness::rankable() const
{
    return std::none_of(items.begin(), items.end(), [](const BriefItem &i) { return i.blocking && !i.given; });
}

std::vector<const BriefItem *> Completeness::missing() const
{
    std::vector<const BriefItem *> out;
    for (bool blocking : {true, false})
        for (const BriefItem &i : items)
            if (!i.given && i.blocking == blocking)
                out.push_back(&i);
    return out;
}

Completeness assessCompleteness(const Brief &brief)
{
    const Workload &w = brief.workload;
    Completeness c;
    const auto item = [&c](std::string name, std::string pointer, bool given, bool blocking, std::string why) {
        c.items.push_back({std::move(name), std::move(pointer), given, blocking, std::move(why)});
    };
    // Kind and model are required by the parser: a brief without them does not open.
    item("workload kind", "/workload/kind", true, true, "");
    item("model", "/workload/model", true, true, "");
    if (isInference(w.kind)) {
        item(w.kind == WorkloadKind::Embedding ? "input length" : "input and output lengths", "/workload/input_tokens",
             w.inputTokens > 0, true,
             "the KV cache, the prefill and the decode work all follow from them");
        item("p95 input length", "/workload/input_tokens_p95", w.inputTokensP95.has_value(), false,
             "the memory fit and the simulated length spread assume the mean is also the p95");
        // An embedding's answer is one vector: it has no output length.
        if (w.kind != WorkloadKind::Embedding)
            item("p95 output length", "/workload/output_tokens_p95", w.outputTokensP95.has_value(), false,
                 "the simulated length spread assumes the mean is also the p95");
    }
    if (w.kind == WorkloadKind::RealtimeInference) {
        item("latency targets", "/workload/slo", !w.slo.empty(), true,
             "without a TTFT, TPOT or end-to-end target no candidate can be said to meet the service level");
    } else if (isInference(w.kind) || w.media) {
        const bool volume = brief.cost.requestsPerMonth.has_value() || w.traffic.requestRatePerS.has_value();
        item("monthly volume", "/cost/requests_per_month", volume, true,
             "cost per accepted output needs the work a month: requests_per_month or a request rate");
    }
    if (isTraining(w.kind) || isAdapter(w.kind)) {
        const bool tokens = w.training && w.training->tokens.has_value();
        item("tokens to train on", "/workload/training/tokens", tokens, true,
             "the time and cost of a completed run follow from the tokens it trains on");
        item("dataset (its size and where it is)", "/workload/training/dataset", w.training && w.training->datasetGb, false,
             "no data is moved or staged in the run's cost: a dataset held elsewhere costs its transfer to the GPUs");
    }
    const bool runs = isTraining(w.kind) || isAdapter(w.kind);
    if (isInference(w.kind) || w.media)
        item("acceptance (quality pass and failure rates)", "/workload/acceptance", w.acceptance.given, true,
             "the denominator is accepted outputs; without it every output counts as accepted");
    else if (runs)
        item("acceptance (share of runs that pass evaluation)", "/workload/acceptance", w.acceptance.given, false,
             "the cost per accepted model counts every run as passing its evaluation");
    // Pre-training has no model API to weigh; every other kind's decision does.
    if (w.kind != WorkloadKind::Training)
        item("data boundary (may the data go to a model API?)", "/cost/decision/api_allowed", brief.cost.decision.given,
             true, "the rent / reserve / buy / API recommendation depends on whether the API route is open");
    if (runs)
        item("operating model (who runs the platform)", "/assumptions/training_platform_fte",
             brief.assumptions.overridden(Assumption::TrainingPlatformFte), false,
             "the people watching the run are priced at the default engineers for its length");
    else
        item("operating model (who runs the platform)", "/assumptions/platform_fte_self_hosted",
             brief.assumptions.overridden(Assumption::PlatformFteSelfHosted), false,
             "platform labour is priced at the default engineers per month");
    item("candidates", "/candidates", !brief.candidates.empty(), true, "there is nothing to rank");
    return c;
}

std::string rankingHeldBackText(const std::vector<BriefItem> &missing, bool withPointers)
{
    if (missing.empty())
        return {};
    std::string items;
    for (const BriefItem &item : missing)
        items += (items.empty() ? "" : "; ") + item.name + (withPointers ? " (" + item.pointer + ")" : std::string());
    return "the ranking and recommendation are held back until the brief gives: " + items;
}

} // namespace wb
