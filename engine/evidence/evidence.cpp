#include "evidence/evidence.h"

#include "core/fault.h"
#include "core/limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>

namespace wb {

namespace {

// Thrown inside mapRun: the field and what is wrong.
struct MapError
{
    std::string field, message;
};

template <typename T>
void agree(std::optional<T> &value, const std::optional<T> &given, const T &candidates, const char *field,
           std::vector<std::string> *from, const std::function<std::string(const T &)> &show)
{
    if (given)
        value = given;
    if (!value) {
        value = candidates;
        if (from)
            from->push_back(field);
        return;
    }
    if (*value != candidates)
        throw MapError{field, fmt::format("the run was measured with {} but the candidate has {}: import it against a "
                                          "candidate of that deployment",
                                          show(*value), show(candidates))};
}

} // namespace

MeasuredRun withMapping(MeasuredRun run, const RunMapping &mapping)
{
    if (!mapping.gpu.empty())
        run.gpu = mapping.gpu;
    if (mapping.gpus)
        run.gpus = mapping.gpus;
    if (mapping.tensorParallel)
        run.tensorParallel = mapping.tensorParallel;
    if (mapping.stack)
        run.stack = mapping.stack;
    if (mapping.requestRatePerS || mapping.concurrency) {
        run.requestRatePerS = mapping.requestRatePerS;
        run.concurrency = mapping.concurrency;
        run.offline = false;
    }
    if (run.requestRatePerS && run.concurrency)
        run.concurrency.reset();  // a rate with a cap on requests in flight: the rate is the load
    if (mapping.inputTokens)
        run.inputTokens.mean = mapping.inputTokens;
    if (mapping.outputTokens)
        run.outputTokens.mean = mapping.outputTokens;
    return run;
}

RunMapping mappingOf(const MeasuredRun &m)
{
    return {m.gpu, m.gpus, m.tensorParallel, m.stack, m.requestRatePerS, m.concurrency, m.inputTokens.mean,
            m.outputTokens.mean};
}

std::optional<std::string> runMismatch(const Brief &brief, const EvidenceRun &e)
{
    if (e.candidate >= brief.candidates.size())
        return fmt::format("the scenario has no candidate {} any more", e.candidate + 1);
    const Candidate &c = brief.candidates[e.candidate];
    const MeasuredRun &r = e.run;
    if (r.gpu != c.gpu || r.stack != c.servingStack || r.tensorParallel != c.tensorParallel ||
        !r.gpus || *r.gpus % c.gpusPerReplica() != 0)
        return fmt::format("candidate {} is now {} ({}); the run measured {} GPUs of {} with {} at tensor parallel {}",
                           e.candidate + 1, candidateLabel(c), enumName(c.servingStack), r.gpus.value_or(0), r.gpu,
                           r.stack ? enumName(*r.stack) : "?", r.tensorParallel.value_or(0));
    return std::nullopt;
}

Result<MeasuredRun> mapRun(MeasuredRun run, const Brief &brief, std::size_t candidate, const RunMapping &mapping,
                           std::vector<std::string> *fromCandidate)
{
    if (candidate >= brief.candidates.size())
        return Error{"", "candidate", fmt::format("the scenario has {} candidates; there is no candidate {}",
                                                  brief.candidates.size(), candidate + 1)};
    const Candidate &c = brief.candidates[candidate];
    try {
        std::optional<std::string> gpu = run.gpu.empty() ? std::nullopt : std::optional(run.gpu);
        agree<std::string>(gpu, mapping.gpu.empty() ? std::nullopt : std::optional(mapping.gpu), c.gpu, "gpu",
                           fromCandidate, [](const std::string &g) { return "GPU " + g; });
        run.gpu = *gpu;
        agree<ServingStack>(run.stack, mapping.stack, c.servingStack, "serving_stack", fromCandidate,
                            [](const ServingStack &s) { return std::string(enumName(s)); });
        agree<int>(run.tensorParallel, mapping.tensorParallel, c.tensorParallel, "tensor_parallel", fromCandidate,
                   [](const int &tp) { return fmt::format("tensor parallel {}", tp); });
        // What is typed fills what the file leaves unsaid; it never silently replaces what the
        // file says.
        if (mapping.gpus && run.gpus && *mapping.gpus != *run.gpus)
            throw MapError{"gpus", fmt::format("the file says the run used {} GPUs, not {}", *run.gpus, *mapping.gpus)};
        if (mapping.gpus)
            run.gpus = mapping.gpus;
        if (!run.gpus) {
            run.gpus = c.gpus;
            if (fromCandidate)
                fromCandidate->push_back("gpus");
        }
        // A run of fewer (or more) replicas than the candidate deploys is still a run of its
        // layout: the prediction is made at the run's GPU count.
        if (*run.gpus < 1 || *run.gpus % c.gpusPerReplica() != 0)
            throw MapError{"gpus", fmt::format("{} GPUs is not a whole number of the candidate's replicas of {} GPUs "
                                               "(tensor parallel {} x pipeline parallel {})",
                                               *run.gpus, c.gpusPerReplica(), c.tensorParallel, c.pipelineParallel)};
        const bool fileLoad = run.offline || run.requestRatePerS || run.concurrency;
        if ((mapping.requestRatePerS || mapping.concurrency) && fileLoad &&
            (mapping.requestRatePerS != run.requestRatePerS || mapping.concurrency != run.concurrency))
            throw MapError{"load", "the file says the run's load was " + runLoadText(run) + "; a load given at import only "
                                   "fills in for a file that does not say it"};
        for (const auto &[field, given, said] : {std::tuple{"input_tokens", mapping.inputTokens, run.inputTokens.mean},
                                                 {"output_tokens", mapping.outputTokens, run.outputTokens.mean}})
            if (given && said && std::abs(*given - *said) > 0.5)
                throw MapError{field, fmt::format("the file says {:g} tokens per request on average, not {:g}", *said,
                                                  *given)};
        RunMapping load;
        load.requestRatePerS = mapping.requestRatePerS;
        load.concurrency = mapping.concurrency;
        load.inputTokens = mapping.inputTokens;
        load.outputTokens = mapping.outputTokens;
        run = withMapping(std::move(run), load);
        if (!run.offline && !run.requestRatePerS && !run.concurrency)
            throw MapError{"load", "the file does not say the load it ran at: give the request rate or the "
                                   "number of concurrent requests"};
        if (!run.inputTokens.mean && run.inputTokens.p50)
            run.inputTokens.mean = run.inputTokens.p50;
        if (!run.outputTokens.mean && run.outputTokens.p50)
            run.outputTokens.mean = run.outputTokens.p50;
        if (!run.inputTokens.mean || *run.inputTokens.mean < 1)
            throw MapError{"input_tokens", "the file does not say the mean input tokens per request: give them"};
        if (!run.outputTokens.mean || *run.outputTokens.mean < 1)
            throw MapError{"output_tokens", "the file does not say the mean output tokens per request: give them"};
        // The run is predicted as a brief would be: the same limits as a brief's fields.
        if (run.requestRatePerS &&
            (*run.requestRatePerS < limits::kMinRequestRatePerS || *run.requestRatePerS > limits::kRequestRatePerS))
            throw MapError{"request_rate", fmt::format("{:g} requests/s is outside what the engine simulates ({:g} to {:g})",
                                                       *run.requestRatePerS, limits::kMinRequestRatePerS,
                                                       limits::kRequestRatePerS)};
        if (run.concurrency && (*run.concurrency < 1 || *run.concurrency > limits::kConcurrency))
            throw MapError{"concurrency", fmt::format("{} concurrent requests is outside 1 to {:g}", *run.concurrency,
                                                      limits::kConcurrency)};
        for (const auto &[field, stat] : {std::pair{"input_tokens", &run.inputTokens}, {"output_tokens", &run.outputTokens}})
            if (*stat->mean > 1e8)
                throw MapError{field, fmt::format("a mean of {:g} tokens per request is more than the engine models (1e8)",
                                                  *stat->mean)};
        if (*run.gpus > limits::kGpusPerCandidate)
            throw MapError{"gpus", fmt::format("{} GPUs is more than a candidate may have ({:g})", *run.gpus,
                                               limits::kGpusPerCandidate)};
    } catch (const MapError &e) {
        return Error{"", e.field, e.message};
    }
    return run;
}

Brief briefAtRun(const Brief &brief, const EvidenceRun &e)
{
    Brief b = brief;
    const MeasuredRun &run = e.run;
    Candidate c = brief.candidates.at(e.candidate);
    c.gpus = run.gpus.value_or(c.gpus);
    b.candidates = {c};
    Workload &w = b.workload;
    w.inputTokens = run.inputTokens.mean.value_or(w.inputTokens);
    w.outputTokens = run.outputTokens.mean.value_or(w.outputTokens);
    // A p95 below the mean (a few very long requests) has no lognormal spread: the mean alone.
    w.inputTokensP95 = run.inputTokens.p95 && *run.inputTokens.p95 >= w.inputTokens ? run.inputTokens.p95 : std::nullopt;
    w.outputTokensP95 = run.outputTokens.p95 && *run.outputTokens.p95 >= w.outputTokens ? run.outputTokens.p95 : std::nullopt;
    Traffic t;
    if (run.requestRatePerS) {
        t.mode = TrafficMode::OpenLoop;
        t.requestRatePerS = run.requestRatePerS;
        // A constant-rate run (GuideLLM's "constant") is the least bursty the simulator draws.
        t.burstiness = std::clamp(run.burstiness, 0.01, 100.0);  // a brief's range
    } else if (run.concurrency) {
        t.mode = TrafficMode::ClosedLoop;
        t.concurrency = run.concurrency;
    } else {
        t.mode = TrafficMode::Offline;
    }
    w.traffic = t;
    w.slo = {};
    return b;
}

std::string metricLabel(const MetricComparison &m)
{
    static const std::map<std::string, std::string> names = {
        {"ttft", "TTFT"}, {"tpot", "TPOT"}, {"itl", "ITL"}, {"ntpot", "E2E per token"}, {"e2e", "E2E"},
        {"output_tokens_per_s", "Output tokens/s"}, {"requests_per_s", "Requests/s"}};
    const auto it = names.find(m.metric);
    const std::string name = it == names.end() ? m.metric : it->second;
    return m.stat.empty() ? name : name + " " + m.stat;
}

bool isLatencyMetric(const std::string &metric)
{
    return metric != "output_tokens_per_s" && metric != "requests_per_s";
}

std::vector<MetricComparison> compareRun(const MeasuredRun &run, const PerformanceResult &p)
{
    std::vector<MetricComparison> out;
    const auto add = [&](const char *metric, const MeasuredStat &measured, const Distribution &predicted) {
        const auto one = [&](const char *stat, const std::optional<double> &m, double d) {
            if (!m)
                return;
            MetricComparison c{metric, stat, *m, std::nullopt, std::nullopt, std::nullopt};
            if (p.computed && !predicted.empty && std::isfinite(d))
                c.predicted = d;
            out.push_back(c);
        };
        one("mean", measured.mean, predicted.mean);
        one("p50", measured.p50, predicted.p50);
        one("p95", measured.p95, predicted.p95);
        one("p99", measured.p99, predicted.p99);
    };
    add("ttft", run.ttft, p.ttft);
    add("tpot", run.tpot, p.tpot);
    add("itl", run.itl, p.itl);
    add("ntpot", run.ntpot, p.ntpot);
    add("e2e", run.e2e, p.e2e);
    const auto rate = [&](const char *metric, const std::optional<double> &m, double predicted) {
        if (m)
            out.push_back({metric, "", *m, p.computed && predicted > 0 ? std::optional(predicted) : std::nullopt,
                           std::nullopt, std::nullopt});
    };
    rate("output_tokens_per_s", run.outputTokensPerS, p.outputTokensPerS);
    rate("requests_per_s", run.requestsPerS, p.requestsPerS);
    return out;
}

std::vector<std::string> EvidenceCalibration::misfits() const
{
    std::vector<std::string> out;
    for (const FamilyError &e : errors)
        if (e.after && *e.after > 0.25)
            out.push_back(e.family);
    return out;
}

std::string EvidenceCalibration::provenance() const
{
    return runs.size() == 1 ? std::string("calibrated from 1 run") : fmt::format("calibrated from {} runs", runs.size());
}

namespace {

// The figures of a run the calibration fits: the means and medians of the latencies (tails
// depend on the arrival draw more than on the step model) and the output throughput.
// One table: each fitted figure, the comparison's metric and stat it is, and where a run holds it.
struct FittedFigure
{
    MeasuredFigure figure;
    const char *metric, *stat;
    std::optional<double> (*value)(const MeasuredRun &);
};
constexpr FittedFigure kFitted[] = {
    {MeasuredFigure::TtftMeanS, "ttft", "mean", [](const MeasuredRun &r) { return r.ttft.mean; }},
    {MeasuredFigure::TtftP50S, "ttft", "p50", [](const MeasuredRun &r) { return r.ttft.p50; }},
    {MeasuredFigure::TpotMeanS, "tpot", "mean", [](const MeasuredRun &r) { return r.tpot.mean; }},
    {MeasuredFigure::TpotP50S, "tpot", "p50", [](const MeasuredRun &r) { return r.tpot.p50; }},
    {MeasuredFigure::ItlMeanS, "itl", "mean", [](const MeasuredRun &r) { return r.itl.mean; }},
    {MeasuredFigure::E2eMeanS, "e2e", "mean", [](const MeasuredRun &r) { return r.e2e.mean; }},
    {MeasuredFigure::E2eP50S, "e2e", "p50", [](const MeasuredRun &r) { return r.e2e.p50; }},
    {MeasuredFigure::LoadTokensPerS, "output_tokens_per_s", "", [](const MeasuredRun &r) { return r.outputTokensPerS; }},
};

std::vector<Measurement> measurementsOf(const MeasuredRun &run)
{
    std::vector<Measurement> m;
    for (const FittedFigure &f : kFitted)
        if (const auto v = f.value(run); v && *v > 0 && std::isfinite(*v))
            m.push_back({f.figure, *v});
    return m;
}

// The figure a calibration row stands for, as a comparison's metric and stat.
std::pair<std::string, std::string> metricOf(MeasuredFigure figure)
{
    for (const FittedFigure &f : kFitted)
        if (f.figure == figure)
            return {f.metric, f.stat};
    return {"", ""};
}

std::string runCaseId(long long id)
{
    return fmt::format("run {}", id);
}

// The shipped table with each factor's prior moved to its shipped value: a project's runs refine
// the shipped calibration rather than start again from the literature.
EfficiencyTable shippedAsPrior(const EfficiencyTable &base)
{
    std::vector<EfficiencyFactor> factors = base.factors();
    for (EfficiencyFactor &f : factors) {
        if (f.calibrated())
            f.priorBasis = f.source();
        f.prior = f.value;
    }
    return EfficiencyTable(std::move(factors));
}

} // namespace

std::vector<EvidenceCalibration> calibrateFromEvidence(const Brief &brief, const std::vector<EvidenceRun> &runs,
                                                       const Catalog &catalog, const EfficiencyTable &base,
                                                       std::stop_token stop)
{
    if (faultInjected("calibration-throws"))  // tests of the barriers above (core/fault.h)
        throw std::runtime_error("injected fault (calibration-throws)");
    // Groups by GPU and stack, in the order the runs come (stable for a stored project).
    std::vector<std::pair<std::pair<std::string, ServingStack>, std::vector<const EvidenceRun *>>> groups;
    for (const EvidenceRun &r : runs) {
        if (runMismatch(brief, r))
            continue;
        const Candidate &c = brief.candidates[r.candidate];
        const auto key = std::pair(c.gpu, c.servingStack);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &g) { return g.first == key; });
        if (it == groups.end())
            it = groups.insert(groups.end(), {key, {}});
        it->second.push_back(&r);
    }
    const EfficiencyTable prior = shippedAsPrior(base);
    const CasePredictor predict = enginePredictor(catalog);
    std::vector<EvidenceCalibration> out;
    for (const auto &[key, members] : groups) {
        if (stop.stop_requested())
            return {};
        std::vector<CalibrationCase> cases;
        EvidenceCalibration cal;
        cal.gpu = key.first;
        cal.stack = key.second;
        for (const EvidenceRun *r : members) {
            CalibrationCase c;
            c.id = runCaseId(r->id);
            c.set = "evidence";
            c.brief = briefAtRun(brief, *r);
            c.measured = measurementsOf(r->run);
            c.factorKeys = caseFactorKeys(c, catalog);
            if (c.measured.empty() || c.factorKeys.empty())
                continue;
            cal.runs.push_back(r->id);
            cases.push_back(std::move(c));
        }
        if (cases.empty())
            continue;
        CalibrationOptions options;
        options.leaveOneOut = cases.size() > 1;
        cal.report = calibrate(cases, prior, predict, options);
        // A run the engine cannot predict at all (the candidate does not fit at its count) does
        // not support the factors.
        std::vector<long long> predicted;
        for (std::size_t i = 0; i < cases.size(); ++i)
            if (std::any_of(cal.report.rows.begin(), cal.report.rows.end(),
                            [&](const CalibrationRow &row) { return row.id == cases[i].id && row.prior; }))
                predicted.push_back(cal.runs[i]);
        cal.runs = predicted;
        if (cal.runs.empty())
            continue;
        cal.table = cal.report.table;
        // Errors by family, and whether cross-validation supports applying the fit.
        std::map<std::string, std::array<std::pair<double, int>, 3>> sums;
        for (const CalibrationRow &row : cal.report.rows) {
            auto &s = sums[measuredFamily(row.figure)];
            int column = 0;
            for (const auto &v : {row.prior, row.calibrated, row.leftOut}) {
                if (v && row.measured > 0) {
                    s[std::size_t(column)].first += std::abs(*v / row.measured - 1);
                    ++s[std::size_t(column)].second;
                }
                ++column;
            }
        }
        double before = 0, left = 0;
        int nBefore = 0, nLeft = 0;
        for (const char *family : {"ttft", "tpot", "e2e", "throughput"}) {
            const auto it = sums.find(family);
            if (it == sums.end())
                continue;
            const auto mean = [](const std::pair<double, int> &s) {
                return s.second ? std::optional(s.first / s.second) : std::nullopt;
            };
            cal.errors.push_back({family, mean(it->second[0]), mean(it->second[1]), mean(it->second[2])});
            before += it->second[0].first;
            nBefore += it->second[0].second;
            left += it->second[2].first;
            nLeft += it->second[2].second;
        }
        if (nLeft > 0 && nBefore > 0 && left / nLeft > before / nBefore) {
            cal.stable = false;
            cal.why = makeMessage("calibration-unstable", "",
                                  WB_MESSAGE("Messages", "calibrated from the measured runs ({runs}), but predicting each run from the others "
                                             "missed by {left_out_percent:.0f}% on average, more than the shipped "
                                             "factors' {shipped_percent:.0f}%: the runs disagree with each other or with "
                                             "the model, so the calibration may follow their noise (more runs, nearer the "
                                             "brief's load, would settle it; the Evidence page can switch it off)"),
                                  {{"runs", std::int64_t(cal.runs.size())}, {"left_out_percent", 100 * left / nLeft},
                                   {"shipped_percent", 100 * before / nBefore}});
        }
        // Factors the runs did not inform keep the shipped calibration's cases.
        for (const EfficiencyFactor &f : base.factors())
            if (EfficiencyFactor *mine = cal.table.factor(f.key); mine && mine->cases.empty())
                mine->cases = f.cases;
        out.push_back(std::move(cal));
    }
    return out;
}

std::vector<CandidateEfficiency> candidateEfficiencies(const std::vector<EvidenceCalibration> &calibrations)
{
    std::vector<CandidateEfficiency> out;
    for (const EvidenceCalibration &c : calibrations) {
        std::vector<Warning> warnings;
        if (!c.stable)
            warnings.push_back(c.why);
        for (const EvidenceCalibration::FamilyError &e : c.errors) {
            if (!e.after || *e.after <= 0.25)
                continue;
            std::string name = e.family;
            if (name != "throughput")
                std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return char(std::toupper(ch)); });
            warnings.push_back(makeMessage("calibration-misfit", "",
                                           WB_MESSAGE("Messages", "calibrated from the measured runs ({runs}), but the runs' {figure} is still "
                                                      "{off_percent:.0f}% off the prediction after calibration: the step "
                                                      "model does not explain it (queueing, scheduling or the client's "
                                                      "measurement), so treat these {figure} figures as uncertain"),
                                           {{"runs", std::int64_t(c.runs.size())}, {"figure", name},
                                            {"off_percent", 100 * *e.after}}));
        }
        out.push_back({c.gpu, c.stack, &c.table, c.provenance(), int(c.runs.size()), std::move(warnings)});
    }
    return out;
}

std::vector<RunPrediction> predictRuns(const Brief &brief, const std::vector<EvidenceRun> &runs, const Catalog &catalog,
                                       const EfficiencyTable &base, const std::vector<EvidenceCalibration> &calibrations,
                                       std::stop_token stop)
{
    std::vector<RunPrediction> out(runs.size());
    for (std::size_t i = 0; i < runs.size() && !stop.stop_requested(); ++i) {
        const EvidenceRun &r = runs[i];
        RunPrediction &p = out[i];
        p.run = r.id;
        if (const auto why = runMismatch(brief, r)) {
            p.why = *why;
            p.metrics = compareRun(r.run, PerformanceResult{});
            continue;
        }
        const Brief at = briefAtRun(brief, r);
        EvaluateOptions options;
        options.efficiency = &base;
        options.today = "2026-01-01";  // prices do not enter the figures
        options.stop = stop;
        const Results plain = evaluate(at, catalog, options);
        const CandidateResult &pr = plain.results.at(0);
        p.metrics = compareRun(r.run, pr.performance);
        if (!pr.performance.computed) {
            const Warning *why = whyNotCosted(pr);
            p.why = why ? why->message : "the engine gives no performance for this run's deployment";
        }
        const Candidate &c = at.candidates.front();
        for (const EvidenceCalibration &cal : calibrations) {
            if (cal.gpu != c.gpu || cal.stack != c.servingStack)
                continue;
            for (const CalibrationRow &row : cal.report.rows) {
                if (row.id != runCaseId(r.id) || !row.leftOut)
                    continue;
                const auto [metric, stat] = metricOf(row.figure);
                for (MetricComparison &m : p.metrics)
                    if (m.metric == metric && m.stat == stat)
                        m.leftOut = row.leftOut;
            }
            options.efficiency = &cal.table;
            const PerformanceResult calibrated = evaluate(at, catalog, options).results.at(0).performance;
            const std::vector<MetricComparison> after = compareRun(r.run, calibrated);
            for (std::size_t m = 0; m < p.metrics.size() && m < after.size(); ++m)
                p.metrics[m].calibrated = after[m].predicted;
        }
    }
    return out;
}

std::string calibrationKey(const std::string &briefJson, const std::vector<EvidenceRun> &runs)
{
    nlohmann::ordered_json brief = nlohmann::ordered_json::parse(briefJson, nullptr, false);
    std::string key;
    if (brief.is_object()) {
        for (const char *k : {"name", "notes", "cost"})
            brief.erase(k);
        if (brief.contains("workload") && brief["workload"].is_object())
            for (const char *k : {"traffic", "slo", "acceptance"})
                brief["workload"].erase(k);
        if (brief.contains("candidates") && brief["candidates"].is_array()) {
            nlohmann::ordered_json measured = nlohmann::ordered_json::object();
            for (const EvidenceRun &r : runs)
                if (r.candidate < brief["candidates"].size())
                    measured[std::to_string(r.candidate)] = brief["candidates"][r.candidate];
            brief["candidates"] = measured;
        }
        key = brief.dump();
    } else {
        key = briefJson;
    }
    for (const EvidenceRun &r : runs)
        key += fmt::format("|{}:{}:{}:{}:{}:{}:{}", r.id, r.candidate, r.file.sha256, r.index, r.run.gpus.value_or(0),
                           r.run.requestRatePerS.value_or(0), r.run.concurrency.value_or(0));
    return key;
}

namespace {

std::vector<LoadPoint> curveAt(const Brief &at, const Catalog &catalog, const EfficiencyTable &table,
                               const std::vector<double> &rates, std::stop_token stop)
{
    std::vector<LoadPoint> points;
    EvaluateOptions options;
    options.efficiency = &table;
    options.today = "2026-01-01";
    options.stop = stop;
    for (double rate : rates) {
        if (stop.stop_requested())
            break;
        Brief b = at;
        b.workload.traffic.mode = TrafficMode::OpenLoop;
        b.workload.traffic.requestRatePerS = rate;
        b.workload.traffic.concurrency.reset();
        const PerformanceResult p = evaluate(b, catalog, options).results.at(0).performance;
        if (!p.computed)
            continue;
        points.push_back({rate, p.ttft.p50, p.ttft.p95, p.ttft.p99, p.tpot.p50, p.tpot.p95, p.tpot.p99, p.outputTokensPerS,
                          true});
    }
    return points;
}

} // namespace

EvidenceAnalysis analyzeEvidence(const Brief &brief, std::vector<EvidenceRun> runs, const Catalog &catalog,
                                 const EfficiencyTable &base, std::vector<EvidenceCalibration> calibrations,
                                 std::stop_token stop)
{
    EvidenceAnalysis a;
    a.predictions = predictRuns(brief, runs, catalog, base, calibrations, stop);
    for (const EvidenceRun &r : runs) {
        if (stop.stop_requested() || runMismatch(brief, r))
            continue;
        if (std::any_of(a.curves.begin(), a.curves.end(), [&](const EvidenceCurve &c) { return c.candidate == r.candidate; }))
            continue;
        EvidenceCurve curve;
        curve.candidate = r.candidate;
        curve.run = r.id;
        Brief at = briefAtRun(brief, r);
        at.workload.traffic = {};
        EvaluateOptions options;
        options.efficiency = &base;
        options.today = "2026-01-01";
        options.stop = stop;
        const PerformanceResult offline = evaluate(at, catalog, options).results.at(0).performance;
        if (!offline.computed || offline.maxRequestsPerS <= 0)
            continue;
        std::vector<double> rates;
        for (double f : {0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97})
            rates.push_back(f * offline.maxRequestsPerS);
        curve.predicted = curveAt(at, catalog, base, rates, stop);
        for (const EvidenceCalibration &c : calibrations)
            if (c.gpu == at.candidates.front().gpu && c.stack == at.candidates.front().servingStack)
                curve.calibrated = curveAt(at, catalog, c.table, rates, stop);
        a.curves.push_back(std::move(curve));
    }
    a.runs = std::move(runs);
    a.calibrations = std::move(calibrations);
    return a;
}

} // namespace wb
