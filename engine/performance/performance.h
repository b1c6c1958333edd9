// Inference performance of one candidate: the brief's traffic replayed through the
// continuous-batching simulator on the step-time model, the SLO verdict and goodput, the highest
// open-loop rate within the SLO (bisection), the replicas a peak rate needs, and a load curve.
// Units: seconds, tokens, requests. Figures are for the whole candidate (all replicas) unless
// the name says per GPU. Training kinds get their step, time to train and checkpoints from
// training.h instead, and media generation its outputs per hour and queue from media.h.
#pragma once

#include "brief/brief.h"
#include "fit/fit.h"
#include "performance/media.h"
#include "performance/simulator.h"
#include "performance/stepmodel.h"
#include "performance/training.h"

#include <stop_token>
#include <optional>
#include <vector>

namespace wb {

struct LoadPoint
{
    double requestRatePerS = 0;
    double ttftP50S = 0, ttftP95S = 0, ttftP99S = 0;
    double tpotP50S = 0, tpotP95S = 0, tpotP99S = 0;
    double outputTokensPerS = 0;
    bool sloMet = true;
};

struct PerformanceResult
{
    bool computed = false;
    TrafficMode mode = TrafficMode::Offline;   // what the brief's point was simulated as
    Distribution ttft, tpot, itl, e2e;
    Distribution ntpot;                          // E2E / output tokens per request (first token included)
    double outputTokensPerS = 0;
    double outputTokensPerSPerGpu = 0;
    double inputTokensPerS = 0;
    double requestsPerS = 0;
    std::optional<double> goodputRequestsPerS;   // requests meeting every SLO, per second
    std::optional<bool> sloMet;                  // empty without an SLO
    double maxOutputTokensPerS = 0;              // offline (all queued) throughput
    double maxRequestsPerS = 0;                  // the same in requests per second
    std::optional<double> maxRequestRateWithinSloPerS;
    std::optional<double> outputTokensPerSWithinSlo;
    double peakRequestRatePerS = 0;              // the rate the replica count is sized for
    std::optional<int> replicasForPeak;
    // Whether replicasForPeak replicas were simulated at the peak rate and met the SLO (empty
    // when not checked: no SLO, or the preview budget).
    std::optional<bool> sloMetAsDeployed;
    // That simulation's figures (replicasForPeak replicas at the peak rate): the latency of the
    // deployment the cost is for, which a decision table shows beside its verdict.
    std::optional<LoadPoint> deployedPoint;
    // Requests/s one replica carries within the SLO (raw capacity without one): the bisection's
    // rate per replica, or the peak rate over replicasForPeak when the simulation showed those
    // replicas carry it, whichever is higher; so replicas x this rate always covers a rate
    // shown to be carried. What the cost model provisions with.
    double requestRatePerReplicaPerS = 0;
    std::vector<LoadPoint> loadCurve;            // at this candidate's replicas, without bursts
    // The brief's own operating point as simulated (with its bursts): the table's figures. When
    // the brief has no bursts it is also a point of loadCurve, so the curve passes through it.
    std::optional<LoadPoint> briefPoint;
    StepCoefficients coefficients;               // the step model in linear form (MoE term at the mean batch)
    Efficiency efficiency;
    bool overloaded = false;                     // the brief's open-loop rate exceeds capacity
    bool preview = false;                        // from the quick budget: a first answer
    long long preemptions = 0;
    int rejectedRequests = 0;
    double meanBatchSequences = 0;
    int simulatedRequests = 0;
    std::vector<Warning> warnings;
    // Training, full fine-tuning, LoRA and QLoRA: the step, time to train and checkpoints (the
    // inference figures above stay empty).
    std::optional<TrainingPerformance> training;
    // Media generation: seconds per output and outputs per hour. The request figures above count
    // outputs (requestsPerS, maxRequestsPerS, the rate within the SLO, replicas for the peak) and
    // e2e is the batching queue's end-to-end time; the token figures stay empty.
    std::optional<MediaPerformance> media;
};

// How much simulation an evaluation may spend. The full budget is what results, reports and
// the CLI use; the preview budget gives an interactive first answer in a fraction of the time
// (short runs, a coarser search, replicas estimated rather than checked, no extra curve points),
// and the results say so.
struct SimulationBudget
{
    int openLoopMaxRequests = 12000;
    int offlineMaxRequests = 20000;
    double searchTolerance = 0.02;   // relative width at which the SLO bisection stops
    bool checkReplicas = true;       // simulate the replica count for the peak
    bool fillLoadCurve = true;       // add light- and over-load points to the search's
    bool preview = false;

    static SimulationBudget full() { return {}; }
    static SimulationBudget quick() { return {800, 3000, 0.06, false, false, true}; }
};

// A stop requested through `stop` ends the simulation under way within a few hundred steps; the
// result is then not computed. `table` gives the step model's efficiency factors (the catalog's
// calibrated table in the application).
PerformanceResult evaluatePerformance(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu,
                                      const FitResult &fit, std::stop_token stop = {},
                                      const SimulationBudget &budget = SimulationBudget::full(),
                                      const EfficiencyTable &table = EfficiencyTable::priors());

// Whether a simulation's percentiles meet every SLO in slo (true when slo is empty).
bool meetsSlo(const SimResult &sim, const Slo &slo);

} // namespace wb
