// The GPU and model catalogs: specifications with their sources, read from JSON at run time.
// The shipped catalog lives in resources/catalog/; a user catalog may add entries or override
// shipped ones (see Catalog::loadFile). Every figure of a GPU names the source it was read
// from and the date it was read.
#pragma once

#include "catalog/bands.h"
#include "catalog/efficiency.h"
#include "catalog/mediamodel.h"
#include "catalog/prices.h"
#include "core/result.h"
#include "core/types.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct Source
{
    std::string id;
    std::string url;
    std::string title;
    std::string readDate;  // ISO date the figure was read from url
    std::string note;
};

// Dense (no structured sparsity) peak rates in FLOP/s (OP/s for int8). Empty where the
// hardware has no such path or no reliable public figure exists.
struct DenseFlops
{
    std::optional<double> fp32, tf32, bf16, fp8, int8, fp4;
};

struct ScaleUp
{
    std::string kind;                 // "nvlink", "infinity-fabric", "roce", "nvlink-bridge", "pcie"
    double bandwidthBytesPerS = 0;    // per GPU, both directions together (NVIDIA's convention)
    int domainGpus = 1;               // GPUs reachable at that bandwidth (8 on HGX, 72 in NVL72)
};

struct GpuSpec
{
    std::string id;
    std::string name;
    std::string vendor;        // "nvidia", "amd", "intel"
    std::string architecture;  // "ampere", "hopper", "blackwell", ...
    std::string formFactor;    // "sxm", "pcie", "oam", "superchip"
    std::uint64_t memoryBytes = 0;
    double memoryBandwidthBytesPerS = 0;
    DenseFlops denseFlops;
    ScaleUp scaleUp;
    std::optional<int> pcieGen;   // empty where the host link is not PCIe (GB200: NVLink-C2C)
    double boardPowerW = 0;
    int migInstances = 0;
    int year = 0;
    std::map<std::string, std::string> figureSources;  // figure name -> Source id
    std::vector<std::string> caveats;                   // doubts a user should see
    std::string catalogFile;                            // where this entry was read

    // The dense peak for math at precision p, or empty when the GPU has no such path.
    // fp16 uses the bf16 figure; weight-only int4/nf4 compute in bf16.
    std::optional<double> peakFlops(Precision p) const;
    // True when the GPU can run weights stored at p: natively for fp8/int8/fp4 (a tensor path
    // exists), always for 16/32-bit and for weight-only int4/nf4 (dequantized to bf16).
    bool supportsWeights(Precision p) const;
    // One direction of the GPU's link to its host, bytes/s: PCIe x16 at its generation (PCI-SIG:
    // 2 GB/s per lane per direction at Gen4, doubling each generation), or NVLink-C2C on a
    // superchip (450 GB/s each way: NVIDIA's GH200/GB200 datasheets, 900 GB/s in all).
    double hostLinkBytesPerS() const;
};

struct MlaSpec
{
    int qLoraRank = 0;       // 0: queries are projected directly
    int kvLoraRank = 0;
    int qkNopeHeadDim = 0;
    int qkRopeHeadDim = 0;
    int vHeadDim = 0;
};

struct ModelSpec
{
    std::string id;
    std::string name;
    double parameters = 0;        // published total, for cross-checking the architecture
    int layers = 0;
    int hiddenSize = 0;
    int attentionHeads = 0;
    int kvHeads = 0;
    int headDim = 0;
    int intermediateSize = 0;     // dense FFN width
    int vocabSize = 0;
    bool tiedEmbeddings = false;
    bool gatedMlp = true;         // SwiGLU-style (3 matrices) or plain (2 matrices)
    bool attentionBias = false;   // biases on q/k/v (Qwen2)
    bool linearBiases = false;    // biases on every linear and LayerNorm with bias (GPT-2 family)
    bool learnedPositions = false;
    int maxContext = 0;
    int experts = 0;              // routed experts; 0 for dense models
    int expertsPerToken = 0;
    int moeIntermediateSize = 0;
    int sharedExperts = 0;
    int denseLeadingLayers = 0;   // MoE models whose first layers keep a dense FFN
    std::optional<MlaSpec> mla;
    std::optional<int> slidingWindow;
    std::string sourceUrl;
    std::string sourceReadDate;
    std::string catalogFile;

    bool isMoe() const { return experts > 0; }
};

class Catalog
{
public:
    // Reads one catalog file (GPUs, models, or both) and merges it: a new id adds an entry; an
    // existing id is replaced, or, when the entry says "override": true, patched field by field
    // (JSON merge patch) and validated again. On error the catalog is left unchanged.
    Status loadFile(const std::string &path);
    Status loadJson(const std::string &text, const std::string &fileName);

    const GpuSpec *gpu(const std::string &id) const;
    const ModelSpec *model(const std::string &id) const;
    const MediaModelSpec *mediaModel(const std::string &id) const;
    const Source *source(const std::string &id) const;
    const std::vector<GpuSpec> &gpus() const { return m_gpus; }
    const std::vector<ModelSpec> &models() const { return m_models; }
    const std::vector<MediaModelSpec> &mediaModels() const { return m_mediaModels; }
    const std::vector<std::string> &files() const { return m_files; }
    const std::vector<GpuPrice> &prices() const { return m_prices; }
    const std::vector<ApiPrice> &apiPrices() const { return m_apiPrices; }
    // The step model's efficiency factors: the literature priors, calibrated by the shipped
    // resources/calibration/default.json when it is there (efficiency.h).
    const EfficiencyTable &efficiency() const { return m_efficiency; }
    Status loadCalibrationFile(const std::string &path);
    // The figures' P10-P90 bands from the calibration's held-out errors, from the shipped
    // resources/calibration/bands.json when it is there (bands.h); empty otherwise.
    const BandTable &bands() const { return m_bands; }
    Status loadBandsFile(const std::string &path);

    // Loads the shipped catalog and then the user's (see defaultCatalogFiles), and the shipped
    // calibration unless withCalibration is false (gpuwb calibrate makes a new one from the
    // priors, so a stale or broken file must not stop it).
    static Result<Catalog> loadDefault(bool withCalibration = true);
    // Loads the shipped catalog only (tests, benchmarks, fuzzers): from resources/catalog under
    // `resources`, or under resourceDir() when it is empty.
    static Result<Catalog> loadShipped(const std::string &resources = {});

private:
    std::vector<GpuSpec> m_gpus;
    std::vector<ModelSpec> m_models;
    std::map<std::string, Source> m_sources;
    std::map<std::string, std::string> m_rawGpus;    // id -> JSON text, for merge patches
    std::map<std::string, std::string> m_rawModels;
    std::vector<MediaModelSpec> m_mediaModels;
    std::map<std::string, std::string> m_rawMedia;
    std::vector<std::string> m_files;
    std::vector<GpuPrice> m_prices;
    std::vector<ApiPrice> m_apiPrices;
    EfficiencyTable m_efficiency = EfficiencyTable::priors();
    BandTable m_bands;
};

// The folder holding catalog/ and samples/: $GPUWB_RESOURCE_DIR, else the source tree of a
// developer build if it exists, else the installed data folder.
std::string resourceDir();
// The shipped catalog files, then every *.json in the user catalog folder
// ($GPUWB_USER_CATALOG_DIR, else $XDG_CONFIG_HOME/gpu-workbench/catalog, else
// ~/.config/gpu-workbench/catalog), in name order.
std::vector<std::string> defaultCatalogFiles();
// The shipped catalog files under resources/catalog (resourceDir() when resources is empty).
std::vector<std::string> shippedCatalogFiles(const std::string &resources = {});

// Model architecture from a Hugging Face config.json object (Llama, Mistral, Mixtral, Qwen2,
// DeepSeek-V3, GPT-2/GPT-BigCode families). Errors name file and path.
Result<ModelSpec> modelFromHfConfig(const std::string &jsonText, const std::string &fileName,
                                    const std::string &jsonPath);

} // namespace wb
