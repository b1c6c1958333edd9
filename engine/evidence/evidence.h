// Measured runs as a project holds them: each mapped to a scenario's candidate, compared with the
// prediction at the run's own load and lengths, and used to calibrate that candidate's step model.
//
// - mapRun() ties a normalized run (runs.h) to a candidate. What the file does not say (the GPU,
//   its count, the stack, the load, the lengths) is given at import (RunMapping) or, for the
//   deployment only, is the candidate's own: the user chose the candidate, nothing is guessed.
//   A run whose GPU, stack or tensor-parallel size differs from the candidate's is refused.
// - briefAtRun() is the scenario's brief narrowed to that run: its candidate at the run's GPU
//   count, the run's load (rate, closed loop or offline) and lengths, no bursts, no SLO.
// - compareRun() lines the run's metrics up with a prediction under one set of names.
// - calibrateFromEvidence() fits, per GPU x serving stack of the scenario (its precision is the
//   scenario's), the step model's efficiency factors to the runs (evaluate/calibration.h), with
//   the shipped calibration as the prior, and reports each figure before, after and left out.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "evaluate/calibration.h"
#include "evaluate/evaluate.h"
#include "evidence/runs.h"

#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace wb {

// The original file a run was read from, as the project stores it (an attachment).
struct EvidenceFile
{
    std::string name;     // file name as imported (no folder)
    std::string sha256;
    long long bytes = 0;
};

// What the importer supplies that a file may not say. Empty fields leave the file's value (or,
// for the deployment, the candidate's).
struct RunMapping
{
    std::string gpu;
    std::optional<int> gpus, tensorParallel;
    std::optional<ServingStack> stack;
    std::optional<double> requestRatePerS;
    std::optional<int> concurrency;
    std::optional<double> inputTokens, outputTokens;  // means per request

    bool operator==(const RunMapping &) const = default;
};

struct EvidenceRun
{
    long long id = 0;               // the project's id for the run (0 before it is stored)
    std::string scenario;
    std::size_t candidate = 0;      // index into the scenario's candidates (the window shows it + 1)
    EvidenceFile file;
    int index = 0;                  // which run of the file (a GuideLLM sweep holds several)
    RunMapping mapping;             // as given at import
    std::string importedBy, importedAt;   // who (as given) and when (ISO date-time, UTC)
    MeasuredRun run;                // the file's run with the mapping applied
    std::vector<std::string> fromCandidate;  // fields the file and the mapping left to the candidate
};

// The file's run with what a mapping gives put in (no check against a candidate): how a stored
// run is read back, its mapping then holding everything decided at import.
MeasuredRun withMapping(MeasuredRun run, const RunMapping &mapping);
// The mapping that reproduces a mapped run from its file's run (what import stores).
RunMapping mappingOf(const MeasuredRun &mapped);
// Why a stored run no longer measures its candidate (the candidate was removed or changed to
// another GPU, stack or layout since the import); nullopt when it still does.
std::optional<std::string> runMismatch(const Brief &brief, const EvidenceRun &run);

// Applies a mapping to the file's run and checks it against the scenario's candidate (which must
// exist). Errors name the field: a GPU, stack or tensor-parallel size other than the candidate's,
// a GPU count that is not a whole number of the candidate's replicas, a load or a length the
// run does not say and the mapping does not give.
Result<MeasuredRun> mapRun(MeasuredRun run, const Brief &brief, std::size_t candidate, const RunMapping &mapping,
                           std::vector<std::string> *fromCandidate = nullptr);

// The brief a run's prediction is made on (one candidate; see above).
Brief briefAtRun(const Brief &brief, const EvidenceRun &run);

// One metric of a run beside its predictions (seconds, or per second for throughputs).
struct MetricComparison
{
    std::string metric;   // "ttft", "tpot", "itl", "ntpot", "e2e", "output_tokens_per_s", "requests_per_s"
    std::string stat;     // "mean", "p50", "p95", "p99"; "" for throughputs
    double measured = 0;
    std::optional<double> predicted;    // at the scenario's calibration without this project's runs
    std::optional<double> calibrated;   // at the calibration from the runs (when one applies)
    std::optional<double> leftOut;      // at a calibration that did not see this run
};

// A metric's name for people ("TTFT p95", "Output tokens/s").
std::string metricLabel(const MetricComparison &m);
// Whether a metric is a latency (seconds: lower is better) rather than a throughput.
bool isLatencyMetric(const std::string &metric);

// The run's metrics that the engine predicts, each with the prediction from `predicted` (the
// calibrated and left-out columns stay empty).
std::vector<MetricComparison> compareRun(const MeasuredRun &run, const PerformanceResult &predicted);

struct EvidenceCalibration
{
    std::string gpu;
    ServingStack stack = ServingStack::Generic;
    std::vector<long long> runs;      // the runs it is fitted to
    EfficiencyTable table;            // the fitted factors (others as the base table)
    CalibrationReport report;         // per run figure: before (prior), after (calibrated), left out
    // False when predicting each run from the others (leave-one-run-out) misses by more than the
    // shipped factors do: the runs disagree with each other or with the model, and the fit may
    // follow noise. It still applies (the scenario's switch turns it off), with `why` as a
    // warning on the candidate's figures.
    bool stable = true;
    Message why;
    // Mean absolute relative error of the fitted figures by family ("ttft", "tpot", "e2e",
    // "throughput"): before (shipped factors), after, left out (empty with one run).
    struct FamilyError
    {
        std::string family;
        std::optional<double> before, after, leftOut;
    };
    std::vector<FamilyError> errors;
    // Families still more than 25% off after calibration: what the step model does not explain
    // (warned on the candidate's figures).
    std::vector<std::string> misfits() const;
    // "calibrated from 3 runs" (the provenance every calibrated figure carries).
    std::string provenance() const;
};

// Every run of the scenario, predicted at the base table and (when calibrations are given) at
// the calibration of its GPU and stack, with the left-out figure from its report.
struct RunPrediction
{
    long long run = 0;
    std::vector<MetricComparison> metrics;
    std::string why;                  // when nothing could be predicted: the engine's reason
};
std::vector<RunPrediction> predictRuns(const Brief &brief, const std::vector<EvidenceRun> &runs, const Catalog &catalog,
                                       const EfficiencyTable &base, const std::vector<EvidenceCalibration> &calibrations,
                                       std::stop_token stop = {});

// Fits one calibration per GPU x stack that has runs in the scenario. Runs the engine cannot
// predict (their candidate does not fit, ...) are left out of the fit.
std::vector<EvidenceCalibration> calibrateFromEvidence(const Brief &brief, const std::vector<EvidenceRun> &runs,
                                                       const Catalog &catalog, const EfficiencyTable &base,
                                                       std::stop_token stop = {});

// The evaluation options' per-candidate tables for the calibrations that apply (pointers into
// them), each with its warnings.
std::vector<CandidateEfficiency> candidateEfficiencies(const std::vector<EvidenceCalibration> &calibrations);

// What a calibration from these runs depends on, as text: the brief without what does not enter
// a run's prediction (its name, costs, traffic, SLO, acceptance, the candidates no run measures)
// and each run's id, candidate and mapping. Equal keys give equal calibrations (a cache key).
std::string calibrationKey(const std::string &briefJson, const std::vector<EvidenceRun> &runs);

// The predicted load curve of a candidate at a run's lengths and GPU count: open-loop points at
// fractions of its offline capacity, at the base factors and (when given) at a calibration.
struct EvidenceCurve
{
    std::size_t candidate = 0;
    long long run = 0;                 // the run whose lengths and GPU count the curve is at
    std::vector<LoadPoint> predicted, calibrated;
};

// Everything the Evidence page shows: the runs, their calibrations, each run against its
// predictions, and one curve per candidate with runs.
struct EvidenceAnalysis
{
    std::vector<EvidenceRun> runs;
    std::vector<EvidenceCalibration> calibrations;
    std::vector<RunPrediction> predictions;
    std::vector<EvidenceCurve> curves;
};
EvidenceAnalysis analyzeEvidence(const Brief &brief, std::vector<EvidenceRun> runs, const Catalog &catalog,
                                 const EfficiencyTable &base, std::vector<EvidenceCalibration> calibrations,
                                 std::stop_token stop = {});

// The load a run ran at, in words: "12.5 requests/s", "32 concurrent", "offline".
std::string runLoadText(const MeasuredRun &run);
// `gpuwb evidence list`: each run with its tool, file, scenario, candidate (from 1), load, date.
std::string evidenceListTable(const std::vector<EvidenceRun> &runs);
std::string evidenceListJson(const std::vector<EvidenceRun> &runs);
// `gpuwb evidence compare`: every run's metrics, measured against predicted before and after the
// calibration and left out, in Markdown or JSON (seconds and per-second units, errors as fractions).
std::string evidenceComparisonMarkdown(const std::vector<EvidenceRun> &runs, const std::vector<RunPrediction> &predictions,
                                       const std::vector<EvidenceCalibration> &calibrations);
std::string evidenceComparisonJson(const std::vector<EvidenceRun> &runs, const std::vector<RunPrediction> &predictions,
                                   const std::vector<EvidenceCalibration> &calibrations);

} // namespace wb
