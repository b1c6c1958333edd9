// Training and fine-tuning time of one candidate: the step of a data x tensor x pipeline x
// context-parallel layout from FLOPs, efficiency and communication; tokens/s, MFU and the time to
// train the brief's tokens; then checkpoints, interruptions and restarts (Young/Daly) for the
// expected time of a completed run. Units: seconds, tokens, bytes, FLOPs.
//
// One step (Narayanan et al., arXiv 2104.04473, Megatron-LM's schedule):
//   micro-batch  = compute + exposed tensor- and context-parallel traffic (+ NF4 dequantization,
//                  + FSDP/ZeRO-3 parameter traffic beyond what the micro-batch's compute hides)
//   pipeline     = (m + (pp - 1) / v) micro-batches, m = global batch / (dp x micro-batch),
//                  v the interleaved (virtual) stages per GPU
//   step         = pipeline + data-parallel gradient traffic the last micro-batch cannot hide
//                  + the optimizer's pass over its states (memory-bound; host-link transfers
//                  for a CPU optimizer) + the brief's evaluation passes, their share of a step
// Compute runs at the dense peak of the math precision times train.<family>.<math>, a factor of
// the efficiency table calibrated like the inference factors (calibration.h) on published
// training runs. Collectives: ring volumes 2(n-1)/n (all-reduce) or (n-1)/n (all-gather,
// reduce-scatter) of the payload, over the scale-up link when the group fits in one domain, else
// over the candidate's network.
#pragma once

#include "brief/brief.h"
#include "catalog/efficiency.h"
#include "fit/fit.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

// Where a step's time goes, seconds per step.
struct TrainingStepParts
{
    double compute = 0;           // the micro-batches' math, pipeline bubble excluded
    double bubble = 0;            // pipeline fill and drain
    double tensorParallel = 0;    // exposed TP (and sequence-parallel) collectives
    double contextParallel = 0;   // exposed ring-attention K/V exchange
    double dataParallel = 0;      // exposed gradient reduction and parameter gathering
    double optimizer = 0;         // the optimizer's pass over its states
    double dequantization = 0;    // NF4/INT4 base weights dequantized for each pass (QLoRA)
    double offload = 0;           // host-link traffic not hidden: saved activations out and back,
                                  // gradients down and parameters up for a CPU optimizer
    double evaluation = 0;        // the brief's evaluation passes, their share of each step
};

struct CheckpointPlan
{
    double sizeBytes = 0;         // weights and optimizer states (adapters only for LoRA/QLoRA)
    double writeS = 0;            // at the storage's write bandwidth
    double readS = 0;             // at its read bandwidth, on restart
    double restartS = 0;          // initialisation before the read, plus the read
    double intervalS = 0;         // between checkpoints: the brief's, or the one that wastes least
    bool intervalFromBrief = false;
    double optimalIntervalS = 0;  // Daly's higher-order optimum for this job's MTBF
    double wastedFraction = 0;    // of the expected wall time: checkpoints, lost work, restarts
};

struct TrainingPerformance
{
    // Layout.
    int dataParallel = 1;
    int microBatches = 1;          // per data-parallel rank per step (gradient accumulation)
    double sequencesPerStep = 0;
    double tokensPerStep = 0;
    // Work per token.
    double modelFlopsPerToken = 0;     // PaLM's definition: 6N + 12 L h s (adapters: 4N + 6N_a + 12 L h s)
    double hardwareFlopsPerToken = 0;  // with recomputation
    double peakFlopsPerGpu = 0;        // dense peak at the math precision
    double computeEfficiency = 0;      // train.<family>.<math>
    std::string efficiencyKey;
    // Speed.
    double stepTimeS = 0;
    TrainingStepParts parts;
    double tokensPerS = 0;             // whole candidate
    double tokensPerSPerGpu = 0;
    double mfu = 0;                    // model FLOPs per second over the dense peak
    // Duration and failures (empty without the brief's `tokens`).
    std::optional<double> timeToTrainS;          // no failures
    std::optional<double> expectedTimeToTrainS;  // with checkpoints, interruptions, restarts, lost work
    std::optional<double> gpuHours;              // GPUs x the expected time
    std::optional<double> expectedInterruptions;
    std::optional<double> timeToFirstCheckpointS;  // fine-tuning's first proof: the first saved adapter or model
    double interruptionsPerGpuHour = 0;
    std::string interruptionsSource;
    double jobMtbfS = 0;
    CheckpointPlan checkpoint;
    // Charts: the expected wasted fraction against the checkpoint interval (seconds), and the
    // candidate's tokens/s against its GPU count (data-parallel ranks scaled, layout kept).
    std::vector<std::pair<double, double>> wasteByInterval;
    std::vector<std::pair<int, double>> scaling;
};

// The training figures of a candidate whose fit is computed (a training kind's brief). Empty,
// with a warning in `warnings`, when its GPU has no dense peak at the math precision or the
// brief's batch cannot be split over its data-parallel ranks.
std::optional<TrainingPerformance> evaluateTraining(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu,
                                                    const EfficiencyTable &table, const FitResult &fit,
                                                    std::vector<Warning> &warnings);

// Daly's higher-order estimate of the checkpoint interval that wastes least (J. T. Daly, "A
// higher order estimate of the optimum checkpoint interval for restart dumps", Future
// Generation Computer Systems 22 (2006) 303-312): for a write time delta and a mean
// time between interruptions M, sqrt(2 delta M) [1 + sqrt(delta / 2M) / 3 + delta / 18M] - delta
// when delta < 2M, else M. Young's first-order sqrt(2 delta M) is its leading term.
double dalyOptimalIntervalS(double writeS, double mtbfS);
// Daly's expected wall time (ibid.) of solveS seconds of work checkpointed every
// intervalS seconds (of work), each write taking writeS and each restart restartS, under
// exponentially distributed interruptions with mean mtbfS:
//   M e^(R/M) (e^((tau + delta)/M) - 1) solveS / tau.
double dalyExpectedWallS(double solveS, double intervalS, double writeS, double restartS, double mtbfS);

} // namespace wb
