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

// One row of the normalization table (normalizationRows), with the candidate as entered when
// this row is its deployment's.
struct Row : NormalizationRow
{
    const Candidate *sizedFrom = nullptr;
};

struct Column
{
    const char *name;
    CellFormat format;
    std::function<Cell(const Row &)> cell;  // empty text for "not known"
};

std::string number(double v, int significant = 6)
{
    return fmt::format("{:.{}g}", v, significant);
}

Cell num(double v)
{
    return Cell::number(v, number(v));
}

Cell fixed(double v, int decimals)
{
    return Cell::number(v, fmt::format("{:.{}f}", v, decimals));
}

Cell integer(long long v)
{
    return Cell::number(double(v), std::to_string(v));
}

Cell optionalNumber(const std::optional<double> &v)
{
    return v ? num(*v) : Cell();
}

Cell text(std::string s)
{
    return {std::move(s), std::nullopt};
}

// Cells of a candidate's fit, known only when the fit was worked out.
Column fitBytes(const char *name, std::uint64_t FitResult::*field)
{
    return {name, CellFormat::Integer, [field](const Row &r) {
                return r.result && r.result->fit.computed ? integer(static_cast<long long>(r.result->fit.*field)) : Cell();
            }};
}

Column breakdownBytes(const char *name, std::uint64_t MemoryBreakdown::*field)
{
    return {name, CellFormat::Integer, [field](const Row &r) {
                return r.result && r.result->fit.computed ? integer(static_cast<long long>(r.result->fit.breakdown.*field)) : Cell();
            }};
}

// Cells of a candidate's performance; `known` says whether the figure exists for it.
Column performance(const char *name, CellFormat format, std::function<bool(const PerformanceResult &)> known,
                   std::function<Cell(const PerformanceResult &)> cell)
{
    return {name, format, [known = std::move(known), cell = std::move(cell)](const Row &r) {
                if (!r.result || !r.result->performance.computed || !known(r.result->performance))
                    return Cell();
                return cell(r.result->performance);
            }};
}

Column option(const char *name, CellFormat format, std::function<Cell(const CostOption &)> cell)
{
    return {name, format, [cell = std::move(cell)](const Row &r) { return r.option ? cell(*r.option) : Cell(); }};
}

Column candidateInt(const char *name, std::function<long long(const Candidate &)> value)
{
    return {name, CellFormat::Integer,
            [value = std::move(value)](const Row &r) { return r.result ? integer(value(r.result->candidate)) : Cell(); }};
}

const std::vector<Column> &columns()
{
    const auto generates = [](const PerformanceResult &p) { return !p.tpot.empty || p.outputTokensPerS > 0; };
    // Serving figures, which a training run has none of (empty cells, not zeros).
    const auto always = [](const PerformanceResult &p) { return !p.training; };
    const auto trains = [](const PerformanceResult &p) { return p.training.has_value(); };
    const auto media = [](const PerformanceResult &p) { return p.media.has_value(); };
    const auto percentile = [](const char *name, Distribution PerformanceResult::*d, double Distribution::*q) {
        return performance(name, CellFormat::Seconds, [d](const PerformanceResult &p) { return !(p.*d).empty; },
                           [d, q](const PerformanceResult &p) { return num((p.*d).*q); });
    };
    using F = CellFormat;
    static const std::vector<Column> list = {
        {"candidate", F::Text,
         [](const Row &r) { return text(r.result ? candidateLabel(r.result->candidate) : std::string("model API")); }},
        {"gpu", F::Text, [](const Row &r) { return text(r.result ? r.result->candidate.gpu : std::string()); }},
        candidateInt("gpus", [](const Candidate &c) { return c.gpus; }),
        candidateInt("tensor_parallel", [](const Candidate &c) { return c.tensorParallel; }),
        candidateInt("pipeline_parallel", [](const Candidate &c) { return c.pipelineParallel; }),
        candidateInt("replicas", [](const Candidate &c) { return c.replicas(); }),
        {"serving_stack", F::Text,
         [](const Row &r) { return text(r.result ? std::string(enumName(r.result->candidate.servingStack)) : std::string()); }},
        {"provenance", F::Text, [](const Row &r) { return text(r.result ? provenanceText(*r.result) : std::string()); }},
        {"fits", F::Boolean, [](const Row &r) { return r.result ? Cell::boolean(r.result->fit.fits) : Cell(); }},
        fitBytes("per_gpu_bytes", &FitResult::perGpuBytes),
        fitBytes("usable_bytes", &FitResult::usableBytes),
        {"gpu_capacity_bytes", F::Integer,
         [](const Row &r) { return r.result ? integer(static_cast<long long>(r.result->fit.capacityBytes)) : Cell(); }},
        {"headroom_fraction", F::Percent,
         [](const Row &r) { return r.result && r.result->fit.computed ? fixed(r.result->fit.headroomFraction, 6) : Cell(); }},
        breakdownBytes("weights_bytes", &MemoryBreakdown::weights),
        breakdownBytes("kv_cache_bytes", &MemoryBreakdown::kvCache),
        breakdownBytes("activations_bytes", &MemoryBreakdown::activations),
        breakdownBytes("gradients_bytes", &MemoryBreakdown::gradients),
        breakdownBytes("optimizer_states_bytes", &MemoryBreakdown::optimizerStates),
        breakdownBytes("runtime_overhead_bytes", &MemoryBreakdown::runtimeOverhead),
        {"kv_cache_capacity_tokens_per_replica", F::Integer,
         [](const Row &r) {
             const auto &v = r.result ? r.result->fit.kvCacheCapacityTokensPerReplica : std::nullopt;
             return v ? fixed(double(*v), 0) : Cell();
         }},
        {"max_concurrency", F::Integer,
         [](const Row &r) { return r.result && r.result->fit.maxConcurrency ? integer(*r.result->fit.maxConcurrency) : Cell(); }},
        {"smallest_gpu_count", F::Integer,
         [](const Row &r) {
             return r.result && r.result->fit.smallestGpuCount ? integer(*r.result->fit.smallestGpuCount) : Cell();
         }},
        performance("output_tokens_per_s", F::Decimal, generates, [](const PerformanceResult &p) { return num(p.outputTokensPerS); }),
        performance("output_tokens_per_s_per_gpu", F::Decimal, generates,
                    [](const PerformanceResult &p) { return num(p.outputTokensPerSPerGpu); }),
        performance("requests_per_s", F::Decimal, always, [](const PerformanceResult &p) { return num(p.requestsPerS); }),
        percentile("ttft_p50_s", &PerformanceResult::ttft, &Distribution::p50),
        percentile("ttft_p99_s", &PerformanceResult::ttft, &Distribution::p99),
        percentile("tpot_p50_s", &PerformanceResult::tpot, &Distribution::p50),
        percentile("tpot_p99_s", &PerformanceResult::tpot, &Distribution::p99),
        percentile("e2e_p99_s", &PerformanceResult::e2e, &Distribution::p99),
        performance("slo_met", F::Boolean, [](const PerformanceResult &p) { return p.sloMet.has_value(); },
                    [](const PerformanceResult &p) { return Cell::boolean(*p.sloMet); }),
        performance("goodput_requests_per_s", F::Decimal, always,
                    [](const PerformanceResult &p) { return optionalNumber(p.goodputRequestsPerS); }),
        performance("max_request_rate_within_slo_per_s", F::Decimal, always,
                    [](const PerformanceResult &p) { return optionalNumber(p.maxRequestRateWithinSloPerS); }),
        performance("output_tokens_per_s_within_slo", F::Decimal, always,
                    [](const PerformanceResult &p) { return optionalNumber(p.outputTokensPerSWithinSlo); }),
        performance("replicas_for_peak", F::Integer, [](const PerformanceResult &p) { return p.replicasForPeak.has_value(); },
                    [](const PerformanceResult &p) { return integer(*p.replicasForPeak); }),
        performance("max_output_tokens_per_s", F::Decimal, generates,
                    [](const PerformanceResult &p) { return num(p.maxOutputTokensPerS); }),
        // Training runs (training.h): empty for serving rows.
        performance("training_tokens_per_s", F::Decimal, trains, [](const PerformanceResult &p) { return num(p.training->tokensPerS); }),
        performance("mfu", F::Percent, trains, [](const PerformanceResult &p) { return fixed(p.training->mfu, 6); }),
        performance("time_to_train_s", F::Seconds, trains,
                    [](const PerformanceResult &p) { return optionalNumber(p.training->timeToTrainS); }),
        performance("expected_time_to_train_s", F::Seconds, trains,
                    [](const PerformanceResult &p) { return optionalNumber(p.training->expectedTimeToTrainS); }),
        performance("gpu_hours", F::Decimal, trains, [](const PerformanceResult &p) { return optionalNumber(p.training->gpuHours); }),
        // Media generation (media.h): empty for other rows.
        performance("seconds_per_output", F::Seconds, media, [](const PerformanceResult &p) { return num(p.media->secondsPerOutput); }),
        performance("media_batch", F::Integer, media, [](const PerformanceResult &p) { return integer(p.media->batch); }),
        performance("outputs_per_hour", F::Decimal, media, [](const PerformanceResult &p) { return num(p.media->outputsPerHour); }),
        performance("outputs_per_hour_per_gpu", F::Decimal, media,
                    [](const PerformanceResult &p) { return num(p.media->outputsPerHourPerGpu); }),
        option("route", F::Text, [](const CostOption &o) { return text(o.api ? "api" : o.hybrid ? "hybrid" : "gpu"); }),
        option("term", F::Text, [](const CostOption &o) { return text(o.term ? std::string(enumName(*o.term)) : std::string()); }),
        option("provider", F::Text, [](const CostOption &o) { return text(o.provider); }),
        option("price_observed", F::Text, [](const CostOption &o) { return text(o.observed); }),
        option("price_stale", F::Boolean, [](const CostOption &o) { return Cell::boolean(o.stale); }),
        option("usd_per_gpu_hour", F::Usd, [](const CostOption &o) { return o.api ? Cell() : fixed(o.usdPerGpuHour, 4); }),
        option("provisioned_gpus", F::Integer, [](const CostOption &o) { return integer(o.api ? 0 : o.gpus); }),
        option("utilization", F::Percent, [](const CostOption &o) { return fixed(o.utilization, 4); }),
        // A training run's option is priced per completed run: usd_per_run, and no month.
        option("usd_per_month", F::Usd, [](const CostOption &o) { return o.perRun ? Cell() : fixed(o.totalUsdPerMonth, 2); }),
        option("usd_per_run", F::Usd, [](const CostOption &o) { return o.perRun ? fixed(o.totalUsdPerMonth, 2) : Cell(); }),
        option("cost_per_accepted_output_usd", F::UsdFine, [](const CostOption &o) { return fixed(o.costPerAcceptedOutput, 8); }),
        option("cost_per_million_accepted_tokens_usd", F::Usd,
               [](const CostOption &o) { return o.acceptedTokensPerMonth > 0 ? fixed(o.costPerMillionAcceptedTokens, 6) : Cell(); }),
        option("accepted_outputs_per_month", F::Integer,
               [](const CostOption &o) { return o.perRun ? Cell() : fixed(o.acceptedOutputsPerMonth, 0); }),
        option("break_even_requests_per_month_vs_api", F::Integer,
               [](const CostOption &o) { return optionalNumber(o.breakEvenRequestsPerMonthVsApi); }),
        option("break_even_utilization_vs_on_demand", F::Percent,
               [](const CostOption &o) { return optionalNumber(o.breakEvenUtilizationVsOnDemand); }),
        option("payback_months", F::Decimal, [](const CostOption &o) { return optionalNumber(o.paybackMonths); }),
        // The engine's recommendation: true on its row; every row reads "held back" while the
        // brief misses a blocking item (the table and JSON name them).
        {"recommended", F::Boolean, [](const Row &r) { return Cell::boolean(r.recommended); }},
        {"warnings", F::Text,
         [](const Row &r) {
             std::string codes;
             if (r.result)
                 for (const Warning &w : r.result->warnings)
                     codes += (codes.empty() ? "" : ";") + w.code;
             return text(codes);
         }},
        // Appended last, so that the columns scripts index keep their places.
        {"sized_from_gpus", F::Integer, [](const Row &r) { return r.sizedFrom ? integer(r.sizedFrom->gpus) : Cell(); }},
        option("billed_share_of_month", F::Percent,
               [](const CostOption &o) { return o.api ? Cell() : fixed(o.billedShareOfMonth, 4); }),
        option("commercial_terms", F::Text, [](const CostOption &o) { return text(o.terms); }),
        option("cold_start_share", F::Percent, [](const CostOption &o) { return optionalNumber(o.coldStartShare); }),
    };
    return list;
}

} // namespace

std::vector<NormalizationRow> normalizationRows(const Results &results)
{
    const std::optional<Recommendation> &rec = results.cost.recommendation;
    std::vector<NormalizationRow> rows;
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &entered = results.results[i];
        const CandidateResult &r = deployment(entered);
        if (resizedToFit(entered))
            rows.push_back({&entered, nullptr, &entered, true, false});
        if (r.cost.options.empty())
            rows.push_back({&r, nullptr, &entered, false, false});
        for (const CostOption &o : r.cost.options)
            rows.push_back({&r, &o, &entered, false,
                            rec && rec->route != Route::Api && rec->route != Route::Hybrid && rec->candidate == i
                                && rec->term == o.term});
        if (results.cost.hybrid && results.cost.hybridCandidate == i)
            rows.push_back({&r, &*results.cost.hybrid, &entered, false, rec && rec->route == Route::Hybrid});
    }
    if (results.cost.api)
        rows.push_back({nullptr, &*results.cost.api, nullptr, false, rec && rec->route == Route::Api});
    return rows;
}

Sheet normalizationSheet(const Results &results)
{
    std::vector<Row> rows;
    for (const NormalizationRow &n : normalizationRows(results))
        rows.push_back({n, n.entered && n.entered->resized && !n.asEntered ? &n.entered->candidate : nullptr});

    Sheet sheet;
    sheet.name = "Normalization";
    for (const Column &c : columns())
        sheet.columns.push_back({c.name, c.format});
    for (const Row &row : rows) {
        std::vector<Cell> cells;
        for (const Column &c : columns())
            cells.push_back(std::string_view(c.name) == "recommended" && !results.ranked() ? text("held back") : c.cell(row));
        sheet.rows.push_back(std::move(cells));
    }
    return sheet;
}

std::string resultsToCsv(const Brief &brief, const Results &results)
{
    (void)brief;
    return sheetToCsv(normalizationSheet(results));
}

} // namespace wb
