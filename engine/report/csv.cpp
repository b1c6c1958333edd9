#include "report/report.h"

#include "report/labels.h"
#include "core/format.h"

#include <fmt/format.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

namespace {

// One row of the normalization table: a candidate (none for the API row) and one of its pricing
// options (none for a candidate without a price).
struct Row
{
    const CandidateResult *result = nullptr;
    const CostOption *option = nullptr;
    bool recommended = false;
    const Candidate *sizedFrom = nullptr;  // the candidate as entered, when this row is its resize
};

struct Column
{
    const char *name;
    std::function<std::string(const Row &)> cell;  // empty text for "not known"
};

std::string number(double v, int significant = 6)
{
    return fmt::format("{:.{}g}", v, significant);
}

std::string optionalNumber(const std::optional<double> &v)
{
    return v ? number(*v) : std::string();
}

std::string boolean(bool v)
{
    return v ? "true" : "false";
}

// Cells of a candidate's fit, known only when the fit was worked out.
Column fitBytes(const char *name, std::uint64_t FitResult::*field)
{
    return {name, [field](const Row &r) {
                return r.result && r.result->fit.computed ? std::to_string(r.result->fit.*field) : std::string();
            }};
}

Column breakdownBytes(const char *name, std::uint64_t MemoryBreakdown::*field)
{
    return {name, [field](const Row &r) {
                return r.result && r.result->fit.computed ? std::to_string(r.result->fit.breakdown.*field) : std::string();
            }};
}

// Cells of a candidate's performance; `known` says whether the figure exists for it.
Column performance(const char *name, std::function<bool(const PerformanceResult &)> known,
                   std::function<std::string(const PerformanceResult &)> text)
{
    return {name, [known = std::move(known), text = std::move(text)](const Row &r) {
                if (!r.result || !r.result->performance.computed || !known(r.result->performance))
                    return std::string();
                return text(r.result->performance);
            }};
}

Column option(const char *name, std::function<std::string(const CostOption &)> text)
{
    return {name, [text = std::move(text)](const Row &r) { return r.option ? text(*r.option) : std::string(); }};
}

const std::vector<Column> &columns()
{
    const auto generates = [](const PerformanceResult &p) { return !p.tpot.empty || p.outputTokensPerS > 0; };
    const auto always = [](const PerformanceResult &) { return true; };
    const auto percentile = [](Distribution PerformanceResult::*d, double Distribution::*q) {
        return std::make_pair([d](const PerformanceResult &p) { return !(p.*d).empty; },
                              [d, q](const PerformanceResult &p) { return number((p.*d).*q); });
    };
    const auto ttft50 = percentile(&PerformanceResult::ttft, &Distribution::p50);
    const auto ttft99 = percentile(&PerformanceResult::ttft, &Distribution::p99);
    const auto tpot50 = percentile(&PerformanceResult::tpot, &Distribution::p50);
    const auto tpot99 = percentile(&PerformanceResult::tpot, &Distribution::p99);
    const auto e2e99 = percentile(&PerformanceResult::e2e, &Distribution::p99);
    static const std::vector<Column> list = {
        {"candidate", [](const Row &r) { return r.result ? candidateLabel(r.result->candidate) : std::string("model API"); }},
        {"gpu", [](const Row &r) { return r.result ? r.result->candidate.gpu : std::string(); }},
        {"gpus", [](const Row &r) { return r.result ? std::to_string(r.result->candidate.gpus) : std::string(); }},
        {"tensor_parallel",
         [](const Row &r) { return r.result ? std::to_string(r.result->candidate.tensorParallel) : std::string(); }},
        {"pipeline_parallel",
         [](const Row &r) { return r.result ? std::to_string(r.result->candidate.pipelineParallel) : std::string(); }},
        {"replicas", [](const Row &r) { return r.result ? std::to_string(r.result->candidate.replicas()) : std::string(); }},
        {"serving_stack",
         [](const Row &r) { return r.result ? std::string(enumName(r.result->candidate.servingStack)) : std::string(); }},
        {"provenance", [](const Row &r) { return r.result ? provenanceText(*r.result) : std::string(); }},
        {"fits", [](const Row &r) { return r.result ? boolean(r.result->fit.fits) : std::string(); }},
        fitBytes("per_gpu_bytes", &FitResult::perGpuBytes),
        fitBytes("usable_bytes", &FitResult::usableBytes),
        {"gpu_capacity_bytes", [](const Row &r) { return r.result ? std::to_string(r.result->fit.capacityBytes) : std::string(); }},
        {"headroom_fraction",
         [](const Row &r) {
             return r.result && r.result->fit.computed ? fmt::format("{:.6f}", r.result->fit.headroomFraction) : std::string();
         }},
        breakdownBytes("weights_bytes", &MemoryBreakdown::weights),
        breakdownBytes("kv_cache_bytes", &MemoryBreakdown::kvCache),
        breakdownBytes("activations_bytes", &MemoryBreakdown::activations),
        breakdownBytes("gradients_bytes", &MemoryBreakdown::gradients),
        breakdownBytes("optimizer_states_bytes", &MemoryBreakdown::optimizerStates),
        breakdownBytes("runtime_overhead_bytes", &MemoryBreakdown::runtimeOverhead),
        {"kv_cache_capacity_tokens_per_replica",
         [](const Row &r) {
             const auto &v = r.result ? r.result->fit.kvCacheCapacityTokensPerReplica : std::nullopt;
             return v ? fmt::format("{:.0f}", double(*v)) : std::string();
         }},
        {"max_concurrency",
         [](const Row &r) {
             return r.result && r.result->fit.maxConcurrency ? std::to_string(*r.result->fit.maxConcurrency) : std::string();
         }},
        {"smallest_gpu_count",
         [](const Row &r) {
             return r.result && r.result->fit.smallestGpuCount ? std::to_string(*r.result->fit.smallestGpuCount)
                                                               : std::string();
         }},
        performance("output_tokens_per_s", generates, [](const PerformanceResult &p) { return number(p.outputTokensPerS); }),
        performance("output_tokens_per_s_per_gpu", generates,
                    [](const PerformanceResult &p) { return number(p.outputTokensPerSPerGpu); }),
        performance("requests_per_s", always, [](const PerformanceResult &p) { return number(p.requestsPerS); }),
        performance("ttft_p50_s", ttft50.first, ttft50.second),
        performance("ttft_p99_s", ttft99.first, ttft99.second),
        performance("tpot_p50_s", tpot50.first, tpot50.second),
        performance("tpot_p99_s", tpot99.first, tpot99.second),
        performance("e2e_p99_s", e2e99.first, e2e99.second),
        performance("slo_met", [](const PerformanceResult &p) { return p.sloMet.has_value(); },
                    [](const PerformanceResult &p) { return boolean(*p.sloMet); }),
        performance("goodput_requests_per_s", always,
                    [](const PerformanceResult &p) { return optionalNumber(p.goodputRequestsPerS); }),
        performance("max_request_rate_within_slo_per_s", always,
                    [](const PerformanceResult &p) { return optionalNumber(p.maxRequestRateWithinSloPerS); }),
        performance("output_tokens_per_s_within_slo", always,
                    [](const PerformanceResult &p) { return optionalNumber(p.outputTokensPerSWithinSlo); }),
        performance("replicas_for_peak", [](const PerformanceResult &p) { return p.replicasForPeak.has_value(); },
                    [](const PerformanceResult &p) { return std::to_string(*p.replicasForPeak); }),
        performance("max_output_tokens_per_s", generates,
                    [](const PerformanceResult &p) { return number(p.maxOutputTokensPerS); }),
        option("route", [](const CostOption &o) { return std::string(o.api ? "api" : o.hybrid ? "hybrid" : "gpu"); }),
        option("term", [](const CostOption &o) { return o.term ? std::string(enumName(*o.term)) : std::string(); }),
        option("provider", [](const CostOption &o) { return o.provider; }),
        option("price_observed", [](const CostOption &o) { return o.observed; }),
        option("price_stale", [](const CostOption &o) { return boolean(o.stale); }),
        option("usd_per_gpu_hour",
               [](const CostOption &o) { return o.api ? std::string() : fmt::format("{:.4f}", o.usdPerGpuHour); }),
        option("provisioned_gpus", [](const CostOption &o) { return std::to_string(o.api ? 0 : o.gpus); }),
        option("utilization", [](const CostOption &o) { return fmt::format("{:.4f}", o.utilization); }),
        option("usd_per_month", [](const CostOption &o) { return fmt::format("{:.2f}", o.totalUsdPerMonth); }),
        option("cost_per_accepted_output_usd", [](const CostOption &o) { return fmt::format("{:.8f}", o.costPerAcceptedOutput); }),
        option("cost_per_million_accepted_tokens_usd",
               [](const CostOption &o) { return fmt::format("{:.6f}", o.costPerMillionAcceptedTokens); }),
        option("accepted_outputs_per_month", [](const CostOption &o) { return fmt::format("{:.0f}", o.acceptedOutputsPerMonth); }),
        option("break_even_requests_per_month_vs_api",
               [](const CostOption &o) { return optionalNumber(o.breakEvenRequestsPerMonthVsApi); }),
        option("break_even_utilization_vs_on_demand",
               [](const CostOption &o) { return optionalNumber(o.breakEvenUtilizationVsOnDemand); }),
        option("payback_months", [](const CostOption &o) { return optionalNumber(o.paybackMonths); }),
        // The engine's recommendation: true on its row; every row reads "held back" while the
        // brief misses a blocking item (the table and JSON name them).
        {"recommended", [](const Row &r) { return boolean(r.recommended); }},
        {"warnings",
         [](const Row &r) {
             std::string codes;
             if (r.result)
                 for (const Warning &w : r.result->warnings)
                     codes += (codes.empty() ? "" : ";") + w.code;
             return codes;
         }},
        // Appended last, so that the columns scripts index keep their places.
        {"sized_from_gpus", [](const Row &r) { return r.sizedFrom ? std::to_string(r.sizedFrom->gpus) : std::string(); }},
        option("billed_share_of_month",
               [](const CostOption &o) { return o.api ? std::string() : fmt::format("{:.4f}", o.billedShareOfMonth); }),
        option("commercial_terms", [](const CostOption &o) { return o.terms; }),
        option("cold_start_share", [](const CostOption &o) { return optionalNumber(o.coldStartShare); }),
    };
    return list;
}

} // namespace

std::string resultsToCsv(const Brief &brief, const Results &results)
{
    (void)brief;
    const std::optional<Recommendation> &rec = results.cost.recommendation;
    std::vector<Row> rows;
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        // A candidate sized to a deployment that holds the brief: a row as entered, then the
        // deployment's rows, which the recommendation refers to.
        const CandidateResult &entered = results.results[i];
        const CandidateResult &r = deployment(entered);
        const Candidate *sizedFrom = entered.resized ? &entered.candidate : nullptr;
        if (sizedFrom)
            rows.push_back({&entered, nullptr, false});
        if (r.cost.options.empty())
            rows.push_back({&r, nullptr, false, sizedFrom});
        for (const CostOption &o : r.cost.options)
            rows.push_back({&r, &o,
                            rec && rec->route != Route::Api && rec->route != Route::Hybrid && rec->candidate == i
                                && rec->term == o.term,
                            sizedFrom});
        if (results.cost.hybrid && results.cost.hybridCandidate == i)
            rows.push_back({&r, &*results.cost.hybrid, rec && rec->route == Route::Hybrid, sizedFrom});
    }
    if (results.cost.api)
        rows.push_back({nullptr, &*results.cost.api, rec && rec->route == Route::Api});

    std::string out;
    for (const Column &c : columns())
        out += std::string(out.empty() ? "" : ",") + c.name;
    out += "\n";
    for (const Row &row : rows) {
        std::string line;
        for (const Column &c : columns()) {
            std::string cell = c.cell(row);
            if (std::string_view(c.name) == "recommended" && !results.ranked())
                cell = "held back";
            line += (&c == &columns().front() ? "" : ",") + csvCell(cell);
        }
        out += line + "\n";
    }
    return out;
}

} // namespace wb
