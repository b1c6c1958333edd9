// The layout search: which GPU, at which tensor- and pipeline-parallel size, weight precision and
// serving stack, serves the brief cheapest within its SLO? Every layout of the chosen GPUs is fit,
// simulated with the quick budget (performance.h) and costed; each GPU's three cheapest layouts
// within the SLO and the layouts on either Pareto front (cost per accepted output against p99
// latency; output tokens/s per GPU against tokens/s per user) are then evaluated again with the
// full budget as deployed, the fronts taken again and new choices confirmed in turn; each GPU's
// cheapest is taken among the full figures. Inference and media briefs.
#pragma once

#include "evaluate/evaluate.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace wb {

struct SearchOptions
{
    std::vector<std::string> gpus;       // catalog ids; empty: every GPU of the catalog
    int maxGpus = 64;                    // GPUs of a deployment: TP x PP x the replicas its peak needs
    std::string today;                   // ISO date prices are aged against; empty: the system clock
    std::stop_token stop;
    bool confirm = true;                 // evaluate the chosen layouts again with the full budget
    // Called from the pool's threads as layouts finish: (finished, total). Total grows once, when
    // the confirmation starts.
    std::function<void(std::size_t, std::size_t)> progress;
};

struct LayoutResult
{
    // One replica's layout with the replicas its peak needs: gpus = TP x PP x replicas, and the
    // weights precision the layout runs at.
    Candidate candidate;
    std::string gpuName;
    bool fits = false;
    bool costed = false;
    bool evaluated = false;              // screened (false: the search was stopped first)
    bool full = false;                   // figures from the full budget (else the quick one)
    std::string why;                     // why it has no cost: the engine's warning
    int replicas = 0;
    bool withinGpuLimit = false;         // TP x PP x replicas <= SearchOptions::maxGpus
    bool meetsSlo = false;               // the SLO is carried at the brief's peak (true without one)
    double costPerAcceptedOutput = 0;    // the cheapest current price's
    std::string pricingTerm;             // of that price
    double costPerMillionAcceptedTokens = 0;
    // The latency the front is drawn on: p99 TTFT (language models) or p99 end to end (media),
    // at the brief's request rate shared over the deployment's replicas.
    double p99LatencyS = 0;
    std::string latencyName;             // "TTFT p99" or "E2E p99"
    double outputTokensPerSPerGpu = 0;   // at the highest rate within the SLO (media: outputs/h per GPU)
    double tokensPerSPerUser = 0;        // 1 / TPOT p50 at that rate (media: 0)
    bool costFront = false;              // not beaten on both cost and latency
    bool throughputFront = false;        // not beaten on both throughput per GPU and per user
    bool cheapestOfGpu = false;          // cheapest of its GPU among those meeting the SLO within the limit
};

struct SearchResult
{
    std::vector<LayoutResult> layouts;   // every layout tried, fitting or not, in catalog order
    std::optional<double> sloLatencyS;   // the SLO on the front's latency axis, if the brief has one
    std::string latencyName;
    bool cancelled = false;
    std::vector<Warning> warnings;
};

// Empty with a reason in *why for a brief the search does not cover (training kinds).
std::optional<SearchResult> searchLayouts(const Brief &brief, const Catalog &catalog, const SearchOptions &options,
                                          std::string *why = nullptr);

// The weight precisions the search tries: workload.acceptable_precisions, or else the workload's
// weights precision and those its candidates carry of their own.
std::vector<Precision> searchedPrecisions(const Brief &brief);

// "h100-sxm-80gb TP2 PP2 fp8 vLLM": the GPU id, the layout, the weights precision and the stack.
std::string layoutLabel(const LayoutResult &layout, const Brief &brief);

// The layouts as candidates of the brief (candidates[].weights_precision set where it differs).
std::vector<Candidate> layoutCandidates(const Brief &brief, const std::vector<LayoutResult> &layouts);

} // namespace wb
