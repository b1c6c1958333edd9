// Measured benchmark runs, read from the files the tools teams already run write, and normalized
// to one shape with one set of metric names and semantics:
// - vLLM `vllm bench serve --save-result` JSON (vllm/benchmarks/serve.py);
// - GuideLLM `benchmarks.json`, schema version 2 (each benchmark of a sweep is one run);
// - Ray LLMPerf `*_summary.json` (token_benchmark_ray.py, flattened keys);
// - NVIDIA GenAI-Perf `profile_export_genai_perf.json` and AIPerf `profile_export_aiperf.json`;
// - a plain CSV with documented columns (kEvidenceCsvColumns) for any other tool.
//
// Units: seconds for every latency (files in milliseconds are converted), tokens, requests.
// Semantics: `tpot` excludes the first token ((E2E - TTFT) / (output - 1), vLLM's TPOT and
// GuideLLM's inter_token_latency); `ntpot` includes it (E2E / output tokens: GuideLLM's
// time_per_output_token, LLMPerf's inter_token_latency); `itl` is vLLM's pooled inter-token gaps.
// What a file does not say (the GPU, its count, the stack) stays empty: never guessed.
#pragma once

#include "core/result.h"
#include "core/types.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

enum class RunTool { Vllm, GuideLlm, LlmPerf, GenAiPerf, AiPerf, Csv };

// A measured distribution as the file gives it; absent statistics stay empty.
struct MeasuredStat
{
    std::optional<double> mean, p50, p90, p95, p99;
    bool empty() const { return !mean && !p50 && !p90 && !p95 && !p99; }
};

struct MeasuredRun
{
    RunTool tool = RunTool::Csv;
    std::string toolVersion, date, model, label;  // as the file gives them ("" when it does not)
    // The deployment, when the file says (the CSV can); otherwise given at import.
    std::string gpu;
    std::optional<int> gpus, tensorParallel;
    std::optional<ServingStack> stack;
    MeasuredStat inputTokens, outputTokens;  // per request
    // The load: an open-loop rate, a closed loop of clients, or everything at once (offline).
    std::optional<double> requestRatePerS;
    std::optional<int> concurrency;
    bool offline = false;
    double burstiness = 1;
    MeasuredStat ttft, tpot, ntpot, itl, e2e;  // seconds
    std::optional<double> requestsPerS, outputTokensPerS;
    std::optional<long long> completed, failed;
};

// The documented CSV: a header row naming any of these columns (tool is required, and at least one
// metric); one run per row; latencies in milliseconds, as the column names say.
extern const std::vector<std::string> kEvidenceCsvColumns;

// Reads a results file of any supported kind (told apart by its content) into its runs. Refused,
// with the file and the field (a JSON pointer, or the CSV's line and column) named: not a file of
// these tools, a metric that is not a number, a negative time or count, percentiles out of order
// (p50 <= p90 <= p95 <= p99), no latency or throughput at all, a rate that is neither a number nor
// "inf". Nothing of a refused file is returned.
// With `as`, the file is read by that tool's importer only (the fuzz targets use one each).
Result<std::vector<MeasuredRun>> readMeasuredRuns(const std::string &text, const std::string &fileName,
                                                  std::optional<RunTool> as = std::nullopt);

std::string_view runToolName(RunTool tool);

} // namespace wb
