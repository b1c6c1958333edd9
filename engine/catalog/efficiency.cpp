// The efficiency table's literature priors: what fraction of the catalog's peaks a serving
// engine reaches on each GPU family, and the fixed costs of each serving stack. Each row says
// what it rests on; rows marked extrapolated rest on a neighbouring family and get wider priors.
// `gpuwb calibrate` fits them to measured runs (calibration.h); a brief can override every
// factor (assumptions compute_efficiency, memory_efficiency, kv_read_efficiency,
// step_overhead_s).
#include "catalog/efficiency.h"

#include "catalog/catalog.h"
#include "core/jsonfields.h"
#include "core/limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

namespace {

struct FamilyRow
{
    const char *architecture;
    double memory;      // weight streams, fraction of peak HBM/GDDR bandwidth
    double compute16;   // bf16/fp16 GEMMs, fraction of dense peak
    double compute8;    // fp8/int8 GEMMs
    double compute4;    // fp4 GEMMs
    bool extrapolated;
    const char *basis;
};

// Memory: dense weight streams reach 78-84% of the H100's 3.35 TB/s in Nsight measurements of
// a 70B serving workload (mikamirai.com/blog/gpu-memory-bandwidth, 2026), and STREAM-style
// copies about 90% (chipsandcheese.com, "Nvidia's H100: Funny L2, and Tons of Bandwidth",
// 2023); 0.80 sits at the serving end of that range. Compute: cuBLAS reaches 70-80% of the dense
// bf16 peak on large GEMMs and fp8 somewhat less (scaling, narrower tiles); a serving step's
// GEMMs are mid-sized, so 0.70 / 0.60. AMD: its own "max-achievable FLOPs" measurements
// (rocm.blogs.amd.com, measuring-max-achievable-flops-part2, 2025) and SemiAnalysis's MI300X
// study (about 45% of peak on real workloads, about 81% of HBM bandwidth in microbenchmarks).
constexpr FamilyRow kFamilies[] = {
    {"ampere", 0.80, 0.70, 0.60, 0.0, false,
     "Ampere: weight streams 80% of HBM2e peak, bf16 GEMMs 70% of dense peak (cuBLAS on A100)"},
    {"hopper", 0.80, 0.70, 0.60, 0.0, false,
     "Hopper: weight streams 80% of HBM3 peak (Nsight: 78-84%), bf16 GEMMs 70% and fp8 60% of dense peak"},
    {"blackwell", 0.80, 0.70, 0.60, 0.55, true,
     "Blackwell: Hopper's ratios, fp4 GEMMs 55% of dense peak (no independent measurement found)"},
    {"blackwell-ultra", 0.80, 0.70, 0.60, 0.55, true,
     "Blackwell Ultra: Hopper's ratios, fp4 GEMMs 55% of dense peak (no independent measurement found)"},
    {"ada", 0.80, 0.65, 0.55, 0.0, true,
     "Ada: GDDR streams 80% of peak; GEMMs 65%/55% of dense peak on power-limited boards (extrapolated)"},
    {"cdna3", 0.70, 0.45, 0.40, 0.0, false,
     "CDNA3: HBM3 70% of peak, bf16 GEMMs 45% and fp8 40% of dense peak (AMD MAF blog, SemiAnalysis)"},
    {"cdna4", 0.70, 0.45, 0.40, 0.40, true,
     "CDNA4: CDNA3's ratios (no independent measurement found)"},
    {"gaudi3", 0.70, 0.50, 0.45, 0.0, true,
     "Gaudi 3: no public serving-level measurement found; CDNA-like ratios assumed"},
};

constexpr FamilyRow kUnknownFamily = {"", 0.70, 0.50, 0.45, 0.40, true,
                                      "unknown architecture: conservative ratios assumed"};

// Serving stacks: a factor on both efficiencies and a fixed cost per step. TensorRT-LLM is the
// reference (vendor-tuned kernels, C++ runtime, CUDA graphs); the validation notes put MLPerf and
// TensorRT-LLM numbers near the top of what is achievable and generic deployments lower
// (shared/validation/README.md, caveat 6). Per-step costs: vLLM's own profiling before v0.6 put
// CPU scheduling and sampling at a large share of a decode step; later releases overlap most of
// it. These are engineering estimates pending calibration.
struct StackRow
{
    ServingStack stack;
    double factor;
    double stepOverheadS;
};
// TensorRT-LLM is the reference stack: its factor is 1 by definition, held there by a narrow
// prior so that the family factors carry what TensorRT-LLM measurements say.
constexpr StackRow kStacks[] = {
    {ServingStack::Trtllm, 1.00, 0.6e-3},
    {ServingStack::Sglang, 0.95, 1.0e-3},
    {ServingStack::Vllm, 0.90, 1.5e-3},
    {ServingStack::Generic, 0.85, 2.0e-3},
};

// An encoder's batch on a bare TensorRT engine: the host enqueues one engine execution, with no
// scheduler, sampling or detokenization around it, and enqueues the next batch while this one
// runs ("trtexec enqueues the inferences one batch ahead of time", TensorRT's command-line
// programs reference), so what a batch adds is the engine's start and drain on the GPU. 30 us
// assumed (an engineering estimate, x/2 either way); the encoder cases calibrate it.
constexpr double kEncoderStepS = 30e-6;
constexpr const char *kEncoderStepBasis =
    "an encoder's batch on a bare TensorRT engine: no scheduler or sampling, the next batch enqueued while one runs "
    "(TensorRT's trtexec reference); 30 us for the engine's start and drain, assumed";

// Paged-attention decode kernels read the KV cache less efficiently than dense weight streams
// (scattered blocks): 57% and 42% of peak in the Nsight study above for unfused kernels, 70-80% in
// FlashInfer's fused kernels. 0.85 of the weight-stream figure.
constexpr double kKvReadShare = 0.85;

// How far measurements may move a prior (standard deviation of its natural log): family
// factors backed by measurements of their own +-25% (compute) and +-15% (memory; bandwidth is
// the better-measured figure), extrapolated ones +-40% and +-30%; stack factors +-15% about
// TensorRT-LLM's fixed reference; per-step overheads are engineering estimates (x/2 either way).
constexpr double kComputeWidth = 0.25, kComputeWidthExtrapolated = 0.40;
constexpr double kMemoryWidth = 0.15, kMemoryWidthExtrapolated = 0.30;
constexpr double kStackWidth = 0.15, kReferenceStackWidth = 0.02;
constexpr double kOverheadWidth = 0.7;
constexpr double kKvShareWidth = 0.2;
constexpr double kKernelWidth = 0.5;
constexpr double kGroupedGemmWidth = 0.4;

// The least time of one small kernel in a decode step: 12 us per dense layer (between the 5-10 us
// all-reduce latency and the 20 us per layer of reference/estimator-notes.md A.8) over the nine
// kernels of a fused dense layer (kernelsPerLayer) is 1.33 us; with CUDA graphs launch gaps
// vanish but each kernel keeps its ramp and tail. ROCm's kernels start slower (HIP graph and
// launch latency about 1.5x CUDA's in AMD's own tuning guides): 2 us.
constexpr double kKernelTimeS = 12e-6 / 9;
constexpr double kKernelTimeAmdS = 2e-6;
// Grouped GEMMs over many small experts run below dense GEMMs of the same total size: each
// expert's matrix is small (a few tokens, a TP slice of the intermediate width) and the
// permutation around them costs memory traffic (MegaBlocks, arXiv 2211.15841; vLLM's and
// SGLang's fused-MoE kernel tuning tables). 0.7 of the dense efficiencies, assumed.
constexpr double kGroupedGemmShare = 0.7;

// A training step reaches less of the peak than its largest GEMMs: attention's backward pass,
// norms, activations and casts run below the GEMM rate. Megatron-LM sustained 52% of the A100's
// bf16 peak on a 1T-parameter model with its communication and bubble included (Narayanan et al.,
// arXiv 2104.04473, Table 1), so the math alone reaches about 0.8 of the family's GEMM figure;
// fp8 training runs 1.3-1.5x faster than bf16 (Transformer Engine), not the 2x of its peak:
// 0.65 of the fp8 GEMM figure.
constexpr double kTrainShare16 = 0.8, kTrainShare8 = 0.65;
constexpr double kTrainWidth = 0.3, kTrainWidthExtrapolated = 0.4;
constexpr const char *kTrainBasis =
    "the family's GEMM efficiency x0.8 (bf16) or x0.65 (fp8, fp4): a training step's attention backward, norms and "
    "casts run below the GEMM rate (Megatron-LM: 52% of A100 bf16 peak including communication, arXiv 2104.04473)";

// Media generation (performance/media.h): one share of the bf16 dense peak for a pipeline's
// convolutions and linear layers and one for attention's products, across GPU families. Priors
// from measurements outside the validation set: ONNX Runtime's H100 table for FLUX.1 [dev] and
// SD 3.5 Large at 1024x1024, 50 steps, torch.compile (8.20 s and 7.47 s; microsoft/onnxruntime
// pull request 22986) is 0.45-0.5 of the peak by this engine's count with attention at 0.33;
// FlashAttention-2's forward pass reaches about a third of the H100's bf16 peak (Shah et al.,
// FlashAttention-3, arXiv 2407.08608, figure 5).
constexpr double kMediaDenseShare = 0.45, kMediaAttentionShare = 0.33, kMediaWidth = 0.3;
constexpr const char *kMediaDenseBasis =
    "a diffusion pipeline's convolutions and linear layers, fraction of the bf16 dense peak: ONNX Runtime's H100 "
    "timings of FLUX.1 [dev] and SD 3.5 Large (microsoft/onnxruntime PR 22986) by this engine's count";
constexpr const char *kMediaAttentionBasis =
    "attention's matrix products in a diffusion pipeline, fraction of the bf16 dense peak: FlashAttention-2's forward "
    "pass on H100 (FlashAttention-3 paper, arXiv 2407.08608)";

const char *mathKey(Precision math)
{
    switch (math) {
    case Precision::Fp8:
    case Precision::Int8: return "fp8";
    case Precision::Fp4: return "fp4";
    default: return "bf16";
    }
}

const FamilyRow &familyRow(const std::string &architecture)
{
    for (const FamilyRow &f : kFamilies)
        if (architecture == f.architecture)
            return f;
    return kUnknownFamily;
}

std::string familyName(const FamilyRow &f)
{
    return *f.architecture ? f.architecture : "unknown";
}

EfficiencyTable makePriors()
{
    std::vector<EfficiencyFactor> list;
    auto add = [&](std::string key, double prior, double width, std::string basis) {
        EfficiencyFactor f;
        // Fractions of a peak cannot pass 1; a stack may beat the reference by a little.
        if (key.starts_with("memory.") || key.starts_with("compute.") || key.starts_with("train.") || key == "kv_read_share"
            || key.ends_with("_share"))
            f.upper = 1.0;
        else if (key.starts_with("stack."))
            f.upper = 1.1;
        f.key = std::move(key);
        f.prior = f.value = prior;
        f.priorWidth = width;
        f.priorBasis = std::move(basis);
        list.push_back(std::move(f));
    };
    std::vector<const FamilyRow *> rows;
    for (const FamilyRow &f : kFamilies)
        rows.push_back(&f);
    rows.push_back(&kUnknownFamily);
    for (const FamilyRow *f : rows) {
        const std::string name = familyName(*f);
        add("memory." + name, f->memory, f->extrapolated ? kMemoryWidthExtrapolated : kMemoryWidth, f->basis);
        const double cw = f->extrapolated ? kComputeWidthExtrapolated : kComputeWidth;
        add("compute." + name + ".bf16", f->compute16, cw, f->basis);
        add("compute." + name + ".fp8", f->compute8, cw, f->basis);
        if (f->compute4 > 0)
            add("compute." + name + ".fp4", f->compute4, cw, f->basis);
        // Training: the whole step's math (GEMMs forward and backward, attention, norms, the
        // optimizer's elementwise work aside) against the dense peak, communication and pipeline
        // bubbles being modelled apart (training.h).
        const double tw = f->extrapolated ? kTrainWidthExtrapolated : kTrainWidth;
        add("train." + name + ".bf16", f->compute16 * kTrainShare16, tw, kTrainBasis);
        add("train." + name + ".fp8", f->compute8 * kTrainShare8, tw, kTrainBasis);
        if (f->compute4 > 0)
            add("train." + name + ".fp4", f->compute4 * kTrainShare8, tw, kTrainBasis);
        const bool amd = name.starts_with("cdna");
        add("kernel_time_s." + name, amd ? kKernelTimeAmdS : kKernelTimeS, kKernelWidth,
            amd ? "ROCm kernels start about 1.5x slower than CUDA's (AMD tuning guides): 2 us per small kernel"
                : "12 us per dense decoder layer over its nine kernels (reference/estimator-notes.md A.8)");
    }
    add("media_dense_share", kMediaDenseShare, kMediaWidth, kMediaDenseBasis);
    add("media_attention_share", kMediaAttentionShare, kMediaWidth, kMediaAttentionBasis);
    add("grouped_gemm_share", kGroupedGemmShare, kGroupedGemmWidth,
        "grouped expert GEMMs run below dense ones (small per-expert matrices, token permutation; MegaBlocks, "
        "arXiv 2211.15841): 0.7 assumed");
    for (const StackRow &r : kStacks) {
        const std::string name(enumName(r.stack));
        const bool reference = r.stack == ServingStack::Trtllm;
        add("stack." + name, r.factor, reference ? kReferenceStackWidth : kStackWidth,
            reference ? "TensorRT-LLM is the reference stack (vendor-tuned kernels, C++ runtime, CUDA graphs)"
                      : "generic deployments sit below vendor-tuned stacks (shared/validation/README.md, caveat 6)");
        add("step_overhead_s." + name, r.stepOverheadS, kOverheadWidth,
            "per-step scheduling, sampling and launch cost: engineering estimate from vLLM's own profiling");
    }
    add("encoder_step_s", kEncoderStepS, kOverheadWidth, kEncoderStepBasis);
    add("kv_read_share", kKvReadShare, kKvShareWidth,
        "paged-attention KV reads against dense weight streams (Nsight study: 57-80% of peak by kernel)");
    return EfficiencyTable(std::move(list));
}

} // namespace

Precision mathPrecision(Precision weights)
{
    switch (weights) {
    case Precision::Int4:
    case Precision::Nf4: return Precision::Bf16;
    default: return weights;
    }
}

std::string EfficiencyFactor::source() const
{
    if (!calibrated())
        return "literature prior: " + priorBasis;
    std::string ids;
    for (std::size_t i = 0; i < cases.size(); ++i)
        ids += (i ? ", " : "") + cases[i];
    return fmt::format("calibrated from {} measured case{} ({}); prior {:.3g}: {}", cases.size(),
                       cases.size() == 1 ? "" : "s", ids, prior, priorBasis);
}

const EfficiencyTable &EfficiencyTable::priors()
{
    static const EfficiencyTable table = makePriors();
    return table;
}

const EfficiencyFactor *EfficiencyTable::factor(const std::string &key) const
{
    for (const EfficiencyFactor &f : m_factors)
        if (f.key == key)
            return &f;
    return nullptr;
}

EfficiencyFactor *EfficiencyTable::factor(const std::string &key)
{
    for (EfficiencyFactor &f : m_factors)
        if (f.key == key)
            return &f;
    return nullptr;
}

double EfficiencyTable::value(const std::string &key) const
{
    const EfficiencyFactor *f = factor(key);
    return f ? f->value : 0;
}

namespace {

// The factors one step model multiplies, by role.
struct FactorKeys
{
    std::string compute, memory, stack, stepOverhead, kvShare, kernelTime, groupedGemm;  // groupedGemm: MoE only

    std::vector<std::string> list() const
    {
        std::vector<std::string> keys = {compute, memory, stack, stepOverhead, kvShare, kernelTime};
        if (!groupedGemm.empty())
            keys.push_back(groupedGemm);
        return keys;
    }
};

FactorKeys factorKeys(const EfficiencyTable &table, const GpuSpec &gpu, Precision math, ServingStack stack, bool moe,
                      bool encoder)
{
    const std::string family = familyName(familyRow(gpu.architecture));
    const std::string name(enumName(stack));
    FactorKeys k;
    k.compute = "compute." + family + "." + mathKey(math);
    if (!table.factor(k.compute))  // a family with no fp4 row runs fp4 at its fp8 efficiency
        k.compute = "compute." + family + ".fp8";
    k.memory = "memory." + family;
    k.stack = "stack." + name;
    // An encoder on the trtllm stack runs as a bare TensorRT engine (as MLPerf and demoBERT run
    // BERT): no LLM scheduler or sampling around its batch.
    k.stepOverhead = encoder && stack == ServingStack::Trtllm ? "encoder_step_s" : "step_overhead_s." + name;
    k.kvShare = "kv_read_share";
    k.kernelTime = "kernel_time_s." + family;
    if (moe)
        k.groupedGemm = "grouped_gemm_share";
    return k;
}

} // namespace

std::string EfficiencyTable::trainingKey(const GpuSpec &gpu, Precision math) const
{
    const std::string family = familyName(familyRow(gpu.architecture));
    std::string key = "train." + family + "." + mathKey(math);
    if (!factor(key))
        key = "train." + family + ".fp8";
    return key;
}

std::string EfficiencyTable::memoryKey(const GpuSpec &gpu) const
{
    return "memory." + familyName(familyRow(gpu.architecture));
}

std::vector<std::string> EfficiencyTable::keysFor(const GpuSpec &gpu, Precision math, ServingStack stack, bool moe,
                                                  bool encoder) const
{
    return factorKeys(*this, gpu, math, stack, moe, encoder).list();
}

Efficiency EfficiencyTable::efficiency(const GpuSpec &gpu, Precision math, ServingStack stack, bool moe,
                                       const Assumptions &a, bool encoder) const
{
    const FactorKeys k = factorKeys(*this, gpu, math, stack, moe, encoder);
    const double stackFactor = value(k.stack);
    Efficiency e;
    // Products stay fractions of a peak. fp32 runs off the tensor path (half the bf16 rate).
    e.compute = std::min(1.0, value(k.compute) * stackFactor) * (math == Precision::Fp32 ? 0.5 : 1.0);
    e.memory = std::min(1.0, value(k.memory) * stackFactor);
    e.kvRead = std::min(1.0, value(k.memory) * value(k.kvShare) * stackFactor);
    e.link = a.value(Assumption::LinkEfficiency);
    e.stepOverheadS = value(k.stepOverhead);
    e.kernelTimeS = value(k.kernelTime);
    e.layerOverheadS = a.value(Assumption::LayerOverheadS);
    e.groupedGemmShare = moe ? value(k.groupedGemm) : 1.0;
    const std::vector<std::string> keys = k.list();
    for (const std::string &key : keys)
        if (!factor(key)->calibrated())
            e.uncalibrated.push_back(key);
    const FamilyRow &row = familyRow(gpu.architecture);
    e.basis = fmt::format("{}; serving stack {} x{:.2f}; {}", row.basis, stackWords(stack), stackFactor,
                          e.uncalibrated.empty() ? "every factor calibrated on measured runs"
                          : e.uncalibrated.size() == keys.size() ? "literature priors, no calibration"
                                                                 : "partly calibrated on measured runs");
    if (a.value(Assumption::ComputeEfficiency) > 0)
        e.compute = a.value(Assumption::ComputeEfficiency);
    if (a.value(Assumption::MemoryEfficiency) > 0)
        e.memory = a.value(Assumption::MemoryEfficiency);
    if (a.value(Assumption::KvReadEfficiency) > 0)
        e.kvRead = a.value(Assumption::KvReadEfficiency);
    if (a.value(Assumption::StepOverheadS) > 0)
        e.stepOverheadS = a.value(Assumption::StepOverheadS);
    return e;
}

Status EfficiencyTable::loadJson(const std::string &text, const std::string &fileName)
{
    using detail::Fields;
    using detail::Json;
    if (auto bad = limits::checkJsonText(text))
        return Error{fileName, "", *bad};
    const Json root = Json::parse(text, nullptr, false);
    if (root.is_discarded())
        return Error{fileName, "", "is not valid JSON (a syntax error, or a number out of range)"};
    if (!root.is_object())
        return Error{fileName, "", "is not a GPU Workbench calibration file (a JSON object is expected)"};
    EfficiencyTable next = *this;
    try {
        const Fields top(root, "");
        if (top.string("format") != "gpu-workbench-calibration")
            top.fail("format", "must be \"gpu-workbench-calibration\"");
        if (top.integer("version", detail::Range{1, 1e9}) != 1)
            top.fail("version", "this build reads version 1");
        const Json &list = top.array("factors");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = fmt::format("/factors/{}", i);
            if (!list[i].is_object())
                throw detail::FieldError{at, "each factor is an object with key, value, prior, prior_width and cases"};
            const Fields item(list[i], at);
            const std::string key = item.string("key");
            EfficiencyFactor *f = next.factor(key);
            if (!f)
                item.fail("key", "\"" + key + "\" is not a factor of this engine");
            if (!seen.insert(key).second)
                item.fail("key", "\"" + key + "\" appears twice");
            const double prior = item.number("prior", detail::kNonNegative);
            const double width = item.number("prior_width", detail::kNonNegative);
            if (std::fabs(prior - f->prior) > 1e-9 * std::max(1.0, f->prior)
                || std::fabs(width - f->priorWidth) > 1e-9)
                item.fail("prior", fmt::format("fitted against a prior of {} (width {}) where the engine's is {} (width {}): "
                                               "the file is stale; run gpuwb calibrate again",
                                               prior, width, f->prior, f->priorWidth));
            // Within a factor of 100 of its prior either way, and under its physical ceiling.
            const double ceiling = f->upper > 0 ? f->upper : f->prior * 100;
            f->value = item.number("value", detail::Range{f->prior / 100, ceiling, false});
            f->cases.clear();
            const Json &cases = item.array("cases");
            for (std::size_t c = 0; c < cases.size(); ++c) {
                if (!cases[c].is_string())
                    throw detail::FieldError{fmt::format("{}/cases/{}", at, c), "must be a case id (text)"};
                f->cases.push_back(cases[c].get<std::string>());
            }
        }
    } catch (const detail::FieldError &e) {
        return Error{fileName, e.path, e.message};
    }
    next.m_file = fileName;
    *this = std::move(next);
    return Ok{};
}

double EfficiencyTable::fileValue(double value)
{
    // Six significant digits, so that the file is the same on every machine (the fit's last
    // digits are not).
    return std::stod(fmt::format("{:.6g}", value));
}

std::string EfficiencyTable::toJson(const std::string &generatedBy) const
{
    nlohmann::ordered_json root;
    root["format"] = "gpu-workbench-calibration";
    root["version"] = 1;
    root["generated_by"] = generatedBy;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const EfficiencyFactor &f : m_factors) {
        nlohmann::ordered_json item;
        item["key"] = f.key;
        item["value"] = fileValue(f.value);
        item["prior"] = f.prior;
        item["prior_width"] = f.priorWidth;
        item["cases"] = f.cases;
        list.push_back(item);
    }
    root["factors"] = list;
    return root.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace wb
