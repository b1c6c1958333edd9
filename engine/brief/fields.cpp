#include "brief/fields.h"

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "catalog/priceparse.h"
#include "core/assumptions.h"
#include "core/limits.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

namespace {

using K = WorkloadKind;

constexpr KindSet kInference = kinds({K::RealtimeInference, K::BatchInference, K::Embedding, K::Evaluation});
constexpr KindSet kTrains = kinds({K::Training, K::FullFinetune, K::Lora, K::Qlora});
constexpr KindSet kAdapters = kinds({K::Lora, K::Qlora});
constexpr KindSet kMedia = kinds({K::MediaGeneration});
constexpr KindSet kLanguage{kInference.bits | kTrains.bits};
constexpr KindSet kServes{kInference.bits | kMedia.bits};
constexpr KindSet kNotQlora{~kinds({K::Qlora}).bits};
constexpr KindSet kNotRealtime{~kinds({K::RealtimeInference}).bits};
constexpr KindSet kNotTrains{~kTrains.bits};

template<typename E>
std::string json(E value)
{
    return "\"" + std::string(enumName(value)) + "\"";
}

std::vector<std::string> kvPrecisions()
{
    std::vector<std::string> out = enumNames<Precision>();
    std::erase(out, std::string(enumName(Precision::Nf4)));  // a weight format, not a cache format
    return out;
}

std::vector<FieldRow> rows()
{
    using enum FieldType;
    std::vector<FieldRow> r = {
        {.pointer = "/format", .type = String, .required = true, .choices = {"gpu-workbench-brief"}},
        {.pointer = "/version", .type = Integer, .required = true, .min = 1, .max = 1, .defaultReason = "this build reads version 1"},
        {.pointer = "/name", .type = String, .defaultReason = "the file's name"},
        {.pointer = "/notes", .type = Any},
        {.pointer = "/workload", .type = Object, .required = true},
        {.pointer = "/candidates", .type = Array, .required = true},
        {.pointer = "/candidates/*", .type = Object},
        {.pointer = "/assumptions", .type = Object, .closed = true},
        {.pointer = "/cost", .type = Object},

        // The workload
        {.pointer = "/workload/kind", .type = Enum, .required = true, .choices = enumNames<WorkloadKind>()},
        {.pointer = "/workload/model", .type = Model, .kinds = kLanguage, .required = true, .outside = Outside::Refused},
        {.pointer = "/workload/weights_precision", .type = Enum, .kinds = kNotQlora, .choices = enumNames<Precision>(),
         .defaultJson = json(Precision::Bf16)},
        {.pointer = "/workload/weights_precision", .type = Enum, .kinds = kinds({K::Qlora}),
         .choices = enumNames<Precision>(), .defaultJson = json(Precision::Nf4)},
        {.pointer = "/workload/kv_cache_precision", .type = Enum, .kinds = kLanguage, .choices = kvPrecisions(),
         .defaultJson = json(Precision::Bf16), .outside = Outside::Refused},
        {.pointer = "/workload/input_tokens", .type = Integer, .kinds = kInference, .required = true, .min = 1, .max = 1e8,
         .unit = "tokens", .outside = Outside::Refused},
        {.pointer = "/workload/input_tokens", .type = Integer, .kinds = kTrains, .min = 0, .unit = "tokens",
         .defaultJson = "0", .outside = Outside::Refused},
        {.pointer = "/workload/output_tokens", .type = Integer,
         .kinds = kinds({K::RealtimeInference, K::BatchInference, K::Evaluation}), .required = true, .min = 1,
         .max = 1e8, .unit = "tokens", .outside = Outside::Refused},
        {.pointer = "/workload/output_tokens", .type = Integer, .kinds = {kinds({K::Embedding}).bits | kTrains.bits},
         .min = 0, .unit = "tokens", .defaultJson = "0", .outside = Outside::Refused},
        {.pointer = "/workload/input_tokens_p95", .type = Integer, .kinds = kLanguage, .min = 0, .max = 1e8,
         .unit = "tokens", .defaultReason = "the mean", .outside = Outside::Refused},
        {.pointer = "/workload/output_tokens_p95", .type = Integer, .kinds = kLanguage, .min = 0, .max = 1e8,
         .unit = "tokens", .defaultReason = "the mean", .outside = Outside::Refused},
        {.pointer = "/workload/acceptable_precisions", .type = Array, .kinds = kServes, .outside = Outside::Refused},
        {.pointer = "/workload/acceptable_precisions/*", .type = Enum, .choices = enumNames<Precision>()},

        // Traffic and latency targets
        {.pointer = "/workload/traffic", .type = Object, .kinds = kinds({K::RealtimeInference}), .required = true},
        {.pointer = "/workload/traffic", .type = Object, .kinds = kNotRealtime},
        {.pointer = "/workload/traffic/mode", .type = Enum, .required = true, .choices = enumNames<TrafficMode>()},
        {.pointer = "/workload/traffic/request_rate_per_s", .type = Number, .min = limits::kMinRequestRatePerS,
         .max = limits::kRequestRatePerS, .unit = "requests/s", .defaultReason = "required of open-loop traffic"},
        {.pointer = "/workload/traffic/burstiness", .type = Number, .min = 0.01, .max = 100, .defaultJson = "1",
         .defaultReason = "1 is Poisson arrivals"},
        {.pointer = "/workload/traffic/concurrency", .type = Integer, .min = 1, .max = limits::kConcurrency,
         .unit = "requests", .defaultReason = "required of closed-loop traffic"},
        {.pointer = "/workload/traffic/prompts", .type = Integer, .min = 1, .max = 1e6, .unit = "requests",
         .defaultReason = "a steady state (the first round of requests left out); a benchmark run measures its prompts "
                          "from an idle server"},
        {.pointer = "/workload/traffic/bursts", .type = Object, .defaultReason = "open-loop traffic only"},
        {.pointer = "/workload/traffic/bursts/multiplier", .type = Number, .required = true, .min = 1, .max = 1000},
        {.pointer = "/workload/traffic/bursts/duration_s", .type = Number, .required = true, .min = 0, .minExclusive = true,
         .unit = "s"},
        {.pointer = "/workload/traffic/bursts/period_s", .type = Number, .required = true, .min = 0, .minExclusive = true,
         .unit = "s"},
        {.pointer = "/workload/traffic/peak_request_rate_per_s", .type = Number, .min = limits::kMinRequestRatePerS,
         .max = limits::kRequestRatePerS, .unit = "requests/s", .defaultReason = "the traffic's own peak"},
        {.pointer = "/workload/slo", .type = Object},
        {.pointer = "/workload/acceptance", .type = Object},
        {.pointer = "/workload/acceptance/quality_pass_rate", .type = Number, .min = 0, .max = 1, .defaultJson = "1"},
        {.pointer = "/workload/acceptance/failure_rate", .type = Number, .min = 0, .max = 0.999, .defaultJson = "0"},

        // Training set-up
        {.pointer = "/workload/training", .type = Object, .kinds = kTrains, .required = true},
        {.pointer = "/workload/training", .type = Object, .kinds = kNotTrains},
        {.pointer = "/workload/training/sequence_length", .type = Integer, .required = true, .min = 1, .max = 1e8,
         .unit = "tokens"},
        {.pointer = "/workload/training/micro_batch_size", .type = Integer, .min = 1, .max = 1e6, .unit = "sequences",
         .defaultJson = "1"},
        // Up to a trillion tokens a step and 10^16 tokens a run (a thousand times today's largest).
        {.pointer = "/workload/training/global_batch_tokens", .type = Number, .min = 1, .max = 1e12, .unit = "tokens",
         .defaultReason = "one micro-batch per data-parallel rank"},
        {.pointer = "/workload/training/tokens", .type = Number, .min = 1, .max = 1e16, .unit = "tokens"},
        {.pointer = "/workload/training/optimizer", .type = Enum, .choices = enumNames<Optimizer>(),
         .defaultJson = json(Optimizer::AdamW)},
        {.pointer = "/workload/training/optimizer_placement", .type = Enum, .choices = enumNames<OptimizerPlacement>(),
         .defaultJson = json(OptimizerPlacement::Gpu)},
        {.pointer = "/workload/training/master_weights", .type = Boolean, .defaultJson = "true"},
        {.pointer = "/workload/training/optimizer_in_backward", .type = Boolean, .defaultJson = "false"},
        {.pointer = "/workload/training/sharding", .type = Enum, .choices = enumNames<Sharding>(),
         .defaultJson = json(Sharding::None)},
        {.pointer = "/workload/training/activation_recompute", .type = Enum, .choices = enumNames<Recompute>(),
         .defaultJson = json(Recompute::None)},
        {.pointer = "/workload/training/activation_offload", .type = Boolean, .defaultJson = "false"},
        {.pointer = "/workload/training/sequence_parallel", .type = Boolean,
         .defaultReason = "on wherever tensor_parallel is above 1, as Megatron-LM, NeMo and torchtitan run tensor "
                          "parallelism; off without it"},
        {.pointer = "/workload/training/lora_rank", .type = Integer, .kinds = kAdapters, .min = 1, .max = 65536,
         .defaultJson = "16"},
        {.pointer = "/workload/training/lora_targets", .type = Enum, .kinds = kAdapters, .choices = enumNames<LoraTargets>(),
         .defaultJson = json(LoraTargets::AllLinear)},
        {.pointer = "/workload/training/checkpoint", .type = Object},
        // Storage from 1 MB/s to 100 TB/s; intervals and restarts up to about four months.
        {.pointer = "/workload/training/checkpoint/storage_write_bytes_per_s", .type = Number, .min = 1e6, .max = 1e14,
         .unit = "bytes/s"},
        {.pointer = "/workload/training/checkpoint/storage_read_bytes_per_s", .type = Number, .min = 1e6, .max = 1e14,
         .unit = "bytes/s"},
        {.pointer = "/workload/training/checkpoint/interval_s", .type = Number, .min = 1, .max = 1e7, .unit = "s"},
        {.pointer = "/workload/training/checkpoint/restart_s", .type = Number, .min = 0, .max = 1e7, .unit = "s"},
        {.pointer = "/workload/training/interruptions_per_gpu_hour", .type = Number, .min = 0, .max = 1,
         .unit = "1/GPU-hour"},
        // A campaign: runs like this one a year, sharing a reservation's or purchase's term.
        {.pointer = "/workload/training/runs_per_year", .type = Number, .min = 0.01, .max = 1e5, .unit = "runs/year"},
        // The training set: its size and where it is; moved to the GPUs once a run unless it is there.
        {.pointer = "/workload/training/dataset", .type = Object, .kinds = kTrains},
        {.pointer = "/workload/training/dataset/size_gb", .type = Number, .kinds = kTrains, .required = true, .min = 0.001, .max = 1e9,
         .unit = "GB"},
        {.pointer = "/workload/training/dataset/location", .type = Enum, .kinds = kTrains, .choices = {"with-gpus", "elsewhere"},
         .defaultJson = "\"elsewhere\""},
        {.pointer = "/workload/training/dataset/transfer_usd_per_gb", .type = Number, .kinds = kTrains, .min = 0, .max = 10, .unit = "USD/GB",
         .defaultReason = "a dataset elsewhere moves at egress_usd_per_gb, what its home charges to send it out"},
        // Evaluation during the run: a forward pass over `tokens` every `interval_tokens` trained.
        {.pointer = "/workload/training/evaluation", .type = Object},
        {.pointer = "/workload/training/evaluation/interval_tokens", .type = Number, .required = true, .min = 1, .max = 1e16,
         .unit = "tokens"},
        {.pointer = "/workload/training/evaluation/tokens", .type = Number, .required = true, .min = 1, .max = 1e13,
         .unit = "tokens"},

        // Media generation: sizes must also be multiples of the pipeline's latent grid, frames
        // fit its VAE and at most its longest clip (mediabrief.cpp).
        {.pointer = "/workload/media", .type = Object, .kinds = kMedia, .required = true, .outside = Outside::Refused},
        {.pointer = "/workload/media/model", .type = String, .required = true},
        {.pointer = "/workload/media/width", .type = Integer, .min = 1, .max = 8192, .unit = "px",
         .defaultReason = "the model card's"},
        {.pointer = "/workload/media/height", .type = Integer, .min = 1, .max = 8192, .unit = "px",
         .defaultReason = "the model card's"},
        {.pointer = "/workload/media/frames", .type = Integer, .min = 1, .max = 10000, .unit = "frames",
         .defaultReason = "the model card's (video pipelines only)"},
        {.pointer = "/workload/media/steps", .type = Integer, .min = 1, .max = 1000, .unit = "steps",
         .defaultReason = "the model card's"},
        {.pointer = "/workload/media/guidance", .type = Boolean, .defaultJson = "true"},
        {.pointer = "/workload/media/batch_size", .type = Integer, .min = 1, .max = 1024, .unit = "outputs",
         .defaultReason = "the largest that fits"},

        // Candidates
        {.pointer = "/candidates/*/gpu", .type = String, .required = true},
        {.pointer = "/candidates/*/gpus", .type = Integer, .min = 1, .max = limits::kGpusPerCandidate, .unit = "GPUs",
         .defaultReason = "one replica: tensor_parallel x pipeline_parallel x context_parallel"},
        {.pointer = "/candidates/*/tensor_parallel", .type = Integer, .min = 1, .max = 4096, .defaultJson = "1"},
        {.pointer = "/candidates/*/pipeline_parallel", .type = Integer, .min = 1, .max = 4096, .defaultJson = "1"},
        {.pointer = "/candidates/*/context_parallel", .type = Integer, .min = 1, .max = 4096, .defaultJson = "1",
         .defaultReason = "above 1 for training kinds only"},
        {.pointer = "/candidates/*/virtual_pipeline", .type = Integer, .min = 1, .max = 1024, .defaultJson = "1",
         .defaultReason = "above 1 for training kinds only"},
        {.pointer = "/candidates/*/serving_stack", .type = Enum, .choices = enumNames<ServingStack>(),
         .defaultJson = json(ServingStack::Generic)},
        {.pointer = "/candidates/*/serving_stack_version", .type = String, .kinds = kServes,
         .defaultReason = "not stated: the calibration's data, whatever versions it holds", .outside = Outside::Refused},
        {.pointer = "/candidates/*/weights_precision", .type = Enum, .kinds = kServes, .choices = enumNames<Precision>(),
         .defaultReason = "the workload's", .outside = Outside::Refused},
        {.pointer = "/candidates/*/network", .type = Object},
        {.pointer = "/candidates/*/network/kind", .type = Enum, .required = true,
         .choices = {"infiniband", "roce", "ethernet", "efa"}},
        // From 1 Gb/s to 10 TB/s per GPU.
        {.pointer = "/candidates/*/network/bytes_per_s_per_gpu", .type = Number, .required = true, .min = 1.25e8,
         .max = 1e13, .unit = "bytes/s"},

        // Cost
        {.pointer = "/cost/prices", .type = Array},
        {.pointer = "/cost/prices/*", .type = Object},
        {.pointer = "/cost/api", .type = Object},
        {.pointer = "/cost/requests_per_month", .type = Number, .min = limits::kMinRequestsPerMonth,
         .max = limits::kRequestsPerMonth, .unit = "requests", .defaultReason = "from the request rate"},
        {.pointer = "/cost/decision", .type = Object},
        {.pointer = "/cost/decision/demand_certainty", .type = Enum, .choices = enumNames<Level>(),
         .defaultJson = json(Level::Medium)},
        {.pointer = "/cost/decision/model_churn", .type = Enum, .choices = enumNames<Level>(),
         .defaultJson = json(Level::Medium)},
        {.pointer = "/cost/decision/needs_hardware_control", .type = Boolean, .defaultJson = "false"},
        {.pointer = "/cost/decision/api_allowed", .type = Boolean, .defaultJson = "true"},
        {.pointer = "/cost/decision/data_region", .type = Enum, .choices = enumNames<DataRegion>(),
         .defaultReason = "anywhere: no residency rule"},
        {.pointer = "/cost/decision/interruptions_acceptable", .type = Boolean,
         .defaultReason = "acceptable only without a latency target"},
        {.pointer = "/cost/billing", .type = Object},
        {.pointer = "/cost/billing/model", .type = Enum, .required = true, .choices = enumNames<Billing>()},
        {.pointer = "/cost/billing/hours_per_day", .type = Number, .min = 0, .max = 24, .minExclusive = true, .unit = "h",
         .defaultReason = "required of the scheduled model"},
        {.pointer = "/cost/billing/days_per_month", .type = Number, .min = 0, .max = 31, .minExclusive = true,
         .unit = "days", .defaultReason = "required of the scheduled model"},
        {.pointer = "/cost/billing/min_replicas", .type = Integer, .min = 0, .max = limits::kGpusPerCandidate,
         .defaultJson = "1", .defaultReason = "the autoscaled model only"},

        // Retired: spot losses follow from the interruption rate (briefs saved before still open).
        {.pointer = "/assumptions/spot_work_lost_fraction", .type = Any, .defaultReason = "no longer read"},
    };
    // The latency targets: any of them, in seconds.
    for (const char *key : {"ttft_p99_s", "tpot_p99_s", "e2e_p99_s", "ttft_p95_s", "tpot_p95_s", "e2e_p95_s"})
        r.push_back({.pointer = std::string("/workload/slo/") + key, .type = Number, .min = 0, .minExclusive = true,
                     .unit = "s", .defaultReason = "no target"});
    for (FieldRow &row : FieldTable::rebased(detail::gpuPriceFields().rows(), "/cost/prices/*"))
        r.push_back(std::move(row));
    // A brief's API price is for its model: the entry has no model field.
    for (FieldRow &row : FieldTable::rebased(detail::apiPriceFields().rows(), "/cost/api"))
        if (row.pointer != "/cost/api/model")
            r.push_back(std::move(row));
    for (const AssumptionInfo &a : assumptionCatalog()) {
        // A 0/1 assumption may be written true/false.
        const bool flag = a.unit == "bool";
        r.push_back({.pointer = "/assumptions/" + std::string(a.name), .type = flag ? Any : Number, .min = a.min,
                     .max = a.max, .unit = std::string(a.unit), .defaultJson = nlohmann::json(a.defaultValue).dump(),
                     .defaultReason = std::string(a.reason)});
    }
    // An inline model: its fields are read by the catalog's model parser (catalog.cpp), which
    // checks their ranges as it does for the catalog's own entries.
    for (const char *key : {"parameters", "layers", "hidden_size", "attention_heads", "kv_heads", "intermediate_size",
                            "vocab_size"})
        r.push_back({.pointer = std::string("/workload/model/") + key, .type = Number,
                     .defaultReason = "required unless hf_config is given"});
    for (const char *key : {"name", "hf_config", "head_dim", "tied_embeddings", "mlp", "attention_bias", "linear_biases",
                            "position_embeddings", "max_context", "moe", "mla", "sliding_window", "experts",
                            "experts_per_token", "moe_intermediate_size"})
        r.push_back({.pointer = std::string("/workload/model/") + key, .type = Any});
    return r;
}

using Json = nlohmann::ordered_json;

class SchemaWriter
{
public:
    SchemaWriter(const FieldTable &table, const Catalog &catalog) : m_table(table)
    {
        Json gpus = Json::array(), models = Json::array(), media = Json::array();
        for (const GpuSpec &g : catalog.gpus())
            gpus.push_back(g.id);
        for (const ModelSpec &m : catalog.models())
            models.push_back(m.id);
        for (const MediaModelSpec &m : catalog.mediaModels())
            media.push_back(m.id);
        m_defs["gpu-id"] = {{"description", "a GPU of the catalog (gpuwb catalog gpus)"}, {"enum", gpus}};
        m_defs["model-id"] = {{"description", "a model of the catalog (gpuwb catalog models)"}, {"enum", models}};
        m_defs["media-id"] = {{"description", "a media pipeline of the catalog (gpuwb catalog media)"}, {"enum", media}};
    }

    Json document()
    {
        Json out;
        out["$schema"] = "https://json-schema.org/draft/2020-12/schema";
        out["$id"] = "https://gpu-workbench.example/schema/brief-v1.json";
        out["title"] = "GPU Workbench brief, version 1";
        out["description"] = "Generated by gpuwb schema brief from the engine's table of brief fields. Rules between "
                             "fields (a p95 at least its mean, a burst shorter than its period, a rate for open-loop "
                             "traffic) are checked by gpuwb alone.";
        // Any brief: a kind this build knows. Then its kind's fields: those that apply to it,
        // and those it refuses.
        out["type"] = "object";
        out["required"] = {"format", "version", "workload", "candidates"};
        out["properties"] = {{"workload", {{"type", "object"},
                                           {"required", {"kind"}},
                                           {"properties", {{"kind", field(m_table.at("/workload/kind"), {})}}}}}};
        Json allOf = Json::array();
        for (const auto &[kind, name] : EnumNames<WorkloadKind>::items) {
            const std::string def = "brief-" + std::string(name);
            Json brief = object("", kind);
            share(brief, "", 2);
            m_defs[def] = brief;
            allOf.push_back({{"if", {{"properties", {{"workload", {{"properties", {{"kind", {{"const", name}}}}},
                                                                    {"required", {"kind"}}}}}}}},
                             {"then", {{"$ref", "#/$defs/" + def}}}});
        }
        out["allOf"] = allOf;
        out["$defs"] = m_defs;
        return out;
    }

private:
    const FieldTable &m_table;
    Json m_defs = Json::object();
    std::map<std::string, std::string> m_shared;  // a subtree's text -> its $defs name
    std::map<std::string, int> m_variants;        // a pointer -> how many subtrees of it are shared

    // Most of a kind's fields are every kind's: each large subtree down to depth levels below
    // pointer goes once into $defs (one per distinct content) and each kind refers to it.
    void share(Json &object, const std::string &pointer, int depth)
    {
        if (depth == 0 || !object.contains("properties"))
            return;
        for (auto &[key, value] : object["properties"].items()) {
            const std::string child = pointer + "/" + key;
            share(value, child, depth - 1);
            std::string text = value.dump();
            if (text.size() < 512)
                continue;
            auto [it, added] = m_shared.try_emplace(std::move(text));
            if (added) {
                std::string name = child.substr(1);
                std::replace(name.begin(), name.end(), '/', '-');
                if (const int n = ++m_variants[child]; n > 1)
                    name += "-" + std::to_string(n);
                it->second = name;
                m_defs[name] = value;
            }
            value = {{"$ref", "#/$defs/" + it->second}};
        }
    }

    Json object(const std::string &pointer, std::optional<WorkloadKind> kind)
    {
        Json properties = Json::object();
        Json required = Json::array();
        for (const std::string &key : m_table.childKeys(pointer)) {
            const std::string child = pointer + "/" + key;
            const FieldRow *row = kind ? m_table.find(child, *kind) : m_table.find(child);
            if (!row) {
                // Not a field of this kind: refused, or ignored (with a warning) and so any value.
                properties[key] = m_table.at(child).outside == Outside::Refused ? Json(false) : Json::object();
                continue;
            }
            properties[key] = field(*row, kind);
            if (row->required && (kind || row->kinds.all()))
                required.push_back(key);
        }
        Json out = {{"type", "object"}, {"properties", properties}};
        if (!required.empty())
            out["required"] = required;
        // Elsewhere an unknown key is read past with a warning: a newer brief still opens.
        if (const FieldRow *row = m_table.find(pointer); row && row->closed)
            out["additionalProperties"] = false;
        return out;
    }

    Json field(const FieldRow &row, std::optional<WorkloadKind> kind)
    {
        Json out = Json::object();
        switch (row.type) {
        case FieldType::Integer:
        case FieldType::Number:
            out["type"] = row.type == FieldType::Integer ? "integer" : "number";
            if (std::isfinite(row.min))
                out[row.minExclusive ? "exclusiveMinimum" : "minimum"] = row.min;
            if (std::isfinite(row.max))
                out["maximum"] = row.max;
            break;
        case FieldType::Boolean: out["type"] = "boolean"; break;
        case FieldType::String:
        case FieldType::Enum:
            out["type"] = "string";
            if (!row.choices.empty())
                out["enum"] = row.choices;
            if (const char *ref = catalogRef(row.pointer))
                out["$ref"] = ref;
            break;
        case FieldType::Object: out.update(object(row.pointer, kind)); break;
        case FieldType::Array: out = {{"type", "array"}, {"items", field(m_table.at(row.pointer + "/*"), kind)}}; break;
        case FieldType::Model: {
            Json inline_ = object(row.pointer, kind);
            out["anyOf"] = {{{"$ref", "#/$defs/model-id"}}, inline_};
            break;
        }
        case FieldType::Any: break;
        }
        if (!row.unit.empty() || !row.defaultReason.empty())
            out["description"] = row.unit + (row.unit.empty() || row.defaultReason.empty() ? "" : "; ")
                                 + (row.defaultReason.empty() ? "" : "if not given: " + row.defaultReason);
        if (!row.defaultJson.empty())
            out["default"] = Json::parse(row.defaultJson);
        return out;
    }

    static const char *catalogRef(const std::string &pointer)
    {
        if (pointer == "/candidates/*/gpu" || pointer == "/cost/prices/*/gpu")
            return "#/$defs/gpu-id";
        if (pointer == "/workload/media/model")
            return "#/$defs/media-id";
        return nullptr;
    }
};

} // namespace

std::string fieldLabel(const std::string &pointer)
{
    static const std::map<std::string, std::string> words = {
        {"traffic", "Traffic"}, {"slo", "Latency targets"}, {"acceptance", "Acceptance"}, {"training", "Training"},
        {"cost", "Cost"}, {"decision", "decision"}, {"prices", "Price"}, {"api", "Model API"},
        {"assumptions", "Assumption"}, {"candidates", "Candidate"}, {"model", "model"}, {"gpus", "GPUs"},
        {"gpu", "GPU"}, {"tensor_parallel", "tensor parallel (TP)"}, {"pipeline_parallel", "pipeline parallel (PP)"},
        {"ttft_p99_s", "TTFT p99 (s)"}, {"ttft_p95_s", "TTFT p95 (s)"}, {"tpot_p99_s", "TPOT p99 (s)"},
        {"tpot_p95_s", "TPOT p95 (s)"}, {"e2e_p99_s", "end-to-end p99 (s)"}, {"e2e_p95_s", "end-to-end p95 (s)"},
        {"request_rate_per_s", "request rate (per s)"}, {"usd_per_gpu_hour", "USD per GPU-hour"},
        {"usd_per_gpu", "USD per GPU"}, {"usd_per_million_input", "USD per million input tokens"},
        {"usd_per_million_output", "USD per million output tokens"}, {"hf_config", "Hugging Face config"},
        {"kv_cache_precision", "KV cache precision"}, {"api_allowed", "model API allowed"}};
    std::vector<std::string> parts;
    std::string token;
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            parts.push_back(token);
            token.clear();
        } else {
            token += pointer[i];
        }
    }
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::string part = parts[i];
        for (auto [from, to] : {std::pair<const char *, const char *>{"~1", "/"}, {"~0", "~"}})
            for (std::size_t at; (at = part.find(from)) != std::string::npos;)
                part.replace(at, 2, to);
        if (part == "workload" && i == 0 && parts.size() > 1)
            continue;  // the brief's fields are mostly the workload's: the word adds nothing
        const bool index = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (index) {
            out += " " + std::to_string(std::stoll(part.substr(0, 9)) + 1);
            continue;
        }
        std::string word;
        if (const auto it = words.find(part); it != words.end()) {
            word = it->second;
        } else {
            word = part;
            std::replace(word.begin(), word.end(), '_', ' ');
            if (word.size() > 2 && word.compare(word.size() - 2, 2, " s") == 0)
                word = word.substr(0, word.size() - 2) + " (s)";
        }
        out += (out.empty() ? "" : " › ") + word;
    }
    return out.empty() ? std::string("(the whole brief)") : out;
}

const FieldTable &briefFields()
{
    static const FieldTable table(rows());
    return table;
}

std::string briefJsonSchema(const Catalog &catalog)
{
    return SchemaWriter(briefFields(), catalog).document().dump(2) + "\n";
}

} // namespace wb
