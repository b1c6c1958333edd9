#include "core/types.h"

namespace wb {

std::string_view termWords(PricingTerm term)
{
    switch (term) {
    case PricingTerm::OnDemand: return "on-demand";
    case PricingTerm::Spot: return "spot";
    case PricingTerm::Reserved1y: return "1-year reserved";
    case PricingTerm::Reserved3y: return "3-year reserved";
    case PricingTerm::Purchase: return "purchase";
    }
    return "?";
}

std::string_view stackWords(ServingStack stack)
{
    switch (stack) {
    case ServingStack::Generic: return "a generic server";
    case ServingStack::Vllm: return "vLLM";
    case ServingStack::Sglang: return "SGLang";
    case ServingStack::Trtllm: return "TensorRT-LLM";
    }
    return "?";
}

bool packsEncoderBatches(ServingStack stack)
{
    return stack != ServingStack::Generic;
}

bool isInference(WorkloadKind kind)
{
    return kind == WorkloadKind::RealtimeInference || kind == WorkloadKind::BatchInference
        || kind == WorkloadKind::Embedding || kind == WorkloadKind::Evaluation;
}

bool isTraining(WorkloadKind kind)
{
    return kind == WorkloadKind::Training || kind == WorkloadKind::FullFinetune;
}

bool isAdapter(WorkloadKind kind)
{
    return kind == WorkloadKind::Lora || kind == WorkloadKind::Qlora;
}

double weightBitsPerParameter(Precision p, bool nf4DoubleQuant)
{
    switch (p) {
    case Precision::Fp32: return 32.0;
    case Precision::Bf16:
    case Precision::Fp16: return 16.0;
    // FP8 and INT8 checkpoints carry one scale per tensor or per output channel: under 0.01
    // bit per weight for the layer sizes of these models, so 8 bits.
    case Precision::Fp8:
    case Precision::Int8: return 8.0;
    // GPTQ/AWQ-style INT4 with group size 128 and an fp16 scale and zero point per group:
    // 4 + 32/128 = 4.25 bits.
    case Precision::Int4: return 4.25;
    // NVFP4: 16-element blocks with one FP8 scale each, 4 + 8/16 = 4.5 bits (the per-tensor
    // fp32 scale is negligible). AMD's MXFP4 (32-element blocks, 8-bit scale) is 4.25.
    case Precision::Fp4: return 4.5;
    // NF4 in 64-element blocks: with double quantization 4 + 8/64 + 32/(64*256) = 4.127 bits
    // (QLoRA, arXiv 2305.14314, section 3); without it an fp32 absmax per block, 4.5 bits.
    case Precision::Nf4: return nf4DoubleQuant ? 4.127 : 4.5;
    }
    return 16.0;
}

double cacheBytesPerElement(Precision p)
{
    switch (p) {
    case Precision::Fp32: return 4.0;
    case Precision::Bf16:
    case Precision::Fp16: return 2.0;
    case Precision::Fp8:
    case Precision::Int8: return 1.0;
    case Precision::Int4: return 4.25 / 8.0;
    case Precision::Fp4: return 4.5 / 8.0;
    case Precision::Nf4: return 4.127 / 8.0;
    }
    return 2.0;
}

} // namespace wb
