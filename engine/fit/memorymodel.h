// The fit's internals, shared by fit.cpp (fitCandidate, headroomGrid) and sizing.cpp (how many
// sequences a replica must hold, and the smallest deployment that holds the brief). Not part of
// the engine's interface: only files of this folder include it.
#pragma once

#include "fit/fit.h"

#include "catalog/modelarch.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace wb::fitdetail {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

// What one evaluation varies: the layout and the load per replica (inference) or per GPU
// (training).
struct Shape
{
    int tp = 1;
    int pp = 1;
    int dp = 1;                 // replicas (inference) or data-parallel ranks (training)
    int cp = 1;                 // training: context-parallel GPUs sharing each sequence
    double contextTokens = 0;   // inference: tokens per sequence; training: sequence length
    int sequences = 1;          // inference: concurrent sequences per replica; training: micro-batch
};

// Memory of one pipeline stage on one GPU, in bytes (double until the end).
struct StageNeed
{
    double weights = 0, kv = 0, activations = 0, gradients = 0, optimizer = 0, runtime = 0;
    double kvPerSequence = 0;   // inference: one sequence at the shape's context
    double kvPerToken = 0;      // inference: one token in every layer of the stage
    double savedPerMicroBatch = 0;  // training: what one micro-batch saves for its backward (before any offload)
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

    // The widest MLP of the stage: bytes per token of `tensors` tensors of its width, per GPU of
    // a TP group, plus the fp32 router logits of a mixture-of-experts layer.
    double mlpBytesPerToken(int first, int count, int tp, double tensors, double bytes) const
    {
        const ModelSpec &m = m_w.model;
        double b = 0;
        if (stageHasDense(first))
            b = std::max(b, tensors * activeFfnWidth(m, false) / tp * bytes);
        if (stageHasMoe(first, count))
            b = std::max(b, tensors * activeFfnWidth(m, true) / tp * bytes + m.experts * 4.0);
        return b;
    }

    // Bytes one token of activations takes inside the widest layer of the stage in a forward pass
    // (the transient peak: norms' inputs and outputs, q, k, v and the attention output, a gated
    // MLP's gate/up output and product), per GPU of a TP group.
    double forwardBytesPerToken(int first, int count, int tp) const
    {
        const ModelSpec &m = m_w.model;
        const double act = m_a.value(Assumption::ActivationBytes);
        const double attention = (2.0 * queryWidth(m) + 2.0 * kvWidth(m)) / tp;
        return act * (4.0 * m.hiddenSize + attention) + mlpBytesPerToken(first, count, tp, m.gatedMlp ? 3.0 : 2.0, act);
    }

public:
    // FP8 training keeps its saved linear inputs and MLP activations in FP8 (Transformer Engine;
    // the named default fp8_activation_storage).
    bool fp8ActivationStorage() const
    {
        return isTrainingKind() && m_w.weightsPrecision == Precision::Fp8 && m_a.flag(Assumption::Fp8ActivationStorage);
    }

    // Bytes one token of one layer saves for the backward pass, per GPU of a TP group: a tensor
    // is saved where a gradient the step computes needs it (PyTorch's autograd saves an input
    // of an op only for the gradients it must produce; Korthikanti et al., arXiv 2205.05198,
    // count them for full training). Per layer:
    //  - both norms' inputs (their input gradient needs x) and attention's q, k, v and output
    //    (FlashAttention's backward), at activation_bytes: always, since every layer's input
    //    gradient is needed while anything below it trains;
    //  - the inputs of the linear layers whose weights (or adapters) train, for their weight
    //    gradients: the attention norm's output for q, k, v; the attention output for o (already
    //    saved by attention); the MLP norm's output for gate/up; the MLP's product for down. A
    //    frozen linear layer's weight gradient is not computed, so its input is not saved;
    //  - a gated MLP's gate and up (the activation's backward), with act(gate) as eager PyTorch
    //    saves it (Transformer Engine's fused SwiGLU recomputes it).
    // Under FP8 storage the linear inputs and the MLP's tensors are one byte each.
    double savedBytesPerToken(int first, int count, int tp, bool sequenceParallel) const
    {
        const ModelSpec &m = m_w.model;
        const bool adapters = isAdapter(m_w.kind);
        const bool mlpTrains = !adapters || m_w.training->loraTargets == LoraTargets::AllLinear;
        const double act = m_a.value(Assumption::ActivationBytes);
        const bool fp8 = fp8ActivationStorage();
        const double stored = fp8 ? 1.0 : act;
        const double h = m.hiddenSize, normShard = sequenceParallel ? tp : 1;
        const double kept = act * (2.0 * h / normShard + (2.0 * queryWidth(m) + 2.0 * kvWidth(m)) / tp);
        const double linearInputs = stored * (mlpTrains ? 2.0 : 1.0) * h / normShard;
        const double mlpTensors = (m.gatedMlp ? (fp8 ? 2.0 : 3.0) : 1.0) + (mlpTrains ? 1.0 : 0.0);
        return kept + linearInputs + mlpBytesPerToken(first, count, tp, mlpTensors, stored);
    }

private:
    bool isTrainingKind() const { return !isInference(m_w.kind) && m_w.training.has_value(); }

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
        st.activations = stepTokens * forwardBytesPerToken(first, count, tp);
        if (s == pp - 1 && m_w.kind != WorkloadKind::Embedding) {
            const double seqs = std::min(m_a.value(Assumption::MaxNumSeqs), stepTokens);
            st.activations += seqs * double(m.vocabSize) * m_a.value(Assumption::SamplerBytesPerLogit);
        }
        if (m_w.weightsPrecision == Precision::Nf4)
            st.activations += largestMatrix(first, count) / tp * m_a.value(Assumption::DequantComputeBytes);

        st.runtime = runtimeBytes(tp * pp) + m_a.value(Assumption::CudaGraphBytes);

        const double capacity = double(m_gpu.memoryBytes);
        switch (m_stack) {
        case ServingStack::Sglang: {
            // mem_fraction_static is the share of the GPU for "static memory like model weights and
            // KV cache" (SGLang's server arguments): the pool is total x fraction - weights
            // (ModelRunner's profile of the KV pool). Activations, CUDA graphs and the runtime live
            // in the rest, as far as it goes.
            const double fraction = m_a.value(Assumption::SglangMemFractionStatic);
            st.usable = capacity * fraction + std::min(st.activations + st.runtime, capacity * (1 - fraction));
            break;
        }
        case ServingStack::Trtllm:
            // Never more than the GPU has (weights larger than it once read as "72 GiB of 48 GiB usable").
            st.usable = std::min(capacity, st.nonKv() + std::max(0.0, capacity - st.nonKv()) * m_a.value(Assumption::TrtllmKvCacheFreeFraction));
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
        // Sharded states are split over every rank that holds the same parameters: the data-parallel
        // ranks and, within each, the context-parallel ones (Megatron-Core's distributed optimizer
        // shards over its data-parallel group with context parallelism; torchtitan's FSDP over
        // dp_shard x cp).
        const int dp = shape.dp * shape.cp;
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
            // Frozen base at its storage precision, plus adapters trained in full. FSDP and
            // ZeRO-3 shard the frozen base over the data-parallel ranks like any other parameter
            // (torchtune, HF Accelerate, DeepSpeed; FSDP+QLoRA shards the 4-bit storage), with
            // the gathered layers in flight while prefetching, as for a full fine-tune.
            const Precision base = m_w.weightsPrecision;
            trainable = loraParameters(first, count) / tp;
            const double frozen = layerWeightBytes(first, count, tp, base) + embeddingBytes(s, pp, tp, base);
            st.weights = (frozen + trainable * weightBytes) / (shardParams ? dp : 1);
            if (shardParams) {
                double largestLayer = 0;
                for (int i = first; i < first + count; ++i)
                    largestLayer = std::max(largestLayer, layerWeightBytes(i, 1, tp, base));
                st.weights += m_a.value(Assumption::Zero3PrefetchLayers) * largestLayer;
            }
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
            st.gradients = trainable * weightBytes / (shardGrads ? dp : 1);
        }
        if (optimizerOnGpu)
            st.optimizer = trainable * optimizerPerParam / (shardOptimizer ? dp : 1);

        // Activations (Korthikanti et al., arXiv 2205.05198, re-derived for GQA and gated MLPs in
        // forwardBytesPerToken). Saved per layer: everything (none/selective), or the layer input
        // (full recompute); offloading moves the saved tensors to the host. One layer's worth is
        // live again while it is recomputed or back-propagated.
        // Context parallelism splits each sequence's tokens over cp GPUs.
        const double tokens = double(shape.contextTokens) * shape.sequences / shape.cp;
        const double act = m_a.value(Assumption::ActivationBytes);
        const bool sequenceParallel = t.sequenceParallelAt(tp);
        const double layerFull = tokens * savedBytesPerToken(first, count, tp, sequenceParallel);
        double scores = 0;
        if (!m_a.flag(Assumption::FlashAttention) && t.recompute == Recompute::None)
            scores = 5.0 * m.attentionHeads * shape.contextTokens * tokens / tp;
        double savedPerLayer = 0;
        switch (t.recompute) {
        case Recompute::None:
        case Recompute::Selective: savedPerLayer = layerFull + scores; break;
        case Recompute::Full: savedPerLayer = tokens * act * m.hiddenSize / (sequenceParallel ? tp : 1); break;
        }
        st.savedPerMicroBatch = count * savedPerLayer;
        if (t.activationOffload)
            savedPerLayer = 0;
        // 1F1B: stage s holds the activations of up to pp - s micro-batches.
        int inFlight = pp - s;
        if (t.globalBatchTokens) {
            const double microBatches = std::max(1.0, std::round(*t.globalBatchTokens / (tokens * shape.cp * shape.dp)));
            inFlight = int(std::min<double>(inFlight, microBatches));
        }
        st.activations += inFlight * count * savedPerLayer + layerFull + scores;
        if (s == pp - 1) {
            const double logits = tokens * double(m.vocabSize) / tp;  // tokens: this GPU's share
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

// Concurrent sequences per replica that the KV cache must hold for this brief, and why.
struct Sizing
{
    int sequences = 1;
    std::optional<Warning> note;
};

int ceilDiv(long long a, long long b);
Sizing sizeConcurrency(const Workload &w, int replicas, const Assumptions &a);
// Prompt and answer (an embedding has no answer): the context a request holds at its end, at
// the mean lengths or, with p95, at the brief's p95 lengths where it gives them.
double inferenceContext(const Workload &w, bool p95);
std::vector<int> powersOfTwo(int from, int to);
// Layouts to try for the smallest fitting count, smallest total first.
std::optional<std::pair<Layout, int>> smallestFit(const MemoryModel &model, const Workload &w, const Shape &briefShape);
// The smallest deployment that holds the brief when the candidate as entered does not (see
// FitResult::resize).
// Training: the changes to the set-up tried at the stated layout when it does not fit (those that
// save memory, whether or not they fit; FitResult::remedies).
std::vector<FitRemedy> trainingRemedies(const Workload &w, const Assumptions &a, const GpuSpec &gpu, ServingStack stack,
                                        const Shape &shape, double statedNeed);
void resizeToFit(FitResult &r, const Workload &w, const Shape &entered, const GpuSpec &gpu,
                 const std::optional<Layout> &sameCount = std::nullopt);
// Training: the layout with the entered GPU count (more tensor or pipeline parallelism, fewer
// data-parallel ranks) that holds the training state, the least parallel first; a training run
// is sized by its layout, not by dropping GPUs.
std::optional<Layout> sameCountFit(const MemoryModel &model, const Workload &w, const Shape &entered);

} // namespace wb::fitdetail
