// Parameter counts of a transformer from its architecture, by part, following Megatron's
// accounting (theoretical_memory_usage.py): GQA attention, gated or plain MLP, MoE experts,
// MLA projections, tied or separate embeddings. Units: parameters (not bytes).
#pragma once

#include "catalog/catalog.h"

namespace wb {

struct LayerParameters
{
    double attention = 0;   // q, k, v, o projections (and MLA down/up projections), with biases
    double mlp = 0;         // dense FFN, or all routed + shared experts and the router
    double mlpActive = 0;   // what one token uses: the dense FFN, or top-k + shared experts
    double norms = 0;       // normalisation weights, kept in 16 bit
    double largestMatrix = 0;  // the biggest single weight matrix, for dequantization buffers
    // Weight matrices adapted by LoRA, as (d_in + d_out) sums: attention q,k,v,o and MLP.
    double loraAttentionDims = 0;
    double loraMlpDims = 0;

    double linear() const { return attention + mlp; }
    double total() const { return attention + mlp + norms; }
};

struct ParameterCounts
{
    double tokenEmbedding = 0;
    double positionEmbedding = 0;
    double lmHead = 0;        // 0 when tied to the token embedding
    double finalNorm = 0;
    LayerParameters denseLayer;  // a layer with a dense FFN
    LayerParameters moeLayer;    // a layer with experts (zero for dense models)
    int denseLayers = 0;
    int moeLayers = 0;

    const LayerParameters &layer(int index) const { return index < denseLayers ? denseLayer : moeLayer; }
    double total() const;
    double active() const;   // parameters one token touches
};

ParameterCounts countParameters(const ModelSpec &model);

// Width of the per-token MLP intermediate one token produces (top-k experts and shared experts
// for MoE), in elements.
double activeFfnWidth(const ModelSpec &model, bool moeLayer);
// Query width (heads x head dim) and key/value width per K or V (kv heads x head dim).
int queryWidth(const ModelSpec &model);
int kvWidth(const ModelSpec &model);

// KV cache bytes one token adds to one layer on one GPU of a tensor-parallel group of tp:
// 2 x ceil(kv_heads / tp) x head_dim x element size for standard attention (a KV head is
// replicated when tp exceeds the KV heads); (kv_lora_rank + qk_rope_head_dim) x element size
// for MLA, which tensor parallelism does not split.
double kvBytesPerTokenPerLayer(const ModelSpec &model, Precision kvPrecision, int tp);

} // namespace wb
