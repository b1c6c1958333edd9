#include "performance/stepmodel.h"

#include "catalog/modelarch.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Bytes per second one GPU of a tensor-parallel group of tp sends in an all-reduce, and the
// fixed latency of one all-reduce. Catalog link figures count both directions; a ring or
// one-shot all-reduce is limited by one direction.
struct Link
{
    double bytesPerS = 0;
    double latencyS = 0;
};

Link allReduceLink(const GpuSpec &gpu, int tp, const std::optional<NetworkSpec> &network, const Assumptions &a)
{
    Link link;
    if (tp <= 1)
        return link;
    const bool inDomain = tp <= gpu.scaleUp.domainGpus;
    const bool switched = gpu.scaleUp.kind != "pcie";
    if (inDomain) {
        link.bytesPerS = gpu.scaleUp.bandwidthBytesPerS / 2 * a.value(Assumption::LinkEfficiency);
    } else {
        // The candidate's own network when it names one (candidates[].network), else the default.
        link.bytesPerS = (network ? network->bytesPerSPerGpu : a.value(Assumption::ScaleOutBandwidthBytesPerS))
            * a.value(Assumption::LinkEfficiency);
    }
    link.latencyS = inDomain && switched ? a.value(Assumption::AllreduceLatencyS)
                                         : 2.0 * (tp - 1) * a.value(Assumption::RingHopLatencyS);
    return link;
}

} // namespace

int kernelsPerLayer(const ModelSpec &m, bool moeLayer)
{
    // A fused dense layer: two norms, the QKV projection, rotary, attention, the output
    // projection, gate-up, activation, down (the all-reduces are counted apart).
    int kernels = 9;
    if (m.mla)
        kernels += 5;  // q down, its norm, q up, kv down, its norm; the absorbed up-projections
    if (moeLayer)
        kernels += 7;  // router, top-k, token permutation, second grouped GEMM, combine, shared expert
    return kernels;
}

std::optional<StepModel> StepModel::create(const Workload &w, const Candidate &cand, const GpuSpec &gpu,
                                           const Assumptions &a, const EfficiencyTable &table, Message *why)
{
    const ModelSpec &m = w.model;
    const Precision math = mathPrecision(w.weightsPrecision);
    const std::optional<double> peak = gpu.peakFlops(math);
    const std::optional<double> peak16 = gpu.peakFlops(Precision::Bf16);
    if (!peak || !peak16 || gpu.memoryBandwidthBytesPerS <= 0 || m.layers <= 0) {
        if (why)
            *why = makeMessage("performance-not-computed", "/workload/weights_precision",
                               WB_MESSAGE("Messages", "{gpu} has no {precision} peak in the catalog, so the step time cannot be "
                                          "computed"),
                               {{"gpu", gpu.name}, {"precision", std::string(enumName(math))}});
        return std::nullopt;
    }

    StepModel s;
    s.m_eff = table.efficiency(gpu, math, cand.servingStack, m.isMoe(), a, w.kind == WorkloadKind::Embedding);
    s.m_pp = std::max(1, cand.pipelineParallel);
    const int t = std::max(1, cand.tensorParallel);
    const double L = m.layers;
    const double h = m.hiddenSize;
    const ParameterCounts p = countParameters(m);
    const double bw = gpu.memoryBandwidthBytesPerS;
    const double flops = *peak * s.m_eff.compute;         // the linear layers' math
    const double flops16 = *peak16 * s.m_eff.compute;     // attention runs in 16 bit

    // Weights streamed from memory once per step by each GPU of the group: every linear layer
    // except the routed experts (their term depends on the batch), the output head (or the tied
    // embedding acting as one), and the 16-bit norms. The input embedding is a lookup of a few
    // rows and costs nothing here.
    const double weightBytes = weightBitsPerParameter(w.weightsPrecision, a.flag(Assumption::Nf4DoubleQuant)) / 8;
    const double embeddingBytes = a.flag(Assumption::QuantizeEmbeddings) ? weightBytes : std::max(weightBytes, 2.0);
    const double expertParams = m.isMoe() ? 3.0 * m.moeIntermediateSize * h : 0;  // gated expert
    const double routedPerMoeLayer = m.isMoe() ? m.experts * expertParams : 0;
    // An encoder has no output head: its embedding is a lookup and its answer the pooled states.
    const bool encoder = w.kind == WorkloadKind::Embedding;
    const double headParams = encoder ? 0 : m.tiedEmbeddings ? p.tokenEmbedding : p.lmHead;
    const double streamedLinear = p.denseLayers * p.denseLayer.linear() + p.moeLayers * (p.moeLayer.linear() - routedPerMoeLayer);
    const double norms = p.denseLayers * p.denseLayer.norms + p.moeLayers * p.moeLayer.norms + p.finalNorm;
    const double streamedBytes = (streamedLinear * weightBytes + headParams * embeddingBytes + norms * 2) / t;

    // Matrix-multiply FLOPs per token per GPU: 2 per active linear parameter. Routed experts a
    // token uses are in mlpActive. The output head runs for sampled tokens only: one per decode
    // sequence (the last prompt token's is left out of b1; it is one token per request).
    // Routed experts run as grouped GEMMs at groupedGemmShare of the dense efficiency.
    const double activeLinear = p.denseLayers * (p.denseLayer.attention + p.denseLayer.mlpActive)
        + p.moeLayers * (p.moeLayer.attention + p.moeLayer.mlpActive);
    const double routedActive = m.isMoe() ? p.moeLayers * double(m.expertsPerToken) * expertParams : 0;
    const double tokenFlops = 2.0 * (activeLinear - routedActive) / t + 2.0 * routedActive / t / s.m_eff.groupedGemmShare;
    const double headFlops = 2.0 * headParams / t;

    // Fixed cost per layer per step: its kernels, each taking at least kernelTimeS (or the
    // brief's flat layer_overhead_s).
    const double layerKernels = p.denseLayers * kernelsPerLayer(m, false) + p.moeLayers * kernelsPerLayer(m, true);
    const double layerCost = s.m_eff.layerOverheadS > 0 ? L * s.m_eff.layerOverheadS : layerKernels * s.m_eff.kernelTimeS;

    // Attention per (query, key) pair per GPU: QK^T and AV, 2 FLOPs each per element of the
    // query heads this GPU holds. MLA (absorbed, as serving engines run it) works on the
    // compressed kv_lora_rank + rope width per head.
    const double heads = std::max(1.0, double(m.attentionHeads) / t);
    const double pairFlops = m.mla ? 2.0 * heads * (2.0 * m.mla->kvLoraRank + m.mla->qkRopeHeadDim) * L
                                   : 4.0 * heads * m.headDim * L;
    const double kvBytesPerToken = L * kvBytesPerTokenPerLayer(m, w.kvCachePrecision, t);

    // Tensor parallelism: two all-reduces per layer of every token's hidden state.
    const Link link = allReduceLink(gpu, t, cand.network, a);
    const double commPerToken = t > 1 ? 2.0 * L * h * a.value(Assumption::ActivationBytes) * 2.0 * (t - 1) / t / link.bytesPerS : 0;
    const double commLatency = t > 1 ? 2.0 * L * link.latencyS : 0;
    // Pipeline stages hand the hidden state on: one point-to-point hop per stage boundary.
    const double stageHops = (s.m_pp - 1) * a.value(Assumption::RingHopLatencyS);

    StepCoefficients &c = s.m_c;
    c.b0 = streamedBytes / (bw * s.m_eff.memory) + s.m_eff.stepOverheadS + layerCost + commLatency + stageHops;
    c.b1 = tokenFlops / flops + commPerToken;
    c.b2 = (tokenFlops + headFlops) / flops + commPerToken;
    // Decode attention reads each KV entry once and does pairFlops with it: whichever bound is
    // slower (MLA's absorbed attention is compute-bound, GQA's memory-bound).
    c.b3 = std::max(kvBytesPerToken / (bw * s.m_eff.kvRead), pairFlops / flops16);
    c.b4 = pairFlops / flops16;

    if (m.isMoe()) {
        s.m_moeLayers = p.moeLayers;
        s.m_experts = m.experts;
        s.m_topK = m.expertsPerToken;
        s.m_expertReadS = expertParams * weightBytes / t / (bw * s.m_eff.memory * s.m_eff.groupedGemmShare);
        s.m_notes.push_back(makeMessage("performance-model-note", "",
                                        WB_MESSAGE("Messages", "MoE: routed experts are read once per step for each expert the "
                                                   "step's tokens touch, assuming uniform routing")));
    }
    if (w.kind == WorkloadKind::Embedding)
        s.m_notes.push_back(
            packsEncoderBatches(cand.servingStack)
                ? makeMessage("performance-model-note", candidateField("serving_stack"),
                              WB_MESSAGE("Messages", "encoder: each sequence runs whole in one batch and attends both ways; "
                                         "{stack} packs a batch, so each sequence costs its own length"),
                              {{"stack", std::string(stackWords(cand.servingStack))}})
                : makeMessage("performance-model-note", candidateField("serving_stack"),
                              WB_MESSAGE("Messages", "encoder: each sequence runs whole in one batch and attends both ways; "
                                         "{stack} pads a batch, so every sequence costs the batch's longest (a packing "
                                         "stack such as vLLM or TensorRT-LLM pays real lengths)"),
                              {{"stack", std::string(stackWords(cand.servingStack))}}));
    if (t > gpu.scaleUp.domainGpus)
        s.m_notes.push_back(makeMessage("performance-model-note", candidateField("tensor_parallel"),
                                        WB_MESSAGE("Messages", "tensor parallelism of {tp} leaves the {domain_gpus}-GPU scale-up "
                                                   "domain; all-reduces cross the network"),
                                        {{"tp", std::int64_t(t)}, {"domain_gpus", std::int64_t(gpu.scaleUp.domainGpus)}}));
    return s;
}

double StepModel::expertReadS(double tokens) const
{
    if (m_moeLayers == 0 || tokens <= 0)
        return 0;
    // Expected distinct experts touched by `tokens` tokens each choosing top-k of E uniformly.
    const double e = m_experts;
    const double touched = e * (1.0 - std::pow(1.0 - double(m_topK) / e, tokens));
    return m_moeLayers * touched * m_expertReadS;
}

double StepModel::stepTime(const StepBatch &b) const
{
    // Pipeline parallelism: the batch splits into up to pp micro-batches that keep the stages
    // busy together; with fewer sequences than stages some stages idle (the bubble). Weights are
    // read once per stage per micro-batch, i.e. once per step overall, so b0 is not divided.
    const double micro = std::max(1, std::min(m_pp, b.sequences));
    const double work = m_c.b1 * b.prefillTokens + m_c.b2 * b.decodeSequences + m_c.b3 * b.kvTokensRead
        + m_c.b4 * b.attentionPairs;
    return m_c.b0 + work / micro + expertReadS(b.prefillTokens + b.decodeSequences);
}

StepCoefficients StepModel::linear(double tokens) const
{
    StepCoefficients c = m_c;
    c.b0 += expertReadS(tokens);
    return c;
}

} // namespace wb
