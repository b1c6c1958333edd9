// Vocabulary of the brief: the enumerations whose spellings the brief/results JSON fixes
// (../shared/spec/brief-and-results-v1.md), with one generic name <-> value mapping.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace wb {

enum class Precision { Fp32, Bf16, Fp16, Fp8, Int8, Int4, Fp4, Nf4 };
enum class WorkloadKind {
    RealtimeInference, BatchInference, Training, FullFinetune, Lora, Qlora,
    MediaGeneration, Embedding, Evaluation
};
enum class TrafficMode { Offline, ClosedLoop, OpenLoop };
enum class ServingStack { Generic, Vllm, Sglang, Trtllm };
enum class Sharding { None, Zero1, Zero2, Zero3, Fsdp };
enum class Recompute { None, Selective, Full };
enum class Optimizer { AdamW, AdamW8bit, Sgd };
enum class OptimizerPlacement { Gpu, CpuOffload, Paged };
enum class LoraTargets { Attention, AllLinear };
enum class PricingTerm { OnDemand, Spot, Reserved1y, Reserved3y, Purchase };
enum class Level { Low, Medium, High };
// How the capacity is obtained (the seed's rent / reserve / buy / model API decision).
enum class Route { Rent, Reserve, Buy, Api, Hybrid };
// How rented GPU hours are billed (reservations and purchases are paid every hour regardless):
// around the clock at the capacity the peak needs, only in a scheduled window each day, or
// following the load with an autoscaler.
enum class Billing { AlwaysOn, Scheduled, Autoscaled, Serverless };
// How much a decision commits to, in increasing order: the vendor checklist asks for more
// evidence the larger the commitment.
enum class Commitment { OnDemand, Reserved, Purchase, DedicatedCluster };
// What a GPU price is an offer of: cloud instances, a marketplace's, a dedicated cluster, or a
// managed endpoint billed per hour (one billed per token is a model-API quote).
enum class Offer { Cloud, Marketplace, DedicatedCluster, ManagedEndpoint };
// Where data may be processed, or where an offer's GPUs or an API's servers are: a jurisdiction
// (the EU's single market counts as one).
enum class DataRegion { Us, Ca, Br, Eu, Uk, Ch, Ae, In, Sg, Jp, Kr, Au };
// What a checklist vendor sells (the offer kinds the method lists).
enum class VendorOffer { PublicCloud, PrivateCloud, ClusterRental, Marketplace, ManagedEndpoint, Purchase };
// A vendor's answer to a checklist question. Unknown is an answer ("the vendor does not know"),
// but it leaves a required item missing; not-applicable needs no evidence.
enum class Answer { Yes, No, Partial, Unknown, NotApplicable };

template<typename E>
struct EnumNames;  // specialised below: static constexpr std::array<std::pair<E, std::string_view>, N> items

#define WB_ENUM_NAMES(E, ...)                                                                  \
    template<> struct EnumNames<E> {                                                            \
        static constexpr auto items = std::to_array<std::pair<E, std::string_view>>({__VA_ARGS__}); \
    }

WB_ENUM_NAMES(Precision, {Precision::Fp32, "fp32"}, {Precision::Bf16, "bf16"}, {Precision::Fp16, "fp16"},
              {Precision::Fp8, "fp8"}, {Precision::Int8, "int8"}, {Precision::Int4, "int4"},
              {Precision::Fp4, "fp4"}, {Precision::Nf4, "nf4"});
WB_ENUM_NAMES(WorkloadKind, {WorkloadKind::RealtimeInference, "realtime-inference"},
              {WorkloadKind::BatchInference, "batch-inference"}, {WorkloadKind::Training, "training"},
              {WorkloadKind::FullFinetune, "full-finetune"}, {WorkloadKind::Lora, "lora"},
              {WorkloadKind::Qlora, "qlora"}, {WorkloadKind::MediaGeneration, "media-generation"},
              {WorkloadKind::Embedding, "embedding"}, {WorkloadKind::Evaluation, "evaluation"});
WB_ENUM_NAMES(TrafficMode, {TrafficMode::Offline, "offline"}, {TrafficMode::ClosedLoop, "closed-loop"},
              {TrafficMode::OpenLoop, "open-loop"});
WB_ENUM_NAMES(ServingStack, {ServingStack::Generic, "generic"}, {ServingStack::Vllm, "vllm"},
              {ServingStack::Sglang, "sglang"}, {ServingStack::Trtllm, "trtllm"});
WB_ENUM_NAMES(Sharding, {Sharding::None, "none"}, {Sharding::Zero1, "zero1"}, {Sharding::Zero2, "zero2"},
              {Sharding::Zero3, "zero3"}, {Sharding::Fsdp, "fsdp"});
WB_ENUM_NAMES(Recompute, {Recompute::None, "none"}, {Recompute::Selective, "selective"},
              {Recompute::Full, "full"});
WB_ENUM_NAMES(Optimizer, {Optimizer::AdamW, "adamw"}, {Optimizer::AdamW8bit, "adamw-8bit"},
              {Optimizer::Sgd, "sgd"});
WB_ENUM_NAMES(OptimizerPlacement, {OptimizerPlacement::Gpu, "gpu"},
              {OptimizerPlacement::CpuOffload, "cpu-offload"}, {OptimizerPlacement::Paged, "paged"});
WB_ENUM_NAMES(LoraTargets, {LoraTargets::Attention, "attention"}, {LoraTargets::AllLinear, "all-linear"});
WB_ENUM_NAMES(PricingTerm, {PricingTerm::OnDemand, "on-demand"}, {PricingTerm::Spot, "spot"},
              {PricingTerm::Reserved1y, "reserved-1y"}, {PricingTerm::Reserved3y, "reserved-3y"},
              {PricingTerm::Purchase, "purchase"});
WB_ENUM_NAMES(Level, {Level::Low, "low"}, {Level::Medium, "medium"}, {Level::High, "high"});
WB_ENUM_NAMES(Route, {Route::Rent, "rent"}, {Route::Reserve, "reserve"}, {Route::Buy, "buy"},
              {Route::Api, "api"}, {Route::Hybrid, "hybrid"});
WB_ENUM_NAMES(Billing, {Billing::AlwaysOn, "always-on"}, {Billing::Scheduled, "scheduled"},
              {Billing::Autoscaled, "autoscaled"}, {Billing::Serverless, "serverless"});
WB_ENUM_NAMES(Offer, {Offer::Cloud, "cloud"}, {Offer::Marketplace, "marketplace"},
              {Offer::DedicatedCluster, "dedicated-cluster"}, {Offer::ManagedEndpoint, "managed-endpoint"});
WB_ENUM_NAMES(Commitment, {Commitment::OnDemand, "on-demand"}, {Commitment::Reserved, "reserved"},
              {Commitment::Purchase, "purchase"}, {Commitment::DedicatedCluster, "dedicated-cluster"});
WB_ENUM_NAMES(DataRegion, {DataRegion::Us, "us"}, {DataRegion::Ca, "ca"}, {DataRegion::Br, "br"},
              {DataRegion::Eu, "eu"}, {DataRegion::Uk, "uk"}, {DataRegion::Ch, "ch"}, {DataRegion::Ae, "ae"},
              {DataRegion::In, "in"}, {DataRegion::Sg, "sg"}, {DataRegion::Jp, "jp"}, {DataRegion::Kr, "kr"},
              {DataRegion::Au, "au"});
WB_ENUM_NAMES(VendorOffer, {VendorOffer::PublicCloud, "public-cloud"}, {VendorOffer::PrivateCloud, "private-cloud"},
              {VendorOffer::ClusterRental, "cluster-rental"}, {VendorOffer::Marketplace, "marketplace"},
              {VendorOffer::ManagedEndpoint, "managed-endpoint"}, {VendorOffer::Purchase, "purchase"});
WB_ENUM_NAMES(Answer, {Answer::Yes, "yes"}, {Answer::No, "no"}, {Answer::Partial, "partial"},
              {Answer::Unknown, "unknown"}, {Answer::NotApplicable, "not-applicable"});
#undef WB_ENUM_NAMES

template<typename E>
std::string_view enumName(E value)
{
    for (const auto &[v, name] : EnumNames<E>::items)
        if (v == value)
            return name;
    return "?";
}

template<typename E>
std::optional<E> enumFromString(std::string_view name)
{
    for (const auto &[v, n] : EnumNames<E>::items)
        if (n == name)
            return v;
    return std::nullopt;
}

// "a, b or c": the accepted spellings, for error messages.
template<typename E>
std::string enumChoices()
{
    std::string out;
    const auto &items = EnumNames<E>::items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += (i + 1 == items.size()) ? " or " : ", ";
        out += items[i].second;
    }
    return out;
}

// The words engine messages use for a term or a stack ("1-year reserved", "TensorRT-LLM");
// the JSON, the CSV and the table keep enumName()'s spellings, which scripts read.
std::string_view termWords(PricingTerm term);
std::string_view stackWords(ServingStack stack);
// Whether a stack runs an encoder's batch packed, each sequence at its own length (TensorRT's
// variable-length BERT, which NVIDIA's MLPerf harness uses; vLLM and SGLang, which flatten a
// batch's tokens), rather than padded to the batch's longest (a generic Hugging Face server).
bool packsEncoderBatches(ServingStack stack);

bool isInference(WorkloadKind kind);  // realtime, batch, embedding, evaluation
bool isTraining(WorkloadKind kind);   // training, full-finetune
bool isAdapter(WorkloadKind kind);    // lora, qlora

// Storage of one weight or cache element, in bits, including the quantization scales that a
// common format of that precision carries (see precision.cpp for each figure's reason).
double weightBitsPerParameter(Precision p, bool nf4DoubleQuant = true);
double cacheBytesPerElement(Precision p);

} // namespace wb
