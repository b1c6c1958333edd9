#include "evaluate/evaluate.h"

#include "brief/completeness.h"
#include "catalog/modelarch.h"
#include "core/version.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <thread>

namespace wb {

using Json = nlohmann::ordered_json;

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

std::string format(const char *fmt, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string candidateLabel(const Candidate &c)
{
    std::string label = std::to_string(c.gpus) + "x " + c.gpu + " TP" + std::to_string(c.tensorParallel);
    if (c.pipelineParallel > 1)
        label += " PP" + std::to_string(c.pipelineParallel);
    return label;
}

template<typename T>
Json optionalJson(const std::optional<T> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

Json warningsJson(const std::vector<Warning> &warnings)
{
    Json list = Json::array();
    for (const Warning &w : warnings)
        list.push_back({{"code", w.code}, {"message", w.message}});
    return list;
}

Json fitJson(const FitResult &f)
{
    Json j;
    j["fits"] = f.fits;
    if (!f.computed) {
        for (const char *key : {"per_gpu_bytes", "usable_bytes", "headroom_fraction", "breakdown_bytes",
                                "kv_cache_capacity_tokens", "max_concurrency"})
            j[key] = nullptr;
        j["gpu_capacity_bytes"] = f.capacityBytes ? Json(f.capacityBytes) : Json(nullptr);
        return j;
    }
    j["per_gpu_bytes"] = f.perGpuBytes;
    j["gpu_capacity_bytes"] = f.capacityBytes;
    j["usable_bytes"] = f.usableBytes;
    j["headroom_fraction"] = f.headroomFraction;
    j["breakdown_bytes"] = {{"weights", f.breakdown.weights},
                            {"kv_cache", f.breakdown.kvCache},
                            {"activations", f.breakdown.activations},
                            {"gradients", f.breakdown.gradients},
                            {"optimizer_states", f.breakdown.optimizerStates},
                            {"runtime_overhead", f.breakdown.runtimeOverhead}};
    j["busiest_pipeline_stage"] = f.busiestStage;
    j["kv_cache_capacity_tokens"] = optionalJson(f.kvCacheCapacityTokensPerReplica);
    j["kv_cache_capacity_tokens_per_replica"] = optionalJson(f.kvCacheCapacityTokensPerReplica);
    j["max_concurrency"] = optionalJson(f.maxConcurrency);
    j["max_concurrency_per_replica"] = optionalJson(f.maxConcurrencyPerReplica);
    j["sized_context_tokens"] = f.sizedContextTokens;
    j["sized_concurrency_per_replica"] = f.sizedConcurrencyPerReplica;
    j["smallest_gpu_count"] = optionalJson(f.smallestGpuCount);
    if (f.smallestLayout)
        j["smallest_layout"] = {{"tensor_parallel", f.smallestLayout->tensorParallel},
                                {"pipeline_parallel", f.smallestLayout->pipelineParallel},
                                {"data_parallel", f.smallestLayout->dataParallel}};
    else
        j["smallest_layout"] = nullptr;
    return j;
}

Json distributionJson(const Distribution &d)
{
    if (d.empty)
        return Json(nullptr);
    return {{"mean", d.mean}, {"p50", d.p50}, {"p95", d.p95}, {"p99", d.p99}};
}

Json performanceJson(const PerformanceResult &p)
{
    if (!p.computed)
        return Json(nullptr);
    Json j;
    const bool generates = !p.tpot.empty || p.outputTokensPerS > 0;
    j["output_tokens_per_s"] = generates ? Json(p.outputTokensPerS) : Json(nullptr);
    j["output_tokens_per_s_per_gpu"] = generates ? Json(p.outputTokensPerSPerGpu) : Json(nullptr);
    j["input_tokens_per_s"] = p.inputTokensPerS;
    j["requests_per_s"] = p.requestsPerS;
    j["ttft_s"] = distributionJson(p.ttft);
    j["tpot_s"] = distributionJson(p.tpot);
    j["itl_s"] = distributionJson(p.itl);
    j["e2e_s"] = distributionJson(p.e2e);
    j["slo_met"] = optionalJson(p.sloMet);
    j["goodput_requests_per_s"] = optionalJson(p.goodputRequestsPerS);
    j["max_request_rate_within_slo_per_s"] = optionalJson(p.maxRequestRateWithinSloPerS);
    j["output_tokens_per_s_within_slo"] = optionalJson(p.outputTokensPerSWithinSlo);
    j["max_output_tokens_per_s"] = generates ? Json(p.maxOutputTokensPerS) : Json(nullptr);
    j["peak_request_rate_per_s"] = p.peakRequestRatePerS > 0 ? Json(p.peakRequestRatePerS) : Json(nullptr);
    j["replicas_for_peak"] = optionalJson(p.replicasForPeak);
    j["simulated_traffic"] = enumName(p.mode);
    j["simulated_requests"] = p.simulatedRequests;
    j["mean_batch_sequences"] = p.meanBatchSequences;
    j["overloaded"] = p.overloaded;
    j["preemptions"] = p.preemptions;
    j["rejected_requests"] = p.rejectedRequests;
    Json curve = Json::array();
    for (const LoadPoint &l : p.loadCurve)
        curve.push_back({{"request_rate_per_s", l.requestRatePerS}, {"ttft_p50_s", l.ttftP50S},
                         {"ttft_p95_s", l.ttftP95S}, {"ttft_p99_s", l.ttftP99S}, {"tpot_p50_s", l.tpotP50S},
                         {"tpot_p95_s", l.tpotP95S}, {"tpot_p99_s", l.tpotP99S},
                         {"output_tokens_per_s", l.outputTokensPerS}, {"slo_met", l.sloMet}});
    j["load_curve"] = curve;
    const StepCoefficients &c = p.coefficients;
    j["step_model"] = {{"b0_s", c.b0},
                       {"b1_s_per_prefill_token", c.b1},
                       {"b2_s_per_decode_sequence", c.b2},
                       {"b3_s_per_kv_token_read", c.b3},
                       {"b4_s_per_prefill_attention_pair", c.b4},
                       {"compute_efficiency", p.efficiency.compute},
                       {"memory_efficiency", p.efficiency.memory},
                       {"kv_read_efficiency", p.efficiency.kvRead},
                       {"link_efficiency", p.efficiency.link},
                       {"step_overhead_s", p.efficiency.stepOverheadS},
                       {"layer_overhead_s", p.efficiency.layerOverheadS},
                       {"basis", p.efficiency.basis}};
    return j;
}

Json costLinesJson(const std::vector<CostLine> &lines)
{
    Json list = Json::array();
    for (const CostLine &l : lines)
        list.push_back({{"name", l.name}, {"usd_per_month", l.usdPerMonth}, {"basis", l.basis}});
    return list;
}

Json costOptionJson(const CostOption &o)
{
    Json j;
    j["route"] = o.api ? "api" : "gpu";
    j["term"] = o.term ? Json(enumName(*o.term)) : Json(nullptr);
    j["provider"] = o.provider;
    j["price_observed"] = o.observed;
    j["price_age_days"] = o.ageDays;
    j["price_stale"] = o.stale;
    j["price_source"] = o.source;
    if (!o.note.empty())
        j["price_note"] = o.note;
    j["price_origin"] = o.origin;
    if (!o.api) {
        j["usd_per_gpu_hour"] = o.usdPerGpuHour;
        j["usd_per_gpu"] = o.term == PricingTerm::Purchase ? Json(o.usdPerGpu) : Json(nullptr);
        j["replicas"] = o.replicas;
        j["gpus"] = o.gpus;
    }
    j["utilization"] = o.utilization;
    j["lines"] = costLinesJson(o.lines);
    if (!o.ownershipDetail.empty())
        j["ownership_detail"] = costLinesJson(o.ownershipDetail);
    j["usd_per_month"] = o.totalUsdPerMonth;
    j["requests_per_month"] = o.requestsPerMonth;
    j["accepted_outputs_per_month"] = o.acceptedOutputsPerMonth;
    j["accepted_tokens_per_month"] = o.acceptedTokensPerMonth;
    j["cost_per_accepted_output_usd"] = o.costPerAcceptedOutput;
    j["cost_per_million_accepted_tokens_usd"] = o.costPerMillionAcceptedTokens;
    j["break_even_requests_per_month_vs_api"] = optionalJson(o.breakEvenRequestsPerMonthVsApi);
    j["break_even_utilization_vs_on_demand"] = optionalJson(o.breakEvenUtilizationVsOnDemand);
    j["payback_months"] = optionalJson(o.paybackMonths);
    Json curve = Json::array();
    for (const auto &[requests, usd] : o.monthlyCostByVolume)
        curve.push_back({requests, usd});
    j["monthly_cost_by_volume"] = curve;
    return j;
}

Json candidateCostJson(const CandidateCost &c)
{
    if (!c.computed)
        return Json(nullptr);
    Json j;
    const CostOption *best = c.cheapest();
    j["cost_per_accepted_output_usd"] = best ? Json(best->costPerAcceptedOutput) : Json(nullptr);
    j["cheapest_term"] = best && best->term ? Json(enumName(*best->term)) : Json(nullptr);
    Json options = Json::array();
    for (const CostOption &o : c.options)
        options.push_back(costOptionJson(o));
    j["options"] = options;
    return j;
}

Json costSummaryJson(const Brief &brief, const CostSummary &s)
{
    Json j;
    j["prices_aged_against"] = s.today;
    j["api"] = s.api ? costOptionJson(*s.api) : Json(nullptr);
    if (s.recommendation) {
        const Recommendation &r = *s.recommendation;
        j["recommendation"] = {
            {"route", r.route},
            {"candidate_index", optionalJson(r.candidate)},
            {"gpu", r.candidate ? Json(brief.candidates[*r.candidate].gpu) : Json(nullptr)},
            {"term", r.term ? Json(enumName(*r.term)) : Json(nullptr)},
            {"cost_per_accepted_output_usd", r.costPerAcceptedOutput},
            {"usd_per_month", r.usdPerMonth},
            {"reasons", r.reasons}};
    } else {
        j["recommendation"] = nullptr;
    }
    return j;
}

Json assumptionsJson(const Assumptions &a)
{
    Json list = Json::array();
    for (const AssumptionInfo &info : assumptionCatalog())
        list.push_back({{"name", info.name},
                        {"value", a.value(info.name)},
                        {"unit", info.unit},
                        {"origin", a.overridden(info.name) ? "brief" : "default"},
                        {"reason", info.reason}});
    return list;
}

std::string gib(std::uint64_t bytes)
{
    return format("%.2f", double(bytes) / GiB);
}

std::string pad(std::string s, std::size_t width, bool right = false)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

using Columns = std::vector<std::pair<std::string, std::size_t>>;  // header, width

// One row of a fixed-width table: the first column left-aligned, the rest right-aligned from
// column `rightFrom`; a row short of cells is filled with "-".
void tableRow(std::ostream &out, const Columns &columns, std::vector<std::string> cells, std::size_t rightFrom = 1)
{
    cells.resize(columns.size(), "-");
    for (std::size_t i = 0; i < columns.size(); ++i)
        out << pad(cells[i], columns[i].second, i >= rightFrom) << (i + 1 < columns.size() ? " " : "\n");
}

void tableHeader(std::ostream &out, const Columns &columns, std::size_t rightFrom = 1)
{
    std::vector<std::string> names;
    for (const auto &c : columns)
        names.push_back(c.first);
    tableRow(out, columns, names, rightFrom);
}

std::string ms(const Distribution &d, double Distribution::*field)
{
    return d.empty ? std::string("-") : format("%.0f", d.*field * 1000);
}

std::string optionalNumber(const std::optional<double> &v, const char *fmt)
{
    return v ? format(fmt, *v) : std::string("-");
}

// Performance per candidate: throughput, latency percentiles (ms), SLO verdict and capacity.
std::string performanceTable(const Brief &brief, const Results &results)
{
    std::ostringstream out;
    const Traffic &t = brief.workload.traffic;
    out << "\nPerformance at the brief's traffic (" << enumName(t.mode);
    if (t.mode == TrafficMode::OpenLoop && t.requestRatePerS)
        out << format(", %.3g requests/s", *t.requestRatePerS);
    if (t.mode == TrafficMode::ClosedLoop && t.concurrency)
        out << format(", %.0f in flight", *t.concurrency);
    out << "; latencies in ms, all replicas together)\n";
    const Columns columns = {
        {"candidate", 30}, {"tok/s", 9}, {"tok/s/GPU", 10}, {"req/s", 8}, {"TTFT p50", 9}, {"TTFT p99", 9},
        {"TPOT p50", 9},   {"TPOT p99", 9}, {"E2E p99", 9}, {"SLO", 5},   {"max req/s", 10}, {"tok/s@SLO", 10},
        {"replicas", 9},   {"capacity", 9}};
    tableHeader(out, columns);
    for (const CandidateResult &r : results.results) {
        const PerformanceResult &p = r.performance;
        std::vector<std::string> cells = {candidateLabel(r.candidate)};
        if (!p.computed) {
            cells.push_back("n/a");
        } else {
            const bool generates = !p.tpot.empty || p.outputTokensPerS > 0;
            cells.push_back(generates ? format("%.0f", p.outputTokensPerS) : "-");
            cells.push_back(generates ? format("%.0f", p.outputTokensPerSPerGpu) : "-");
            cells.push_back(format("%.2f", p.requestsPerS));
            cells.push_back(ms(p.ttft, &Distribution::p50));
            cells.push_back(ms(p.ttft, &Distribution::p99));
            cells.push_back(ms(p.tpot, &Distribution::p50));
            cells.push_back(ms(p.tpot, &Distribution::p99));
            cells.push_back(ms(p.e2e, &Distribution::p99));
            cells.push_back(p.sloMet ? (*p.sloMet ? "yes" : "NO") : "-");
            cells.push_back(optionalNumber(p.maxRequestRateWithinSloPerS, "%.2f"));
            cells.push_back(optionalNumber(p.outputTokensPerSWithinSlo, "%.0f"));
            cells.push_back(p.replicasForPeak ? std::to_string(*p.replicasForPeak) : "-");
            cells.push_back(generates ? format("%.0f", p.maxOutputTokensPerS) : "-");
        }
        tableRow(out, columns, cells);
    }
    out << "max req/s: highest Poisson rate within the SLO; replicas: needed for the peak rate ("
        << format("%.3g", t.peakRate()) << " requests/s); capacity: output tokens/s with everything queued.\n";
    return out.str();
}

// The performance columns of one CSV row, each followed by a comma; empty where not computed.
std::string performanceCsv(const PerformanceResult &p)
{
    const auto num = [](bool known, double v) { return known ? format("%.6g", v) : std::string(); };
    const auto opt = [&](const std::optional<double> &v) { return num(v.has_value(), v.value_or(0)); };
    const bool c = p.computed;
    const bool gen = c && (!p.tpot.empty || p.outputTokensPerS > 0);
    const std::vector<std::string> cells = {
        num(gen, p.outputTokensPerS), num(gen, p.outputTokensPerSPerGpu), num(c, p.requestsPerS),
        num(c && !p.ttft.empty, p.ttft.p50), num(c && !p.ttft.empty, p.ttft.p99), num(c && !p.tpot.empty, p.tpot.p50),
        num(c && !p.tpot.empty, p.tpot.p99), num(c && !p.e2e.empty, p.e2e.p99),
        p.sloMet ? (*p.sloMet ? "true" : "false") : "", opt(p.goodputRequestsPerS), opt(p.maxRequestRateWithinSloPerS),
        opt(p.outputTokensPerSWithinSlo), p.replicasForPeak ? std::to_string(*p.replicasForPeak) : "",
        num(gen, p.maxOutputTokensPerS)};
    std::string out;
    for (const std::string &cell : cells)
        out += cell + ",";
    return out;
}

// Cost per candidate and pricing option, the API route and the recommendation.
std::string costTable(const Brief &brief, const Results &results)
{
    std::ostringstream out;
    out << "\nCost per accepted output (USD; capacity sized for the peak within the SLO; prices aged against "
        << results.cost.today << ")\n";
    const Columns columns = {{"candidate", 30}, {"term", 12}, {"provider", 34}, {"observed", 11}, {"$/GPU-h", 8},
                             {"GPUs", 5},       {"util", 6},  {"$/month", 11},  {"$/accepted", 11}, {"$/M tokens", 10},
                             {"API break-even req/mo", 22}};
    tableHeader(out, columns, 4);
    const auto row = [&](const std::string &label, const CostOption &o) {
        std::string provider = o.provider.size() > 33 ? o.provider.substr(0, 32) + "~" : o.provider;
        tableRow(out, columns,
                 {label, o.api ? "api" : std::string(enumName(*o.term)), provider, o.observed + (o.stale ? "!" : ""),
                  o.api ? "-" : format("%.2f", o.usdPerGpuHour), o.api ? "-" : std::to_string(o.gpus),
                  format("%.0f%%", 100 * o.utilization), format("%.2f", o.totalUsdPerMonth),
                  format("%.6f", o.costPerAcceptedOutput), format("%.3f", o.costPerMillionAcceptedTokens),
                  o.breakEvenRequestsPerMonthVsApi ? format("%.3g", *o.breakEvenRequestsPerMonthVsApi)
                                                   : (results.cost.api && !o.api ? "never" : "-")},
                 4);
    };
    for (const CandidateResult &r : results.results) {
        if (!r.cost.computed)
            tableRow(out, columns, {candidateLabel(r.candidate), "n/a"}, 4);
        for (const CostOption &o : r.cost.options)
            row(candidateLabel(r.candidate), o);
    }
    if (results.cost.api)
        row("model API", *results.cost.api);
    out << "A date marked ! is older than price_stale_days. Lines of each option: gpuwb evaluate --format json.\n";
    if (const auto &rec = results.cost.recommendation) {
        out << "\nRecommendation: " << rec->route;
        if (rec->candidate)
            out << ", " << candidateLabel(brief.candidates[*rec->candidate]) << " (" << enumName(*rec->term) << ")";
        out << format(", $%.6f per accepted output", rec->costPerAcceptedOutput)
            << format(", $%.2f a month\n", rec->usdPerMonth);
        for (const std::string &reason : rec->reasons)
            out << "  - " << reason << "\n";
    }
    return out.str();
}

std::string workloadSummary(const Brief &brief)
{
    const Workload &w = brief.workload;
    std::string s = std::string(enumName(w.kind)) + ", " + w.model.id + ", weights " + std::string(enumName(w.weightsPrecision));
    if (isInference(w.kind)) {
        s += ", KV " + std::string(enumName(w.kvCachePrecision)) + ", " + format("%.0f", w.inputTokens) + " in + "
            + format("%.0f", w.outputTokens) + " out tokens";
    } else if (w.training) {
        s += ", sequence " + std::to_string(w.training->sequenceLength) + " x micro-batch "
            + std::to_string(w.training->microBatchSize) + ", " + std::string(enumName(w.training->sharding));
    }
    return s;
}

Json completenessJson(const Completeness &c)
{
    Json items = Json::array();
    for (const BriefItem &i : c.items)
        items.push_back({{"item", i.name}, {"pointer", i.pointer}, {"given", i.given}, {"blocking", i.blocking}});
    return {{"fraction", c.fraction()}, {"rankable", c.rankable()}, {"items", items}};
}

} // namespace

const char *engineVersion()
{
    return WB_ENGINE_VERSION;
}

Results evaluate(const Brief &brief, const Catalog &catalog, const EvaluateOptions &options)
{
    Results results;
    results.briefName = brief.name;
    results.briefWarnings = brief.warnings;
    if (const Completeness completeness = assessCompleteness(brief); !completeness.rankable()) {
        std::string names;
        for (const BriefItem *item : completeness.missing())
            if (item->blocking)
                names += (names.empty() ? "" : "; ") + item->name + " (" + item->pointer + ")";
        results.briefWarnings.push_back(
            {"brief-incomplete", "The brief is incomplete: " + names +
                                     ". Rank and recommend only once these are given (the seed: if you cannot "
                                     "complete the workload brief, pause the GPU selection)."});
    }
    results.results.resize(brief.candidates.size());
    const std::string today = options.today.empty() ? todayIso() : options.today;
    // Candidates are independent and each costs tens of simulations, so they run on all cores.
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < brief.candidates.size(); i = next++) {
            const Candidate &c = brief.candidates[i];
            CandidateResult &r = results.results[i];
            r.candidate = c;
            const GpuSpec *gpu = catalog.gpu(c.gpu);
            r.gpuName = gpu ? gpu->name : c.gpu;
            r.fit = fitCandidate(brief, c, catalog);
            r.warnings = r.fit.warnings;
            if (gpu && options.performance) {
                r.performance = evaluatePerformance(brief, c, *gpu, r.fit, options.cancel,
                                                    options.preview ? SimulationBudget::quick() : SimulationBudget::full());
                r.warnings.insert(r.warnings.end(), r.performance.warnings.begin(), r.performance.warnings.end());
                r.cost = costCandidate(brief, c, *gpu, r.fit, r.performance, catalog, today);
                r.warnings.insert(r.warnings.end(), r.cost.warnings.begin(), r.cost.warnings.end());
            }
        }
    };
    const std::size_t threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                                      brief.candidates.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
    results.performanceEvaluated = options.performance;
    results.preview = options.performance && options.preview;
    if (options.performance)
        results.cost = summarizeCost(brief, results.results, catalog, today);
    results.cancelled = options.cancel && options.cancel->load();
    return results;
}

std::string resultsToJson(const Brief &brief, const Results &results)
{
    Json root;
    root["format"] = "gpu-workbench-results";
    root["version"] = 1;
    root["engine_version"] = engineVersion();
    root["brief"] = brief.name;
    root["results"] = Json::array();
    for (const CandidateResult &r : results.results) {
        const Candidate &c = r.candidate;
        Json item;
        item["candidate"] = {{"gpu", c.gpu},
                             {"gpus", c.gpus},
                             {"tensor_parallel", c.tensorParallel},
                             {"pipeline_parallel", c.pipelineParallel},
                             {"replicas", c.replicas()},
                             {"serving_stack", enumName(c.servingStack)}};
        item["fit"] = fitJson(r.fit);
        item["performance"] = performanceJson(r.performance);
        item["cost"] = candidateCostJson(r.cost);
        item["warnings"] = warningsJson(r.warnings);
        root["results"].push_back(item);
    }
    std::vector<Warning> notes = results.briefWarnings;
    notes.insert(notes.end(), results.cost.warnings.begin(), results.cost.warnings.end());
    root["cost"] = costSummaryJson(brief, results.cost);
    root["warnings"] = warningsJson(notes);
    root["assumptions"] = assumptionsJson(brief.assumptions);
    root["brief_completeness"] = completenessJson(assessCompleteness(brief));
    return root.dump(2) + "\n";
}

std::string resultsToTable(const Brief &brief, const Results &results)
{
    std::ostringstream out;
    out << "Brief: " << brief.name << "\n  " << workloadSummary(brief) << "\n\n";
    out << "Memory fit per GPU (GiB; need is the busiest GPU, usable is after the engine's memory cap)\n";
    const Columns columns = {
        {"candidate", 30}, {"fits", 5}, {"need", 8}, {"usable", 8}, {"capacity", 9}, {"headroom", 9},
        {"weights", 8},    {"kv", 8},   {"activ", 8}, {"grads", 8}, {"optim", 8},    {"runtime", 8},
        {"max conc", 9},   {"min GPUs", 9}};
    tableHeader(out, columns, 2);
    for (const CandidateResult &r : results.results) {
        const FitResult &f = r.fit;
        std::vector<std::string> cells = {candidateLabel(r.candidate)};
        if (!f.computed) {
            cells.push_back("n/a");
        } else {
            cells.push_back(f.fits ? "yes" : "NO");
            cells.push_back(gib(f.perGpuBytes));
            cells.push_back(gib(f.usableBytes));
            cells.push_back(gib(f.capacityBytes));
            cells.push_back(format("%.1f%%", 100 * f.headroomFraction));
            cells.push_back(gib(f.breakdown.weights));
            cells.push_back(gib(f.breakdown.kvCache));
            cells.push_back(gib(f.breakdown.activations));
            cells.push_back(gib(f.breakdown.gradients));
            cells.push_back(gib(f.breakdown.optimizerStates));
            cells.push_back(gib(f.breakdown.runtimeOverhead));
            cells.push_back(f.maxConcurrency ? std::to_string(*f.maxConcurrency) : "-");
            cells.push_back(f.smallestGpuCount ? std::to_string(*f.smallestGpuCount) : "none");
        }
        tableRow(out, columns, cells, 2);
    }
    out << performanceTable(brief, results);
    out << costTable(brief, results);
    bool anyWarning = !results.briefWarnings.empty() || !results.cost.warnings.empty();
    for (const CandidateResult &r : results.results)
        anyWarning = anyWarning || !r.warnings.empty();
    if (anyWarning) {
        out << "\nWarnings\n";
        for (const Warning &w : results.briefWarnings)
            out << "  brief: [" << w.code << "] " << w.message << "\n";
        for (const Warning &w : results.cost.warnings)
            out << "  cost: [" << w.code << "] " << w.message << "\n";
        for (const CandidateResult &r : results.results)
            for (const Warning &w : r.warnings)
                out << "  " << candidateLabel(r.candidate) << ": [" << w.code << "] " << w.message << "\n";
    }
    bool header = false;
    for (const AssumptionInfo &info : assumptionCatalog()) {
        if (!brief.assumptions.overridden(info.name))
            continue;
        if (!header)
            out << "\nAssumptions set by the brief\n";
        header = true;
        out << "  " << info.name << " = " << format("%.6g", brief.assumptions.value(info.name)) << " " << info.unit
            << " (default " << format("%.6g", info.defaultValue) << ")\n";
    }
    return out.str();
}

// The pricing columns of one CSV row, each followed by a comma; empty for a row without a price.
std::string costCsv(const CostOption *o)
{
    if (!o)
        return std::string(15, ',');
    const auto opt = [](const std::optional<double> &v) { return v ? format("%.6g", *v) : std::string(); };
    std::ostringstream out;
    out << (o->api ? "api" : "gpu") << ',' << (o->term ? std::string(enumName(*o->term)) : std::string()) << ','
        << csvField(o->provider) << ',' << o->observed << ',' << (o->stale ? "true" : "false") << ','
        << (o->api ? std::string() : format("%.4f", o->usdPerGpuHour)) << ',' << (o->api ? 0 : o->gpus) << ','
        << format("%.4f", o->utilization) << ',' << format("%.2f", o->totalUsdPerMonth) << ','
        << format("%.8f", o->costPerAcceptedOutput) << ',' << format("%.6f", o->costPerMillionAcceptedTokens) << ','
        << format("%.0f", o->acceptedOutputsPerMonth) << ',' << opt(o->breakEvenRequestsPerMonthVsApi) << ','
        << opt(o->breakEvenUtilizationVsOnDemand) << ',' << opt(o->paybackMonths) << ',';
    return out.str();
}

// The normalization table: one row per candidate and pricing option (a candidate without a
// price has one row with empty pricing columns), then the model-API route.
std::string resultsToCsv(const Brief &brief, const Results &results)
{
    (void)brief;
    std::ostringstream out;
    out << "candidate,gpu,gpus,tensor_parallel,pipeline_parallel,replicas,serving_stack,fits,per_gpu_bytes,"
           "usable_bytes,gpu_capacity_bytes,headroom_fraction,weights_bytes,kv_cache_bytes,activations_bytes,"
           "gradients_bytes,optimizer_states_bytes,runtime_overhead_bytes,kv_cache_capacity_tokens_per_replica,"
           "max_concurrency,smallest_gpu_count,output_tokens_per_s,output_tokens_per_s_per_gpu,requests_per_s,"
           "ttft_p50_s,ttft_p99_s,tpot_p50_s,tpot_p99_s,e2e_p99_s,slo_met,goodput_requests_per_s,"
           "max_request_rate_within_slo_per_s,output_tokens_per_s_within_slo,replicas_for_peak,max_output_tokens_per_s,"
           "route,term,provider,price_observed,price_stale,usd_per_gpu_hour,provisioned_gpus,utilization,usd_per_month,"
           "cost_per_accepted_output_usd,cost_per_million_accepted_tokens_usd,accepted_outputs_per_month,"
           "break_even_requests_per_month_vs_api,break_even_utilization_vs_on_demand,payback_months,warnings\n";
    for (const CandidateResult &r : results.results) {
        const Candidate &c = r.candidate;
        const FitResult &f = r.fit;
        std::string codes;
        for (const Warning &w : r.warnings)
            codes += (codes.empty() ? "" : ";") + w.code;
        auto num = [&](std::uint64_t v) { return f.computed ? std::to_string(v) : std::string(); };
        std::ostringstream row;
        row << csvField(candidateLabel(c)) << ',' << c.gpu << ',' << c.gpus << ',' << c.tensorParallel << ','
            << c.pipelineParallel << ',' << c.replicas() << ',' << enumName(c.servingStack) << ','
            << (f.fits ? "true" : "false") << ',' << num(f.perGpuBytes) << ',' << num(f.usableBytes) << ','
            << f.capacityBytes << ',' << (f.computed ? format("%.6f", f.headroomFraction) : "") << ','
            << num(f.breakdown.weights) << ',' << num(f.breakdown.kvCache) << ',' << num(f.breakdown.activations)
            << ',' << num(f.breakdown.gradients) << ',' << num(f.breakdown.optimizerStates) << ','
            << num(f.breakdown.runtimeOverhead) << ','
            << (f.kvCacheCapacityTokensPerReplica ? format("%.0f", *f.kvCacheCapacityTokensPerReplica) : "") << ','
            << (f.maxConcurrency ? std::to_string(*f.maxConcurrency) : "") << ','
            << (f.smallestGpuCount ? std::to_string(*f.smallestGpuCount) : "") << ',' << performanceCsv(r.performance);
        if (r.cost.options.empty())
            out << row.str() << costCsv(nullptr) << csvField(codes) << "\n";
        for (const CostOption &o : r.cost.options)
            out << row.str() << costCsv(&o) << csvField(codes) << "\n";
    }
    if (results.cost.api) {
        // The API row: no candidate, no fit or performance columns.
        out << "model API" << std::string(35, ',') << costCsv(&*results.cost.api) << "\n";
    }
    return out.str();
}

namespace {

std::string tflops(const std::optional<double> &v)
{
    return v ? format("%.0f", *v / 1e12) : "-";
}

Json sourceJson(const Catalog &catalog, const std::string &id)
{
    const Source *s = catalog.source(id);
    if (!s)
        return Json(nullptr);
    return {{"id", s->id}, {"url", s->url}, {"title", s->title}, {"read", s->readDate}, {"note", s->note}};
}

} // namespace

std::string catalogGpusTable(const Catalog &catalog)
{
    std::ostringstream out;
    out << pad("id", 20) << pad("vendor", 8) << pad("memory GiB", 11, true) << pad("HBM TB/s", 10, true)
        << pad("bf16 TF", 9, true) << pad("fp8 TF", 8, true) << pad("fp4 TF", 8, true) << "  "
        << pad("scale-up", 26) << pad("power W", 8, true) << pad("year", 6, true) << "\n";
    for (const GpuSpec &g : catalog.gpus()) {
        const std::string scale = g.scaleUp.kind + " " + format("%.0f", g.scaleUp.bandwidthBytesPerS / 1e9) + " GB/s x"
            + std::to_string(g.scaleUp.domainGpus);
        out << pad(g.id, 20) << pad(g.vendor, 8) << pad(format("%.0f", double(g.memoryBytes) / GiB), 11, true)
            << pad(format("%.2f", g.memoryBandwidthBytesPerS / 1e12), 10, true) << pad(tflops(g.denseFlops.bf16), 9, true)
            << pad(tflops(g.denseFlops.fp8), 8, true) << pad(tflops(g.denseFlops.fp4), 8, true) << "  " << pad(scale, 26)
            << pad(format("%.0f", g.boardPowerW), 8, true) << pad(std::to_string(g.year), 6, true) << "\n";
    }
    out << "\nDense peaks (no structured sparsity). Sources: gpuwb catalog gpus --format json\n";
    return out.str();
}

std::string catalogModelsTable(const Catalog &catalog)
{
    std::ostringstream out;
    out << pad("id", 16) << pad("params B", 10, true) << pad("active B", 10, true) << pad("layers", 8, true)
        << pad("hidden", 8, true) << pad("heads", 7, true) << pad("kv", 5, true) << pad("ffn", 7, true)
        << pad("vocab", 8, true) << pad("experts", 9, true) << pad("context", 9, true) << pad("KV KiB/token", 14, true)
        << "\n";
    for (const ModelSpec &m : catalog.models()) {
        const ParameterCounts p = countParameters(m);
        const double kvPerToken = m.layers * kvBytesPerTokenPerLayer(m, Precision::Bf16, 1);
        out << pad(m.id, 16) << pad(format("%.1f", p.total() / 1e9), 10, true)
            << pad(format("%.1f", p.active() / 1e9), 10, true) << pad(std::to_string(m.layers), 8, true)
            << pad(std::to_string(m.hiddenSize), 8, true) << pad(std::to_string(m.attentionHeads), 7, true)
            << pad(m.mla ? std::string("MLA") : std::to_string(m.kvHeads), 5, true)
            << pad(std::to_string(m.isMoe() ? m.moeIntermediateSize : m.intermediateSize), 7, true)
            << pad(std::to_string(m.vocabSize), 8, true)
            << pad(m.isMoe() ? std::to_string(m.expertsPerToken) + "/" + std::to_string(m.experts) : "-", 9, true)
            << pad(std::to_string(m.maxContext), 9, true) << pad(format("%.0f", kvPerToken / 1024), 14, true) << "\n";
    }
    out << "\nParameters are counted from the architecture; KV per token is bf16 at TP1.\n";
    return out.str();
}

std::string catalogGpusJson(const Catalog &catalog)
{
    Json list = Json::array();
    for (const GpuSpec &g : catalog.gpus()) {
        Json j;
        j["id"] = g.id;
        j["name"] = g.name;
        j["vendor"] = g.vendor;
        j["architecture"] = g.architecture;
        j["form_factor"] = g.formFactor;
        j["memory_bytes"] = g.memoryBytes;
        j["memory_bandwidth_bytes_per_s"] = g.memoryBandwidthBytesPerS;
        j["dense_flops_per_s"] = {{"fp32", optionalJson(g.denseFlops.fp32)}, {"tf32", optionalJson(g.denseFlops.tf32)},
                                  {"bf16", optionalJson(g.denseFlops.bf16)}, {"fp8", optionalJson(g.denseFlops.fp8)},
                                  {"int8", optionalJson(g.denseFlops.int8)}, {"fp4", optionalJson(g.denseFlops.fp4)}};
        j["scale_up"] = {{"kind", g.scaleUp.kind},
                         {"bandwidth_bytes_per_s", g.scaleUp.bandwidthBytesPerS},
                         {"domain_gpus", g.scaleUp.domainGpus}};
        j["pcie_gen"] = optionalJson(g.pcieGen);
        j["board_power_w"] = g.boardPowerW;
        j["mig_instances"] = g.migInstances;
        j["year"] = g.year;
        Json sources;
        for (const auto &[figure, id] : g.figureSources)
            sources[figure] = sourceJson(catalog, id);
        j["sources"] = sources;
        j["caveats"] = g.caveats;
        j["catalog_file"] = g.catalogFile;
        list.push_back(j);
    }
    return Json{{"gpus", list}}.dump(2) + "\n";
}

std::string catalogModelsJson(const Catalog &catalog)
{
    Json list = Json::array();
    for (const ModelSpec &m : catalog.models()) {
        const ParameterCounts p = countParameters(m);
        Json j;
        j["id"] = m.id;
        j["name"] = m.name;
        j["parameters"] = m.parameters;
        j["parameters_counted"] = p.total();
        j["active_parameters_counted"] = p.active();
        j["layers"] = m.layers;
        j["hidden_size"] = m.hiddenSize;
        j["attention_heads"] = m.attentionHeads;
        j["kv_heads"] = m.kvHeads;
        j["head_dim"] = m.headDim;
        j["intermediate_size"] = m.intermediateSize;
        j["vocab_size"] = m.vocabSize;
        j["tied_embeddings"] = m.tiedEmbeddings;
        j["max_context"] = m.maxContext;
        if (m.isMoe())
            j["moe"] = {{"experts", m.experts}, {"experts_per_token", m.expertsPerToken},
                        {"moe_intermediate_size", m.moeIntermediateSize}, {"shared_experts", m.sharedExperts},
                        {"dense_leading_layers", m.denseLeadingLayers}};
        if (m.mla)
            j["mla"] = {{"q_lora_rank", m.mla->qLoraRank}, {"kv_lora_rank", m.mla->kvLoraRank},
                        {"qk_nope_head_dim", m.mla->qkNopeHeadDim}, {"qk_rope_head_dim", m.mla->qkRopeHeadDim},
                        {"v_head_dim", m.mla->vHeadDim}};
        j["sliding_window"] = optionalJson(m.slidingWindow);
        j["source"] = {{"url", m.sourceUrl}, {"read", m.sourceReadDate}};
        j["catalog_file"] = m.catalogFile;
        list.push_back(j);
    }
    return Json{{"models", list}}.dump(2) + "\n";
}

} // namespace wb
