#include "catalog/catalog.h"

#include "core/fileio.h"
#include "core/limits.h"
#include "catalog/modelarch.h"
#include "catalog/catalogparse.h"
#include "catalog/priceparse.h"
#include "core/jsonfields.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace wb {

using detail::FieldError;
using detail::Fields;
using detail::formatNumber;
using detail::Json;
using detail::kNonNegative;
using detail::kPositive;
using detail::Range;

namespace {

// The figures every GPU entry must source, and the JSON keys they describe.
const std::vector<std::string> kGpuFigures = {"memory", "bandwidth", "flops", "scale_up",
                                              "pcie_gen", "board_power", "mig", "year"};

bool isValidId(const std::string &s)
{
    static const std::regex re(R"([a-z0-9][a-z0-9.\-]*)");
    return std::regex_match(s, re);
}

Source parseSource(const Fields &f, const std::string &id)
{
    Source s;
    s.id = id;
    s.url = f.string("url");
    if (s.url.empty())
        f.fail("url", "must not be empty");
    s.title = f.optString("title").value_or("");
    s.readDate = f.string("read");
    if (!isIsoDate(s.readDate))
        f.fail("read", "must be a date written YYYY-MM-DD, not \"" + s.readDate + "\"");
    s.note = f.optString("note").value_or("");
    return s;
}

void checkRatio(const Fields &f, const std::string &upperKey, std::optional<double> upper,
                const std::string &lowerKey, std::optional<double> lower, double maxRatio)
{
    if (!upper || !lower)
        return;
    const double ratio = *upper / *lower;
    if (ratio < 0.999 || ratio > maxRatio)
        f.fail(upperKey, "is " + formatNumber(ratio) + " times " + lowerKey + "; dense " + upperKey
                             + " is expected to be 1 to " + formatNumber(maxRatio) + " times " + lowerKey
                             + " (a sparse figure, or a typo?)");
}

GpuSpec parseGpu(const Fields &f, const std::map<std::string, Source> &sources)
{
    GpuSpec g;
    g.id = f.string("id");
    g.name = f.string("name");
    g.vendor = f.string("vendor");
    g.architecture = f.string("architecture");
    g.formFactor = f.string("form_factor");
    g.memoryBytes = static_cast<std::uint64_t>(f.integer("memory_bytes", Range{1073741824.0, 4398046511104.0}));
    g.memoryBandwidthBytesPerS = f.number("memory_bandwidth_bytes_per_s", Range{1e10, 1e14});

    const Fields flops = f.object("dense_flops_per_s");
    const Range flopRange{1e12, 1e17};
    for (const char *key : {"fp32", "tf32", "bf16", "fp8", "int8", "fp4"})
        if (!flops.has(key))
            flops.fail(key, "is missing (write null when the GPU has no such path)");
    g.denseFlops.fp32 = flops.nullableNumber("fp32", flopRange);
    g.denseFlops.tf32 = flops.nullableNumber("tf32", flopRange);
    g.denseFlops.bf16 = flops.nullableNumber("bf16", flopRange);
    g.denseFlops.fp8 = flops.nullableNumber("fp8", flopRange);
    g.denseFlops.int8 = flops.nullableNumber("int8", flopRange);
    g.denseFlops.fp4 = flops.nullableNumber("fp4", flopRange);
    if (!g.denseFlops.bf16)
        flops.fail("bf16", "is required: every catalog GPU must run bf16");
    checkRatio(flops, "bf16", g.denseFlops.bf16, "tf32", g.denseFlops.tf32, 2.05);
    checkRatio(flops, "fp8", g.denseFlops.fp8, "bf16", g.denseFlops.bf16, 2.05);
    checkRatio(flops, "fp4", g.denseFlops.fp4, "fp8", g.denseFlops.fp8, 4.1);

    const Fields scale = f.object("scale_up");
    g.scaleUp.kind = scale.string("kind");
    g.scaleUp.bandwidthBytesPerS = scale.number("bandwidth_bytes_per_s", Range{1e9, 1e14});
    g.scaleUp.domainGpus = static_cast<int>(scale.integer("domain_gpus", Range{1, 1024}));

    if (!f.has("pcie_gen"))
        f.fail("pcie_gen", "is missing (write null when the host link is not PCIe)");
    if (auto gen = f.nullableNumber("pcie_gen", Range{3, 7})) {
        if (std::floor(*gen) != *gen)
            f.fail("pcie_gen", "must be a whole number");
        g.pcieGen = static_cast<int>(*gen);
    }
    g.boardPowerW = f.number("board_power_w", Range{10, 5000});
    g.migInstances = static_cast<int>(f.integer("mig_instances", Range{0, 64}));
    g.year = static_cast<int>(f.integer("year", Range{2010, 2100}));

    const Fields src = f.object("sources");
    for (const std::string &figure : kGpuFigures) {
        const std::string id = src.string(figure);
        if (!sources.count(id))
            src.fail(figure, "names source \"" + id + "\", which is not defined in \"sources\"");
        g.figureSources[figure] = id;
    }
    if (const Json *caveats = f.find("caveats")) {
        if (!caveats->is_array())
            f.fail("caveats", "must be an array of strings");
        for (const Json &c : *caveats) {
            if (!c.is_string())
                f.fail("caveats", "must be an array of strings");
            g.caveats.push_back(c.get<std::string>());
        }
    }
    return g;
}

} // namespace

ModelSpec detail::parseModelEntry(const Fields &f)
{
    ModelSpec m;
    m.id = f.string("id");
    m.name = f.string("name");
    m.parameters = f.number("parameters", Range{1e6, 1e14});
    m.layers = static_cast<int>(f.integer("layers", Range{1, 1000}));
    m.hiddenSize = static_cast<int>(f.integer("hidden_size", Range{64, 1 << 20}));
    m.attentionHeads = static_cast<int>(f.integer("attention_heads", Range{1, 4096}));
    m.kvHeads = static_cast<int>(f.integer("kv_heads", Range{1, 4096}));
    m.headDim = static_cast<int>(f.optInteger("head_dim", Range{8, 4096}).value_or(m.hiddenSize / m.attentionHeads));
    m.intermediateSize = static_cast<int>(f.integer("intermediate_size", Range{1, 1 << 22}));
    m.vocabSize = static_cast<int>(f.integer("vocab_size", Range{1, 1 << 24}));
    m.tiedEmbeddings = f.boolean("tied_embeddings");
    const std::string mlp = f.optString("mlp").value_or("gated");
    if (mlp != "gated" && mlp != "plain")
        f.fail("mlp", "must be \"gated\" or \"plain\", not \"" + mlp + "\"");
    m.gatedMlp = mlp == "gated";
    m.attentionBias = f.optBoolean("attention_bias").value_or(false);
    m.linearBiases = f.optBoolean("linear_biases").value_or(false);
    const std::string positions = f.optString("position_embeddings").value_or("rope");
    if (positions != "rope" && positions != "learned")
        f.fail("position_embeddings", "must be \"rope\" or \"learned\", not \"" + positions + "\"");
    m.learnedPositions = positions == "learned";
    m.maxContext = static_cast<int>(f.integer("max_context", Range{1, 1 << 24}));
    if (m.attentionHeads % m.kvHeads != 0)
        f.fail("kv_heads", "must divide attention_heads (" + std::to_string(m.attentionHeads) + ")");
    if (auto moe = f.optObject("moe")) {
        m.experts = static_cast<int>(moe->integer("experts", Range{2, 4096}));
        m.expertsPerToken = static_cast<int>(moe->integer("experts_per_token", Range{1, 4096}));
        m.moeIntermediateSize = static_cast<int>(moe->optInteger("moe_intermediate_size", Range{1, 1 << 22})
                                                     .value_or(m.intermediateSize));
        m.sharedExperts = static_cast<int>(moe->optInteger("shared_experts", kNonNegative).value_or(0));
        m.denseLeadingLayers = static_cast<int>(moe->optInteger("dense_leading_layers", Range{0, double(m.layers)})
                                                    .value_or(0));
        if (m.expertsPerToken > m.experts)
            moe->fail("experts_per_token", "must not exceed experts (" + std::to_string(m.experts) + ")");
    }
    if (auto mla = f.optObject("mla")) {
        MlaSpec a;
        a.qLoraRank = static_cast<int>(mla->optInteger("q_lora_rank", kNonNegative).value_or(0));
        a.kvLoraRank = static_cast<int>(mla->integer("kv_lora_rank", kPositive));
        a.qkNopeHeadDim = static_cast<int>(mla->integer("qk_nope_head_dim", kPositive));
        a.qkRopeHeadDim = static_cast<int>(mla->integer("qk_rope_head_dim", kPositive));
        a.vHeadDim = static_cast<int>(mla->integer("v_head_dim", kPositive));
        m.mla = a;
    }
    if (auto window = f.nullableNumber("sliding_window", kPositive))
        m.slidingWindow = static_cast<int>(*window);
    if (auto source = f.optObject("source")) {
        m.sourceUrl = source->string("url");
        m.sourceReadDate = source->string("read");
        if (!isIsoDate(m.sourceReadDate))
            source->fail("read", "must be a date written YYYY-MM-DD");
    }

    const double computed = countParameters(m).total();
    if (std::fabs(computed - m.parameters) > 0.03 * m.parameters)
        f.fail("parameters", "says " + formatNumber(m.parameters / 1e9) + " B, but the architecture gives "
                                 + formatNumber(computed / 1e9) + " B (more than 3% apart)");
    return m;
}

namespace {

template<typename Spec>
void upsert(std::vector<Spec> &list, Spec spec)
{
    auto it = std::find_if(list.begin(), list.end(), [&](const Spec &s) { return s.id == spec.id; });
    if (it == list.end())
        list.push_back(std::move(spec));
    else
        *it = std::move(spec);
}

} // namespace

std::optional<double> GpuSpec::peakFlops(Precision p) const
{
    switch (p) {
    case Precision::Fp32: return denseFlops.fp32;
    case Precision::Bf16:
    case Precision::Fp16:
    case Precision::Int4:
    case Precision::Nf4: return denseFlops.bf16;
    case Precision::Fp8: return denseFlops.fp8;
    case Precision::Int8: return denseFlops.int8;
    case Precision::Fp4: return denseFlops.fp4;
    }
    return std::nullopt;
}

double GpuSpec::hostLinkBytesPerS() const
{
    if (pcieGen)
        return 16 * 2e9 * std::pow(2.0, *pcieGen - 4);
    return formFactor == "superchip" ? 450e9 : 16 * 2e9;
}

bool GpuSpec::supportsWeights(Precision p) const
{
    switch (p) {
    case Precision::Fp8: return denseFlops.fp8.has_value();
    case Precision::Int8: return denseFlops.int8.has_value();
    case Precision::Fp4: return denseFlops.fp4.has_value();
    default: return true;
    }
}

Status Catalog::loadFile(const std::string &path)
{
    Result<std::string> text = readTextFile(path);
    if (!text)
        return text.error();
    return loadJson(text.value(), path);
}

Status Catalog::loadCalibrationFile(const std::string &path)
{
    Result<std::string> text = readTextFile(path);
    if (!text)
        return text.error();
    return m_efficiency.loadJson(text.value(), path);
}

Status Catalog::loadBandsFile(const std::string &path)
{
    Result<std::string> text = readTextFile(path);
    if (!text)
        return text.error();
    return m_bands.loadJson(text.value(), path);
}

Status Catalog::loadJson(const std::string &text, const std::string &fileName)
{
    if (auto bad = limits::checkJsonText(text))
        return Error{fileName, "", *bad};
    Json root = Json::parse(text, nullptr, false);
    if (root.is_discarded())
        return Error{fileName, "", "is not valid JSON"};

    Catalog next = *this;  // work on a copy: a failed load leaves this catalog unchanged
    std::string entryLabel;
    try {
        const Fields top(root, "");
        const std::string format = top.string("format");
        if (format != "gpu-workbench-catalog")
            top.fail("format", "must be \"gpu-workbench-catalog\", not \"" + format + "\"");
        const long long version = top.integer("version", Range{1, 1e9});
        if (version != 1)
            top.fail("version", "is " + std::to_string(version) + "; this build reads version 1");

        if (auto sources = top.optObject("sources")) {
            for (auto it = root["sources"].begin(); it != root["sources"].end(); ++it) {
                entryLabel = "source \"" + it.key() + "\"";
                next.m_sources[it.key()] = parseSource(sources->object(it.key()), it.key());
            }
        }

        // Reads one list of entries (gpus or models), applying overrides as merge patches.
        auto readList = [&](const char *key, std::map<std::string, std::string> &raw, auto parse) {
            if (!top.has(key))
                return;
            const Json &list = top.array(key);
            std::set<std::string> seen;
            for (std::size_t i = 0; i < list.size(); ++i) {
                const std::string path = std::string("/") + key + "/" + std::to_string(i);
                entryLabel.clear();
                const Fields entry(list[i], path);
                const std::string id = entry.string("id");
                entryLabel = "entry \"" + id + "\"";
                if (!isValidId(id))
                    entry.fail("id", "must use lower-case letters, digits, '.' and '-' only");
                if (!seen.insert(id).second)
                    entry.fail("id", "appears twice in this file");
                Json effective = list[i];
                if (entry.optBoolean("override").value_or(false)) {
                    auto base = raw.find(id);
                    if (base == raw.end())
                        entry.fail("override", "is true, but no earlier catalog defines \"" + id + "\"");
                    Json merged = Json::parse(base->second);
                    merged.merge_patch(list[i]);
                    merged.erase("override");
                    effective = merged;
                }
                parse(Fields(effective, path), id);
                effective.erase("override");
                raw[id] = effective.dump();
            }
        };
        readList("gpus", next.m_rawGpus, [&](const Fields &f, const std::string &) {
            GpuSpec g = parseGpu(f, next.m_sources);
            g.catalogFile = fileName;
            upsert(next.m_gpus, std::move(g));
        });
        readList("models", next.m_rawModels, [&](const Fields &f, const std::string &) {
            ModelSpec m = detail::parseModelEntry(f);
            m.catalogFile = fileName;
            upsert(next.m_models, std::move(m));
        });
        readList("media_models", next.m_rawMedia, [&](const Fields &f, const std::string &) {
            MediaModelSpec m = detail::parseMediaEntry(f);
            m.catalogFile = fileName;
            upsert(next.m_mediaModels, std::move(m));
        });
        // Prices have no ids: a later file adds to the book, and the cost model picks the
        // cheapest current offer per GPU and term. Each names a catalog entry that must exist.
        auto readPrices = [&](const char *key, auto parse, auto known, const char *field, const char *what, auto &book) {
            if (!top.has(key))
                return;
            const Json &list = top.array(key);
            for (std::size_t i = 0; i < list.size(); ++i) {
                entryLabel.clear();
                const std::string path = std::string("/") + key + "/" + std::to_string(i);
                auto p = parse(Fields(list[i], path));
                if (!known(p))
                    throw FieldError{path + "/" + field, "is not in the " + std::string(what) + " catalog"};
                book.push_back(std::move(p));
            }
        };
        readPrices("prices", [](const Fields &f) { return detail::parseGpuPrice(f, "catalog"); },
                   [&](const GpuPrice &p) { return next.gpu(p.gpu) != nullptr; }, "gpu", "GPU", next.m_prices);
        readPrices("api_prices", [](const Fields &f) { return detail::parseApiPrice(f, "catalog"); },
                   [&](const ApiPrice &p) {
                       // An image or video API's model is a media pipeline; any other, a language or encoder model.
                       return p.unit == ApiUnit::Image || p.unit == ApiUnit::Megapixel || p.unit == ApiUnit::VideoSecond
                                  ? next.mediaModel(p.model) != nullptr
                                  : next.model(p.model) != nullptr;
                   },
                   "model", "model", next.m_apiPrices);
        if (!top.has("gpus") && !top.has("models") && !top.has("media_models") && !top.has("sources") && !top.has("prices")
            && !top.has("api_prices"))
            top.fail("gpus", "is missing: a catalog file holds \"gpus\", \"models\", \"media_models\", \"sources\", \"prices\" or "
                             "\"api_prices\"");
    } catch (const FieldError &e) {
        std::string path = e.path;
        if (!entryLabel.empty())
            path = entryLabel + " at " + path;
        return Error{fileName, path, e.message};
    } catch (const Json::exception &e) {
        return Error{fileName, entryLabel, std::string("cannot be read: ") + e.what()};
    }
    next.m_files.push_back(fileName);
    *this = std::move(next);
    return Ok{};
}

const GpuSpec *Catalog::gpu(const std::string &id) const
{
    auto it = std::find_if(m_gpus.begin(), m_gpus.end(), [&](const GpuSpec &g) { return g.id == id; });
    return it == m_gpus.end() ? nullptr : &*it;
}

const ModelSpec *Catalog::model(const std::string &id) const
{
    auto it = std::find_if(m_models.begin(), m_models.end(), [&](const ModelSpec &m) { return m.id == id; });
    return it == m_models.end() ? nullptr : &*it;
}

const MediaModelSpec *Catalog::mediaModel(const std::string &id) const
{
    auto it = std::find_if(m_mediaModels.begin(), m_mediaModels.end(), [&](const MediaModelSpec &m) { return m.id == id; });
    return it == m_mediaModels.end() ? nullptr : &*it;
}

const Source *Catalog::source(const std::string &id) const
{
    auto it = m_sources.find(id);
    return it == m_sources.end() ? nullptr : &it->second;
}

std::string resourceDir()
{
    if (const char *env = std::getenv("GPUWB_RESOURCE_DIR"); env && *env)
        return env;
#ifdef WB_SOURCE_RESOURCE_DIR
    if (std::filesystem::exists(std::filesystem::path(WB_SOURCE_RESOURCE_DIR) / "catalog"))
        return WB_SOURCE_RESOURCE_DIR;
#endif
#ifdef WB_INSTALL_RESOURCE_DIR
    return WB_INSTALL_RESOURCE_DIR;
#else
    return "resources";
#endif
}

std::vector<std::string> shippedCatalogFiles(const std::string &resources)
{
    namespace fs = std::filesystem;
    const fs::path shipped = fs::path(resources.empty() ? resourceDir() : resources) / "catalog";
    return {(shipped / "gpus.json").string(), (shipped / "models.json").string(), (shipped / "media.json").string(),
            (shipped / "prices.json").string()};
}

std::vector<std::string> defaultCatalogFiles()
{
    namespace fs = std::filesystem;
    std::vector<std::string> files = shippedCatalogFiles();

    fs::path userDir;
    if (const char *env = std::getenv("GPUWB_USER_CATALOG_DIR"); env && *env)
        userDir = env;
    else if (const char *xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        userDir = fs::path(xdg) / "gpu-workbench" / "catalog";
    else if (const char *home = std::getenv("HOME"); home && *home)
        userDir = fs::path(home) / ".config" / "gpu-workbench" / "catalog";
    std::error_code ec;
    if (!userDir.empty() && fs::is_directory(userDir, ec)) {
        std::vector<std::string> user;
        for (const auto &entry : fs::directory_iterator(userDir, ec))
            if (entry.path().extension() == ".json")
                user.push_back(entry.path().string());
        std::sort(user.begin(), user.end());
        files.insert(files.end(), user.begin(), user.end());
    }
    return files;
}

namespace {

// The shipped calibration of the efficiency factors; a build without one runs on the priors.
Result<Catalog> loadAll(const std::vector<std::string> &files, const std::string &resources, bool withCalibration)
{
    Catalog catalog;
    for (const std::string &file : files) {
        Status s = catalog.loadFile(file);
        if (!s)
            return s.error();
    }
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(resources.empty() ? resourceDir() : resources) / "calibration";
    std::error_code ec;
    if (withCalibration && fs::exists(folder / "default.json", ec))
        if (Status s = catalog.loadCalibrationFile((folder / "default.json").string()); !s)
            return s.error();
    // The bands belong to that calibration: without it there are none.
    if (withCalibration && fs::exists(folder / "bands.json", ec))
        if (Status s = catalog.loadBandsFile((folder / "bands.json").string()); !s)
            return s.error();
    return catalog;
}

} // namespace

Result<Catalog> Catalog::loadDefault(bool withCalibration)
{
    return loadAll(defaultCatalogFiles(), {}, withCalibration);
}

Result<Catalog> Catalog::loadShipped(const std::string &resources)
{
    return loadAll(shippedCatalogFiles(resources), resources, true);
}

Result<ModelSpec> modelFromHfConfig(const std::string &jsonText, const std::string &fileName,
                                    const std::string &jsonPath)
{
    if (auto bad = limits::checkJsonText(jsonText))
        return Error{fileName, jsonPath, *bad};
    Json root = Json::parse(jsonText, nullptr, false);
    if (root.is_discarded())
        return Error{fileName, jsonPath, "is not valid JSON"};
    try {
        const Fields f(root, jsonPath);
        // First present key among the names different model families use.
        auto firstInt = [&](std::initializer_list<const char *> keys, Range range) -> std::optional<long long> {
            for (const char *k : keys)
                if (auto v = f.optInteger(k, range))
                    return v;
            return std::nullopt;
        };
        auto requireInt = [&](std::initializer_list<const char *> keys, Range range) -> long long {
            if (auto v = firstInt(keys, range))
                return *v;
            f.fail(*keys.begin(), "is missing from the Hugging Face config");
        };
        const std::string modelType = f.optString("model_type").value_or("");
        const bool gpt2Style = modelType == "gpt2" || modelType == "gpt_bigcode";

        ModelSpec m;
        m.id = f.optString("_name_or_path").value_or(modelType.empty() ? "custom-model" : modelType);
        m.name = m.id;
        m.layers = static_cast<int>(requireInt({"num_hidden_layers", "n_layer"}, Range{1, 1000}));
        m.hiddenSize = static_cast<int>(requireInt({"hidden_size", "n_embd"}, Range{64, 1 << 20}));
        m.attentionHeads = static_cast<int>(requireInt({"num_attention_heads", "n_head"}, Range{1, 4096}));
        m.kvHeads = m.attentionHeads;
        if (auto kv = f.optInteger("num_key_value_heads", Range{1, 4096}))
            m.kvHeads = static_cast<int>(*kv);
        if (f.optBoolean("multi_query").value_or(false))
            m.kvHeads = 1;
        m.headDim = static_cast<int>(f.optInteger("head_dim", Range{8, 4096}).value_or(m.hiddenSize / m.attentionHeads));
        if (auto inner = firstInt({"intermediate_size", "n_inner", "ffn_dim"}, Range{1, 1 << 22}))
            m.intermediateSize = static_cast<int>(*inner);
        else
            m.intermediateSize = 4 * m.hiddenSize;  // GPT-2's n_inner default
        m.vocabSize = static_cast<int>(requireInt({"vocab_size"}, Range{1, 1 << 24}));
        m.tiedEmbeddings = f.optBoolean("tie_word_embeddings").value_or(gpt2Style);
        m.maxContext = static_cast<int>(requireInt({"max_position_embeddings", "n_positions"}, Range{1, 1 << 24}));
        m.gatedMlp = !gpt2Style;
        m.learnedPositions = gpt2Style;
        m.linearBiases = gpt2Style;
        m.attentionBias = modelType == "qwen2" || f.optBoolean("attention_bias").value_or(false);
        if (auto experts = firstInt({"num_local_experts", "n_routed_experts", "num_experts"}, Range{0, 4096});
            experts && *experts > 0) {
            m.experts = static_cast<int>(*experts);
            m.expertsPerToken = static_cast<int>(requireInt({"num_experts_per_tok"}, Range{1, 4096}));
            m.moeIntermediateSize = static_cast<int>(f.optInteger("moe_intermediate_size", Range{1, 1 << 22})
                                                         .value_or(m.intermediateSize));
            m.sharedExperts = static_cast<int>(f.optInteger("n_shared_experts", kNonNegative).value_or(0));
            m.denseLeadingLayers = static_cast<int>(f.optInteger("first_k_dense_replace", kNonNegative).value_or(0));
        }
        if (auto kvLora = f.optInteger("kv_lora_rank", kPositive)) {
            MlaSpec a;
            a.kvLoraRank = static_cast<int>(*kvLora);
            a.qLoraRank = static_cast<int>(f.optInteger("q_lora_rank", kNonNegative).value_or(0));
            a.qkNopeHeadDim = static_cast<int>(f.integer("qk_nope_head_dim", kPositive));
            a.qkRopeHeadDim = static_cast<int>(f.integer("qk_rope_head_dim", kPositive));
            a.vHeadDim = static_cast<int>(f.integer("v_head_dim", kPositive));
            m.mla = a;
        }
        if (auto window = f.nullableNumber("sliding_window", kPositive))
            if (f.optBoolean("use_sliding_window").value_or(true) && *window < m.maxContext)
                m.slidingWindow = static_cast<int>(*window);
        if (m.attentionHeads % m.kvHeads != 0)
            f.fail("num_key_value_heads", "must divide num_attention_heads");
        m.parameters = countParameters(m).total();
        m.sourceUrl = fileName;
        return m;
    } catch (const FieldError &e) {
        return Error{fileName, e.path, e.message};
    }
}

} // namespace wb
