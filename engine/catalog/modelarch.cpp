#include "catalog/modelarch.h"

#include <algorithm>
#include <cmath>

namespace wb {

int queryWidth(const ModelSpec &m)
{
    if (m.mla)
        return m.attentionHeads * (m.mla->qkNopeHeadDim + m.mla->qkRopeHeadDim);
    return m.attentionHeads * m.headDim;
}

int kvWidth(const ModelSpec &m)
{
    return m.kvHeads * m.headDim;
}

double kvBytesPerTokenPerLayer(const ModelSpec &m, Precision kvPrecision, int tp)
{
    const double element = cacheBytesPerElement(kvPrecision);
    if (m.mla)
        return double(m.mla->kvLoraRank + m.mla->qkRopeHeadDim) * element;
    return 2.0 * std::ceil(double(m.kvHeads) / std::max(1, tp)) * m.headDim * element;
}

double activeFfnWidth(const ModelSpec &m, bool moeLayer)
{
    if (!moeLayer)
        return m.intermediateSize;
    return double(m.expertsPerToken + m.sharedExperts) * m.moeIntermediateSize;
}

static LayerParameters attentionPart(const ModelSpec &m)
{
    const double h = m.hiddenSize;
    LayerParameters p;
    if (m.mla) {
        // DeepSeek-V3 MLA: q down (h -> q_lora) and up (q_lora -> heads x (nope + rope)),
        // kv down (h -> kv_lora + rope) and up (kv_lora -> heads x (nope + v)), output
        // (heads x v -> h), plus the two low-rank norms.
        const MlaSpec &a = *m.mla;
        const double heads = m.attentionHeads;
        const double qHead = a.qkNopeHeadDim + a.qkRopeHeadDim;
        const double q = a.qLoraRank > 0 ? h * a.qLoraRank + a.qLoraRank * heads * qHead : h * heads * qHead;
        const double kvDown = h * (a.kvLoraRank + a.qkRopeHeadDim);
        const double kvUp = a.kvLoraRank * heads * (a.qkNopeHeadDim + a.vHeadDim);
        const double o = heads * a.vHeadDim * h;
        p.attention = q + kvDown + kvUp + o;
        p.norms += a.qLoraRank + a.kvLoraRank;
        p.largestMatrix = std::max({o, kvUp, a.qLoraRank > 0 ? a.qLoraRank * heads * qHead : q});
        p.loraAttentionDims = (a.qLoraRank > 0 ? (h + a.qLoraRank) + (a.qLoraRank + heads * qHead) : h + heads * qHead)
            + (h + a.kvLoraRank + a.qkRopeHeadDim) + (a.kvLoraRank + heads * (a.qkNopeHeadDim + a.vHeadDim))
            + (heads * a.vHeadDim + h);
        return p;
    }
    const double q = queryWidth(m);
    const double kv = kvWidth(m);
    p.attention = h * q + 2 * h * kv + q * h;
    if (m.attentionBias || m.linearBiases)
        p.attention += q + 2 * kv;
    if (m.linearBiases)
        p.attention += h;  // the output projection's bias
    p.largestMatrix = std::max(h * q, q * h);
    p.loraAttentionDims = (h + q) + 2 * (h + kv) + (q + h);
    return p;
}

static void addMlp(const ModelSpec &m, bool moe, LayerParameters &p)
{
    const double h = m.hiddenSize;
    const double matrices = m.gatedMlp ? 3.0 : 2.0;
    if (!moe) {
        const double f = m.intermediateSize;
        p.mlp = matrices * h * f + (m.linearBiases ? f + h : 0);
        p.mlpActive = p.mlp;
        p.largestMatrix = std::max(p.largestMatrix, h * f);
        p.loraMlpDims = matrices * (h + f);
        return;
    }
    const double f = m.moeIntermediateSize;
    const double expert = matrices * h * f;
    const double router = h * m.experts;
    p.mlp = (m.experts + m.sharedExperts) * expert + router;
    p.mlpActive = (m.expertsPerToken + m.sharedExperts) * expert + router;
    p.largestMatrix = std::max(p.largestMatrix, h * f);
    p.loraMlpDims = (m.experts + m.sharedExperts) * matrices * (h + f);
}

ParameterCounts countParameters(const ModelSpec &m)
{
    ParameterCounts c;
    const double h = m.hiddenSize;
    c.tokenEmbedding = double(m.vocabSize) * h;
    c.positionEmbedding = m.learnedPositions ? double(m.maxContext) * h : 0;
    c.lmHead = m.tiedEmbeddings ? 0 : double(m.vocabSize) * h;
    c.finalNorm = m.linearBiases ? 2 * h : h;  // LayerNorm has a bias, RMSNorm does not

    const double normsPerLayer = m.linearBiases ? 4 * h : 2 * h;
    c.denseLayer = attentionPart(m);
    c.denseLayer.norms += normsPerLayer;
    addMlp(m, false, c.denseLayer);
    if (m.isMoe()) {
        c.moeLayer = attentionPart(m);
        c.moeLayer.norms += normsPerLayer;
        addMlp(m, true, c.moeLayer);
        c.denseLayers = std::min(m.denseLeadingLayers, m.layers);
        c.moeLayers = m.layers - c.denseLayers;
    } else {
        c.denseLayers = m.layers;
    }
    return c;
}

double ParameterCounts::total() const
{
    return tokenEmbedding + positionEmbedding + lmHead + finalNorm + denseLayers * denseLayer.total()
        + moeLayers * moeLayer.total();
}

double ParameterCounts::active() const
{
    const auto activeLayer = [](const LayerParameters &l) { return l.attention + l.mlpActive + l.norms; };
    return tokenEmbedding + positionEmbedding + lmHead + finalNorm + denseLayers * activeLayer(denseLayer)
        + moeLayers * activeLayer(moeLayer);
}

} // namespace wb
