// Named defaults. Every number the models assume rather than read from the brief or the
// catalog is declared once here (key, name, unit, default, allowed range, reason); a brief
// overrides any of them under "assumptions": { "name": value }, and results print the ones they
// used. Engine code reads them through the Assumption keys, so a misspelt name does not compile;
// a brief's unknown or out-of-range name is refused with its JSON path (exit 2 in the CLI).
#pragma once

#include "core/result.h"

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace wb {

// One key per assumption, in the order of assumptionCatalog() (assumptions.cpp checks it at
// compile time). The JSON name is the key in snake case: HoursPerMonth is "hours_per_month".
enum class Assumption : std::size_t {
    GpuMemoryUtilization,
    SglangMemFractionStatic,
    TrtllmKvCacheFreeFraction,
    RuntimeOverheadBytes,
    CommBufferBytes,
    CudaGraphBytes,
    MaxNumBatchedTokens,
    MaxNumSeqs,
    KvBlockTokens,
    ActivationBytes,
    Fp8ActivationStorage,
    SamplerBytesPerLogit,
    QuantizeEmbeddings,
    Nf4DoubleQuant,
    DequantComputeBytes,
    TrainingSafetyMargin,
    FlashAttention,
    LogitsBytesPerElement,
    LossChunks,
    Zero3PrefetchLayers,
    ComputeEfficiency,
    MemoryEfficiency,
    KvReadEfficiency,
    LinkEfficiency,
    StepOverheadS,
    LayerOverheadS,
    AllreduceLatencyS,
    RingHopLatencyS,
    ScaleOutBandwidthBytesPerS,
    TrtllmSglangMaxBatch,
    SchedulerRecvInterval,
    SimulatedRequests,
    WarmupFraction,
    SimulationSeed,
    HoursPerMonth,
    PriceStaleDays,
    SpotInterruptionsPerGpuMonth,
    SpotNoticeS,
    SpotRestartWarnFraction,
    SpotRestartMaxFraction,
    AutoscaleTargetUtilization,
    ModelLoadGbPerS,
    ReplicaStartS,
    ScaleToZeroIdleS,
    CommitmentMonthsWithoutCertainty,
    StorageUsdPerGbMonth,
    EgressUsdPerGb,
    EgressBytesPerOutputToken,
    ServingStackUsdPerGpuMonth,
    ObservabilityFraction,
    PlatformFteSelfHosted,
    PlatformFteApi,
    EngineerUsdPerYear,
    DepreciationYears,
    ResidualValueFraction,
    NodeCapexUsdPerGpu,
    Pue,
    EnergyUsdPerKwh,
    IdlePowerFraction,
    ServerPowerOverhead,
    ColocationUsdPerKwMonth,
    SupportFractionPerYear,
    OperationsFtePurchase,
    ApiFlexibilityPremium,
    HybridMinPeakToAverage,
    FragileFitHeadroomFraction,
    CommitmentMinHeadroomFraction,
    NearTieFraction,
    SizingTpotS,
    // Training time, checkpoints and failures (performance/training.cpp).
    TrainingCommOverlap,
    CheckpointWriteBytesPerSPerGpu,
    CheckpointReadBytesPerSPerGpu,
    RestartInitS,
    InterruptionsPerGpuHour,
    CheckpointsKept,
    TrainingPlatformFte,
    // Media generation (performance/media.cpp, the media cost lines).
    MediaMaxBatch,
    ImageBytesPerPixel,
    VideoBytesPerPixelFrame,
    OutputRetentionMonths,
    ModerationUsdPerOutput,
    QueueUsdPerMillionJobs,
    OperatorReviewUsdPerOutput
};
inline constexpr std::size_t kAssumptionCount = std::size_t(Assumption::OperatorReviewUsdPerOutput) + 1;

struct AssumptionInfo
{
    Assumption key;
    std::string_view name;     // as a brief and the results JSON spell it
    std::string_view unit;     // "bytes", "fraction", "tokens", "sequences", "bool", "count", ...
    double defaultValue;
    double min;                // allowed range of an override, inclusive
    double max;
    std::string_view reason;
};

// Every assumption the engine knows, in key order.
std::span<const AssumptionInfo> assumptionCatalog();
const AssumptionInfo &assumptionInfo(Assumption key);
// By JSON name, for reading briefs; nullptr when no assumption has that name.
const AssumptionInfo *findAssumption(std::string_view name);

class Assumptions
{
public:
    // The brief's value if it set one, else the default.
    double value(Assumption key) const;
    bool flag(Assumption key) const { return value(key) != 0.0; }
    bool overridden(Assumption key) const;
    // Sets an override after checking the name and range; the error's path is jsonPath.
    Status set(std::string_view name, double value, const std::string &jsonPath = {});

private:
    std::array<std::optional<double>, kAssumptionCount> m_overrides{};
};

} // namespace wb
