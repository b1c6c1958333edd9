// Default efficiency factors: what fraction of the catalog's peaks a serving engine reaches on
// each GPU family, and the fixed costs of each serving stack. These are the model's weakest
// numbers; each row says what it rests on, rows marked extrapolated rest on a neighbouring
// family, and a brief can override every factor (assumptions compute_efficiency,
// memory_efficiency, kv_read_efficiency, step_overhead_s). Measured benchmarks calibrate them in
// a later issue.
#include "performance/stepmodel.h"

#include <cstring>

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
constexpr StackRow kStacks[] = {
    {ServingStack::Trtllm, 1.00, 0.6e-3},
    {ServingStack::Sglang, 0.95, 1.0e-3},
    {ServingStack::Vllm, 0.90, 1.5e-3},
    {ServingStack::Generic, 0.85, 2.0e-3},
};

// Paged-attention decode kernels read the KV cache less efficiently than dense weight streams
// (scattered blocks): 57% and 42% of peak in the Nsight study above for unfused kernels, 70-80% in
// FlashInfer's fused kernels. 0.85 of the weight-stream figure.
constexpr double kKvReadShare = 0.85;

} // namespace

Precision mathPrecision(Precision weights)
{
    switch (weights) {
    case Precision::Int4:
    case Precision::Nf4: return Precision::Bf16;
    default: return weights;
    }
}

Efficiency defaultEfficiency(const GpuSpec &gpu, Precision math, ServingStack stack, const Assumptions &a)
{
    const FamilyRow *row = &kUnknownFamily;
    for (const FamilyRow &f : kFamilies)
        if (gpu.architecture == f.architecture)
            row = &f;
    const StackRow *s = &kStacks[3];
    for (const StackRow &r : kStacks)
        if (r.stack == stack)
            s = &r;

    double compute = row->compute16;
    switch (math) {
    case Precision::Fp8:
    case Precision::Int8: compute = row->compute8; break;
    case Precision::Fp4: compute = row->compute4 > 0 ? row->compute4 : row->compute8; break;
    case Precision::Fp32: compute = row->compute16 * 0.5; break;  // fp32 runs off the tensor path
    default: break;
    }

    Efficiency e;
    e.compute = compute * s->factor;
    e.memory = row->memory * s->factor;
    e.kvRead = row->memory * kKvReadShare * s->factor;
    e.link = a.value(Assumption::LinkEfficiency);
    e.stepOverheadS = s->stepOverheadS;
    e.layerOverheadS = a.value(Assumption::LayerOverheadS);
    e.basis = std::string(row->basis) + "; serving stack " + std::string(stackWords(stack)) + " x" + std::to_string(s->factor).substr(0, 4)
        + (row->extrapolated ? " (extrapolated)" : "");
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

bool efficiencyExtrapolated(const GpuSpec &gpu)
{
    for (const FamilyRow &f : kFamilies)
        if (gpu.architecture == f.architecture)
            return f.extrapolated;
    return true;
}

} // namespace wb
