// A calibration's cases: the figures a measurement may be, reading a cases file, the factors
// and groups of a case, and the engine's predictions of its figures (calibration.h).
#include "evaluate/calibration.h"

#include "catalog/modelarch.h"
#include "core/csvread.h"
#include "core/limits.h"
#include "evaluate/evaluate.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <regex>

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
    {MeasuredFigure::SequencesPerS, "sequences_per_s", "throughput"},
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
    case MeasuredFigure::SequencesPerS: return positive(p.requestsPerS);
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
    const bool encoder = c.brief.workload.kind == WorkloadKind::Embedding;
    std::vector<std::string> keys = catalog.efficiency().keysFor(*gpu, mathPrecision(c.brief.workload.weightsPrecision),
                                                                 cand.servingStack, c.brief.workload.model.isMoe(), encoder);
    // An encoder's batch informs its GEMMs' share of the peak and its per-batch cost; the weight
    // streams, KV reads, kernel times and stack factors stay the serving cases'.
    if (encoder)
        std::erase_if(keys, [](const std::string &k) {
            return !k.starts_with("compute.") && k != "encoder_step_s" && !k.starts_with("step_overhead_s.");
        });
    return keys;
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
    else if (w.kind == WorkloadKind::Embedding)
        g["model-size"] = "encoder";
    else
        g["model-size"] = modelSizeClass(countParameters(w.model).total());
    if (!w.media && !isTraining(w.kind) && !isAdapter(w.kind))
        g["stack"] = enumName(cand.servingStack);
    g["source"] = !c.origin.empty() ? c.origin : c.id.substr(0, c.id.find('-'));
    return g;
}


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
            if ((kind == WorkloadKind::Embedding) != (*figure == MeasuredFigure::SequencesPerS))
                return Error{fileName, where("figure"),
                             kind == WorkloadKind::Embedding ? "an embedding run's figure is sequences_per_s"
                                                             : "sequences_per_s needs an embedding brief"};
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

} // namespace wb
