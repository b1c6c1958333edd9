// The catalog as JSON (gpuwb catalog gpus|media|models --format json): each entry with its
// figures and, per figure, the source it was read from.
#include "report/report.h"

#include "catalog/modelarch.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace wb {

using Json = nlohmann::ordered_json;

namespace {

template<typename T>
Json optionalJson(const std::optional<T> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

Json sourceJson(const Catalog &catalog, const std::string &id)
{
    const Source *s = catalog.source(id);
    if (!s)
        return Json(nullptr);
    return {{"id", s->id}, {"url", s->url}, {"title", s->title}, {"read", s->readDate}, {"note", s->note}};
}

} // namespace

std::string catalogGpusJson(const Catalog &catalog)
{
    Json list = Json::array();
    for (const GpuSpec &g : catalog.gpus()) {
        Json j;
        j["id"] = g.id;
        j["name"] = g.name;
        j["vendor"] = g.vendor;
        j["architecture"] = g.architecture;
        j["form_factor"] = g.formFactor;
        j["memory_bytes"] = g.memoryBytes;
        j["memory_bandwidth_bytes_per_s"] = g.memoryBandwidthBytesPerS;
        j["dense_flops_per_s"] = {{"fp32", optionalJson(g.denseFlops.fp32)}, {"tf32", optionalJson(g.denseFlops.tf32)},
                                  {"bf16", optionalJson(g.denseFlops.bf16)}, {"fp8", optionalJson(g.denseFlops.fp8)},
                                  {"int8", optionalJson(g.denseFlops.int8)}, {"fp4", optionalJson(g.denseFlops.fp4)}};
        j["scale_up"] = {{"kind", g.scaleUp.kind},
                         {"bandwidth_bytes_per_s", g.scaleUp.bandwidthBytesPerS},
                         {"domain_gpus", g.scaleUp.domainGpus}};
        j["pcie_gen"] = optionalJson(g.pcieGen);
        j["board_power_w"] = g.boardPowerW;
        j["mig_instances"] = g.migInstances;
        j["year"] = g.year;
        Json sources;
        for (const auto &[figure, id] : g.figureSources)
            sources[figure] = sourceJson(catalog, id);
        j["sources"] = sources;
        j["caveats"] = g.caveats;
        j["catalog_file"] = g.catalogFile;
        list.push_back(j);
    }
    return Json{{"gpus", list}}.dump(2) + "\n";
}

std::string catalogMediaJson(const Catalog &catalog)
{
    Json list = Json::array();
    for (const MediaModelSpec &m : catalog.mediaModels()) {
        const MediaWork w = mediaWork(m, m.defaultWidth, m.defaultHeight, m.defaultFrames, m.defaultSteps, 1);
        Json j;
        j["id"] = m.id;
        j["name"] = m.name;
        j["kind"] = m.video ? "video" : "image";
        j["denoiser"] = m.unet ? "unet" : "dit";
        j["denoiser_parameters"] = m.denoiserParameters;
        j["text_encoder_parameters"] = m.textEncoderParameters;
        j["vae_parameters"] = m.vae.parameters;
        j["text_tokens"] = m.textTokens;
        j["guidance_distilled"] = m.guidanceDistilled;
        j["native"] = {{"width", m.defaultWidth}, {"height", m.defaultHeight}, {"frames", m.defaultFrames},
                       {"steps", m.defaultSteps}, {"max_frames", m.maxFrames}};
        if (m.video)
            j["native"]["fps"] = m.fps;
        j["pixel_alignment"] = m.pixelAlignment();
        j["pass_at_native"] = {{"tokens", w.tokens}, {"linear_macs", w.pass.linear}, {"attention_macs", w.pass.attention}};
        j["vae_decode_macs_at_native"] = w.vae.linear + w.vae.attention;
        j["source"] = {{"url", m.sourceUrl}, {"read", m.sourceReadDate}};
        j["catalog_file"] = m.catalogFile;
        list.push_back(j);
    }
    return list.dump(2) + "\n";
}

std::string catalogModelsJson(const Catalog &catalog)
{
    Json list = Json::array();
    for (const ModelSpec &m : catalog.models()) {
        const ParameterCounts p = countParameters(m);
        Json j;
        j["id"] = m.id;
        j["name"] = m.name;
        j["parameters"] = m.parameters;
        j["parameters_counted"] = p.total();
        j["active_parameters_counted"] = p.active();
        j["layers"] = m.layers;
        j["hidden_size"] = m.hiddenSize;
        j["attention_heads"] = m.attentionHeads;
        j["kv_heads"] = m.kvHeads;
        j["head_dim"] = m.headDim;
        j["intermediate_size"] = m.intermediateSize;
        j["vocab_size"] = m.vocabSize;
        j["tied_embeddings"] = m.tiedEmbeddings;
        j["max_context"] = m.maxContext;
        if (m.isMoe())
            j["moe"] = {{"experts", m.experts}, {"experts_per_token", m.expertsPerToken},
                        {"moe_intermediate_size", m.moeIntermediateSize}, {"shared_experts", m.sharedExperts},
                        {"dense_leading_layers", m.denseLeadingLayers}};
        if (m.mla)
            j["mla"] = {{"q_lora_rank", m.mla->qLoraRank}, {"kv_lora_rank", m.mla->kvLoraRank},
                        {"qk_nope_head_dim", m.mla->qkNopeHeadDim}, {"qk_rope_head_dim", m.mla->qkRopeHeadDim},
                        {"v_head_dim", m.mla->vHeadDim}};
        j["sliding_window"] = optionalJson(m.slidingWindow);
        j["source"] = {{"url", m.sourceUrl}, {"read", m.sourceReadDate}};
        j["catalog_file"] = m.catalogFile;
        list.push_back(j);
    }
    return Json{{"models", list}}.dump(2) + "\n";
}

} // namespace wb
