// The brief: what the workload is and which candidates to compare. Parsed from the JSON of
// ../shared/spec/brief-and-results-v1.md; every bad field is reported with its JSON pointer.
#pragma once

#include "core/assumptions.h"
#include "core/message.h"
#include "catalog/catalog.h"
#include "core/result.h"
#include "core/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct Traffic
{
    TrafficMode mode = TrafficMode::Offline;
    std::optional<double> requestRatePerS;  // open-loop
    double burstiness = 1.0;                 // gamma shape; 1 is Poisson, below 1 burstier
    std::optional<int> concurrency;          // closed-loop; for other modes a sizing hint
    // Closed-loop only: a benchmark's run of this many prompts, every one measured, the clients
    // all starting at once at an idle server (how serving benchmarks run: the first wave's
    // prompts queue for prefill together). Absent: a steady state, the first round left out.
    std::optional<int> prompts;
    // Open-loop only: periodic bursts on top of the base rate. Every periodS seconds the rate is
    // multiplied by burstMultiplier for burstDurationS seconds (steady plus bursts).
    std::optional<double> burstMultiplier;
    double burstDurationS = 0;
    double burstPeriodS = 0;
    // The peak rate the service must carry within the SLO (sizes the replica count); defaults
    // to the burst rate, else the base rate.
    std::optional<double> peakRequestRatePerS;

    double peakRate() const
    {
        if (peakRequestRatePerS)
            return *peakRequestRatePerS;
        return requestRatePerS.value_or(0) * burstMultiplier.value_or(1.0);
    }
};

struct Slo
{
    std::optional<double> ttftP99S, tpotP99S, e2eP99S, ttftP95S, tpotP95S, e2eP95S;
    bool empty() const { return !ttftP99S && !tpotP99S && !e2eP99S && !ttftP95S && !tpotP95S && !e2eP95S; }
};

struct Acceptance
{
    double qualityPassRate = 1.0;
    double failureRate = 0.0;
    bool given = false;  // the brief said how many outputs are accepted
};

// A training run's checkpoints (workload.training.checkpoint). Absent figures are named
// defaults (assumptions.h).
struct CheckpointSpec
{
    std::optional<double> storageWriteBytesPerS;  // the storage's aggregate write bandwidth
    std::optional<double> storageReadBytesPerS;
    std::optional<double> intervalS;              // absent: the engine chooses it (Daly)
    std::optional<double> restartS;               // initialisation before the checkpoint is read
};

struct TrainingSpec
{
    int sequenceLength = 0;
    int microBatchSize = 1;           // sequences per GPU per micro-step
    std::optional<double> globalBatchTokens;
    std::optional<double> tokens;     // total to train on
    Optimizer optimizer = Optimizer::AdamW;
    OptimizerPlacement optimizerPlacement = OptimizerPlacement::Gpu;
    bool masterWeights = true;        // fp32 master copy (mixed precision); false for pure bf16
    bool optimizerInBackward = false; // step each parameter as its gradient arrives (no full grad buffer)
    Sharding sharding = Sharding::None;
    Recompute recompute = Recompute::None;
    bool activationOffload = false;   // saved activations go to host memory
    // Megatron SP: norm/dropout activations split over TP. Absent: on with TP above 1, the
    // frameworks' own default (sequenceParallelAt).
    std::optional<bool> sequenceParallel;
    int loraRank = 16;
    LoraTargets loraTargets = LoraTargets::AllLinear;
    CheckpointSpec checkpoint;
    std::optional<double> interruptionsPerGpuHour;  // absent: the named default with its source
    // Evaluation during the run (workload.training.evaluation): a forward pass over evalTokens
    // every evalIntervalTokens trained. Absent: none.
    std::optional<double> evalIntervalTokens, evalTokens;
    // Runs like this one a year (workload.training.runs_per_year): a campaign that shares a
    // reservation's or purchase's term. Absent: one run, and the rest of a term idles.
    std::optional<double> runsPerYear;
    // The training set (workload.training.dataset): its size, and whether it already sits where
    // the GPUs are or must be moved there (the default), at transfer_usd_per_gb (else the
    // assumption egress_usd_per_gb: what its home charges to send it out). Absent: no data is priced.
    std::optional<double> datasetGb;
    bool datasetWithGpus = true;
    std::optional<double> datasetTransferUsdPerGb;

    bool sequenceParallelAt(int tensorParallel) const { return sequenceParallel.value_or(tensorParallel > 1); }
};

// A media-generation job (workload.media): the media catalog's pipeline and what one output is.
// Absent width, height, frames and steps are the model card's own (MediaModelSpec::default*),
// listed in `defaulted`.
struct MediaSpec
{
    MediaModelSpec model;
    int width = 0, height = 0;
    int frames = 1;             // 1 for an image
    int steps = 0;
    bool guidance = true;       // classifier-free guidance: two passes a step unless distilled
    std::optional<int> batchSize;  // absent: the largest that fits
    std::vector<std::string> defaulted;

    // Denoiser passes a step: two under classifier-free guidance, one for distilled models.
    int passesPerStep() const { return guidance && !model.guidanceDistilled ? 2 : 1; }
    // One output's work at this size (catalog/mediamodel.h).
    MediaWork work() const { return mediaWork(model, width, height, frames, steps, passesPerStep()); }
    // The denoiser's weights at `weights`, and the whole pipeline's (text encoders and VAE in bf16).
    double denoiserBytes(Precision weights) const { return model.denoiserParameters * weightBitsPerParameter(weights) / 8; }
    double pipelineBytes(Precision weights) const
    {
        return denoiserBytes(weights) + (model.textEncoderParameters + model.vae.parameters) * 2;
    }
};

struct Workload
{
    WorkloadKind kind = WorkloadKind::RealtimeInference;
    ModelSpec model;
    bool modelFromCatalog = true;
    Precision weightsPrecision = Precision::Bf16;
    Precision kvCachePrecision = Precision::Bf16;
    // The weight precisions the layout search may try (workload.acceptable_precisions): those
    // whose quality the brief accepts. Empty: weightsPrecision only.
    std::vector<Precision> acceptablePrecisions;
    double inputTokens = 0;
    double outputTokens = 0;
    std::optional<double> inputTokensP95;
    std::optional<double> outputTokensP95;
    Traffic traffic;
    Slo slo;
    Acceptance acceptance;
    std::optional<TrainingSpec> training;
    std::optional<MediaSpec> media;    // media-generation only
};

// What the rent / reserve / buy / API recommendation weighs besides cost (the seed's FAQ).
struct Decision
{
    Level demandCertainty = Level::Medium;  // how sure the volume is over the commitment term
    Level modelChurn = Level::Medium;       // how often the model is expected to change
    bool needsHardwareControl = false;      // custom kernels, runtimes, topology, weights on own hardware
    bool apiAllowed = true;                 // false when the data boundary rules out a third-party API
    // Where the data must stay (residency): offers and APIs stated to run elsewhere are left out,
    // and those that do not say where they run are flagged. Absent: anywhere.
    std::optional<DataRegion> dataRegion;
    // Whether the service tolerates spot interruptions (retried work, replicas lost mid-request).
    // Absent: only briefs without a latency target (batch work) do, which the method ties spot to.
    std::optional<bool> interruptionsAcceptable;
    bool given = false;
};

// How the rented capacity is billed (cost.billing). Reserved and purchased GPUs are paid for
// every hour of the month whatever this says.
struct BillingInputs
{
    Billing model = Billing::AlwaysOn;
    // Scheduled: the work runs, and rented GPUs are billed, this many hours a day on this many
    // days a month (capped at hours_per_month).
    double hoursPerDay = 24, daysPerMonth = 30;
    // Autoscaled: replicas kept running when there is no load (0: scale to zero). Serverless
    // capacity scales to zero (0) and is billed per second of use.
    int minReplicas = 1;
    bool given = false;
};

// The brief's cost inputs: its own dated prices, the model-API route, the monthly volume when
// the traffic does not imply one, and the decision factors. Line-item defaults are assumptions.
struct CostInputs
{
    std::vector<GpuPrice> prices;
    std::optional<ApiPrice> api;
    std::optional<double> requestsPerMonth;
    Decision decision;
    BillingInputs billing;
};

// The scale-out network each GPU has beyond its scale-up domain (candidates[].network).
struct NetworkSpec
{
    std::string kind;                // "infiniband", "roce", "ethernet", "efa"
    double bytesPerSPerGpu = 0;
};

struct Candidate
{
    std::string gpu;           // catalog id
    int gpus = 1;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int contextParallel = 1;   // training only: the sequence split over this many GPUs
    int virtualPipeline = 1;   // training only: interleaved pipeline stages per GPU
    ServingStack servingStack = ServingStack::Generic;
    // The stack's release ("0.5.9"), when stated: a version outside the calibration's data gets
    // a warning and a wider band (catalog/bands.h).
    std::string servingStackVersion;
    std::optional<NetworkSpec> network;  // absent: scale_out_bandwidth_bytes_per_s
    // Inference and media: this candidate's weights at another precision than the workload's
    // (candidates[].weights_precision), as a layout search's FP8 layout beside a BF16 one.
    std::optional<Precision> weightsPrecision;

    // GPUs of one model replica (inference) or one data-parallel rank (training).
    int gpusPerReplica() const { return tensorParallel * pipelineParallel * contextParallel; }
    int replicas() const { return gpus / gpusPerReplica(); }
};

struct Brief
{
    std::string name;
    Workload workload;
    std::vector<Candidate> candidates;
    Assumptions assumptions;
    CostInputs cost;
    std::vector<Warning> warnings;  // about the brief itself (unknown fields, ...)
    std::string file;               // where it was read from, for messages
};

// The brief as one candidate sees it: its weights_precision, when it has one, in the workload.
Brief briefFor(const Brief &brief, const Candidate &candidate);
// What the workload's work is billed by at a model API (the unit its cost.api gives). Pre-training
// has no API; it reads as a fine-tune's here and is refused where a quote is read.
ApiUse apiUseOf(const Workload &workload);

// Parses a brief. Unknown GPU or model ids, out-of-range numbers, wrong types and missing
// required fields are errors naming fileName and the field's JSON pointer.
// "8x h100-sxm-80gb TP2 PP2": count, GPU id and the parallelism that is not 1 (TP always).
std::string candidateLabel(const Candidate &candidate);

// A candidate as the brief's JSON writes it (/candidates/N): {"gpu": ..., "gpus": ...,
// "tensor_parallel": ..., "pipeline_parallel": ..., "serving_stack": ...}.
std::string candidateJson(const Candidate &candidate);

// The same candidate with `gpus` GPUs and its layout kept valid: parallelism that no longer
// divides the count is lowered (pipeline first to 1, then tensor to the largest power of two
// that divides it), so that a count can be typed without editing TP first.
Candidate withGpuCount(Candidate candidate, int gpus);
// The same candidate with a new layout and its count kept valid: raised to the next multiple of
// TP x PP when it is not one.
Candidate withLayout(Candidate candidate, int tensorParallel, int pipelineParallel);

// A brief field's JSON pointer in words, for people: "/workload/traffic/request_rate_per_s" ->
// "Traffic › request rate (per s)", "/candidates/0/gpus" -> "Candidate 1 › GPUs".
std::string fieldLabel(const std::string &pointer);

Result<Brief> parseBrief(const std::string &jsonText, const std::string &fileName, const Catalog &catalog);
Result<Brief> loadBrief(const std::string &path, const Catalog &catalog);

// The one canonical text of a brief's JSON (object keys as written, compact), the form the
// project stores and patchBrief returns, so that two texts of the same brief compare equal. The
// error says what is wrong with the text ("is not valid JSON").
Result<std::string> canonicalBriefJson(const std::string &text);
// The same brief for a person to read and a script to diff: keys as written, indented by two,
// one final newline (File > Export Brief).
Result<std::string> readableBriefJson(const std::string &text);

// Sets the field at a JSON pointer (such as "/workload/traffic/request_rate_per_s") of a brief's
// JSON text to valueJson (a JSON value; "null" removes the field or array element; "/-" appends
// to an array), creating missing objects on the way. The result is canonical JSON
// (canonicalBriefJson) that parseBrief accepts; a change that
// makes the brief invalid is an error naming the field, and nothing is returned.
// The patched brief: its canonical JSON and the brief parsed from it (parsed once, here).
struct PatchedBrief
{
    std::string json;
    Brief brief;
};
Result<PatchedBrief> patchBrief(const std::string &briefJson, const std::string &pointer, const std::string &valueJson,
                                const Catalog &catalog);
// Several fields set together, checked once at the end. A patch of /workload/kind or
// /workload/traffic/mode also adds what the new kind or mode needs where the brief does not say
// it already (a training block, lengths, an open-loop rate, a closed-loop concurrency) and drops
// bursts off open loop: the engine, not each caller, knows what a kind needs.
struct BriefPatch
{
    std::string pointer;
    std::string valueJson;
};
Result<PatchedBrief> patchBrief(const std::string &briefJson, const std::vector<BriefPatch> &patches,
                                const Catalog &catalog);

// How many times parseBrief has run in this process (a diagnostic: tests check that an edit in
// the window parses its brief once).
std::uint64_t briefParseCount();

} // namespace wb
