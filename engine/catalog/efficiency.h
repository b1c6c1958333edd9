// The step model's efficiency factors: what fraction of the catalog's peaks a serving engine
// reaches, and its fixed cost per step. One table, whose every factor carries a literature prior
// (value, width and basis) and, once `gpuwb calibrate` has fitted it to measured runs, the
// calibrated value and the cases that support it (resources/calibration/default.json).
//
// Factors, each a key of the table:
//   memory.<architecture>          weight streams, fraction of peak HBM/GDDR bandwidth
//   compute.<architecture>.<math>  GEMMs at bf16, fp8 or fp4, fraction of dense peak
//   stack.<stack>                  the serving stack's factor on both (TensorRT-LLM's prior is 1)
//   step_overhead_s.<stack>        scheduler, sampling and launch cost per step, seconds
//   encoder_step_s                 an encoder's batch on a TensorRT engine (the trtllm stack):
//                                  enqueue and launch, no scheduler or sampling, seconds
//   kv_read_share                  paged KV reads against weight streams
//   kernel_time_s.<architecture>   the least time one small kernel of a layer takes (launch, ramp,
//                                  tail): a step pays it for every kernel of every layer, so a
//                                  layer's fixed cost follows its kernel count (kernelsPerLayer)
//   grouped_gemm_share             grouped expert GEMMs (MoE) against dense GEMMs, for both their
//                                  weight reads and their math
//   train.<architecture>.<math>    a training step's math, fraction of dense peak (training.h)
// A GPU family x precision x stack's efficiencies are products of these, so that a stack
// measured on one family informs the others (one mechanism, fewer free constants).
#pragma once

#include "core/assumptions.h"
#include "core/result.h"
#include "core/types.h"

#include <string>
#include <utility>
#include <vector>

namespace wb {

struct GpuSpec;

// The factors one step model uses, after the brief's overrides.
struct Efficiency
{
    double compute = 0.6;        // fraction of dense peak FLOP/s in the step's GEMMs
    double memory = 0.8;         // fraction of peak HBM bandwidth streaming weights
    double kvRead = 0.68;        // fraction of peak HBM bandwidth reading a paged KV cache
    double link = 0.65;          // fraction of scale-up link bandwidth an all-reduce achieves
    double stepOverheadS = 0;    // scheduler, sampling and launch cost per step
    double layerOverheadS = 0;   // a brief's flat per-layer cost (layer_overhead_s), replacing kernels x kernelTimeS
    double kernelTimeS = 0;      // least time of one small kernel
    double groupedGemmShare = 1; // grouped expert GEMMs against dense ones (MoE)
    std::string basis;           // which table rows, and whether calibrated
    std::vector<std::string> uncalibrated;    // those of them resting on their prior alone
};

struct EfficiencyFactor
{
    std::string key;
    double prior = 0;          // the literature value
    double priorWidth = 0;     // standard deviation of its natural log: how far data may move it
    double upper = 0;          // physical ceiling (a fraction of a peak cannot pass 1); 0: none
    std::string priorBasis;    // where the prior comes from
    double value = 0;          // calibrated, or the prior
    std::vector<std::string> cases;  // the measured cases that informed it (empty: prior only)

    bool calibrated() const { return !cases.empty(); }
    // "seconds" for the per-step and per-kernel costs, else "fraction".
    std::string unit() const
    {
        return key.ends_with("_s") || key.find("_s.") != std::string::npos ? "seconds" : "fraction";
    }
    // "calibrated from 7 cases (MLP-001, ...)" or "literature prior: ...".
    std::string source() const;
};

class EfficiencyTable
{
public:
    EfficiencyTable() = default;
    explicit EfficiencyTable(std::vector<EfficiencyFactor> factors) : m_factors(std::move(factors)) {}

    // The literature priors (efficiency.cpp), no calibration.
    static const EfficiencyTable &priors();

    // A calibration file over the priors: each listed factor takes its value and cases. Unknown
    // or repeated keys, a value beyond 100 times its prior either way or above its ceiling, and
    // a prior or width that differs from the code's (a file fitted against other priors is
    // stale) are errors that name the field; a failed load changes nothing.
    Status loadJson(const std::string &text, const std::string &fileName);
    std::string toJson(const std::string &generatedBy) const;
    // A factor's value as the file keeps it.
    static double fileValue(double value);

    // The efficiencies for a GPU, the precision its math runs in and a serving stack, with the
    // brief's overrides applied; `encoder` for an embedding model's prefill-only batches.
    Efficiency efficiency(const GpuSpec &gpu, Precision mathPrecision, ServingStack stack, bool moe,
                          const Assumptions &a, bool encoder = false) const;
    // The training factor (train.<family>.<math>) for a GPU and the precision its math runs in.
    std::string trainingKey(const GpuSpec &gpu, Precision mathPrecision) const;
    // The weight-stream factor (memory.<family>) of a GPU.
    std::string memoryKey(const GpuSpec &gpu) const;
    // The factor keys such a step model uses (grouped_gemm_share only for mixture-of-experts).
    std::vector<std::string> keysFor(const GpuSpec &gpu, Precision mathPrecision, ServingStack stack, bool moe,
                                     bool encoder = false) const;

    const std::vector<EfficiencyFactor> &factors() const { return m_factors; }
    const EfficiencyFactor *factor(const std::string &key) const;
    EfficiencyFactor *factor(const std::string &key);
    double value(const std::string &key) const;
    std::string file() const { return m_file; }

private:
    std::vector<EfficiencyFactor> m_factors;
    std::string m_file;   // the calibration file loaded, if any
};

// The precision the step's matrix multiplies run in for weights stored at p: fp8/int8/fp4 run
// natively (weights and activations quantized), weight-only int4/nf4 dequantize to bf16.
Precision mathPrecision(Precision weights);

} // namespace wb
