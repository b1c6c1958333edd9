// The workbook's sheets beyond the normalization table (csv.cpp): cost lines, fit, performance
// and assumptions, as typed cells for the XLSX export and the CSV.
#include "report/labels.h"
#include "report/report.h"

#include <fmt/format.h>

#include <cmath>

namespace wb {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

Cell text(std::string s)
{
    return {std::move(s), std::nullopt};
}

Cell num(double v)
{
    return Cell::number(v, fmt::format("{:.6g}", v));
}

Cell usd(double v)
{
    return Cell::number(v, fmt::format("{:.2f}", v));
}

Cell gib(std::uint64_t bytes)
{
    const double v = double(bytes) / kGib;
    return Cell::number(v, fmt::format("{:.3f}", v));
}

Cell optionalNumber(const std::optional<double> &v)
{
    return v ? num(*v) : Cell();
}

// What a candidate's rows stand for: its deployment, after the candidate as entered when that
// did not hold the brief.
std::vector<const CandidateResult *> candidateRows(const Results &results)
{
    std::vector<const CandidateResult *> rows;
    for (const CandidateResult &entered : results.results) {
        if (!entered.resized || resizedToFit(entered))
            rows.push_back(&entered);
        if (entered.resized)
            rows.push_back(&*entered.resized);
    }
    return rows;
}

std::string optionLabel(const CostOption &o)
{
    if (o.api)
        return "model API";
    std::string label = o.hybrid ? std::string("hybrid") : o.term ? std::string(enumName(*o.term)) : std::string("gpu");
    return o.provider.empty() ? label : label + " (" + o.provider + ")";
}

} // namespace

Sheet costLinesSheet(const Results &results)
{
    // Training results price completed runs, not months.
    bool perRun = false;
    for (const CandidateResult &r : results.results)
        for (const CostOption &o : deployment(r).cost.options)
            perRun = perRun || o.perRun;
    Sheet sheet{"Cost lines",
                {{"candidate", CellFormat::Text, 28},
                 {"option", CellFormat::Text, 28},
                 {"line", CellFormat::Text, 22},
                 {perRun ? "usd_per_run" : "usd_per_month", CellFormat::Usd, 14},
                 {"basis", CellFormat::Text, 80}},
                {}};
    // The total row is the engine's own sum of the rounded lines (CostOption::totalUsdPerMonth),
    // so a reader can check it against the lines above it.
    const auto add = [&sheet](const std::string &candidate, const CostOption &o) {
        for (const CostLine &line : o.lines)
            sheet.rows.push_back({text(candidate), text(optionLabel(o)), text(costLineTitle(line.name)), usd(line.usdPerMonth),
                                  text(line.basis)});
        sheet.rows.push_back({text(candidate), text(optionLabel(o)), text("Total"), usd(o.totalUsdPerMonth), text("")});
    };
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &r = deployment(results.results[i]);
        for (const CostOption &o : r.cost.options)
            add(deploymentLabel(results.results[i]), o);
        if (results.cost.hybrid && results.cost.hybridCandidate == i)
            add(deploymentLabel(results.results[i]), *results.cost.hybrid);
    }
    if (results.cost.api)
        add("model API", *results.cost.api);
    return sheet;
}

Sheet fitSheet(const Results &results)
{
    Sheet sheet{"Fit",
                {{"candidate", CellFormat::Text, 28},
                 {"fits", CellFormat::Boolean},
                 {"per_gpu_gib", CellFormat::Gib},
                 {"usable_gib", CellFormat::Gib},
                 {"capacity_gib", CellFormat::Gib},
                 {"headroom", CellFormat::Percent},
                 {"weights_gib", CellFormat::Gib},
                 {"kv_cache_gib", CellFormat::Gib},
                 {"activations_gib", CellFormat::Gib},
                 {"gradients_gib", CellFormat::Gib},
                 {"optimizer_states_gib", CellFormat::Gib},
                 {"runtime_overhead_gib", CellFormat::Gib},
                 {"kv_capacity_tokens_per_replica", CellFormat::Integer},
                 {"max_concurrency", CellFormat::Integer},
                 {"peak_basis", CellFormat::Text, 40}},
                {}};
    for (const CandidateResult *r : candidateRows(results)) {
        const FitResult &f = r->fit;
        if (!f.computed) {
            std::vector<Cell> row(sheet.columns.size());
            row[0] = text(candidateLabel(r->candidate));
            sheet.rows.push_back(std::move(row));
            continue;
        }
        const MemoryBreakdown &b = f.breakdown;
        sheet.rows.push_back({text(candidateLabel(r->candidate)), Cell::boolean(f.fits), gib(f.perGpuBytes), gib(f.usableBytes),
                              gib(f.capacityBytes), Cell::number(f.headroomFraction, fmt::format("{:.6f}", f.headroomFraction)),
                              gib(b.weights), gib(b.kvCache), gib(b.activations), gib(b.gradients), gib(b.optimizerStates),
                              gib(b.runtimeOverhead),
                              f.kvCacheCapacityTokensPerReplica
                                  ? Cell::number(std::floor(*f.kvCacheCapacityTokensPerReplica),
                                                 fmt::format("{:.0f}", *f.kvCacheCapacityTokensPerReplica))
                                  : Cell(),
                              f.maxConcurrency ? Cell::number(double(*f.maxConcurrency), std::to_string(*f.maxConcurrency)) : Cell(),
                              text(f.peakBasis)});
    }
    return sheet;
}

Sheet performanceSheet(const Results &results)
{
    Sheet sheet{"Performance", {{"candidate", CellFormat::Text, 28}}, {}};
    const std::vector<std::pair<const char *, Distribution PerformanceResult::*>> latencies = {
        {"ttft", &PerformanceResult::ttft}, {"tpot", &PerformanceResult::tpot}, {"itl", &PerformanceResult::itl},
        {"e2e", &PerformanceResult::e2e}};
    for (const char *name : {"output_tokens_per_s", "output_tokens_per_s_per_gpu", "requests_per_s"})
        sheet.columns.push_back({name, CellFormat::Decimal});
    for (const auto &[name, d] : latencies)
        for (const char *q : {"p50", "p95", "p99"})
            sheet.columns.push_back({std::string(name) + "_" + q + "_s", CellFormat::Seconds});
    sheet.columns.push_back({"slo_met", CellFormat::Boolean});
    sheet.columns.push_back({"max_request_rate_within_slo_per_s", CellFormat::Decimal});
    sheet.columns.push_back({"replicas_for_peak", CellFormat::Integer});
    sheet.columns.push_back({"max_output_tokens_per_s", CellFormat::Decimal});
    // Training runs: their speed and time instead (empty for serving rows).
    const std::pair<const char *, CellFormat> training[] = {
        {"training_tokens_per_s", CellFormat::Decimal}, {"mfu", CellFormat::Percent},
        {"time_to_train_s", CellFormat::Seconds},        {"expected_time_to_train_s", CellFormat::Seconds},
        {"gpu_hours", CellFormat::Decimal},              {"expected_interruptions", CellFormat::Decimal},
        {"checkpoint_interval_s", CellFormat::Seconds}};
    for (const auto &[name, format] : training)
        sheet.columns.push_back({name, format});

    for (const CandidateResult *r : candidateRows(results)) {
        const PerformanceResult &p = r->performance;
        std::vector<Cell> row = {text(candidateLabel(r->candidate))};
        if (p.training) {
            // A training run has no serving figures: those cells stay empty, not zero.
            const TrainingPerformance &t = *p.training;
            row.resize(sheet.columns.size() - std::size(training));
            row.push_back(num(t.tokensPerS));
            row.push_back(num(t.mfu));
            row.push_back(optionalNumber(t.timeToTrainS));
            row.push_back(optionalNumber(t.expectedTimeToTrainS));
            row.push_back(optionalNumber(t.gpuHours));
            row.push_back(optionalNumber(t.expectedInterruptions));
            row.push_back(t.checkpoint.intervalS > 0 ? num(t.checkpoint.intervalS) : Cell());
            sheet.rows.push_back(std::move(row));
            continue;
        }
        if (!p.computed) {
            row.resize(sheet.columns.size());
            sheet.rows.push_back(std::move(row));
            continue;
        }
        row.push_back(num(p.outputTokensPerS));
        row.push_back(num(p.outputTokensPerSPerGpu));
        row.push_back(num(p.requestsPerS));
        for (const auto &[name, d] : latencies) {
            const Distribution &dist = p.*d;
            for (double Distribution::*q : {&Distribution::p50, &Distribution::p95, &Distribution::p99})
                row.push_back(dist.empty ? Cell() : num(dist.*q));
        }
        row.push_back(p.sloMet ? Cell::boolean(*p.sloMet) : Cell());
        row.push_back(optionalNumber(p.maxRequestRateWithinSloPerS));
        row.push_back(p.replicasForPeak ? Cell::number(*p.replicasForPeak, std::to_string(*p.replicasForPeak)) : Cell());
        row.push_back(num(p.maxOutputTokensPerS));
        row.resize(sheet.columns.size());
        sheet.rows.push_back(std::move(row));
    }
    return sheet;
}

Sheet assumptionsSheet(const Brief &brief, const Results &results)
{
    Sheet sheet{"Assumptions",
                {{"name", CellFormat::Text, 40},
                 {"value", CellFormat::Decimal, 14},
                 {"unit", CellFormat::Text, 12},
                 {"origin", CellFormat::Text, 12},
                 {"reason", CellFormat::Text, 90}},
                {}};
    for (const AssumptionInfo &info : assumptionCatalog())
        sheet.rows.push_back({text(std::string(info.name)), num(brief.assumptions.value(info.key)), text(std::string(info.unit)),
                              text(brief.assumptions.overridden(info.key) ? "brief" : "default"),
                              text(std::string(info.reason))});
    for (const EfficiencyFactor &f : results.efficiencyFactors)
        sheet.rows.push_back({text("efficiency." + f.key), num(f.value),
                              text(f.unit()),
                              text(f.calibrated() ? "calibrated" : "prior"), text(f.source())});
    return sheet;
}

std::vector<Sheet> resultSheets(const Brief &brief, const Results &results)
{
    return {normalizationSheet(results), costLinesSheet(results), fitSheet(results), performanceSheet(results),
            assumptionsSheet(brief, results)};
}

} // namespace wb
