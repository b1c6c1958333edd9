#include "performance/training.h"

#include "catalog/modelarch.h"
#include "core/format.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

constexpr double kActivationBytes = 2;   // bf16 activations and gradients on the wire

// One GPU's share of a collective's traffic per second, and the latency of each ring step.
struct Link
{
    double bytesPerS = 0;
    double hopLatencyS = 0;
    bool memoryShared = false;   // NVLink-class scale-up: peers' memory is read and written directly
};

// The link a group spanning `span` consecutive ranks uses: the scale-up domain when the span fits
// in it (Megatron orders ranks tensor, context, data, pipeline, innermost first), else the
// candidate's network. Catalog scale-up figures count both directions.
Link groupLink(const GpuSpec &gpu, const Candidate &c, int span, const Assumptions &a)
{
    Link l;
    const double efficiency = a.value(Assumption::LinkEfficiency);
    if (span <= gpu.scaleUp.domainGpus && gpu.scaleUp.bandwidthBytesPerS > 0) {
        l.bytesPerS = gpu.scaleUp.bandwidthBytesPerS / 2 * efficiency;
        const bool pcie = gpu.scaleUp.kind == "pcie";
        l.memoryShared = !pcie;
        l.hopLatencyS = pcie ? a.value(Assumption::RingHopLatencyS) : a.value(Assumption::AllreduceLatencyS) / 2;
    } else {
        l.bytesPerS = (c.network ? c.network->bytesPerSPerGpu : a.value(Assumption::ScaleOutBandwidthBytesPerS)) * efficiency;
        l.hopLatencyS = a.value(Assumption::RingHopLatencyS);
    }
    return l;
}

// Ring collectives over n ranks: an all-reduce moves 2(n-1)/n of the payload through each GPU,
// an all-gather or reduce-scatter (n-1)/n.
double allReduceS(double bytes, int n, const Link &l)
{
    return n <= 1 ? 0 : 2.0 * (n - 1) / n * bytes / l.bytesPerS + 2.0 * (n - 1) * l.hopLatencyS;
}
double gatherS(double bytes, int n, const Link &l)
{
    return n <= 1 ? 0 : double(n - 1) / n * bytes / l.bytesPerS + (n - 1) * l.hopLatencyS;
}

double optimizerBytesPerParameter(const TrainingSpec &t, bool fp32)
{
    double states = 0;
    switch (t.optimizer) {
    case Optimizer::AdamW: states = 8; break;
    case Optimizer::AdamW8bit: states = 2; break;
    case Optimizer::Sgd: states = 4; break;
    }
    return states + (t.masterWeights && !fp32 ? 4.0 : 0.0);
}

double loraParameters(const ModelSpec &m, const ParameterCounts &p, const TrainingSpec &t)
{
    double dims = 0;
    for (int i = 0; i < m.layers; ++i) {
        const LayerParameters &l = p.layer(i);
        dims += l.loraAttentionDims + (t.loraTargets == LoraTargets::AllLinear ? l.loraMlpDims : 0);
    }
    return dims * t.loraRank;
}

bool fourBitBase(Precision p)
{
    return p == Precision::Nf4 || p == Precision::Int4 || p == Precision::Fp4;
}

// Everything about a step that does not depend on the data-parallel size.
struct StepInputs
{
    const Brief *brief = nullptr;
    const Candidate *candidate = nullptr;
    const GpuSpec *gpu = nullptr;
    double modelFlopsPerToken = 0, hardwareFlopsPerToken = 0;
    double forwardFlopsPerToken = 0; // 2N and a third of the attention: one forward pass
    double flopsPerS = 0;            // achieved, one GPU
    double memoryBytesPerS = 0;      // achieved HBM bandwidth, one GPU
    double parameters = 0;           // all of the model's
    double linearParameters = 0;     // the weight matrices (dequantized by QLoRA)
    double trainable = 0;            // what the optimizer updates
    double sequencesPerStep = 0;     // the brief's global batch, in sequences (0: one micro-batch per rank)
    double savedPerMicroBatch = 0;   // activations one micro-batch saves for its backward, one GPU (the fit's)
    double hostLinkBytesPerS = 0;    // one direction
};

struct Step
{
    int microBatches = 1;
    double sequences = 0;
    double timeS = 0;
    TrainingStepParts parts;
};

Step stepAt(const StepInputs &in, int dp)
{
    const Brief &b = *in.brief;
    const Candidate &c = *in.candidate;
    const GpuSpec &gpu = *in.gpu;
    const TrainingSpec &t = *b.workload.training;
    const ModelSpec &m = b.workload.model;
    const Assumptions &a = b.assumptions;
    const bool adapters = isAdapter(b.workload.kind);
    const int tp = c.tensorParallel, pp = c.pipelineParallel, cp = c.contextParallel, v = c.virtualPipeline;

    Step s;
    const double perRankSequences = double(dp) * t.microBatchSize;
    // At most 10^9 micro-batches a step (a trillion-token batch of 1-token sequences): an int.
    s.microBatches = in.sequencesPerStep > 0
        ? int(std::clamp(std::round(in.sequencesPerStep / perRankSequences), 1.0, 1e9))
        : 1;
    s.sequences = double(s.microBatches) * perRankSequences;

    // One micro-batch on one GPU.
    const double microTokens = double(t.microBatchSize) * t.sequenceLength;
    const double compute = microTokens * in.hardwareFlopsPerToken / (double(tp) * pp * cp) / in.flopsPerS;
    const double overlap = a.value(Assumption::TrainingCommOverlap);
    const double layers = double(m.layers) / pp;
    // Each exchange once: a tensor-parallel collective, a ring-attention pass over the other
    // ranks' K/V, a dequantization of the 4-bit base (the forward alone uses one of each kind
    // per layer pass: two collectives, one K/V pass, one dequantization).
    double tensorOne = 0, contextOne = 0, dequantOne = 0;
    double tensor = 0, context = 0, dequant = 0, shardedParams = 0;
    if (tp > 1) {
        // Two all-reduces (or all-gather + reduce-scatter with sequence parallelism, the same
        // volume) per layer forward, two backward, two more when the forward is recomputed.
        const double payload = double(t.microBatchSize) * t.sequenceLength / cp * m.hiddenSize * kActivationBytes;
        const double count = t.recompute == Recompute::Full ? 6.0 : 4.0;
        // Overlapping them with the GEMMs (Transformer Engine's userbuffers, NeMo's tp_comm_overlap)
        // reads and writes the peers' memory over NVLink-class links; over PCIe, or over the
        // network when the tensor-parallel group outgrows the scale-up domain, the collectives
        // run between the GEMMs, all exposed.
        const Link l = groupLink(gpu, c, tp, a);
        tensorOne = (l.memoryShared ? 1 - overlap : 1.0) * layers * allReduceS(payload, tp, l);
        tensor = count * tensorOne;
    }
    if (cp > 1) {
        // Ring attention: each GPU receives the other cp - 1 chunks of K and V forward and sends
        // their gradients back: three chunk passes per layer.
        const double kvHeadsPerGpu = std::ceil(double(std::max(1, m.kvHeads)) / tp);
        const double chunk = double(t.microBatchSize) * t.sequenceLength / cp * 2.0 * kvWidth(m) / std::max(1, m.kvHeads)
            * kvHeadsPerGpu * kActivationBytes;
        const Link l = groupLink(gpu, c, tp * cp, a);
        contextOne = (1 - overlap) * layers * ((cp - 1) * chunk / l.bytesPerS + (cp - 1) * l.hopLatencyS);
        context = 3.0 * contextOne;
    }
    if (adapters && fourBitBase(b.workload.weightsPrecision)) {
        // Each 4-bit matrix is read and written out in bf16 for every pass that uses it:
        // forward, backward (and the recomputed forward).
        const double passes = t.recompute == Recompute::Full ? 3.0 : 2.0;
        dequantOne = in.linearParameters / (double(tp) * pp) * (0.5 + 2.0) / in.memoryBytesPerS;
        dequant = passes * dequantOne;
    }
    const bool fsdp = t.sharding == Sharding::Zero3 || t.sharding == Sharding::Fsdp;
    const int dpSpan = tp * cp * dp;
    const Link dpLink = groupLink(gpu, c, dpSpan, a);
    const double paramBytesPerGpu = in.parameters / (double(tp) * pp) * kActivationBytes;
    if (fsdp && dp > 1) {
        // Parameters gathered for the forward and again for the backward of each micro-batch,
        // gradients reduce-scattered; prefetching hides what the micro-batch's math covers.
        const double traffic = 2 * gatherS(paramBytesPerGpu, dp, dpLink)
            + (adapters ? 0.0 : gatherS(paramBytesPerGpu, dp, dpLink));
        shardedParams = std::max(0.0, traffic - compute);
    }
    // Offloaded activations go to the host in the forward and come back for the backward,
    // overlapped with the micro-batch's math.
    const double offload = t.activationOffload ? std::max(0.0, 2 * in.savedPerMicroBatch / in.hostLinkBytesPerS - compute) : 0.0;
    const double micro = compute + tensor + context + dequant + shardedParams + offload;

    // The pipeline: m micro-batches plus (pp - 1) / v of fill and drain.
    const double bubble = (pp - 1) / double(v) * micro;
    double dataParallel = s.microBatches * shardedParams;
    if (!fsdp && dp > 1) {
        // Gradients reduced once a step (all-reduce, or reduce-scatter then all-gather of the
        // updated parameters with a sharded optimizer: the same volume). Buckets go out as their
        // gradients are final, during the last micro-batch's backward and the pipeline's drain,
        // and parameters come back during the next step's fill and first forward: one
        // micro-batch's math and the bubble hide that much of it.
        const double trainableBytes = (adapters ? in.trainable : in.parameters) / (double(tp) * pp) * kActivationBytes;
        dataParallel += std::max(0.0, allReduceS(trainableBytes, dp, dpLink) - compute - bubble);
    }
    // The optimizer reads and writes its states and the master copy, reads the gradients and
    // writes the parameters, for the parameters this GPU updates.
    const bool fp32 = b.workload.weightsPrecision == Precision::Fp32;
    const double bytesPerParam = 2 * optimizerBytesPerParameter(t, fp32) + 2 * kActivationBytes;
    // Sharded states are split over the data- and context-parallel ranks (memorymodel.h).
    const double updated = in.trainable / (double(tp) * pp) / (t.sharding != Sharding::None ? double(dp) * cp : 1);
    double optimizer = updated * bytesPerParam / in.memoryBytesPerS;
    double hostTraffic = 0;
    if (t.optimizerPlacement == OptimizerPlacement::CpuOffload) {
        // The states stay on the host: gradients go down and parameters come back up (bf16 each)
        // over the host link; the CPU's own update is not timed (evaluateTraining warns).
        hostTraffic = updated * 2 * kActivationBytes / in.hostLinkBytesPerS;
        optimizer = 0;
    }

    s.parts.compute = s.microBatches * compute;
    s.parts.tensorParallel = s.microBatches * tensor;
    s.parts.contextParallel = s.microBatches * context;
    s.parts.dequantization = s.microBatches * dequant;
    s.parts.dataParallel = dataParallel;
    s.parts.bubble = bubble;
    s.parts.optimizer = optimizer;
    s.parts.offload = s.microBatches * offload + hostTraffic;
    s.timeS = s.microBatches * micro + bubble + (dataParallel - s.microBatches * shardedParams) + optimizer + hostTraffic;
    if (t.evalIntervalTokens && t.evalTokens) {
        // Evaluation every interval: the evaluation sequences dealt out to the data-parallel
        // replicas a micro-batch at a time, so each replica runs whole micro-batches (173
        // sequences on 128 replicas take two rounds, not 1.35); each a forward pass (2N plus a
        // third of the attention FLOPs a token) with the forward's share of the exchanges (two
        // tensor-parallel collectives and one K/V pass a layer, one dequantization), the pipeline
        // filled and drained once. Its share of a step is the step's tokens over the interval.
        const double forward = microTokens * in.forwardFlopsPerToken / (double(tp) * pp * cp) / in.flopsPerS
            + 2 * tensorOne + contextOne + dequantOne;
        const double evalMicroBatches = std::ceil(*t.evalTokens / t.sequenceLength / perRankSequences - 1e-9);
        s.parts.evaluation = (evalMicroBatches + (pp - 1) / double(v)) * forward * s.sequences * t.sequenceLength
            / *t.evalIntervalTokens;
        s.timeS += s.parts.evaluation;
    }
    return s;
}

} // namespace

double dalyOptimalIntervalS(double writeS, double mtbfS)
{
    if (mtbfS <= 0)
        return 0;
    if (writeS >= 2 * mtbfS)
        return mtbfS;
    const double ratio = writeS / (2 * mtbfS);
    return std::sqrt(2 * writeS * mtbfS) * (1 + std::sqrt(ratio) / 3 + ratio / 9) - writeS;
}

double dalyExpectedWallS(double solveS, double intervalS, double writeS, double restartS, double mtbfS)
{
    if (!std::isfinite(mtbfS) || mtbfS <= 0 || intervalS <= 0)
        return solveS + (intervalS > 0 ? std::floor(solveS / intervalS) * writeS : 0);
    return mtbfS * std::exp(restartS / mtbfS) * std::expm1((intervalS + writeS) / mtbfS) * solveS / intervalS;
}

std::optional<TrainingPerformance> evaluateTraining(const Brief &brief, const Candidate &c, const GpuSpec &gpu,
                                                    const EfficiencyTable &table, const FitResult &fit,
                                                    std::vector<Warning> &warnings)
{
    const Workload &w = brief.workload;
    const TrainingSpec &t = *w.training;
    const ModelSpec &m = w.model;
    const Assumptions &a = brief.assumptions;
    const bool adapters = isAdapter(w.kind);
    const Precision math = mathPrecision(w.weightsPrecision);
    const std::optional<double> peak = gpu.peakFlops(math);
    if (!peak || *peak <= 0 || gpu.memoryBandwidthBytesPerS <= 0) {
        warnings.push_back(makeMessage("performance-not-computed", "/workload/weights_precision",
                                       WB_MESSAGE("Messages", "{gpu} has no published dense {precision} rate in the catalog, so its "
                                                  "training step cannot be timed"),
                                       {{"gpu", gpu.name}, {"precision", std::string(enumName(math))}}));
        return std::nullopt;
    }

    TrainingPerformance r;
    const ParameterCounts params = countParameters(m);
    const double n = params.active();
    const double attention = 12.0 * m.layers * queryWidth(m) * double(t.sequenceLength);
    const double lora = adapters ? loraParameters(m, params, t) : 0;
    // PaLM's model FLOPs (arXiv 2204.02311, appendix B): 6N + 12 L h s per token. Adapters skip
    // the frozen base's weight gradients: 2N forward, 2N for the activations' gradients, and the
    // adapters' own 6 N_a.
    r.modelFlopsPerToken = (adapters ? 4.0 * n + 6.0 * lora : 6.0 * n) + attention;
    r.hardwareFlopsPerToken = r.modelFlopsPerToken;
    if (t.recompute == Recompute::Full)
        r.hardwareFlopsPerToken += 2.0 * n + attention / 3;
    else if (t.recompute == Recompute::Selective)
        r.hardwareFlopsPerToken += attention / 3;
    r.peakFlopsPerGpu = *peak;
    r.efficiencyKey = table.trainingKey(gpu, math);
    r.computeEfficiency = a.value(Assumption::ComputeEfficiency) > 0 ? a.value(Assumption::ComputeEfficiency)
                                                                      : table.value(r.efficiencyKey);
    if (math == Precision::Fp32)
        r.computeEfficiency *= 0.5;  // off the tensor path
    if (const EfficiencyFactor *f = table.factor(r.efficiencyKey); f && !f->calibrated() && a.value(Assumption::ComputeEfficiency) <= 0)
        warnings.push_back(makeMessage("efficiency-uncalibrated", "/assumptions/compute_efficiency",
                                       WB_MESSAGE("Messages", "{gpu}: no published training run backs {key} (literature prior {prior:.3g}); "
                                                  "treat this GPU family's training speed at this precision as a rough "
                                                  "estimate"),
                                       {{"gpu", gpu.name}, {"key", r.efficiencyKey}, {"prior", f->prior}}));

    StepInputs in;
    in.brief = &brief;
    in.candidate = &c;
    in.gpu = &gpu;
    in.modelFlopsPerToken = r.modelFlopsPerToken;
    in.hardwareFlopsPerToken = r.hardwareFlopsPerToken;
    in.forwardFlopsPerToken = 2.0 * n + attention / 3;
    in.flopsPerS = *peak * r.computeEfficiency;
    const double memoryEfficiency = a.value(Assumption::MemoryEfficiency) > 0 ? a.value(Assumption::MemoryEfficiency)
                                                                               : table.value(table.memoryKey(gpu));
    in.memoryBytesPerS = gpu.memoryBandwidthBytesPerS * memoryEfficiency;
    in.parameters = params.total();
    in.linearParameters = m.layers > 0 ? params.denseLayers * params.denseLayer.linear() + params.moeLayers * params.moeLayer.linear() : 0;
    in.trainable = adapters ? lora : params.total();
    in.sequencesPerStep = t.globalBatchTokens ? *t.globalBatchTokens / t.sequenceLength : 0;
    in.savedPerMicroBatch = fit.savedActivationBytesPerMicroBatch;
    in.hostLinkBytesPerS = gpu.hostLinkBytesPerS();

    r.dataParallel = c.gpus / c.gpusPerReplica();
    const Step step = stepAt(in, r.dataParallel);
    r.microBatches = step.microBatches;
    r.sequencesPerStep = step.sequences;
    r.tokensPerStep = step.sequences * t.sequenceLength;
    r.stepTimeS = step.timeS;
    r.parts = step.parts;
    r.tokensPerS = r.tokensPerStep / r.stepTimeS;
    r.tokensPerSPerGpu = r.tokensPerS / c.gpus;
    r.mfu = r.modelFlopsPerToken * r.tokensPerSPerGpu / *peak;
    if (t.optimizerPlacement == OptimizerPlacement::CpuOffload)
        warnings.push_back(makeMessage("cpu-optimizer-not-timed", "/workload/training/optimizer_placement",
                                       WB_MESSAGE("Messages", "the optimizer runs on the CPU: the step counts the gradients' and "
                                                  "parameters' trips over the host link ({offload_s:.3g} s a step), not the CPU's "
                                                  "own update, so the step time is a lower bound"),
                                       {{"offload_s", r.parts.offload}}));
    if (!t.globalBatchTokens)
        warnings.push_back(makeMessage("global-batch-assumed", "/workload/training/global_batch_tokens",
                                       WB_MESSAGE("Messages", "the brief gives no global_batch_tokens: each of the {data_parallel} "
                                                  "data-parallel ranks runs one micro-batch a step ({tokens_text} tokens in "
                                                  "all), which makes the pipeline bubble and the gradient traffic weigh as "
                                                  "much as they can"),
                                       {{"data_parallel", std::int64_t(r.dataParallel)}, {"tokens", std::llround(r.tokensPerStep)},
                                        {"tokens_text", groupedInteger(std::llround(r.tokensPerStep))}}));
    else if (std::fabs(r.tokensPerStep - *t.globalBatchTokens) > 0.01 * *t.globalBatchTokens)
        warnings.push_back(makeMessage("global-batch-rounded", "/workload/training/global_batch_tokens",
                                       WB_MESSAGE("Messages", "global_batch_tokens {global_batch_text} is not a whole number of "
                                                  "micro-batches over {data_parallel} data-parallel ranks of "
                                                  "{micro_batch_size} sequences of {sequence_length} tokens; the step runs "
                                                  "{micro_batches} micro-batches ({tokens_text} tokens)"),
                                       {{"global_batch", std::llround(*t.globalBatchTokens)},
                                        {"global_batch_text", groupedInteger(std::llround(*t.globalBatchTokens))},
                                        {"data_parallel", std::int64_t(r.dataParallel)},
                                        {"micro_batch_size", std::int64_t(t.microBatchSize)},
                                        {"sequence_length", std::int64_t(t.sequenceLength)},
                                        {"micro_batches", std::int64_t(r.microBatches)}, {"tokens", std::llround(r.tokensPerStep)},
                                        {"tokens_text", groupedInteger(std::llround(r.tokensPerStep))}}));
    if (c.pipelineParallel > 1 && r.parts.bubble > 0.2 * r.stepTimeS)
        warnings.push_back(makeMessage("pipeline-bubble", candidateField("virtual_pipeline"),
                                       WB_MESSAGE("Messages", "the pipeline's fill and drain take {bubble_percent:.0f}% of each step "
                                                  "({micro_batches} micro-batches over {stages} stages): a larger global "
                                                  "batch, interleaving (virtual_pipeline) or fewer stages would shrink it"),
                                       {{"bubble_percent", 100 * r.parts.bubble / r.stepTimeS},
                                        {"micro_batches", std::int64_t(r.microBatches)},
                                        {"stages", std::int64_t(c.pipelineParallel)}}));

    // Scaling: the same layout with 1, 2, 4, ... data-parallel ranks (and the candidate's own),
    // the global batch kept, as long as every rank has a micro-batch.
    for (int dp = 1; dp <= std::max(4 * r.dataParallel, 1); dp *= 2) {
        const int gpus = dp * c.gpusPerReplica();
        if (in.sequencesPerStep > 0 && dp * t.microBatchSize > in.sequencesPerStep * 1.0001)
            break;
        const Step s = stepAt(in, dp);
        r.scaling.push_back({gpus, s.sequences * t.sequenceLength / s.timeS});
        if (dp < r.dataParallel && dp * 2 > r.dataParallel)
            r.scaling.push_back({c.gpus, r.tokensPerS});
    }
    std::sort(r.scaling.begin(), r.scaling.end());
    r.scaling.erase(std::unique(r.scaling.begin(), r.scaling.end(),
                                [](const auto &x, const auto &y) { return x.first == y.first; }),
                    r.scaling.end());

    // Checkpoints: the trained weights and the optimizer's states (adapters only, for LoRA).
    const bool fp32 = w.weightsPrecision == Precision::Fp32;
    const double trainable = adapters ? lora : params.total();
    CheckpointPlan &ck = r.checkpoint;
    ck.sizeBytes = trainable * ((fp32 ? 4.0 : 2.0) + optimizerBytesPerParameter(t, fp32));
    const double writeBw = t.checkpoint.storageWriteBytesPerS.value_or(a.value(Assumption::CheckpointWriteBytesPerSPerGpu) * c.gpus);
    const double readBw = t.checkpoint.storageReadBytesPerS.value_or(a.value(Assumption::CheckpointReadBytesPerSPerGpu) * c.gpus);
    ck.writeS = ck.sizeBytes / writeBw;
    ck.readS = ck.sizeBytes / readBw;
    ck.restartS = t.checkpoint.restartS.value_or(a.value(Assumption::RestartInitS)) + ck.readS;
    r.interruptionsPerGpuHour = t.interruptionsPerGpuHour.value_or(a.value(Assumption::InterruptionsPerGpuHour));
    r.interruptionsSource = t.interruptionsPerGpuHour ? "the brief" : std::string(assumptionInfo(Assumption::InterruptionsPerGpuHour).reason);
    r.jobMtbfS = r.interruptionsPerGpuHour > 0 ? 3600.0 / (r.interruptionsPerGpuHour * c.gpus) : INFINITY;
    ck.optimalIntervalS = std::isfinite(r.jobMtbfS) ? dalyOptimalIntervalS(ck.writeS, r.jobMtbfS) : 0;
    ck.intervalFromBrief = t.checkpoint.intervalS.has_value();
    // A checkpoint is taken between steps: the chosen interval is at least one step.
    ck.intervalS = t.checkpoint.intervalS.value_or(ck.optimalIntervalS > 0 ? std::max(ck.optimalIntervalS, r.stepTimeS) : 0.0);

    if (t.tokens) {
        const double solve = *t.tokens / r.tokensPerS;
        r.timeToTrainS = solve;
        // Without interruptions, checkpoints are still written (at the brief's interval, or
        // none when no interruption is expected).
        const double interval = ck.intervalS > 0 ? ck.intervalS : solve;
        const double wall = dalyExpectedWallS(solve, interval, ck.writeS, ck.restartS, r.jobMtbfS);
        if (!std::isfinite(wall) || wall > 100 * solve) {
            // Interrupted faster than it restarts: the run does not finish.
            warnings.push_back(makeMessage("run-never-finishes", "/assumptions/interruptions_per_gpu_hour",
                                           WB_MESSAGE("Messages", "with one interruption every {mtbf} for {gpus} GPUs and {restart} to "
                                                      "restart, the run would spend its time restarting and never finish; "
                                                      "no expected time or cost is given"),
                                           {{"mtbf", readableDuration(r.jobMtbfS)}, {"mtbf_s", r.jobMtbfS},
                                            {"gpus", std::int64_t(c.gpus)}, {"restart", readableDuration(ck.restartS)},
                                            {"restart_s", ck.restartS}}));
            return r;
        }
        r.expectedTimeToTrainS = wall;
        if (wall > 365.25 * 86400)
            warnings.push_back(makeMessage("run-longer-than-a-year", candidateField("gpus"),
                                           WB_MESSAGE("Messages", "the run would take {duration} on {gpus} GPUs: more GPUs, a faster "
                                                      "GPU or fewer tokens"),
                                           {{"duration", readableDuration(wall)}, {"duration_s", wall},
                                            {"gpus", std::int64_t(c.gpus)}}));
        if (wall > 1.25 * solve)
            warnings.push_back(makeMessage("run-waste-high", "/workload/training/checkpoint",
                                           WB_MESSAGE("Messages", "{waste_percent:.0f}% of the expected time goes to checkpoint writes, "
                                                      "work lost to interruptions and restarts (one interruption every "
                                                      "{mtbf}, {restart} to restart, {write} a write): faster storage, fewer "
                                                      "GPUs per job or a more reliable cluster would shorten the run"),
                                           {{"waste_percent", 100 * (1 - solve / wall)}, {"mtbf", readableDuration(r.jobMtbfS)},
                                            {"restart", readableDuration(ck.restartS)}, {"write", readableDuration(ck.writeS)},
                                            {"mtbf_s", r.jobMtbfS}, {"restart_s", ck.restartS}, {"write_s", ck.writeS}}));
        r.gpuHours = wall * c.gpus / 3600.0;
        r.expectedInterruptions = std::isfinite(r.jobMtbfS) ? wall / r.jobMtbfS : 0.0;
        ck.wastedFraction = wall > 0 ? 1 - solve / wall : 0;
        r.timeToFirstCheckpointS = std::min(interval, solve) + ck.writeS;
        if (std::isfinite(r.jobMtbfS) && ck.optimalIntervalS > 0) {
            for (int i = 0; i <= 24; ++i) {
                const double tau = ck.optimalIntervalS * std::pow(10.0, -1.0 + i / 12.0);
                const double wTau = dalyExpectedWallS(solve, tau, ck.writeS, ck.restartS, r.jobMtbfS);
                r.wasteByInterval.push_back({tau, 1 - solve / wTau});
            }
        }
        if (ck.intervalFromBrief && ck.optimalIntervalS > 0 && ck.intervalS < ck.optimalIntervalS / 2)
            warnings.push_back(makeMessage("checkpoint-interval-short", "/workload/training/checkpoint/interval_s",
                                           WB_MESSAGE("Messages", "checkpoints every {interval} ({write} each to write) lose "
                                                      "{waste_percent:.1f}% of the run where every {best_interval} (the "
                                                      "interval that wastes least) would lose {best_waste_percent:.1f}%"),
                                           {{"interval", readableDuration(ck.intervalS)}, {"write", readableDuration(ck.writeS)},
                                            {"waste_percent", 100 * ck.wastedFraction},
                                            {"best_interval", readableDuration(ck.optimalIntervalS)},
                                            {"best_waste_percent", 100 * (1 - solve / dalyExpectedWallS(solve, ck.optimalIntervalS,
                                                                                                         ck.writeS, ck.restartS,
                                                                                                         r.jobMtbfS))},
                                            {"interval_s", ck.intervalS}, {"best_interval_s", ck.optimalIntervalS}}));
        if (*t.tokens < r.tokensPerStep)
            warnings.push_back(makeMessage("training-tokens-below-one-step", "/workload/training/tokens",
                                           WB_MESSAGE("Messages", "the run's {tokens_text} tokens are fewer than one step's "
                                                      "{step_tokens_text}: the time to train is a fraction of a step"),
                                           {{"tokens", std::llround(*t.tokens)}, {"step_tokens", std::llround(r.tokensPerStep)},
                                            {"tokens_text", groupedInteger(std::llround(*t.tokens))},
                                            {"step_tokens_text", groupedInteger(std::llround(r.tokensPerStep))}}));
        if (ck.intervalFromBrief && ck.optimalIntervalS > 0 && ck.intervalS > 2 * ck.optimalIntervalS)
            warnings.push_back(makeMessage("checkpoint-interval-long", "/workload/training/checkpoint/interval_s",
                                           WB_MESSAGE("Messages", "checkpoints every {interval} lose {waste_percent:.1f}% of the run "
                                                      "where every {best_interval} (the interval that wastes least for a "
                                                      "job interrupted every {mtbf} on average) would lose "
                                                      "{best_waste_percent:.1f}%"),
                                           {{"interval", readableDuration(ck.intervalS)}, {"waste_percent", 100 * ck.wastedFraction},
                                            {"best_interval", readableDuration(ck.optimalIntervalS)},
                                            {"mtbf", readableDuration(r.jobMtbfS)},
                                            {"best_waste_percent", 100 * (1 - solve / dalyExpectedWallS(solve, ck.optimalIntervalS,
                                                                                                         ck.writeS, ck.restartS,
                                                                                                         r.jobMtbfS))},
                                            {"interval_s", ck.intervalS}, {"best_interval_s", ck.optimalIntervalS}}));
    } else {
        warnings.push_back(makeMessage("training-tokens-missing", "/workload/training/tokens",
                                       WB_MESSAGE("Messages", "the brief does not say how many tokens to train on "
                                                  "(workload.training.tokens), so there is no time to train, no expected "
                                                  "interruptions and no cost of a completed run")));
    }
    return r;
}

} // namespace wb
