// The time of one serving-engine iteration (a "step") of one replica: the prefill tokens and
// decode sequences it holds and the KV cache they read. Roofline terms with named efficiency
// factors, written in the linear form
//
//   T = b0 + b1 * prefill tokens + b2 * decode sequences + b3 * KV tokens read
//          + b4 * prefill attention pairs (+ the MoE expert-weight term)
//
// whose efficiency factors measured benchmarks calibrate (efficiency.h, calibration.h). Units: seconds,
// tokens, sequences. b4 carries the quadratic part of prefill attention (query x key token
// pairs of a causal chunk); it is zero for short prompts in practice and is the one term the
// four-coefficient form of BLIS-style calibrators leaves out.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "catalog/efficiency.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

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
                                           const GpuSpec &gpu, const Assumptions &assumptions,
                                           const EfficiencyTable &table, Message *why);

    double stepTime(const StepBatch &batch) const;
    // The coefficients of the linear form with the MoE expert term evaluated at `tokens` tokens
    // per step (dense models: independent of it).
    StepCoefficients linear(double tokens = 1) const;
    const Efficiency &efficiency() const { return m_eff; }
    int pipelineStages() const { return m_pp; }
    // Expert bytes read per step per GPU when `tokens` tokens are routed (MoE), else 0.
    double expertReadS(double tokens) const;
    const std::vector<Message> &notes() const { return m_notes; }

private:
    StepCoefficients m_c;
    Efficiency m_eff;
    int m_pp = 1;
    // MoE: routed-expert layers, experts, top-k and seconds to read one expert of one layer.
    int m_moeLayers = 0;
    int m_experts = 0;
    int m_topK = 0;
    double m_expertReadS = 0;
    std::vector<Message> m_notes;
};

// Kernels one decoder layer launches per step (a dense or a mixture-of-experts layer of m): the
// count its fixed cost per step follows.
int kernelsPerLayer(const ModelSpec &m, bool moeLayer);

} // namespace wb
