// The benchmark plan (the method's "how to test before committing"): per candidate, the four
// phases as the method lists them (memory fit; performance and latency; failures and operations;
// financial normalization), each step with what to run, what to record and an acceptance
// criterion computed from the brief's targets beside the engine's prediction, and, for LLM
// serving, ready-to-run `vllm bench serve` and GuideLLM commands with the brief's lengths, rates
// and burst pattern. Kept with the decision so that finance and platform can review it later.
#pragma once

#include "evaluate/evaluate.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct PlanCommand
{
    std::string tool;               // "vllm", "guidellm", "nvidia-smi"
    std::vector<std::string> args;  // after the program name, one element per argument
    std::string purpose;
    // One line for a POSIX shell: arguments with characters a shell treats specially are
    // single-quoted; "$MODEL", "$BASE_URL", "$REPLICA_URL", "$PROMPTS" and "$RESULTS" stay
    // variables the plan's header sets.
    std::string shell() const;
    // The same command over several lines for reading (a backslash before each line break, a
    // break before a flag once a line passes `width` characters).
    std::string shellLines(std::size_t width = 88) const;

private:
    std::vector<std::string> words() const;
};

struct PlanStep
{
    std::string id;         // stable: "fit-peak-memory", "perf-ttft-p99-steady", ...
    std::string what;       // what to do, in words
    std::string record;     // what to record
    std::string criterion;  // the acceptance criterion in words, with the prediction
    // The criterion as figures, when it is one: measured `comparison` target (unit); the engine's
    // prediction at the same load.
    std::optional<double> target, predicted;
    std::string comparison;  // "<=" or ">="
    std::string unit;        // "s", "GiB", "tokens/s", "requests", "USD", "share"
    std::string basis;       // where the target comes from ("brief: slo.ttft_p99_s")
    std::vector<PlanCommand> commands;

    // Whether the prediction meets the criterion; empty when there is no figure to compare.
    std::optional<bool> predictedToPass() const;
};

struct PlanPhase
{
    std::string id;      // memory-fit, performance, operations, financial
    std::string title;   // English
    std::string titleEs; // as the method writes it
    std::vector<PlanStep> steps;
};

struct CandidatePlan
{
    std::size_t candidate = 0;  // index into the brief's candidates
    std::string label;          // "8x h100-sxm-80gb TP2 (vllm)"
    std::vector<PlanPhase> phases;
    std::vector<std::string> notes;  // what the plan cannot derive (a weak prediction, no commands)
};

struct BenchmarkPlan
{
    std::string briefName;
    std::string engineVersion;
    std::string modelRepo;  // the Hugging Face repository the commands default $MODEL to
    std::vector<CandidatePlan> candidates;
};

// The plan for the brief's candidates (all, or the one index given), from results evaluate()
// computed for it (the predictions; without performance results the criteria still stand).
// The catalog names each GPU's vendor (which memory tool the plan uses).
BenchmarkPlan makeBenchmarkPlan(const Brief &brief, const Results &results, const Catalog &catalog,
                                std::optional<std::size_t> only = {});

std::string planToMarkdown(const BenchmarkPlan &plan);
std::string planToJson(const BenchmarkPlan &plan);

} // namespace wb
