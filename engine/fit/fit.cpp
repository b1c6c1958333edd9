#include "fit/fit.h"

#include <fmt/format.h>

#include "catalog/modelarch.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

// What one evaluation varies: the layout and the load per replica (inference) or per GPU
// (training).
struct Shape
{
    int tp = 1;
    int pp = 1;
    int dp = 1;                 // replicas (inference) or data-parallel ranks (training)
    double contextTokens = 0;   // inference: tokens per sequence; training: sequence length
    int sequences = 1;          // inference: concurrent sequences per replica; training: micro-batch
};

// Memory of one pipeline stage on one GPU, in bytes (double until the end).
struct StageNeed
{
    double weights = 0, kv = 0, activations = 0, gradients = 0, optimizer = 0, runtime = 0;
    double kvPerSequence = 0;   // inference: one sequence at the shape's context
    double kvPerToken = 0;      // inference: one token in every layer of the stage
    double usable = 0;
    double nonKv() const { return weights + activations + gradients + optimizer + runtime; }
    double total() const { return nonKv() + kv; }
};

struct Estimate
{
    std::vector<StageNeed> stages;
    int busiest = 0;
    bool fits = false;
    double kvCapacityTokens = 0;     // per replica, inference
    double maxSequences = 0;         // per replica, inference
};

class MemoryModel
{
public:
    MemoryModel(const Workload &w, const Assumptions &a, const GpuSpec &gpu, ServingStack stack)
        : m_w(w), m_a(a), m_gpu(gpu), m_stack(stack), m_params(countParameters(w.model))
    {
    }

    Estimate estimate(const Shape &shape) const
    {
        Estimate e;
        const int layers = m_w.model.layers;
        const int pp = std::max(1, std::min(shape.pp, layers));
        int start = 0;
        for (int s = 0; s < pp; ++s) {
            const int count = layers / pp + (s < layers % pp ? 1 : 0);
            e.stages.push_back(isInference(m_w.kind) ? inferenceStage(shape, s, pp, start, count)
                                                     : trainingStage(shape, s, pp, start, count));
            start += count;
        }
        e.fits = true;
        double worst = -1;
        for (std::size_t s = 0; s < e.stages.size(); ++s) {
            const StageNeed &st = e.stages[s];
            if (st.total() > worst) {
                worst = st.total();
                e.busiest = int(s);
            }
            if (st.total() > st.usable)
                e.fits = false;
        }
        if (isInference(m_w.kind)) {
            e.kvCapacityTokens = INFINITY;
            e.maxSequences = INFINITY;
            for (const StageNeed &st : e.stages) {
                const double pool = std::max(0.0, st.usable - st.nonKv());
                if (st.kvPerToken > 0)
                    e.kvCapacityTokens = std::min(e.kvCapacityTokens, std::floor(pool / st.kvPerToken));
                if (st.kvPerSequence > 0)
                    e.maxSequences = std::min(e.maxSequences, std::floor(pool / st.kvPerSequence));
            }
        }
        return e;
    }

    const ParameterCounts &params() const { return m_params; }

private:
    double bitsPerWeight(Precision p) const { return weightBitsPerParameter(p, m_a.flag(Assumption::Nf4DoubleQuant)); }

    // Token embedding, position embedding and output head bytes held by stage s of pp.
    double embeddingBytes(int s, int pp, int tp, Precision p) const
    {
        const double bits = bitsPerWeight(p);
        const double bytes = m_a.flag(Assumption::QuantizeEmbeddings) ? bits / 8 : std::max(bits, 16.0) / 8;
        double params = 0;
        if (s == 0)
            params += m_params.tokenEmbedding / tp + m_params.positionEmbedding;
        if (s == pp - 1) {
            // A tied head lives in the embedding on a single stage; across stages the last one
            // needs its own copy.
            const double head = m_w.model.tiedEmbeddings ? (pp > 1 ? m_params.tokenEmbedding : 0) : m_params.lmHead;
            params += head / tp + m_params.finalNorm;
        }
        return params * bytes;
    }

    double layerWeightBytes(int first, int count, int tp, Precision p) const
    {
        const double bits = bitsPerWeight(p);
        double bytes = 0;
        for (int i = first; i < first + count; ++i) {
            const LayerParameters &l = m_params.layer(i);
            bytes += l.linear() / tp * bits / 8 + l.norms * 2;
        }
        return bytes;
    }

    bool stageHasMoe(int first, int count) const
    {
        return m_w.model.isMoe() && first + count > m_params.denseLayers;
    }
    bool stageHasDense(int first) const { return first < m_params.denseLayers; }

    double largestMatrix(int first, int count) const
    {
        double largest = 0;
        if (stageHasDense(first))
            largest = std::max(largest, m_params.denseLayer.largestMatrix);
        if (stageHasMoe(first, count))
            largest = std::max(largest, m_params.moeLayer.largestMatrix);
        return largest;
    }

    // Bytes one token of activations takes inside the widest layer of the stage (the
    // transient peak of a forward pass), per GPU of a TP group.
    // Training counts the tensors autograd saves (gate, up, act(gate), product for a gated MLP);
    // inference only the ones alive at once in the forward pass (gate/up output and product).
    double forwardBytesPerToken(int first, int count, int tp, bool sequenceParallel, bool training) const
    {
        const ModelSpec &m = m_w.model;
        const double act = m_a.value(Assumption::ActivationBytes);
        const double h = m.hiddenSize;
        const double attention = (2.0 * queryWidth(m) + 2.0 * kvWidth(m)) / tp;  // q,k,v and attention output
        const double tensors = m.gatedMlp ? (training ? 4.0 : 3.0) : 2.0;
        double ffn = 0;
        if (stageHasDense(first))
            ffn = std::max(ffn, activeFfnWidth(m, false));
        if (stageHasMoe(first, count))
            ffn = std::max(ffn, activeFfnWidth(m, true) + m.experts * 4.0 / act / tensors);  // + fp32 router logits
        const double norms = 4.0 * h / (sequenceParallel ? tp : 1);  // inputs and outputs of both norms
        return act * (norms + attention + tensors * ffn / tp);
    }

    double runtimeBytes(int gpusInGroup) const
    {
        double bytes = m_a.value(Assumption::RuntimeOverheadBytes);
        if (gpusInGroup > 1)
            bytes += m_a.value(Assumption::CommBufferBytes);
        return bytes;
    }

    StageNeed inferenceStage(const Shape &shape, int s, int pp, int first, int count) const
    {
        const ModelSpec &m = m_w.model;
        StageNeed st;
        const int tp = shape.tp;
        st.weights = layerWeightBytes(first, count, tp, m_w.weightsPrecision) + embeddingBytes(s, pp, tp, m_w.weightsPrecision);

        // KV cache: GQA heads are split over TP (a head is replicated when TP exceeds the KV
        // heads); MLA keeps one compressed latent per token that TP does not split.
        const double perLayerToken = kvBytesPerTokenPerLayer(m, m_w.kvCachePrecision, tp);
        st.kvPerToken = perLayerToken * count;
        const double block = m_a.value(Assumption::KvBlockTokens);
        const double context = std::ceil(shape.contextTokens / block) * block;
        const double perLayerContext = m.slidingWindow ? std::min(context, double(*m.slidingWindow)) : context;
        st.kvPerSequence = perLayerToken * count * perLayerContext;
        st.kv = st.kvPerSequence * shape.sequences;

        // Activations of one step of max_num_batched_tokens, the sampler's logits on the last
        // stage, and bitsandbytes' dequantization buffer.
        const double stepTokens = m_a.value(Assumption::MaxNumBatchedTokens);
        st.activations = stepTokens * forwardBytesPerToken(first, count, tp, false, false);
        if (s == pp - 1 && m_w.kind != WorkloadKind::Embedding) {
            const double seqs = std::min(m_a.value(Assumption::MaxNumSeqs), stepTokens);
            st.activations += seqs * double(m.vocabSize) * m_a.value(Assumption::SamplerBytesPerLogit);
        }
        if (m_w.weightsPrecision == Precision::Nf4)
            st.activations += largestMatrix(first, count) / tp * m_a.value(Assumption::DequantComputeBytes);

        st.runtime = runtimeBytes(tp * pp) + m_a.value(Assumption::CudaGraphBytes);

        const double capacity = double(m_gpu.memoryBytes);
        switch (m_stack) {
        case ServingStack::Sglang: st.usable = capacity * m_a.value(Assumption::SglangMemFractionStatic); break;
        case ServingStack::Trtllm:
            st.usable = st.nonKv() + std::max(0.0, capacity - st.nonKv()) * m_a.value(Assumption::TrtllmKvCacheFreeFraction);
            break;
        default: st.usable = capacity * m_a.value(Assumption::GpuMemoryUtilization); break;
        }
        return st;
    }

    double loraParameters(int first, int count) const
    {
        const TrainingSpec &t = *m_w.training;
        double dims = 0;
        for (int i = first; i < first + count; ++i) {
            const LayerParameters &l = m_params.layer(i);
            dims += l.loraAttentionDims + (t.loraTargets == LoraTargets::AllLinear ? l.loraMlpDims : 0);
        }
        return dims * t.loraRank;
    }

    StageNeed trainingStage(const Shape &shape, int s, int pp, int first, int count) const
    {
        const ModelSpec &m = m_w.model;
        const TrainingSpec &t = *m_w.training;
        const int tp = shape.tp;
        const int dp = shape.dp;
        StageNeed st;

        const bool adapters = isAdapter(m_w.kind);
        const bool shardGrads = t.sharding == Sharding::Zero2 || t.sharding == Sharding::Zero3 || t.sharding == Sharding::Fsdp;
        const bool shardParams = t.sharding == Sharding::Zero3 || t.sharding == Sharding::Fsdp;
        const bool shardOptimizer = t.sharding != Sharding::None;
        const bool optimizerOnGpu = t.optimizerPlacement == OptimizerPlacement::Gpu;

        // Optimizer bytes per trainable parameter: the states plus an fp32 master copy when
        // training in mixed precision.
        const bool fp32Training = m_w.weightsPrecision == Precision::Fp32;
        const double weightBytes = fp32Training ? 4.0 : 2.0;
        double states = 0;
        switch (t.optimizer) {
        case Optimizer::AdamW: states = 8; break;       // fp32 m and v
        case Optimizer::AdamW8bit: states = 2; break;   // 8-bit m and v
        case Optimizer::Sgd: states = 4; break;         // fp32 momentum
        }
        const double optimizerPerParam = states + (t.masterWeights && !fp32Training ? 4.0 : 0.0);

        double trainable = 0;
        if (adapters) {
            // Frozen base at its storage precision, plus adapters trained in full.
            const Precision base = m_w.weightsPrecision;
            st.weights = layerWeightBytes(first, count, tp, base) + embeddingBytes(s, pp, tp, base);
            trainable = loraParameters(first, count) / tp;
            st.weights += trainable * weightBytes;
            if (base == Precision::Nf4 || base == Precision::Int4 || base == Precision::Fp4)
                st.activations += largestMatrix(first, count) / tp * m_a.value(Assumption::DequantComputeBytes);
        } else {
            double params = 0;
            for (int i = first; i < first + count; ++i)
                params += m_params.layer(i).total();
            if (s == 0)
                params += m_params.tokenEmbedding + m_params.positionEmbedding;
            if (s == pp - 1)
                params += (m.tiedEmbeddings ? (pp > 1 ? m_params.tokenEmbedding : 0) : m_params.lmHead) + m_params.finalNorm;
            trainable = params / tp;
            st.weights = trainable * weightBytes / (shardParams ? dp : 1);
            if (shardParams) {
                // Gathered layers in flight while prefetching.
                double largestLayer = 0;
                for (int i = first; i < first + count; ++i)
                    largestLayer = std::max(largestLayer, m_params.layer(i).total());
                st.weights += m_a.value(Assumption::Zero3PrefetchLayers) * largestLayer / tp * weightBytes;
            }
        }

        if (t.optimizerInBackward && !adapters) {
            // Each gradient is consumed as soon as it is produced: only the largest tensor's
            // gradient is ever alive.
            const double largest = std::max({m_params.tokenEmbedding / tp, largestMatrix(first, count) / tp});
            st.gradients = largest * weightBytes;
        } else {
            st.gradients = trainable * weightBytes / (shardGrads && !adapters ? dp : 1);
        }
        if (optimizerOnGpu)
            st.optimizer = trainable * optimizerPerParam / (shardOptimizer && !adapters ? dp : 1);

        // Activations (Korthikanti et al., arXiv 2205.05198, re-derived for GQA and gated MLPs in
        // forwardBytesPerToken). Saved per layer: everything (none/selective), or the layer input
        // (full recompute); offloading moves the saved tensors to the host. One layer's worth is
        // live again while it is recomputed or back-propagated.
        const double tokens = double(shape.contextTokens) * shape.sequences;
        const double act = m_a.value(Assumption::ActivationBytes);
        const double layerFull = tokens * forwardBytesPerToken(first, count, tp, t.sequenceParallel, true);
        double scores = 0;
        if (!m_a.flag(Assumption::FlashAttention) && t.recompute == Recompute::None)
            scores = 5.0 * m.attentionHeads * shape.contextTokens * tokens / tp;
        double savedPerLayer = 0;
        switch (t.recompute) {
        case Recompute::None:
        case Recompute::Selective: savedPerLayer = layerFull + scores; break;
        case Recompute::Full: savedPerLayer = tokens * act * m.hiddenSize / (t.sequenceParallel ? tp : 1); break;
        }
        if (t.activationOffload)
            savedPerLayer = 0;
        // 1F1B: stage s holds the activations of up to pp - s micro-batches.
        int inFlight = pp - s;
        if (t.globalBatchTokens) {
            const double microBatches = std::max(1.0, std::round(*t.globalBatchTokens / (tokens * dp)));
            inFlight = int(std::min<double>(inFlight, microBatches));
        }
        st.activations += inFlight * count * savedPerLayer + layerFull + scores;
        if (s == pp - 1) {
            const double logits = tokens * double(m.vocabSize) / tp;
            const double perElement = m_a.value(Assumption::LogitsBytesPerElement);
            st.activations += logits * (act + std::max(0.0, perElement - act) / m_a.value(Assumption::LossChunks));
        }

        st.runtime = runtimeBytes(tp * pp * dp);
        st.usable = double(m_gpu.memoryBytes) * (1.0 - m_a.value(Assumption::TrainingSafetyMargin));
        return st;
    }

    const Workload &m_w;
    const Assumptions &m_a;
    const GpuSpec &m_gpu;
    ServingStack m_stack;
    ParameterCounts m_params;
};

int ceilDiv(long long a, long long b)
{
    return int((a + b - 1) / b);
}

// Concurrent sequences per replica that the KV cache must hold for this brief, and why.
struct Sizing
{
    int sequences = 1;
    std::optional<Warning> note;
};

Sizing sizeConcurrency(const Workload &w, int replicas, const Assumptions &a)
{
    Sizing z;
    const Traffic &t = w.traffic;
    if (t.concurrency) {
        z.sequences = ceilDiv(*t.concurrency, replicas);
    } else if (t.mode == TrafficMode::OpenLoop && t.requestRatePerS) {
        // Little's law with the longest time a request may take and still meet the SLO.
        std::optional<double> duration = w.slo.e2eP99S ? w.slo.e2eP99S : w.slo.e2eP95S;
        const auto ttft = w.slo.ttftP99S ? w.slo.ttftP99S : w.slo.ttftP95S;
        const auto tpot = w.slo.tpotP99S ? w.slo.tpotP99S : w.slo.tpotP95S;
        std::string basis = "the longest a request may take within the SLO";
        if (!duration && ttft && tpot)
            duration = *ttft + *tpot * std::max(0.0, w.outputTokens - 1);
        else if (!duration && ttft) {
            // Only the first token is bounded: the rest of the answer at an assumed pace.
            duration = *ttft + a.value(Assumption::SizingTpotS) * std::max(0.0, w.outputTokens - 1);
            basis = fmt::format("the TTFT target plus {:.0f} output tokens at sizing_tpot_s ({:.3g} s each), as the "
                                "SLO bounds only the first token",
                                std::max(0.0, w.outputTokens - 1), a.value(Assumption::SizingTpotS));
        } else if (!duration && tpot) {
            duration = *tpot * std::max(1.0, w.outputTokens);
            basis = "the output tokens at the TPOT target (the SLO does not bound the first token)";
        }
        if (duration) {
            z.sequences = std::max(1, int(std::ceil(*t.requestRatePerS / replicas * *duration)));
            z.note = Warning{"concurrency-from-slo",
                             fmt::format("KV cache sized for {:.0f} requests in flight per replica: {:.3g} requests/s per replica "
                                 "x {:.3g} s, {} (Little's law); the performance model refines this",
                                 double(z.sequences), *t.requestRatePerS / replicas, *duration, basis)};
        } else {
            z.note = Warning{"concurrency-assumed",
                             "the brief gives a request rate but no SLO or concurrency, so the in-flight requests "
                             "are unknown; the KV cache is sized for one sequence per replica. Add "
                             "traffic.concurrency or an SLO"};
        }
    } else {
        // Offline and batch: the engine fills whatever KV it has; one sequence must fit.
        z.sequences = 1;
    }
    const int cap = int(a.value(Assumption::MaxNumSeqs));
    if (z.sequences > cap) {
        z.note = Warning{"concurrency-above-batch-limit",
                         fmt::format("{:.0f} concurrent requests per replica exceed max_num_seqs ({:.0f}); the excess queues "
                             "and the KV cache is sized for {:.0f}",
                             double(z.sequences), double(cap), double(cap))};
        z.sequences = cap;
    }
    return z;
}

double inferenceContext(const Workload &w)
{
    return w.kind == WorkloadKind::Embedding ? w.inputTokens : w.inputTokens + w.outputTokens;
}

std::vector<int> powersOfTwo(int from, int to)
{
    std::vector<int> v;
    for (long long x = from; x <= to; x *= 2)
        v.push_back(int(x));
    return v;
}

// Layouts to try for the smallest fitting count, smallest total first.
std::optional<std::pair<Layout, int>> smallestFit(const MemoryModel &model, const Workload &w, const Assumptions &a,
                                                  const Shape &briefShape)
{
    const ModelSpec &m = w.model;
    std::vector<Layout> layouts;
    const int maxTp = std::max(1, std::min(64, m.attentionHeads));
    for (int tp : powersOfTwo(1, maxTp)) {
        if (m.attentionHeads % tp != 0)
            continue;
        for (int pp : powersOfTwo(1, std::min(64, m.layers))) {
            if (isInference(w.kind)) {
                layouts.push_back({tp, pp, 1});
                continue;
            }
            const bool sharded = w.training && w.training->sharding != Sharding::None;
            for (int dp : powersOfTwo(1, sharded ? 4096 : 1))
                if (tp * pp * dp <= 4096)
                    layouts.push_back({tp, pp, dp});
        }
    }
    std::stable_sort(layouts.begin(), layouts.end(), [](const Layout &x, const Layout &y) {
        return x.gpus() != y.gpus() ? x.gpus() < y.gpus() : x.pipelineParallel < y.pipelineParallel;
    });
    for (const Layout &l : layouts) {
        Shape s = briefShape;
        s.tp = l.tensorParallel;
        s.pp = l.pipelineParallel;
        s.dp = l.dataParallel;
        if (isInference(w.kind)) {
            // One replica carrying all of the brief's traffic.
            s.sequences = sizeConcurrency(w, 1, a).sequences;
        }
        if (model.estimate(s).fits)
            return std::make_pair(l, l.gpus());
    }
    return std::nullopt;
}

// The smallest deployment that holds the brief when the candidate as entered does not (see
// FitResult::resize): first more replicas of the entered layout, each with its share of the
// in-flight requests (up to 64 times the entered count), then the smallest layout.
void resizeToFit(FitResult &r, const MemoryModel &model, const Workload &w, const Assumptions &a, const Shape &entered,
                 const GpuSpec &gpu)
{
    if (isInference(w.kind)) {
        const int perReplica = entered.tp * entered.pp;
        for (int replicas = entered.dp + 1; replicas <= entered.dp * 64 && replicas * perReplica <= 4096; ++replicas) {
            Shape s = entered;
            s.dp = replicas;
            s.sequences = sizeConcurrency(w, replicas, a).sequences;
            if (!model.estimate(s).fits)
                continue;
            r.resize = Layout{entered.tp, entered.pp, replicas};
            const int gpus = entered.dp * perReplica;
            r.resizeReason = fmt::format(
                "{} {} {} the model but not the KV cache of the {:.0f} requests the brief keeps in flight; {} replicas "
                "({} GPUs) share them",
                gpus, gpu.name, gpus == 1 ? "holds" : "hold", double(entered.sequences) * entered.dp, replicas,
                replicas * perReplica);
            return;
        }
    }
    if (r.smallestLayout) {
        r.resize = *r.smallestLayout;
        const int gpus = entered.tp * entered.pp * entered.dp;
        r.resizeReason = fmt::format("{} {} {} not hold the {}; the smallest layout that does is {} GPUs (TP {}, PP {})",
                                     gpus, gpu.name, gpus == 1 ? "does" : "do",
                                     isInference(w.kind) ? "model and the brief's load" : "training state",
                                     r.smallestLayout->gpus(), r.smallestLayout->tensorParallel,
                                     r.smallestLayout->pipelineParallel);
    }
}

} // namespace

FitResult fitCandidate(const Brief &brief, const Candidate &cand, const Catalog &catalog)
{
    FitResult r;
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    const GpuSpec *gpu = catalog.gpu(cand.gpu);
    if (!gpu) {
        r.warnings.push_back({"unknown-gpu", "GPU \"" + cand.gpu + "\" is not in the catalog"});
        return r;
    }
    r.capacityBytes = gpu->memoryBytes;
    for (const std::string &c : gpu->caveats)
        r.warnings.push_back({"catalog-caveat", gpu->name + ": " + c});

    if (w.kind == WorkloadKind::MediaGeneration) {
        r.warnings.push_back({"media-generation-not-modelled",
                              "memory fit for media generation (diffusion and video pipelines) is not modelled yet; "
                              "the figures are left empty rather than guessed"});
        return r;
    }
    if (!gpu->supportsWeights(w.weightsPrecision)) {
        r.warnings.push_back({"precision-unsupported",
                              gpu->name + " has no " + std::string(enumName(w.weightsPrecision))
                                  + " tensor path, so it cannot run this brief's weights natively; choose bf16 or a "
                                    "weight-only format (int4, nf4), or a GPU that supports it"});
        return r;
    }
    if (w.kind == WorkloadKind::Qlora && w.weightsPrecision != Precision::Nf4 && w.weightsPrecision != Precision::Int4
        && w.weightsPrecision != Precision::Fp4)
        r.warnings.push_back({"qlora-precision",
                              "QLoRA freezes a 4-bit base, but weights_precision is "
                                  + std::string(enumName(w.weightsPrecision)) + "; memory follows weights_precision"});

    const ModelSpec &m = w.model;
    if (m.attentionHeads % cand.tensorParallel != 0)
        r.warnings.push_back({"tp-does-not-divide-heads",
                              fmt::format("tensor_parallel {:.0f} does not divide the model's {:.0f} attention heads; serving "
                                  "engines refuse this layout",
                                  double(cand.tensorParallel), double(m.attentionHeads))});
    if (cand.tensorParallel > gpu->scaleUp.domainGpus)
        r.warnings.push_back({"tp-crosses-scale-up-domain",
                              fmt::format("tensor_parallel {:.0f} exceeds the {:.0f} GPUs of one scale-up domain: its all-reduces "
                                  "cross the slower scale-out network",
                                  double(cand.tensorParallel), double(gpu->scaleUp.domainGpus))});
    if (cand.pipelineParallel > m.layers)
        r.warnings.push_back({"pp-exceeds-layers", "pipeline_parallel exceeds the number of layers; extra stages are empty"});

    MemoryModel model(w, a, *gpu, cand.servingStack);
    Shape shape;
    shape.tp = cand.tensorParallel;
    shape.pp = cand.pipelineParallel;
    const bool inference = isInference(w.kind);
    if (inference) {
        shape.dp = cand.replicas();
        shape.contextTokens = inferenceContext(w);
        Sizing sizing = sizeConcurrency(w, cand.replicas(), a);
        shape.sequences = sizing.sequences;
        if (sizing.note)
            r.warnings.push_back(*sizing.note);
        if (shape.contextTokens > m.maxContext)
            r.warnings.push_back({"context-exceeds-model-limit",
                                  fmt::format("{:.0f} tokens per request exceed the model's {:.0f}-token context window",
                                      double(shape.contextTokens), double(m.maxContext))});
        if (w.inputTokensP95 || w.outputTokensP95) {
            const double p95 = w.inputTokensP95.value_or(w.inputTokens) + w.outputTokensP95.value_or(w.outputTokens);
            if (p95 > m.maxContext)
                r.warnings.push_back({"p95-context-exceeds-model-limit",
                                      fmt::format("p95 requests ({:.0f} tokens) exceed the model's {:.0f}-token context window",
                                          double(p95), double(m.maxContext))});
        }
    } else {
        shape.dp = cand.gpus / cand.gpusPerReplica();
        shape.contextTokens = w.training->sequenceLength;
        shape.sequences = w.training->microBatchSize;
        if (shape.contextTokens > m.maxContext)
            r.warnings.push_back({"context-exceeds-model-limit",
                                  fmt::format("sequence_length {:.0f} exceeds the model's {:.0f}-token context window",
                                      double(shape.contextTokens), double(m.maxContext))});
    }

    const Estimate e = model.estimate(shape);
    const StageNeed &st = e.stages[std::size_t(e.busiest)];
    auto bytes = [](double v) { return std::uint64_t(std::llround(std::max(0.0, v))); };
    r.computed = true;
    r.busiestStage = e.busiest;
    r.breakdown.weights = bytes(st.weights);
    r.breakdown.kvCache = bytes(st.kv);
    r.breakdown.activations = bytes(st.activations);
    r.breakdown.gradients = bytes(st.gradients);
    r.breakdown.optimizerStates = bytes(st.optimizer);
    r.breakdown.runtimeOverhead = bytes(st.runtime);
    r.perGpuBytes = r.breakdown.total();
    r.usableBytes = bytes(st.usable);
    r.fits = e.fits;
    r.headroomFraction = 1.0 - double(r.perGpuBytes) / double(r.capacityBytes);
    r.sizedContextTokens = shape.contextTokens;
    r.sizedConcurrencyPerReplica = shape.sequences;

    if (inference) {
        r.kvCacheCapacityTokensPerReplica = std::isfinite(e.kvCapacityTokens) ? e.kvCapacityTokens : 0;
        const long long perReplica = std::isfinite(e.maxSequences) ? static_cast<long long>(e.maxSequences) : 0;
        r.maxConcurrencyPerReplica = perReplica;
        r.maxConcurrency = perReplica * cand.replicas();
        if (r.fits && perReplica < 2LL * shape.sequences)
            r.warnings.push_back({"kv-cache-tight",
                                  fmt::format("the KV cache holds {:.0f} sequences of {:.0f} tokens per replica, less than twice "
                                      "the {:.0f} the brief needs: longer prompts or a burst will preempt requests",
                                      double(perReplica), double(shape.contextTokens), double(shape.sequences))});
        const double seqCap = a.value(Assumption::MaxNumSeqs);
        if (r.fits && w.traffic.mode == TrafficMode::Offline && perReplica < seqCap)
            r.warnings.push_back({"kv-cache-limits-batch",
                                  fmt::format("only {:.0f} sequences fit in the KV cache per replica (the engine would batch up "
                                      "to {:.0f}): offline throughput is limited by memory",
                                      double(perReplica), seqCap)});
    } else if (r.fits && r.headroomFraction < a.value(Assumption::TrainingSafetyMargin) + 0.05) {
        r.warnings.push_back({"memory-tight", fmt::format("{:.1f}% of GPU memory is left: a longer sequence or a framework "
                                                  "update can run out of memory",
                                                  100 * r.headroomFraction)});
    }
    if (!r.fits)
        r.warnings.push_back({"does-not-fit",
                              fmt::format("needs {:.1f} GiB on the busiest GPU but only {:.1f} GiB of {:.1f} GiB is usable",
                                  double(r.perGpuBytes) / GiB, double(r.usableBytes) / GiB,
                                  double(r.capacityBytes) / GiB)});

    if (auto smallest = smallestFit(model, w, a, shape)) {
        r.smallestLayout = smallest->first;
        r.smallestGpuCount = smallest->second;
    } else {
        r.warnings.push_back({"no-layout-fits", "no layout of up to 4096 of these GPUs holds this workload"});
    }
    if (!r.fits)
        resizeToFit(r, model, w, a, shape, *gpu);
    return r;
}

HeadroomGrid headroomGrid(const Brief &brief, const Candidate &cand, const Catalog &catalog, std::vector<int> contexts,
                          std::vector<int> concurrencies)
{
    HeadroomGrid grid;
    const Workload &w = brief.workload;
    const GpuSpec *gpu = catalog.gpu(cand.gpu);
    if (!gpu || w.kind == WorkloadKind::MediaGeneration || !gpu->supportsWeights(w.weightsPrecision))
        return grid;
    const bool inference = isInference(w.kind);
    Shape shape;
    shape.tp = cand.tensorParallel;
    shape.pp = cand.pipelineParallel;
    shape.dp = inference ? cand.replicas() : cand.gpus / cand.gpusPerReplica();
    grid.briefContext = int(inference ? inferenceContext(w) : w.training->sequenceLength);
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

Candidate defaultCandidate(const Brief &brief, const std::string &gpu, const Catalog &catalog)
{
    Candidate c;
    c.gpu = gpu;
    if (const GpuSpec *spec = catalog.gpu(gpu))
        c.servingStack = isInference(brief.workload.kind) ? recommendedStack(*spec) : ServingStack::Generic;
    const FitResult fit = fitCandidate(brief, c, catalog);
    if (!fit.fits && fit.resize) {
        c.tensorParallel = fit.resize->tensorParallel;
        c.pipelineParallel = fit.resize->pipelineParallel;
        c.gpus = fit.resize->gpus();
    }
    return c;
}

} // namespace wb
