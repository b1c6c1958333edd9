#include "parts/words.h"

#include <cost/cost.h>

#include <QCoreApplication>
#include <QObject>

#include <array>
#include <utility>

namespace wb {

namespace {

// Every name of engine/core/types.h's enumerations, and of the catalog's vendors,
// architectures and fabrics, that reads badly as it is.
constexpr auto kWords = std::to_array<std::pair<std::string_view, const char *>>({
    {"fp32", QT_TRANSLATE_NOOP("Words", "FP32")},
    {"bf16", QT_TRANSLATE_NOOP("Words", "BF16")},
    {"fp16", QT_TRANSLATE_NOOP("Words", "FP16")},
    {"fp8", QT_TRANSLATE_NOOP("Words", "FP8")},
    {"int8", QT_TRANSLATE_NOOP("Words", "INT8")},
    {"int4", QT_TRANSLATE_NOOP("Words", "INT4")},
    {"fp4", QT_TRANSLATE_NOOP("Words", "FP4")},
    {"nf4", QT_TRANSLATE_NOOP("Words", "NF4")},
    {"realtime-inference", QT_TRANSLATE_NOOP("Words", "real-time inference")},
    {"us", QT_TRANSLATE_NOOP("Words", "United States")},
    {"ca", QT_TRANSLATE_NOOP("Words", "Canada")},
    {"br", QT_TRANSLATE_NOOP("Words", "Brazil")},
    {"eu", QT_TRANSLATE_NOOP("Words", "European Union")},
    {"uk", QT_TRANSLATE_NOOP("Words", "United Kingdom")},
    {"ch", QT_TRANSLATE_NOOP("Words", "Switzerland")},
    {"ae", QT_TRANSLATE_NOOP("Words", "United Arab Emirates")},
    {"in", QT_TRANSLATE_NOOP("Words", "India")},
    {"sg", QT_TRANSLATE_NOOP("Words", "Singapore")},
    {"jp", QT_TRANSLATE_NOOP("Words", "Japan")},
    {"kr", QT_TRANSLATE_NOOP("Words", "South Korea")},
    {"au", QT_TRANSLATE_NOOP("Words", "Australia")},
    {"batch-inference", QT_TRANSLATE_NOOP("Words", "batch inference")},
    {"full-finetune", QT_TRANSLATE_NOOP("Words", "full fine-tune")},
    {"lora", QT_TRANSLATE_NOOP("Words", "LoRA fine-tune")},
    {"qlora", QT_TRANSLATE_NOOP("Words", "QLoRA fine-tune")},
    {"media-generation", QT_TRANSLATE_NOOP("Words", "media generation")},
    {"embedding", QT_TRANSLATE_NOOP("Words", "embeddings")},
    {"closed-loop", QT_TRANSLATE_NOOP("Words", "closed loop (a fixed number of users)")},
    {"open-loop", QT_TRANSLATE_NOOP("Words", "open loop (arrivals at a rate)")},
    {"offline", QT_TRANSLATE_NOOP("Words", "offline (all queued at once)")},
    {"vllm", QT_TRANSLATE_NOOP("Words", "vLLM")},
    {"sglang", QT_TRANSLATE_NOOP("Words", "SGLang")},
    {"trtllm", QT_TRANSLATE_NOOP("Words", "TensorRT-LLM")},
    {"zero1", QT_TRANSLATE_NOOP("Words", "ZeRO-1")},
    {"zero2", QT_TRANSLATE_NOOP("Words", "ZeRO-2")},
    {"zero3", QT_TRANSLATE_NOOP("Words", "ZeRO-3")},
    {"fsdp", QT_TRANSLATE_NOOP("Words", "FSDP")},
    {"adamw", QT_TRANSLATE_NOOP("Words", "AdamW")},
    {"adamw-8bit", QT_TRANSLATE_NOOP("Words", "8-bit AdamW")},
    {"sgd", QT_TRANSLATE_NOOP("Words", "SGD")},
    {"gpu", QT_TRANSLATE_NOOP("Words", "GPU memory")},
    {"cpu-offload", QT_TRANSLATE_NOOP("Words", "host memory (offload)")},
    {"all-linear", QT_TRANSLATE_NOOP("Words", "all linear layers")},
    {"attention", QT_TRANSLATE_NOOP("Words", "attention layers")},
    {"reserved-1y", QT_TRANSLATE_NOOP("Words", "1-year reserved")},
    {"reserved-3y", QT_TRANSLATE_NOOP("Words", "3-year reserved")},
    {"api", QT_TRANSLATE_NOOP("Words", "model API")},
    // The catalog's vendors, architectures and scale-up fabrics.
    {"nvidia", QT_TRANSLATE_NOOP("Words", "NVIDIA")},
    {"amd", QT_TRANSLATE_NOOP("Words", "AMD")},
    {"intel", QT_TRANSLATE_NOOP("Words", "Intel")},
    {"ampere", QT_TRANSLATE_NOOP("Words", "Ampere")},
    {"ada", QT_TRANSLATE_NOOP("Words", "Ada Lovelace")},
    {"hopper", QT_TRANSLATE_NOOP("Words", "Hopper")},
    {"blackwell", QT_TRANSLATE_NOOP("Words", "Blackwell")},
    {"blackwell-ultra", QT_TRANSLATE_NOOP("Words", "Blackwell Ultra")},
    {"cdna3", QT_TRANSLATE_NOOP("Words", "CDNA 3")},
    {"cdna4", QT_TRANSLATE_NOOP("Words", "CDNA 4")},
    {"gaudi3", QT_TRANSLATE_NOOP("Words", "Gaudi 3")},
    {"nvlink", QT_TRANSLATE_NOOP("Words", "NVLink")},
    {"nvlink-bridge", QT_TRANSLATE_NOOP("Words", "NVLink bridge")},
    {"pcie", QT_TRANSLATE_NOOP("Words", "PCIe")},
    {"infinity-fabric", QT_TRANSLATE_NOOP("Words", "Infinity Fabric")},
    {"roce", QT_TRANSLATE_NOOP("Words", "RoCE")},
});

} // namespace

QString words(std::string_view jsonName)
{
    for (const auto &[name, text] : kWords)
        if (name == jsonName)
            return QCoreApplication::translate("Words", text);
    return QString::fromUtf8(jsonName.data(), qsizetype(jsonName.size()));
}

} // namespace wb

namespace wb {

QString calibratedFrom(int runs)
{
    return runs == 1 ? QCoreApplication::translate("Words", "calibrated from 1 run")
                     : QCoreApplication::translate("Words", "calibrated from %1 runs").arg(runs);
}

QString apiOptionName(const CostOption &api)
{
    return api.perRun ? QObject::tr("Managed fine-tuning") : QObject::tr("Model API");
}

QString apiBilling(const CostOption &api)
{
    for (const auto &[field, rate] : api.apiRates) {
        if (field == "usd_per_image")
            return QObject::tr("per image");
        if (field == "usd_per_megapixel")
            return QObject::tr("per megapixel");
        if (field == "usd_per_video_second")
            return QObject::tr("per video second");
        if (field == "usd_per_million_training_tokens")
            return QObject::tr("per training token");
    }
    return QObject::tr("per token");
}

} // namespace wb
