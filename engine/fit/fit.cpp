#include "fit/fit.h"

#include "fit/memorymodel.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>

namespace wb {

Message catalogCaveat(const GpuSpec &gpu, const std::string &caveat)
{
    return makeMessage("catalog-caveat", candidateField("gpu"), WB_MESSAGE("Messages", "{gpu}: {caveat}"), {{"gpu", gpu.name}, {"caveat", caveat}});
}

using namespace fitdetail;

namespace {
std::atomic<std::uint64_t> g_fits{0};
}

std::uint64_t fitCount()
{
    return g_fits.load();
}

FitResult fitCandidate(const Brief &brief, const Candidate &cand, const Catalog &catalog)
{
    ++g_fits;
    FitResult r;
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    const GpuSpec *gpu = catalog.gpu(cand.gpu);
    if (!gpu) {
        r.warnings.push_back(makeMessage("unknown-gpu", "", WB_MESSAGE("Messages", "GPU \"{gpu}\" is not in the catalog"), {{"gpu", cand.gpu}}));
        return r;
    }
    r.capacityBytes = gpu->memoryBytes;
    for (const std::string &c : gpu->caveats)
        r.warnings.push_back(catalogCaveat(*gpu, c));

    if (w.kind == WorkloadKind::MediaGeneration) {
        if (!w.media)
            return r;
        if (!gpu->supportsWeights(w.weightsPrecision)) {
            r.warnings.push_back(makeMessage("precision-unsupported", "/workload/weights_precision",
                                             WB_MESSAGE("Messages", "{gpu} has no {precision} tensor path, so it cannot hold this "
                                                        "pipeline's weights in that format"),
                                             {{"gpu", gpu->name}, {"precision", std::string(enumName(w.weightsPrecision))}}));
            return r;
        }
        return detail::fitMedia(brief, cand, *gpu);
    }
    if (!gpu->supportsWeights(w.weightsPrecision)) {
        r.warnings.push_back(makeMessage("precision-unsupported", "/workload/weights_precision",
                                         WB_MESSAGE("Messages", "{gpu} has no {precision} tensor path, so it cannot run this brief's "
                                                    "weights natively; choose bf16 or a weight-only format (int4, nf4), "
                                                    "or a GPU that supports it"),
                                         {{"gpu", gpu->name}, {"precision", std::string(enumName(w.weightsPrecision))}}));
        return r;
    }
    if (w.kind == WorkloadKind::Qlora && w.weightsPrecision != Precision::Nf4 && w.weightsPrecision != Precision::Int4
        && w.weightsPrecision != Precision::Fp4)
        r.warnings.push_back(makeMessage("qlora-precision", "/workload/weights_precision",
                                         WB_MESSAGE("Messages", "QLoRA freezes a 4-bit base, but weights_precision is {precision}; "
                                                    "memory follows weights_precision"),
                                         {{"precision", std::string(enumName(w.weightsPrecision))}}));

    const ModelSpec &m = w.model;
    if (m.attentionHeads % cand.tensorParallel != 0)
        r.warnings.push_back(makeMessage("tp-does-not-divide-heads", candidateField("tensor_parallel"),
                                         WB_MESSAGE("Messages", "tensor_parallel {tp} does not divide the model's {heads} attention "
                                                    "heads; serving engines and training frameworks refuse this layout"),
                                         {{"tp", std::int64_t(cand.tensorParallel)}, {"heads", std::int64_t(m.attentionHeads)}}));
    if (cand.tensorParallel > gpu->scaleUp.domainGpus)
        r.warnings.push_back(makeMessage("tp-crosses-scale-up-domain", candidateField("tensor_parallel"),
                                         WB_MESSAGE("Messages", "tensor_parallel {tp} exceeds the {domain_gpus} GPUs of one scale-up "
                                                    "domain: its all-reduces cross the slower scale-out network"),
                                         {{"tp", std::int64_t(cand.tensorParallel)}, {"domain_gpus", std::int64_t(gpu->scaleUp.domainGpus)}}));
    if (cand.pipelineParallel > m.layers)
        r.warnings.push_back(makeMessage("pp-exceeds-layers", candidateField("pipeline_parallel"),
                                         WB_MESSAGE("Messages", "pipeline_parallel {pp} exceeds the model's {layers} layers; extra "
                                                    "stages are empty"),
                                         {{"pp", std::int64_t(cand.pipelineParallel)}, {"layers", std::int64_t(m.layers)}}));

    MemoryModel model(w, a, *gpu, cand.servingStack);
    Shape shape;
    shape.tp = cand.tensorParallel;
    shape.pp = cand.pipelineParallel;
    const bool inference = isInference(w.kind);
    if (inference) {
        shape.dp = cand.replicas();
        // The longest request the brief describes: its p95 lengths when given, else the means.
        shape.contextTokens = inferenceContext(w, true);
        Sizing sizing = sizeConcurrency(w, cand.replicas(), a);
        shape.sequences = sizing.sequences;
        if (sizing.note)
            r.warnings.push_back(*sizing.note);
        if (inferenceContext(w, false) > m.maxContext)
            r.warnings.push_back(makeMessage("context-exceeds-model-limit", "/workload/input_tokens",
                                             WB_MESSAGE("Messages", "{tokens:.0f} tokens per request exceed the model's "
                                                        "{max_context}-token context window"),
                                             {{"tokens", inferenceContext(w, false)}, {"max_context", std::int64_t(m.maxContext)}}));
        if (w.inputTokensP95 || w.outputTokensP95) {
            if (shape.contextTokens > m.maxContext && inferenceContext(w, false) <= m.maxContext)
                r.warnings.push_back(makeMessage("p95-context-exceeds-model-limit", "/workload/input_tokens_p95",
                                                 WB_MESSAGE("Messages", "p95 requests ({tokens} tokens) exceed the model's "
                                                            "{max_context}-token context window"),
                                                 {{"tokens", std::int64_t(shape.contextTokens)},
                                                  {"max_context", std::int64_t(m.maxContext)}}));
        }
    } else {
        shape.dp = cand.gpus / cand.gpusPerReplica();
        shape.cp = cand.contextParallel;
        shape.contextTokens = w.training->sequenceLength;
        shape.sequences = w.training->microBatchSize;
        // The frameworks' own defaults the brief did not override, said (the method: every
        // assumption visible).
        std::string defaults;
        if (cand.tensorParallel > 1 && !w.training->sequenceParallel)
            defaults = "sequence parallelism with tensor parallelism (Megatron-LM, NeMo and torchtitan run TP so)";
        if (model.fp8ActivationStorage() && !a.overridden(Assumption::Fp8ActivationStorage))
            defaults += std::string(defaults.empty() ? "" : "; ")
                + "FP8 storage of the saved linear inputs and MLP activations (Transformer Engine's FP8 recipes; "
                  "assumption fp8_activation_storage)";
        if (!defaults.empty())
            r.warnings.push_back(makeMessage("training-defaults", "/workload/training",
                                             WB_MESSAGE("Messages", "not given, so taken as the frameworks run them: {defaults}"),
                                             {{"defaults", defaults}}));
        if (shape.contextTokens > m.maxContext)
            r.warnings.push_back(makeMessage("context-exceeds-model-limit", "/workload/training/sequence_length",
                                             WB_MESSAGE("Messages", "sequence_length {tokens} exceeds the model's {max_context}-token "
                                                        "context window"),
                                             {{"tokens", std::int64_t(shape.contextTokens)},
                                              {"max_context", std::int64_t(m.maxContext)}}));
    }

    // Inference fits when a replica holds the weights, its workspace and one request at the
    // brief's longest context: a serving engine admits what its KV cache holds and queues the
    // rest, which is latency (the simulator's queue), not an out-of-memory failure.
    const Estimate e = model.estimate(shape);
    Shape one = shape;
    one.sequences = 1;
    const Estimate need = inference ? model.estimate(one) : e;
    const StageNeed &st = e.stages[std::size_t(e.busiest)];
    auto bytes = [](double v) { return std::uint64_t(std::llround(std::max(0.0, v))); };
    r.computed = true;
    r.busiestStage = e.busiest;
    r.peakBasis = inference
        ? "what the serving engine reserves: weights, activation workspace, the KV cache the load uses and the runtime "
          "(CUDA context, libraries, graphs)"
        : fmt::format("the allocated peak (tensors PyTorch allocates, torch.cuda.max_memory_allocated) plus the runtime "
                      "outside PyTorch's allocator; the caching allocator's reserve above it is training_safety_margin "
                      "({:.0f}% of memory, left free)",
                      100 * a.value(Assumption::TrainingSafetyMargin));
    r.breakdown.weights = bytes(st.weights);
    // The KV cache the load uses: what it needs, or the whole pool when it needs more.
    r.breakdown.kvCache = bytes(inference ? std::min(st.kv, std::max(st.kvPerSequence, st.usable - st.nonKv())) : st.kv);
    r.breakdown.activations = bytes(st.activations);
    r.breakdown.gradients = bytes(st.gradients);
    r.breakdown.optimizerStates = bytes(st.optimizer);
    r.breakdown.runtimeOverhead = bytes(st.runtime);
    r.perGpuBytes = r.breakdown.total();
    r.usableBytes = bytes(st.usable);
    r.fits = need.fits;
    r.headroomFraction = 1.0 - double(r.perGpuBytes) / double(r.capacityBytes);
    r.sizedContextTokens = shape.contextTokens;
    r.sizedConcurrencyPerReplica = shape.sequences;

    if (inference) {
        r.kvCacheCapacityTokensPerReplica = std::isfinite(e.kvCapacityTokens) ? e.kvCapacityTokens : 0;
        const long long perReplica = std::isfinite(e.maxSequences) ? static_cast<long long>(e.maxSequences) : 0;
        r.maxConcurrencyPerReplica = perReplica;
        r.maxConcurrency = perReplica * cand.replicas();
        if (r.fits && perReplica < shape.sequences)
            r.warnings.push_back(makeMessage("kv-cache-queues",
                                             w.traffic.mode == TrafficMode::ClosedLoop ? "/workload/traffic/concurrency"
                                                                                       : "/workload/traffic/request_rate_per_s",
                                             WB_MESSAGE("Messages", "the KV cache holds {held} of the {concurrent} concurrent requests "
                                                        "per replica at {tokens} tokens each; the rest wait in the "
                                                        "engine's queue, and the latency figures include that wait"),
                                             {{"held", std::int64_t(perReplica)}, {"concurrent", std::int64_t(shape.sequences)},
                                              {"tokens", std::int64_t(shape.contextTokens)}}));
        else if (r.fits && perReplica < 2LL * shape.sequences)
            r.warnings.push_back(makeMessage("kv-cache-tight", "/workload/input_tokens_p95",
                                             WB_MESSAGE("Messages", "the KV cache holds {held} sequences of {tokens} tokens per "
                                                        "replica, less than twice the {needed} the brief needs: longer "
                                                        "prompts or a burst will preempt requests"),
                                             {{"held", std::int64_t(perReplica)}, {"tokens", std::int64_t(shape.contextTokens)},
                                              {"needed", std::int64_t(shape.sequences)}}));
        const double seqCap = a.value(Assumption::MaxNumSeqs);
        if (r.fits && w.traffic.mode == TrafficMode::Offline && perReplica < seqCap)
            r.warnings.push_back(makeMessage("kv-cache-limits-batch", "/assumptions/max_num_seqs",
                                             WB_MESSAGE("Messages", "only {held} sequences fit in the KV cache per replica (the engine "
                                                        "would batch up to {max_num_seqs:.0f}): offline throughput is "
                                                        "limited by memory"),
                                             {{"held", std::int64_t(perReplica)}, {"max_num_seqs", seqCap}}));
    } else if (r.fits && r.headroomFraction < a.value(Assumption::TrainingSafetyMargin) + 0.05) {
        r.warnings.push_back(makeMessage("memory-tight", "/assumptions/training_safety_margin",
                                         WB_MESSAGE("Messages", "{headroom_percent:.1f}% of GPU memory is left: a longer sequence or "
                                                    "a framework update can run out of memory"),
                                         {{"headroom_percent", 100 * r.headroomFraction}}));
    }
    if (!r.fits)
        r.warnings.push_back(makeMessage("does-not-fit", candidateField("gpus"),
                                         WB_MESSAGE("Messages", "needs {needed_gib:.1f} GiB on the busiest GPU but only "
                                                    "{usable_gib:.1f} GiB of {capacity_gib:.1f} GiB is usable"),
                                         {{"needed_gib", double(r.perGpuBytes) / GiB}, {"usable_gib", double(r.usableBytes) / GiB},
                                          {"capacity_gib", double(r.capacityBytes) / GiB}}));

    if (auto smallest = smallestFit(model, w, shape)) {
        r.smallestLayout = smallest->first;
        r.smallestGpuCount = smallest->second;
    } else {
        r.warnings.push_back(makeMessage("no-layout-fits", candidateField("gpu"),
                                         WB_MESSAGE("Messages", "no layout of up to {max_gpus} of these GPUs holds this workload"),
                                         {{"max_gpus", std::int64_t(4096)}}));
    }
    if (!inference)
        r.savedActivationBytesPerMicroBatch = st.savedPerMicroBatch;
    if (!r.fits && !inference) {
        // Advise before re-laying out: what would make the stated layout fit.
        r.remedies = trainingRemedies(w, a, *gpu, cand.servingStack, shape, st.total());
        std::string fitting, tried;
        for (const FitRemedy &option : r.remedies) {
            std::string &list = option.fits ? fitting : tried;
            list += fmt::format("{}{} ({:.1f} GiB)", list.empty() ? "" : "; ", remedyText(option.option),
                                double(option.perGpuBytes) / GiB);
        }
        if (!fitting.empty()) {
            r.warnings.push_back(makeMessage("fit-remedies", "/workload/training",
                                             WB_MESSAGE("Messages", "at the layout as stated, these would make it fit (the busiest "
                                                        "GPU's need with each): {options}"),
                                             {{"options", fitting}}));
            return r;
        }
        r.warnings.push_back(makeMessage("fit-remedies-insufficient", "/workload/training",
                                         WB_MESSAGE("Messages", "at the layout as stated, no recomputation, sequence "
                                                    "parallelism, offload or sharding makes it fit{tried_text}; the "
                                                    "layout itself must change"),
                                         {{"tried", tried},
                                          {"tried_text", tried.empty() ? std::string() : ". Tried, with the busiest GPU's need: " + tried}}));
    }
    if (!r.fits)
        resizeToFit(r, w, shape, *gpu, inference ? std::nullopt : sameCountFit(model, w, shape));
    return r;
}

HeadroomGrid headroomGrid(const Brief &brief, const Candidate &cand, const Catalog &catalog, std::vector<int> contexts,
                          std::vector<int> concurrencies)
{
    HeadroomGrid grid;
    const Workload &w = brief.workload;
    const GpuSpec *gpu = catalog.gpu(cand.gpu);
    if (!gpu || !gpu->supportsWeights(w.weightsPrecision))
        return grid;
    if (w.kind == WorkloadKind::MediaGeneration)
        return w.media ? detail::mediaHeadroomGrid(brief, cand, *gpu) : grid;
    const bool inference = isInference(w.kind);
    Shape shape;
    shape.tp = cand.tensorParallel;
    shape.pp = cand.pipelineParallel;
    shape.dp = inference ? cand.replicas() : cand.gpus / cand.gpusPerReplica();
    shape.cp = inference ? 1 : cand.contextParallel;
    grid.briefContext = int(inference ? inferenceContext(w, true) : w.training->sequenceLength);
    grid.briefConcurrency = inference ? sizeConcurrency(w, cand.replicas(), brief.assumptions).sequences
                                      : w.training->microBatchSize;
    if (contexts.empty()) {
        std::set<int> axis;
        for (int c : powersOfTwo(512, std::min(131072, std::max(512, w.model.maxContext))))
            axis.insert(c);
        axis.insert(grid.briefContext);
        contexts.assign(axis.begin(), axis.end());
    }
    if (concurrencies.empty()) {
        std::set<int> axis;
        for (int c : powersOfTwo(1, inference ? 512 : 64))
            axis.insert(c);
        axis.insert(grid.briefConcurrency);
        concurrencies.assign(axis.begin(), axis.end());
    }
    grid.contexts = contexts;
    grid.concurrencies = concurrencies;
    MemoryModel model(w, brief.assumptions, *gpu, cand.servingStack);
    for (int context : contexts) {
        for (int n : concurrencies) {
            shape.contextTokens = context;
            shape.sequences = n;
            const Estimate e = model.estimate(shape);
            const double need = e.stages[std::size_t(e.busiest)].total();
            grid.headroom.push_back(1.0 - need / double(gpu->memoryBytes));
            grid.fits.push_back(e.fits);
        }
    }
    return grid;
}

ServingStack recommendedStack(const GpuSpec &gpu)
{
    return gpu.vendor == "nvidia" ? ServingStack::Trtllm : ServingStack::Vllm;
}

bool fragileHeadroom(const FitResult &fit, const Assumptions &assumptions)
{
    return fit.fits && fit.headroomFraction < assumptions.value(Assumption::FragileFitHeadroomFraction) - 5e-4;
}

Candidate defaultCandidate(const Brief &brief, const std::string &gpu, const Catalog &catalog)
{
    Candidate c;
    c.gpu = gpu;
    if (const GpuSpec *spec = catalog.gpu(gpu))
        c.servingStack = isInference(brief.workload.kind) ? recommendedStack(*spec) : ServingStack::Generic;
    FitResult fit = fitCandidate(brief, c, catalog);
    if (!fit.fits && fit.resize) {
        c.tensorParallel = fit.resize->tensorParallel;
        c.pipelineParallel = fit.resize->pipelineParallel;
        c.gpus = fit.resize->gpus();
        fit = fitCandidate(brief, c, catalog);
    }
    // A service's layout with the memory headroom the method's common mistake 2 asks: one that
    // fits with less than fragile_fit_headroom_fraction to spare is widened (tensor parallelism
    // doubled) while that still fits, within the GPU's scale-up fabric (issue 39: 70B FP8 on one
    // H100 with 1% headroom). Not over PCIe, where tensor parallelism is common mistake 3, and not
    // for the room for concurrency: the deployment's replicas, sized for the load, give that.
    const GpuSpec *spec = catalog.gpu(gpu);
    if (!spec || !isInference(brief.workload.kind) || c.pipelineParallel != 1 || spec->scaleUp.kind == "pcie")
        return c;
    while (fragileHeadroom(fit, brief.assumptions) && 2 * c.tensorParallel <= std::max(1, spec->scaleUp.domainGpus)) {
        Candidate wider = c;
        wider.tensorParallel *= 2;
        wider.gpus = wider.tensorParallel;
        const FitResult widerFit = fitCandidate(brief, wider, catalog);
        if (!widerFit.fits)
            break;
        c = wider;
        fit = widerFit;
    }
    return c;
}

} // namespace wb
