// The time of one serving-engine iteration (a "step") of one replica: the prefill tokens and
// decode sequences it holds and the KV cache they read. Roofline terms with named efficiency
// factors, written in the linear form
//
//   T = b0 + b1 * prefill tokens + b2 * decode sequences + b3 * KV tokens read
//          + b4 * prefill attention pairs (+ the MoE expert-weight term)
//
// so that measured benchmarks can calibrate the coefficients (a later issue). Units: seconds,
// tokens, sequences. b4 carries the quadratic part of prefill attention (query x key token
// pairs of a causal chunk); it is zero for short prompts in practice and is the one term the
// four-coefficient form of BLIS-style calibrators leaves out.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

// Fractions of the catalog's peak that a serving engine achieves, and its fixed costs. Each
// default names where it comes from (efficiency.cpp).
struct Efficiency
{
    double compute = 0.6;        // fraction of dense peak FLOP/s in the step's GEMMs
    double memory = 0.8;         // fraction of peak HBM bandwidth streaming weights
    double kvRead = 0.68;        // fraction of peak HBM bandwidth reading a paged KV cache
    double link = 0.65;          // fraction of scale-up link bandwidth an all-reduce achieves
    double stepOverheadS = 0;    // scheduler, sampling and launch cost per step
    double layerOverheadS = 0;   // kernel-launch gaps and small kernels per layer per step
    std::string basis;           // which family/precision/stack row this came from
};

struct StepCoefficients
{
    double b0 = 0;  // s per step: weights read, fixed and per-layer overheads, all-reduce latency
    double b1 = 0;  // s per prefill token
    double b2 = 0;  // s per decode sequence
    double b3 = 0;  // s per KV token read
    double b4 = 0;  // s per prefill attention (query, key) pair
};

// One step's work, as the simulator assembles it.
struct StepBatch
{
    double prefillTokens = 0;
    double decodeSequences = 0;
    double kvTokensRead = 0;     // KV entries the attention reads (decode contexts, prefill prefixes)
    double attentionPairs = 0;   // causal (query, key) pairs of the prefill chunks
    int sequences = 0;           // sequences in the step (prefill and decode), for pipeline micro-batches
};

class StepModel
{
public:
    // Empty, with a reason in *why, when the GPU cannot run the weights' precision or the
    // catalog lacks the figures the model needs.
    static std::optional<StepModel> create(const Workload &workload, const Candidate &candidate,
                                           const GpuSpec &gpu, const Assumptions &assumptions, std::string *why);

    double stepTime(const StepBatch &batch) const;
    // The coefficients of the linear form with the MoE expert term evaluated at `tokens` tokens
    // per step (dense models: independent of it).
    StepCoefficients linear(double tokens = 1) const;
    const Efficiency &efficiency() const { return m_eff; }
    int pipelineStages() const { return m_pp; }
    // Expert bytes read per step per GPU when `tokens` tokens are routed (MoE), else 0.
    double expertReadS(double tokens) const;
    std::vector<std::string> notes() const { return m_notes; }

private:
    StepCoefficients m_c;
    Efficiency m_eff;
    int m_pp = 1;
    // MoE: routed-expert layers, experts, top-k and seconds to read one expert of one layer.
    int m_moeLayers = 0;
    int m_experts = 0;
    int m_topK = 0;
    double m_expertReadS = 0;
    std::vector<std::string> m_notes;
};

// The efficiency factors for a GPU, the precision its math runs in and a serving stack, with the
// brief's overrides applied. basis names the table row.
Efficiency defaultEfficiency(const GpuSpec &gpu, Precision mathPrecision, ServingStack stack,
                             const Assumptions &assumptions);

// True when the GPU's family row rests on a neighbouring family rather than measurements.
bool efficiencyExtrapolated(const GpuSpec &gpu);

// The precision the step's matrix multiplies run in for weights stored at p: fp8/int8/fp4 run
// natively (weights and activations quantized), weight-only int4/nf4 dequantize to bf16.
Precision mathPrecision(Precision weights);

} // namespace wb
