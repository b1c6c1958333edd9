#include "evaluate/calibration.h"

#include "catalog/modelarch.h"
#include "core/csvread.h"
#include "core/limits.h"
#include "core/threadpool.h"
#include "evaluate/evaluate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <set>

namespace wb {

namespace {

struct FigureName
{
    MeasuredFigure figure;
    const char *name;
    const char *family;
};

constexpr FigureName kFigures[] = {
    {MeasuredFigure::OfflineTokensPerS, "offline_tokens_per_s", "throughput"},
    {MeasuredFigure::SloTokensPerS, "slo_tokens_per_s", "throughput"},
    {MeasuredFigure::LoadTokensPerS, "load_tokens_per_s", "throughput"},
    {MeasuredFigure::LoadTokensPerSPerGpu, "load_tokens_per_s_per_gpu", "throughput"},
    {MeasuredFigure::DecodeTokensPerS, "decode_tokens_per_s", "throughput"},
    {MeasuredFigure::TtftMeanS, "ttft_mean_s", "ttft"},
    {MeasuredFigure::TtftP50S, "ttft_p50_s", "ttft"},
    {MeasuredFigure::TpotMeanS, "tpot_mean_s", "tpot"},
    {MeasuredFigure::TpotP50S, "tpot_p50_s", "tpot"},
    {MeasuredFigure::ItlMeanS, "itl_mean_s", "tpot"},
    {MeasuredFigure::ItlP50S, "itl_p50_s", "tpot"},
    {MeasuredFigure::E2eMeanS, "e2e_mean_s", "e2e"},
    {MeasuredFigure::E2eP50S, "e2e_p50_s", "e2e"},
    {MeasuredFigure::SloTtftMeanS, "slo_ttft_mean_s", "ttft"},
    {MeasuredFigure::SloTpotMeanS, "slo_tpot_mean_s", "tpot"},
    {MeasuredFigure::TrainingTokensPerS, "training_tokens_per_s", "throughput"},
    {MeasuredFigure::TrainingTokensPerSPerGpu, "training_tokens_per_s_per_gpu", "throughput"},
    {MeasuredFigure::TrainingModelFlopsPerSPerGpu, "training_model_flops_per_s_per_gpu", "throughput"},
    {MeasuredFigure::MediaOutputsPerS, "media_outputs_per_s", "throughput"},
    {MeasuredFigure::MediaSecondsPerOutput, "media_seconds_per_output", "e2e"},
};

bool isMediaFigure(MeasuredFigure f)
{
    return f == MeasuredFigure::MediaOutputsPerS || f == MeasuredFigure::MediaSecondsPerOutput;
}

bool needsSloRun(MeasuredFigure f)
{
    return f == MeasuredFigure::SloTtftMeanS || f == MeasuredFigure::SloTpotMeanS;
}

std::optional<double> figureOf(MeasuredFigure f, const PerformanceResult &p, const PerformanceResult *atSlo, int gpus)
{
    const auto positive = [](double v) { return v > 0 && std::isfinite(v) ? std::optional<double>(v) : std::nullopt; };
    switch (f) {
    case MeasuredFigure::OfflineTokensPerS: return positive(p.maxOutputTokensPerS);
    case MeasuredFigure::SloTokensPerS: return p.outputTokensPerSWithinSlo ? positive(*p.outputTokensPerSWithinSlo) : std::nullopt;
    case MeasuredFigure::LoadTokensPerS: return positive(p.outputTokensPerS);
    case MeasuredFigure::LoadTokensPerSPerGpu: return positive(p.outputTokensPerS / std::max(1, gpus));
    case MeasuredFigure::DecodeTokensPerS: return p.tpot.empty ? std::nullopt : positive(1.0 / p.tpot.mean);
    case MeasuredFigure::TtftMeanS: return p.ttft.empty ? std::nullopt : positive(p.ttft.mean);
    case MeasuredFigure::TtftP50S: return p.ttft.empty ? std::nullopt : positive(p.ttft.p50);
    case MeasuredFigure::TpotMeanS: return p.tpot.empty ? std::nullopt : positive(p.tpot.mean);
    case MeasuredFigure::TpotP50S: return p.tpot.empty ? std::nullopt : positive(p.tpot.p50);
    case MeasuredFigure::ItlMeanS: return p.itl.empty ? std::nullopt : positive(p.itl.mean);
    case MeasuredFigure::ItlP50S: return p.itl.empty ? std::nullopt : positive(p.itl.p50);
    case MeasuredFigure::E2eMeanS: return p.e2e.empty ? std::nullopt : positive(p.e2e.mean);
    case MeasuredFigure::E2eP50S: return p.e2e.empty ? std::nullopt : positive(p.e2e.p50);
    case MeasuredFigure::SloTtftMeanS: return atSlo && !atSlo->ttft.empty ? positive(atSlo->ttft.mean) : std::nullopt;
    case MeasuredFigure::SloTpotMeanS: return atSlo && !atSlo->tpot.empty ? positive(atSlo->tpot.mean) : std::nullopt;
    case MeasuredFigure::TrainingTokensPerS: return p.training ? positive(p.training->tokensPerS) : std::nullopt;
    case MeasuredFigure::TrainingTokensPerSPerGpu: return p.training ? positive(p.training->tokensPerSPerGpu) : std::nullopt;
    case MeasuredFigure::TrainingModelFlopsPerSPerGpu:
        return p.training ? positive(p.training->mfu * p.training->peakFlopsPerGpu) : std::nullopt;
    case MeasuredFigure::MediaOutputsPerS: return p.media ? positive(p.media->outputsPerHour / 3600) : std::nullopt;
    case MeasuredFigure::MediaSecondsPerOutput: return p.media ? positive(p.media->secondsPerOutput) : std::nullopt;
    }
    return std::nullopt;
}

} // namespace

std::vector<std::string> caseFactorKeys(const CalibrationCase &c, const Catalog &catalog)
{
    const Candidate &cand = c.brief.candidates.front();
    const GpuSpec *gpu = catalog.gpu(cand.gpu);
    if (!gpu)
        return {};
    // A training step's math is its one calibrated factor (its optimizer pass reads memory at
    // the inference-calibrated memory factor, which training cases do not refit).
    if (isTraining(c.brief.workload.kind) || isAdapter(c.brief.workload.kind))
        return {catalog.efficiency().trainingKey(*gpu, mathPrecision(c.brief.workload.weightsPrecision))};
    // A media pipeline's two shares (its weight-read floor is the inference-calibrated memory factor).
    if (c.brief.workload.media)
        return {"media_dense_share", "media_attention_share"};
    return catalog.efficiency().keysFor(*gpu, mathPrecision(c.brief.workload.weightsPrecision), cand.servingStack,
                                        c.brief.workload.model.isMoe());
}

std::map<std::string, std::string> caseGroups(const CalibrationCase &c, const Catalog &catalog)
{
    std::map<std::string, std::string> g;
    const Candidate &cand = c.brief.candidates.front();
    if (const GpuSpec *gpu = catalog.gpu(cand.gpu))
        g["gpu-family"] = gpu->architecture;
    const Workload &w = c.brief.workload;
    if (w.media)
        g["model-size"] = "media:" + w.media->model.id;
    else
        g["model-size"] = modelSizeClass(countParameters(w.model).total());
    if (!w.media && !isTraining(w.kind) && !isAdapter(w.kind))
        g["stack"] = enumName(cand.servingStack);
    g["source"] = !c.origin.empty() ? c.origin : c.id.substr(0, c.id.find('-'));
    return g;
}

namespace {

// Solves A x = b (A symmetric positive definite, n x n, row-major) by Gaussian elimination with
// partial pivoting.
std::vector<double> solve(std::vector<double> a, std::vector<double> b)
{
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col]))
                pivot = r;
        if (pivot != col) {
            for (std::size_t k = 0; k < n; ++k)
                std::swap(a[col * n + k], a[pivot * n + k]);
            std::swap(b[col], b[pivot]);
        }
        const double d = a[col * n + col];
        if (std::fabs(d) < 1e-300)
            continue;
        for (std::size_t r = col + 1; r < n; ++r) {
            const double f = a[r * n + col] / d;
            if (f == 0)
                continue;
            for (std::size_t k = col; k < n; ++k)
                a[r * n + k] -= f * a[col * n + k];
            b[r] -= f * b[col];
        }
    }
    std::vector<double> x(n, 0);
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t k = i + 1; k < n; ++k)
            s -= a[i * n + k] * x[k];
        const double d = a[i * n + i];
        x[i] = std::fabs(d) < 1e-300 ? 0 : s / d;
    }
    return x;
}

// The free parameters: log factors the cases use.
struct Problem
{
    const std::vector<CalibrationCase> &cases;
    const CasePredictor &predict;
    const CalibrationOptions &options;
    std::vector<std::string> keys;                 // free factors
    std::vector<double> mu, width;                 // log prior, its width
    std::vector<double> ceiling;                   // log upper bound (+inf: none)
    std::vector<std::vector<std::size_t>> uses;    // per case: indexes into keys
    EfficiencyTable base;
    int evaluations = 0;

    EfficiencyTable tableAt(const std::vector<double> &theta) const
    {
        EfficiencyTable t = base;
        for (std::size_t k = 0; k < keys.size(); ++k)
            t.factor(keys[k])->value = std::exp(theta[k]);
        return t;
    }

    // Predictions of each job's case at its table.
    std::vector<std::vector<std::optional<double>>> run(const std::vector<std::pair<std::size_t, EfficiencyTable>> &jobs)
    {
        std::vector<std::vector<std::optional<double>>> out(jobs.size());
        // On the process's pool (core/threadpool.h): a case that throws fails the calibration
        // here, on the caller's thread, rather than ending the process.
        parallelFor(jobs.size(), [&](std::size_t j) { out[j] = predict(cases[jobs[j].first], jobs[j].second); });
        evaluations += int(jobs.size());
        return out;
    }

    std::vector<std::vector<std::optional<double>>> predictAll(const EfficiencyTable &t)
    {
        std::vector<std::pair<std::size_t, EfficiencyTable>> jobs;
        for (std::size_t i = 0; i < cases.size(); ++i)
            jobs.emplace_back(i, t);
        return run(jobs);
    }

    // Scaled residuals of case i's figures (0 where the engine gives none).
    std::vector<double> residuals(std::size_t i, const std::vector<std::optional<double>> &p) const
    {
        std::vector<double> r;
        const CalibrationCase &c = cases[i];
        for (std::size_t m = 0; m < c.measured.size(); ++m)
            r.push_back(m < p.size() && p[m] ? (std::log(*p[m]) - std::log(c.measured[m].value)) / options.measurementSigma : 0.0);
        return r;
    }

    // Cauchy loss of a scaled residual: r^2 near 0, growing like log r^2 beyond the robust scale.
    double loss(double r) const
    {
        const double c = options.robustScale / options.measurementSigma;
        return c * c * std::log1p(r * r / (c * c));
    }
    // Its iteratively-reweighted least-squares weight.
    double weight(double r) const
    {
        const double c = options.robustScale / options.measurementSigma;
        return 1.0 / (1.0 + r * r / (c * c));
    }

    double objective(const std::vector<double> &theta, const std::vector<std::vector<std::optional<double>>> &preds) const
    {
        double s = 0;
        for (std::size_t i = 0; i < cases.size(); ++i)
            for (double r : residuals(i, preds[i]))
                s += loss(r);
        for (std::size_t k = 0; k < keys.size(); ++k)
            s += std::pow((theta[k] - mu[k]) / width[k], 2);
        return s;
    }

    // Per case, the Jacobian rows (figure x key) of its scaled residuals at theta.
    std::vector<std::vector<std::vector<double>>> jacobian(const std::vector<double> &theta,
                                                           const std::vector<std::vector<std::optional<double>>> &at)
    {
        std::vector<std::pair<std::size_t, EfficiencyTable>> jobs;
        std::vector<std::pair<std::size_t, std::size_t>> which;  // case, key
        const double h = options.derivativeStep;
        for (std::size_t i = 0; i < cases.size(); ++i)
            for (std::size_t k : uses[i]) {
                std::vector<double> moved = theta;
                moved[k] += h;
                jobs.emplace_back(i, tableAt(moved));
                which.emplace_back(i, k);
            }
        const auto preds = run(jobs);
        std::vector<std::vector<std::vector<double>>> j(cases.size());
        for (std::size_t i = 0; i < cases.size(); ++i)
            j[i].assign(cases[i].measured.size(), std::vector<double>(keys.size(), 0.0));
        for (std::size_t n = 0; n < jobs.size(); ++n) {
            const auto [i, k] = which[n];
            for (std::size_t m = 0; m < cases[i].measured.size(); ++m)
                if (m < at[i].size() && at[i][m] && m < preds[n].size() && preds[n][m])
                    j[i][m][k] = (std::log(*preds[n][m]) - std::log(*at[i][m])) / h / options.measurementSigma;
        }
        return j;
    }

    // Normal equations at theta, without the cases `skip` marks (none when empty): H delta = -g.
    std::pair<std::vector<double>, std::vector<double>>
    normal(const std::vector<double> &theta, const std::vector<std::vector<std::optional<double>>> &at,
           const std::vector<std::vector<std::vector<double>>> &jac, const std::vector<char> &skip) const
    {
        const std::size_t n = keys.size();
        std::vector<double> hess(n * n, 0.0), grad(n, 0.0);
        for (std::size_t i = 0; i < cases.size(); ++i) {
            if (!skip.empty() && skip[i])
                continue;
            const std::vector<double> r = residuals(i, at[i]);
            for (std::size_t m = 0; m < r.size(); ++m) {
                const double w = weight(r[m]);
                for (std::size_t a = 0; a < n; ++a) {
                    if (jac[i][m][a] == 0)
                        continue;
                    grad[a] += w * jac[i][m][a] * r[m];
                    for (std::size_t b = 0; b < n; ++b)
                        hess[a * n + b] += w * jac[i][m][a] * jac[i][m][b];
                }
            }
        }
        for (std::size_t k = 0; k < n; ++k) {
            hess[k * n + k] += 1.0 / (width[k] * width[k]);
            grad[k] += (theta[k] - mu[k]) / (width[k] * width[k]);
        }
        for (double &g : grad)
            g = -g;
        return {hess, grad};
    }
};

} // namespace

std::optional<MeasuredFigure> measuredFigureFromName(const std::string &name)
{
    for (const FigureName &f : kFigures)
        if (name == f.name)
            return f.figure;
    return std::nullopt;
}

std::string measuredFigureName(MeasuredFigure f)
{
    for (const FigureName &n : kFigures)
        if (n.figure == f)
            return n.name;
    return "?";
}

std::string measuredFamily(MeasuredFigure f)
{
    for (const FigureName &n : kFigures)
        if (n.figure == f)
            return n.family;
    return "?";
}

Result<std::vector<CalibrationCase>> readCalibrationCases(const std::string &csvText, const std::string &fileName,
                                                          const Catalog &catalog)
{
    Result<CsvTable> table = parseCsv(csvText, fileName);
    if (!table)
        return table.error();
    const CsvTable &t = table.value();
    std::map<std::string, std::size_t> col;
    for (const char *name : {"case_id", "set", "figure", "measured", "assumed", "brief"}) {
        const auto c = t.column(name);
        if (!c)
            return Error{fileName, "line 1", std::string("the header has no \"") + name + "\" column"};
        col[name] = *c;
    }
    const auto origin = t.column("origin"), measuredOn = t.column("measured_on");
    std::vector<CalibrationCase> cases;
    std::map<std::string, std::size_t> index;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::vector<std::string> &row = t.rows[r];
        const auto where = [&](const char *column) { return fmt::format("line {}, column {}", t.lines[r], column); };
        const std::string id = row[col["case_id"]];
        for (const char *name : {"case_id", "set"}) {
            if (!limits::isPlainName(row[col[name]]))
                return Error{fileName, where(name), "must be 1 to 64 letters, digits, '-', '_' or '.'"};
        }
        const auto figure = measuredFigureFromName(row[col["figure"]]);
        if (!figure)
            return Error{fileName, where("figure"), "\"" + row[col["figure"]] + "\" is not a figure this engine predicts"};
        // A plain decimal number (no hex, no "inf"), in tokens/s, seconds or FLOP/s.
        const double most = *figure == MeasuredFigure::TrainingModelFlopsPerSPerGpu ? 1e18 : 1e12;
        const std::string &text = row[col["measured"]];
        double value = 0;
        const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
        if (text.empty() || parsed.ec == std::errc::invalid_argument || parsed.ptr != text.data() + text.size())
            return Error{fileName, where("measured"), "\"" + text + "\" is not a number"};
        if (parsed.ec == std::errc::result_out_of_range || !(value >= 1e-9 && value <= most))
            return Error{fileName, where("measured"),
                         "\"" + text + "\" is outside what a measured figure can be (1e-9 to " + (most > 1e12 ? "1e18 FLOP/s" : "1e12, tokens/s or seconds") + ")"};
        auto at = index.find(id);
        if (at != index.end() && row[col["brief"]] != cases[at->second].briefText)
            return Error{fileName, where("brief"), "case " + id + " appears before with another brief"};
        if (at == index.end()) {
            Result<Brief> brief = parseBrief(row[col["brief"]], fileName + " (" + where("brief") + ")", catalog);
            if (!brief)
                return brief.error();
            if (brief->candidates.size() != 1)
                return Error{fileName, where("brief"), "a case's brief has exactly one candidate"};
            const WorkloadKind kind = brief->workload.kind;
            if ((kind == WorkloadKind::MediaGeneration) != isMediaFigure(*figure))
                return Error{fileName, where("figure"), kind == WorkloadKind::MediaGeneration
                                                            ? "a media run's figure is media_outputs_per_s or media_seconds_per_output"
                                                            : "media figures need a media-generation brief"};
            const bool training = isTraining(kind) || isAdapter(kind);
            const bool trainingFigure = *figure == MeasuredFigure::TrainingTokensPerS || *figure == MeasuredFigure::TrainingTokensPerSPerGpu
                || *figure == MeasuredFigure::TrainingModelFlopsPerSPerGpu;
            if (training != trainingFigure)
                return Error{fileName, where("figure"), training ? "a training run's figure is one of training_tokens_per_s, training_tokens_per_s_per_gpu, training_model_flops_per_s_per_gpu"
                                                                : "training figures need a training brief"};
            CalibrationCase c;
            c.id = id;
            c.set = row[col["set"]];
            c.assumed = row[col["assumed"]];
            c.brief = std::move(brief.value());
            c.briefText = row[col["brief"]];
            c.factorKeys = caseFactorKeys(c, catalog);
            if (origin) {
                c.origin = row[*origin];
                if (!c.origin.empty() && !limits::isPlainName(c.origin))
                    return Error{fileName, where("origin"), "must be 1 to 64 letters, digits, '-', '_' or '.'"};
            }
            if (measuredOn) {
                c.measuredOn = row[*measuredOn];
                static const std::regex date("[0-9]{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01]))?");
                if (!c.measuredOn.empty() && !std::regex_match(c.measuredOn, date))
                    return Error{fileName, where("measured_on"), "\"" + c.measuredOn + "\" is not a date (YYYY-MM or YYYY-MM-DD)"};
            }
            c.groups = caseGroups(c, catalog);
            at = index.emplace(id, cases.size()).first;
            cases.push_back(std::move(c));
        }
        std::vector<Measurement> &measured = cases[at->second].measured;
        if (std::any_of(measured.begin(), measured.end(), [&](const Measurement &m) { return m.figure == *figure; }))
            return Error{fileName, where("figure"), "case " + id + " gives " + row[col["figure"]] + " twice"};
        measured.push_back({*figure, value});
    }
    if (cases.empty())
        return Error{fileName, "", "has no cases"};
    return cases;
}

CasePredictor enginePredictor(const Catalog &catalog)
{
    return [&catalog](const CalibrationCase &c, const EfficiencyTable &table) {
        EvaluateOptions options;
        options.efficiency = &table;
        options.today = "2026-01-01";  // prices do not enter the figures; a fixed date keeps runs alike
        const Results results = evaluate(c.brief, catalog, options);
        const CandidateResult &r = results.results.at(0);
        const PerformanceResult &p = r.performance;
        std::optional<PerformanceResult> atSlo;
        const bool slo = std::any_of(c.measured.begin(), c.measured.end(),
                                     [](const Measurement &m) { return needsSloRun(m.figure); });
        if (slo && p.computed && p.maxRequestRateWithinSloPerS && *p.maxRequestRateWithinSloPerS > 0) {
            Brief again = c.brief;
            again.workload.traffic.requestRatePerS = *p.maxRequestRateWithinSloPerS;
            atSlo = evaluate(again, catalog, options).results.at(0).performance;
        }
        std::vector<std::optional<double>> out;
        for (const Measurement &m : c.measured)
            out.push_back(p.computed ? figureOf(m.figure, p, atSlo ? &*atSlo : nullptr, r.candidate.gpus) : std::nullopt);
        return out;
    };
}

CalibrationReport calibrate(const std::vector<CalibrationCase> &cases, const EfficiencyTable &start,
                            const CasePredictor &predict, const CalibrationOptions &options, bool fit)
{
    Problem pb{cases, predict, options, {}, {}, {}, {}, {}, start, 0};
    // Keys in table order, so that the result does not depend on the cases' order.
    std::set<std::string> used;
    for (const CalibrationCase &c : cases)
        for (const std::string &k : c.factorKeys)
            used.insert(k);
    for (const EfficiencyFactor &f : start.factors())
        if (used.count(f.key) && f.priorWidth > 0) {
            pb.keys.push_back(f.key);
            pb.mu.push_back(std::log(f.prior));
            pb.width.push_back(f.priorWidth);
            pb.ceiling.push_back(f.upper > 0 ? std::log(f.upper) : INFINITY);
        }
    for (const CalibrationCase &c : cases) {
        std::vector<std::size_t> idx;
        for (const std::string &k : c.factorKeys)
            for (std::size_t n = 0; n < pb.keys.size(); ++n)
                if (pb.keys[n] == k)
                    idx.push_back(n);
        pb.uses.push_back(idx);
    }

    std::vector<double> theta;
    for (const std::string &k : pb.keys)
        theta.push_back(std::log(start.factor(k)->value));
    std::vector<double> prior = pb.mu;

    CalibrationReport report;
    const auto atPrior = pb.predictAll(pb.tableAt(prior));
    if (fit)
        theta = prior;  // a fit starts from the priors
    auto at = fit ? atPrior : pb.predictAll(pb.tableAt(theta));
    report.objectiveBefore = pb.objective(theta, at);
    double current = report.objectiveBefore;
    for (int it = 0; fit && it < options.iterations; ++it) {
        const auto jac = pb.jacobian(theta, at);
        const auto [hess, rhs] = pb.normal(theta, at, jac, {});
        const std::vector<double> delta = solve(hess, rhs);
        bool accepted = false;
        for (double scale = 1.0; scale >= 0.125 && !accepted; scale /= 2) {
            std::vector<double> next = theta;
            for (std::size_t k = 0; k < next.size(); ++k)
                next[k] = std::min(pb.ceiling[k], next[k] + scale * std::clamp(delta[k], -1.0, 1.0));
            const auto preds = pb.predictAll(pb.tableAt(next));
            const double value = pb.objective(next, preds);
            if (value < current) {
                theta = next;
                at = preds;
                current = value;
                accepted = true;
            }
        }
        if (!accepted)
            break;
    }
    report.objectiveAfter = current;
    report.table = pb.tableAt(theta);
    if (fit) {
        for (const EfficiencyFactor &f : start.factors())
            report.table.factor(f.key)->cases.clear();
        for (std::size_t i = 0; i < cases.size(); ++i) {
            // A case the engine gives no figure for informs nothing.
            if (std::none_of(at[i].begin(), at[i].end(), [](const std::optional<double> &v) { return v.has_value(); }))
                continue;
            for (std::size_t k : pb.uses[i]) {
                auto &list = report.table.factor(pb.keys[k])->cases;
                if (std::find(list.begin(), list.end(), cases[i].id) == list.end())
                    list.push_back(cases[i].id);
            }
        }
    }

    // Held-out predictions: one job per case and held-out set (the case alone, or its group in
    // each grouping), all on the Jacobian at the fit.
    std::vector<std::vector<std::optional<double>>> leftOut(cases.size());
    const std::vector<std::string> &groupings = bandGroupings();
    std::vector<std::vector<std::vector<std::optional<double>>>> groupOut(groupings.size(),
                                                                          std::vector<std::vector<std::optional<double>>>(cases.size()));
    if ((options.leaveOneOut || options.groupOut) && !pb.keys.empty()) {
        const auto jac = pb.jacobian(theta, at);
        const auto without = [&](const std::vector<char> &skip) {
            const auto [hess, rhs] = pb.normal(theta, at, jac, skip);
            const std::vector<double> delta = solve(hess, rhs);
            std::vector<double> t = theta;
            for (std::size_t k = 0; k < t.size(); ++k)
                t[k] = std::min(pb.ceiling[k], t[k] + std::clamp(delta[k], -1.0, 1.0));
            return pb.tableAt(t);
        };
        std::vector<std::pair<std::size_t, EfficiencyTable>> jobs;
        std::vector<std::pair<int, std::size_t>> which;  // grouping (-1: the case alone), case
        if (options.leaveOneOut)
            for (std::size_t i = 0; i < cases.size(); ++i) {
                std::vector<char> skip(cases.size(), 0);
                skip[i] = 1;
                jobs.emplace_back(i, without(skip));
                which.emplace_back(-1, i);
            }
        for (std::size_t g = 0; options.groupOut && g < groupings.size(); ++g) {
            std::map<std::string, std::vector<std::size_t>> members;
            for (std::size_t i = 0; i < cases.size(); ++i)
                if (const auto it = cases[i].groups.find(groupings[g]); it != cases[i].groups.end())
                    members[it->second].push_back(i);
            for (const auto &entry : members) {
                std::vector<char> skip(cases.size(), 0);
                for (std::size_t i : entry.second)
                    skip[i] = 1;
                const EfficiencyTable table = without(skip);
                for (std::size_t i : entry.second) {
                    jobs.emplace_back(i, table);
                    which.emplace_back(int(g), i);
                }
            }
        }
        const auto preds = pb.run(jobs);
        for (std::size_t n = 0; n < jobs.size(); ++n) {
            const auto [g, i] = which[n];
            (g < 0 ? leftOut[i] : groupOut[std::size_t(g)][i]) = preds[n];
        }
    }

    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CalibrationCase &c = cases[i];
        for (std::size_t m = 0; m < c.measured.size(); ++m) {
            CalibrationRow row;
            row.id = c.id;
            row.set = c.set;
            row.assumed = c.assumed;
            const Candidate &cand = c.brief.candidates.front();
            row.hardware = fmt::format("{} x{}", cand.gpu, cand.gpus);
            row.figure = c.measured[m].figure;
            row.measured = c.measured[m].value;
            row.prior = m < atPrior[i].size() ? atPrior[i][m] : std::nullopt;
            row.calibrated = m < at[i].size() ? at[i][m] : std::nullopt;
            if (options.leaveOneOut)
                row.leftOut = m < leftOut[i].size() ? leftOut[i][m] : std::nullopt;
            row.groups = c.groups;
            for (std::size_t g = 0; options.groupOut && g < groupings.size(); ++g)
                if (c.groups.count(groupings[g]))
                    row.groupOut[groupings[g]] = m < groupOut[g][i].size() ? groupOut[g][i][m] : std::nullopt;
            if (!row.calibrated)
                report.unpredicted.push_back(c.id + ": the engine gives no " + measuredFigureName(row.figure)
                                             + " for this brief (see its warnings with gpuwb evaluate); it informs no factor");
            report.rows.push_back(row);
        }
    }
    report.evaluations = pb.evaluations;
    return report;
}

} // namespace wb
