// The benchmark plan's commands (private to procurement/): the load a run offers, where it sends
// its requests, and the command lines of vLLM's and GuideLLM's benchmarks and of the GPU
// vendors' memory tools, with the quoting a POSIX shell needs.
#pragma once

#include "brief/brief.h"
#include "evaluate/evaluate.h"
#include "procurement/plan.h"

#include <optional>
#include <string>
#include <vector>

namespace wb::detail {

// The load a run offers: a request rate (open loop), a concurrency (closed loop), or everything
// at once (offline).
struct Load
{
    std::optional<double> rate;
    std::optional<int> concurrency;
    double burstiness = 1;
};

// Where a command sends its requests: vLLM's own backend for a vLLM server, the OpenAI-compatible
// one for SGLang, TensorRT-LLM (trtllm-serve) and others; the whole deployment ($BASE_URL, a load
// balancer in front of every replica) or one replica ($REPLICA_URL).
struct Endpoint
{
    std::string backend = "vllm";
    std::string url = "$BASE_URL";
};

// The random dataset of the given lengths, or the team's own prompts ($PROMPTS, a JSONL file of
// {"prompt": ...}) with their generated text saved for the quality filter.
enum class Prompts { Random, Own };

// A number as a command-line argument: plain digits, no grouping ("12.5", "2000"); seconds as
// whole milliseconds.
std::string arg(double v);
std::string ms(double seconds);

// Plan steps and the figures in their words: a number as readableNumber writes it, seconds
// (milliseconds below one), a step with a measured figure to compare against a target, and a
// step judged in words.
std::string num(double v);
std::string seconds(double s);
PlanStep figureStep(std::string id, std::string what, std::string record, std::string criterionWords, double target,
                    std::optional<double> predicted, std::string comparison, std::string unit, std::string basis);
PlanStep wordStep(std::string id, std::string what, std::string record, std::string criterion);

// The four phases of a training, fine-tuning or adapter run's plan (planruns.cpp): prove the fit
// at the brief's micro-batch and sequence length, time the steps and the first checkpoint, resume
// from a checkpoint, and the cost per accepted run.
std::vector<PlanPhase> runPlanPhases(const Brief &brief, const CandidateResult &deployment, const std::string &layout);

// One shell word: as it is when plainly safe, else single-quoted.
std::string shellQuote(const std::string &word);

PlanCommand vllmCommand(const std::string &purpose, const Brief &brief, double inputTokens, double outputTokens,
                        const Load &load, int prompts, const std::string &resultFile, const Endpoint &at,
                        Prompts kind = Prompts::Random);
PlanCommand guidellmCommand(const std::string &purpose, double inputTokens, double outputTokens, const Load &load,
                            double maxSeconds, const std::string &resultFile, bool sweep = false);
std::optional<PlanCommand> memoryWatch(const std::string &vendor, const std::string &resultFile);

} // namespace wb::detail
