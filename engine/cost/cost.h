// Cost per accepted output, following the seed's formula:
//
//   inference_cost_per_accepted_output = (gpu_compute + storage + serving_stack + idle_capacity
//       + retry_waste + observability + platform_labor [+ network]) / accepted_outputs
//
// per candidate and pricing option (on-demand, spot, reserved, purchase, from the dated price
// book and the brief's own prices), and for the model-API route; break-even points; the rent /
// reserve / buy / API / hybrid recommendation with its reasons; and the seed's six common
// mistakes as warnings. Money in US dollars a month; lines are rounded to cents and the total is
// the sum of the rounded lines. Every default is an assumption (assumptions.h).
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "fit/fit.h"
#include "performance/performance.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct CostLine
{
    std::string name;        // "gpu_compute", "idle_capacity", "retry_waste", ... (stable keys)
    double usdPerMonth = 0;  // rounded to cents
    std::string basis;       // how it was worked out, for a person
};

struct CostOption
{
    bool api = false;                  // the model-API route rather than GPUs
    // A training run's option: its lines and total (the *PerMonth figures) are for one completed
    // run, its requests one run and its accepted outputs the share of runs that pass evaluation.
    bool perRun = false;
    std::optional<PricingTerm> term;   // GPU routes
    // The API route's rates as the price gives them ("usd_per_image": 0.0075, ...; apiRateFields).
    std::vector<std::pair<std::string, double>> apiRates;
    std::string provider, observed, source, note, origin;
    long ageDays = 0;
    bool stale = false;
    double usdPerGpuHour = 0;          // rental price; purchase: ownership cost per GPU-hour at this load
    double usdPerGpu = 0;              // purchase: capital per GPU (with node_capex_usd_per_gpu)
    int replicas = 0;                  // provisioned for the peak within the SLO
    int gpus = 0;
    double utilization = 0;            // busy share of the billed GPU time
    double billedShareOfMonth = 1;     // billed hours per provisioned GPU / hours_per_month
    // Commitments: the share of the month the same GPUs rented on demand would be billed for
    // under the brief's billing model, which break_even_utilization_vs_on_demand is weighed against.
    std::optional<double> onDemandBilledShare;
    // Rented capacity that follows the load (autoscaled, serverless): the share of requests that
    // find no replica running and wait for one to start, and the start's length in seconds.
    std::optional<double> coldStartShare;
    double coldStartS = 0;
    double coldStartFromBursts = 0;    // the part of that share that arrives as bursts begin
    bool coldStartOverSlo = false;     // the wait puts the p99 TTFT over the brief's target
    // Spot: the share of the billed replica time spent restarting after interruptions.
    std::optional<double> spotRestartShare;
    std::string terms;                 // the price's commercial terms in words (catalog/prices.h)
    Offer offer = Offer::Cloud;        // the kind of offer the price is
    std::optional<double> commitmentMonths;  // the price's minimum commitment
    double committedUsd = 0;           // the GPU bill owed over that commitment
    std::vector<CostLine> lines;
    std::vector<CostLine> ownershipDetail;  // purchase: depreciation, power, colocation, support
    double totalUsdPerMonth = 0;       // sum of the rounded lines
    double requestsPerMonth = 0;
    double acceptedOutputsPerMonth = 0;
    double acceptedTokensPerMonth = 0;
    double costPerAcceptedOutput = 0;
    double costPerMillionAcceptedTokens = 0;
    std::optional<double> breakEvenRequestsPerMonthVsApi;  // self-hosting is cheaper from this volume
    // Commitments: the share of the month on-demand capacity must be billed for (at full load,
    // committed price / on-demand price) from which this commitment costs less.
    std::optional<double> breakEvenUtilizationVsOnDemand;
    std::optional<double> paybackMonths;                   // purchase, against renting on demand
    // Monthly cost of this route against monthly volume (requests a month, USD a month), from a
    // hundredth to a hundred times the brief's volume on a log scale, with replicas sized for each
    // volume's peak: the break-even chart's line.
    std::vector<std::pair<double, double>> monthlyCostByVolume;
    // The hybrid route only: GPUs hold the steady base and the model API takes what bursts add
    // above it. Its lines are the base GPU option's in full (platform labour, observability and
    // storage are what the base needs, not a share of the GPU-only bill) followed by the API's
    // for the overflow alone, named with an "api_" prefix (its own platform labour included).
    struct HybridSplit
    {
        int baseReplicas = 0;
        double overflowRequestsPerMonth = 0;
        double overflowInputTokensPerMonth = 0, overflowOutputTokensPerMonth = 0;
        double gpuUsdPerMonth = 0, apiUsdPerMonth = 0;
    };
    std::optional<HybridSplit> hybrid;
};

struct CandidateCost
{
    bool computed = false;
    std::vector<CostOption> options;   // one per pricing term with a price for this GPU
    // Per pricing term, the hybrid of that option and the model API, when the brief's bursts
    // reach hybrid_min_peak_to_average and an API is priced and allowed.
    std::vector<CostOption> hybrids;
    std::vector<Warning> warnings;
    // The lowest cost per accepted output among current prices (stale ones only when no
    // current price exists).
    const CostOption *cheapest() const;
};

// A commitment recommended before its vendor has answered what the checklist requires for it
// (procurement/gate.h): the recommendation stands "subject to evidence" until they are answered.
struct EvidenceGate
{
    Commitment commitment = Commitment::Reserved;
    std::string vendor;                  // the vendor that backs the option; empty: none does
    std::vector<std::string> missing;    // required items unanswered (or unknown), as "id: question"
    std::vector<std::string> unbacked;   // required items answered without the evidence the commitment needs
};

// What a workload's cost is divided by, in words: an accepted output, image, clip or run, or for
// an evaluation an evaluated record (a record of its dataset whose answer passed).
std::string acceptedUnit(const Workload &workload);
// The same in the plural: "accepted images".
std::string acceptedUnits(const Workload &workload);

struct Recommendation
{
    Route route = Route::Rent;
    std::optional<std::size_t> candidate;  // index into the brief's candidates (GPU routes)
    std::optional<PricingTerm> term;
    std::string provider;                  // GPU routes: whose price it is, and the kind of offer
    Offer offer = Offer::Cloud;
    std::optional<EvidenceGate> evidence;  // set by a project's checklist (gateByChecklist)
    double costPerAcceptedOutput = 0;     // per accepted run when perRun
    double usdPerMonth = 0;               // a run's cost when perRun
    bool perRun = false;                  // a training kind's option, priced per completed run
    std::string unit = "accepted output"; // what is counted, in words (acceptedUnit)
    std::vector<Message> reasons;         // each with its code and arguments, as warnings are
};

// The ranking's robustness: how close the cheapest options are, and which assumption would
// reverse the first two at what value (each option's monthly cost is linear in it).
struct RankingFlip
{
    Assumption assumption;
    double current = 0, flipsAt = 0;
};
struct RankingCheck
{
    std::string first, second;          // the two cheapest options, in words
    double gap = 0;                     // (second - first) / first, per accepted output
    int withinNearTie = 0;              // options (the first included) within near_tie_fraction
    std::vector<RankingFlip> flips;     // assumptions that reverse first and second, at a value >= 0
};

struct CostSummary
{
    std::optional<CostOption> api;
    // Whether the decision lets a third-party API be chosen (cost.decision: the data boundary,
    // hardware control): the API is priced either way, for reference.
    bool apiAllowed = true;
    // An option the decision rules out: the API, or a hybrid with it, where apiAllowed is false.
    bool ruledOut(const CostOption &o) const { return (o.api || o.hybrid) && !apiAllowed; }
    // The hybrid of the GPU option the recommendation weighs (the cheapest, or the commitment
    // the decision inputs allow), when one is priced, and that option's candidate (an index into
    // the brief's candidates); recommended when it costs less per accepted output.
    std::optional<CostOption> hybrid;
    std::optional<std::size_t> hybridCandidate;
    std::optional<Recommendation> recommendation;
    std::optional<RankingCheck> ranking;   // with two options or more
    std::vector<Warning> warnings;     // the seed's common mistakes and brief-wide cost notes
    std::string today;                 // the date prices were aged against
    std::string unit = "accepted output"; // what a cost per accepted output counts (acceptedUnit)
    std::string units = "accepted outputs"; // the same in the plural (acceptedUnits)
};

// Requests that wait for a replica to start, from this share of them on, reach the p99 latency.
inline constexpr double kColdStartWarnShare = 0.01;

// Whether an option's cold starts put its p99 time to first token over the brief's target, and
// the cold starts as the "cold-start" warning.
bool coldStartMissesSlo(const Brief &brief, const CostOption &option);
Message coldStartMessage(const Brief &brief, const CostOption &option);

// Seconds a new replica takes before it serves: the model's weights at the brief's precision
// read at model_load_gb_per_s, plus replica_start_s (the cold start, the restart after a spot
// interruption, and the benchmark plan's model-load criterion).
double replicaStartS(const Brief &brief);
// The model's weights at the brief's precision, in GB (10^9 bytes).
double modelWeightsGb(const Brief &brief);

// Cost of one candidate from its fit and performance. today is an ISO date.
CandidateCost costCandidate(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu, const FitResult &fit,
                            const PerformanceResult &performance, const Catalog &catalog, const std::string &today);

// Rounds to cents (half away from zero).
double roundCents(double usd);

} // namespace wb
