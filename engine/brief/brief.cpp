#include "brief/brief.h"

#include "core/fileio.h"
#include "core/limits.h"

#include "brief/fields.h"
#include "brief/mediabrief.h"
#include "catalog/bands.h"
#include "catalog/catalogparse.h"
#include "core/jsonfields.h"
#include "catalog/priceparse.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <cmath>
#include <filesystem>

namespace wb {

using detail::FieldError;
using detail::Fields;
using detail::formatNumber;
using detail::Json;
using detail::Range;

namespace {

std::string joined(const std::vector<std::string> &words)
{
    std::string out;
    for (const std::string &w : words)
        out += (out.empty() ? "" : ", ") + w;
    return out;
}

struct BriefParser
{
    const Catalog &catalog;
    std::string file;
    Brief brief;

    // The table's row of a field (brief/fields.h) for the brief's kind: its range and default.
    const FieldRow &row(const Fields &f, const std::string &key) const
    {
        return briefFields().at(f.pathOf(key), brief.workload.kind);
    }
    Range range(const Fields &f, const std::string &key) const { return row(f, key).range(); }
    long long integerOr(const Fields &f, const std::string &key) const
    {
        return f.optInteger(key, range(f, key)).value_or(static_cast<long long>(row(f, key).defaultNumber()));
    }
    double numberOr(const Fields &f, const std::string &key) const
    {
        return f.optNumber(key, range(f, key)).value_or(row(f, key).defaultNumber());
    }
    bool booleanOr(const Fields &f, const std::string &key) const
    {
        return f.optBoolean(key).value_or(row(f, key).defaultBoolean());
    }
    template<typename E>
    E enumOr(const Fields &f, const std::string &key) const
    {
        if (auto value = f.optEnum<E>(key))
            return *value;
        return *enumFromString<E>(row(f, key).defaultString());
    }
    // Keys the table does not know at this object: typos a user should hear about.
    void noteUnknown(const Fields &f)
    {
        detail::noteUnknownFields(f, briefFields().childKeys(f.path()), brief.warnings);
    }

    ModelSpec inlineModel(const Fields &f)
    {
        if (const Json *hf = f.find("hf_config")) {
            auto model = modelFromHfConfig(hf->dump(), file, f.pathOf("hf_config"));
            if (!model)
                throw FieldError{model.error().path, model.error().message};
            ModelSpec m = model.value();
            if (auto name = f.optString("name"))
                m.name = m.id = *name;
            return m;
        }
        // The spec's inline form uses top-level "experts"/"experts_per_token"; the catalog form
        // nests them under "moe". Fill the catalog entry's bookkeeping fields and reuse its parser.
        Json entry = Json::object();
        for (const char *key : {"parameters", "layers", "hidden_size", "attention_heads", "kv_heads",
                                "head_dim", "intermediate_size", "vocab_size", "tied_embeddings", "mlp",
                                "attention_bias", "linear_biases", "position_embeddings", "max_context",
                                "moe", "mla", "sliding_window"})
            if (const Json *v = f.find(key))
                entry[key] = *v;
        for (const char *key : {"parameters", "layers", "hidden_size", "attention_heads", "kv_heads",
                                "intermediate_size", "vocab_size"})
            if (!f.has(key))
                f.fail(key, "is missing: an inline model needs parameters, layers, hidden_size, attention_heads, "
                            "kv_heads, intermediate_size and vocab_size");
        if (f.has("experts") || f.has("experts_per_token")) {
            Json moe = entry.value("moe", Json::object());
            moe["experts"] = f.has("experts") ? *f.find("experts") : Json();
            moe["experts_per_token"] = f.has("experts_per_token") ? *f.find("experts_per_token") : Json();
            if (const Json *w = f.find("moe_intermediate_size"))
                moe["moe_intermediate_size"] = *w;
            entry["moe"] = moe;
        }
        entry["id"] = f.optString("name").value_or("inline-model");
        entry["name"] = entry["id"];
        if (!entry.contains("tied_embeddings"))
            entry["tied_embeddings"] = false;
        if (!entry.contains("max_context"))
            entry["max_context"] = 1 << 20;  // unknown: no advertised limit to check against
        try {
            return detail::parseModelEntry(Fields(entry, f.path()));
        } catch (const FieldError &e) {
            // Paths into the synthetic "moe" object point at the brief's top-level fields.
            std::string path = e.path;
            const std::string moePrefix = f.path() + "/moe/";
            if (path.rfind(moePrefix, 0) == 0 && !f.has("moe"))
                path = f.path() + "/" + path.substr(moePrefix.size());
            throw FieldError{path, e.message};
        }
    }

    void parseWorkload(const Fields &w)
    {
        Workload &wl = brief.workload;
        wl.kind = w.enumValue<WorkloadKind>("kind");

        const Json *model = w.find("model");
        const bool media = wl.kind == WorkloadKind::MediaGeneration;
        if (media && model)
            w.fail("model", "names a language model; a media-generation brief names its pipeline in "
                            "workload.media.model (gpuwb catalog media lists the ids)");
        if (!model && !media)
            w.fail("model", "is missing (a catalog id or an inline model object)");
        if (media) {
            wl.media = detail::parseMediaSpec(w, catalog, brief.warnings);
        } else if (model->is_string()) {
            const std::string id = model->get<std::string>();
            const ModelSpec *spec = catalog.model(id);
            if (!spec)
                w.fail("model", "\"" + id + "\" is not in the model catalog (gpuwb catalog models lists the ids)");
            wl.model = *spec;
        } else if (model->is_object()) {
            wl.model = inlineModel(w.object("model"));
            wl.modelFromCatalog = false;
        } else {
            w.fail("model", "must be a catalog id or an object, not " + detail::jsonTypeName(*model));
        }

        const bool inference = isInference(wl.kind);
        wl.weightsPrecision = enumOr<Precision>(w, "weights_precision");
        wl.kvCachePrecision = media ? Precision::Bf16 : enumOr<Precision>(w, "kv_cache_precision");
        if (wl.kvCachePrecision == Precision::Nf4)
            w.fail("kv_cache_precision", "nf4 is a weight format; the KV cache takes fp32, bf16, fp16, fp8, int8, "
                                         "int4 or fp4");

        if (inference) {
            wl.inputTokens = double(w.integer("input_tokens", range(w, "input_tokens")));
            if (row(w, "output_tokens").required)
                wl.outputTokens = double(w.integer("output_tokens", range(w, "output_tokens")));
            else
                wl.outputTokens = double(integerOr(w, "output_tokens"));
        } else if (media) {
            for (const char *key : {"input_tokens", "output_tokens", "input_tokens_p95", "output_tokens_p95",
                                    "kv_cache_precision"})
                if (w.has(key))
                    w.fail(key, "does not apply to media generation (an output is one image or clip of "
                                "workload.media)");
        } else {
            wl.inputTokens = double(integerOr(w, "input_tokens"));
            wl.outputTokens = double(integerOr(w, "output_tokens"));
        }
        if (auto p95 = w.optInteger("input_tokens_p95", range(w, "input_tokens_p95"))) {
            if (*p95 < wl.inputTokens)
                w.fail("input_tokens_p95", "must be at least input_tokens (" + formatNumber(wl.inputTokens) + ")");
            wl.inputTokensP95 = double(*p95);
        }
        if (auto p95 = w.optInteger("output_tokens_p95", range(w, "output_tokens_p95"))) {
            if (*p95 < wl.outputTokens)
                w.fail("output_tokens_p95", "must be at least output_tokens (" + formatNumber(wl.outputTokens) + ")");
            wl.outputTokensP95 = double(*p95);
        }

        if (auto t = w.optObject("traffic")) {
            wl.traffic.mode = t->enumValue<TrafficMode>("mode");
            wl.traffic.burstiness = numberOr(*t, "burstiness");
            if (auto c = t->optInteger("concurrency", range(*t, "concurrency")))
                wl.traffic.concurrency = int(*c);
            if (wl.traffic.mode == TrafficMode::OpenLoop)
                wl.traffic.requestRatePerS = t->number("request_rate_per_s", range(*t, "request_rate_per_s"));
            else
                wl.traffic.requestRatePerS = t->optNumber("request_rate_per_s", range(*t, "request_rate_per_s"));
            if (wl.traffic.mode == TrafficMode::ClosedLoop && !wl.traffic.concurrency)
                t->fail("concurrency", "is missing: closed-loop traffic needs the number of requests in flight");
            if (auto p = t->optInteger("prompts", range(*t, "prompts"))) {
                if (wl.traffic.mode != TrafficMode::ClosedLoop)
                    t->fail("prompts", "applies to closed-loop traffic only (a benchmark run of that many prompts)");
                if (*p < *wl.traffic.concurrency)
                    t->fail("prompts", "is below concurrency (" + formatNumber(*wl.traffic.concurrency)
                                           + "): every client sends one prompt at least");
                wl.traffic.prompts = int(*p);
            }
            if (auto b = t->optObject("bursts")) {
                if (wl.traffic.mode != TrafficMode::OpenLoop)
                    t->fail("bursts", "apply to open-loop traffic only");
                wl.traffic.burstMultiplier = b->number("multiplier", range(*b, "multiplier"));
                wl.traffic.burstDurationS = b->number("duration_s", range(*b, "duration_s"));
                wl.traffic.burstPeriodS = b->number("period_s", range(*b, "period_s"));
                if (wl.traffic.burstDurationS >= wl.traffic.burstPeriodS)
                    b->fail("duration_s", "must be shorter than period_s (a burst that never ends is a higher base rate)");
                if (wl.traffic.requestRatePerS && *wl.traffic.requestRatePerS * *wl.traffic.burstMultiplier > limits::kRequestRatePerS)
                    b->fail("multiplier", "makes bursts of " + formatNumber(*wl.traffic.requestRatePerS * *wl.traffic.burstMultiplier)
                                              + " requests/s, over the " + formatNumber(limits::kRequestRatePerS)
                                              + " the simulator is meaningful for");
                noteUnknown(*b);
            }
            wl.traffic.peakRequestRatePerS = t->optNumber("peak_request_rate_per_s", range(*t, "peak_request_rate_per_s"));
            if (wl.traffic.peakRequestRatePerS && wl.traffic.requestRatePerS
                && *wl.traffic.peakRequestRatePerS < *wl.traffic.requestRatePerS)
                t->fail("peak_request_rate_per_s", "is below request_rate_per_s (" + formatNumber(*wl.traffic.requestRatePerS)
                                                       + "): the peak is the highest rate the service must carry");
            noteUnknown(*t);
        } else if (wl.kind == WorkloadKind::RealtimeInference) {
            w.fail("traffic", "is missing: real-time inference needs its traffic (open-loop rate or closed-loop "
                              "concurrency)");
        }

        if (auto s = w.optObject("slo")) {
            wl.slo.ttftP99S = s->optNumber("ttft_p99_s", range(*s, "ttft_p99_s"));
            wl.slo.tpotP99S = s->optNumber("tpot_p99_s", range(*s, "tpot_p99_s"));
            wl.slo.e2eP99S = s->optNumber("e2e_p99_s", range(*s, "e2e_p99_s"));
            wl.slo.ttftP95S = s->optNumber("ttft_p95_s", range(*s, "ttft_p95_s"));
            wl.slo.tpotP95S = s->optNumber("tpot_p95_s", range(*s, "tpot_p95_s"));
            wl.slo.e2eP95S = s->optNumber("e2e_p95_s", range(*s, "e2e_p95_s"));
            noteUnknown(*s);
        }
        if (auto a = w.optObject("acceptance")) {
            wl.acceptance.qualityPassRate = numberOr(*a, "quality_pass_rate");
            if (wl.acceptance.qualityPassRate <= 0)
                a->fail("quality_pass_rate", "is 0: with no output accepted there is no cost per accepted output");
            wl.acceptance.failureRate = numberOr(*a, "failure_rate");
            wl.acceptance.given = true;
            noteUnknown(*a);
        }

        const bool trains = isTraining(wl.kind) || isAdapter(wl.kind);
        // Pre-training and full fine-tuning update every weight: they train in fp32, bf16, fp16 or
        // fp8 (Transformer Engine); integer and 4-bit formats are for frozen bases (QLoRA) only.
        if (isTraining(wl.kind) && (wl.weightsPrecision == Precision::Int8 || wl.weightsPrecision == Precision::Int4
                                    || wl.weightsPrecision == Precision::Nf4 || wl.weightsPrecision == Precision::Fp4))
            w.fail("weights_precision", std::string(enumName(wl.weightsPrecision)) + " weights cannot be trained in full; "
                                            + std::string(enumName(wl.kind)) + " trains in fp32, bf16, fp16 or fp8 (4-bit and "
                                              "integer bases are for qlora or lora)");
        if (auto t = w.optObject("training")) {
            TrainingSpec ts;
            ts.sequenceLength = int(t->integer("sequence_length", range(*t, "sequence_length")));
            ts.microBatchSize = int(integerOr(*t, "micro_batch_size"));
            ts.globalBatchTokens = t->optNumber("global_batch_tokens", range(*t, "global_batch_tokens"));
            ts.tokens = t->optNumber("tokens", range(*t, "tokens"));
            ts.optimizer = enumOr<Optimizer>(*t, "optimizer");
            ts.optimizerPlacement = enumOr<OptimizerPlacement>(*t, "optimizer_placement");
            ts.masterWeights = booleanOr(*t, "master_weights");
            ts.optimizerInBackward = booleanOr(*t, "optimizer_in_backward");
            ts.sharding = enumOr<Sharding>(*t, "sharding");
            ts.recompute = enumOr<Recompute>(*t, "activation_recompute");
            ts.activationOffload = booleanOr(*t, "activation_offload");
            ts.sequenceParallel = t->optBoolean("sequence_parallel");
            ts.loraRank = int(integerOr(*t, "lora_rank"));
            ts.loraTargets = enumOr<LoraTargets>(*t, "lora_targets");
            if (!isAdapter(wl.kind) && (t->has("lora_rank") || t->has("lora_targets")))
                brief.warnings.push_back(makeMessage("lora-fields-ignored", "/workload/training/lora_rank",
                                                     WB_MESSAGE("Messages", "/workload/training/lora_rank and lora_targets apply to "
                                                                "lora and qlora; a {kind} trains every weight, so they "
                                                                "are ignored"),
                                                     {{"kind", std::string(enumName(wl.kind))}}));
            if (isAdapter(wl.kind) && wl.model.hiddenSize > 0 && ts.loraRank > wl.model.hiddenSize)
                brief.warnings.push_back(makeMessage("lora-rank-above-width", "/workload/training/lora_rank",
                                                     WB_MESSAGE("Messages", "/workload/training/lora_rank {rank} exceeds the model's "
                                                                "hidden size {hidden_size}: the adapters are larger than "
                                                                "a full-rank update"),
                                                     {{"rank", std::int64_t(ts.loraRank)},
                                                      {"hidden_size", std::int64_t(wl.model.hiddenSize)}}));
            if (auto c = t->optObject("checkpoint")) {
                ts.checkpoint.storageWriteBytesPerS = c->optNumber("storage_write_bytes_per_s",
                                                                   range(*c, "storage_write_bytes_per_s"));
                ts.checkpoint.storageReadBytesPerS = c->optNumber("storage_read_bytes_per_s",
                                                                  range(*c, "storage_read_bytes_per_s"));
                ts.checkpoint.intervalS = c->optNumber("interval_s", range(*c, "interval_s"));
                ts.checkpoint.restartS = c->optNumber("restart_s", range(*c, "restart_s"));
                noteUnknown(*c);
            }
            ts.interruptionsPerGpuHour = t->optNumber("interruptions_per_gpu_hour", range(*t, "interruptions_per_gpu_hour"));
            ts.runsPerYear = t->optNumber("runs_per_year", range(*t, "runs_per_year"));
            if (auto d = t->optObject("dataset")) {
                ts.datasetGb = d->number("size_gb", range(*d, "size_gb"));
                const std::string location = d->optString("location").value_or("elsewhere");
                if (location != "with-gpus" && location != "elsewhere")
                    d->fail("location", "must be \"with-gpus\" (already where the GPUs are) or \"elsewhere\" (moved to them), not \""
                                            + location + "\"");
                ts.datasetWithGpus = location == "with-gpus";
                ts.datasetTransferUsdPerGb = d->optNumber("transfer_usd_per_gb", range(*d, "transfer_usd_per_gb"));
                if (ts.datasetTransferUsdPerGb && ts.datasetWithGpus)
                    d->fail("transfer_usd_per_gb", "applies to a dataset elsewhere; one with the GPUs is not moved");
                noteUnknown(*d);
            }
            if (auto e = t->optObject("evaluation")) {
                ts.evalIntervalTokens = e->number("interval_tokens", range(*e, "interval_tokens"));
                ts.evalTokens = e->number("tokens", range(*e, "tokens"));
                noteUnknown(*e);
            }
            noteUnknown(*t);
            wl.training = ts;
        } else if (trains) {
            w.fail("training", "is missing: " + std::string(enumName(wl.kind))
                                   + " needs sequence_length and the training set-up");
        }

        if (!media && w.has("media"))
            w.fail("media", "applies to media-generation briefs only");
        if (w.has("acceptable_precisions")) {
            const Json &list = w.array("acceptable_precisions");
            if (isTraining(wl.kind) || isAdapter(wl.kind))
                w.fail("acceptable_precisions", "applies to inference and media briefs (the precisions the layout search "
                                                "may try); a training brief sets weights_precision");
            for (std::size_t i = 0; i < list.size(); ++i) {
                const auto p = list[i].is_string() ? enumFromString<Precision>(list[i].get<std::string>()) : std::nullopt;
                if (!p)
                    w.fail("acceptable_precisions", "item " + std::to_string(i) + " is not a precision; expected "
                                                        + enumChoices<Precision>());
                if (std::find(wl.acceptablePrecisions.begin(), wl.acceptablePrecisions.end(), *p) == wl.acceptablePrecisions.end())
                    wl.acceptablePrecisions.push_back(*p);
            }
        }
        noteUnknown(w);
    }

    void parseCandidates(const Fields &top)
    {
        const Json &list = top.array("candidates");
        if (list.size() > limits::kCandidates)
            top.fail("candidates", "lists " + std::to_string(list.size()) + " candidates; a brief may compare at most "
                                       + std::to_string(limits::kCandidates));
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Fields c(list[i], "/candidates/" + std::to_string(i));
            Candidate cand;
            cand.gpu = c.string("gpu");
            if (!catalog.gpu(cand.gpu))
                c.fail("gpu", "\"" + cand.gpu + "\" is not in the GPU catalog (gpuwb catalog gpus lists the ids)");
            cand.tensorParallel = int(integerOr(c, "tensor_parallel"));
            cand.pipelineParallel = int(integerOr(c, "pipeline_parallel"));
            cand.contextParallel = int(integerOr(c, "context_parallel"));
            cand.virtualPipeline = int(integerOr(c, "virtual_pipeline"));
            const bool trains = isTraining(brief.workload.kind) || isAdapter(brief.workload.kind);
            if (brief.workload.kind == WorkloadKind::MediaGeneration && cand.pipelineParallel > 1)
                c.fail("pipeline_parallel", "does not apply to media generation: a replica splits each denoising pass over "
                                            "tensor_parallel GPUs (sequence parallelism)");
            if (!trains && cand.contextParallel > 1)
                c.fail("context_parallel", "applies to training kinds; an inference replica is tensor x pipeline parallel");
            if (!trains && cand.virtualPipeline > 1)
                c.fail("virtual_pipeline", "applies to training kinds (interleaved pipeline schedules)");
            if (cand.virtualPipeline > 1 && cand.pipelineParallel == 1)
                c.fail("virtual_pipeline", "interleaves pipeline stages, but pipeline_parallel is 1");
            const int layers = brief.workload.model.layers;
            // The largest stage holds ceil(layers / pp) layers; each of its chunks needs one.
            const int stageLayers = layers > 0 ? (layers + cand.pipelineParallel - 1) / cand.pipelineParallel : 0;
            if (cand.virtualPipeline > 1 && layers > 0 && cand.virtualPipeline > stageLayers)
                c.fail("virtual_pipeline", std::to_string(cand.virtualPipeline) + " interleaved chunks per GPU, but a stage of "
                                               + std::to_string(layers) + " layers over " + std::to_string(cand.pipelineParallel)
                                               + " stages holds at most " + std::to_string(stageLayers)
                                               + ": each chunk needs a layer at least");
            // Context parallelism splits each sequence over its ranks: each needs a token at least.
            if (brief.workload.training && cand.contextParallel > brief.workload.training->sequenceLength)
                c.fail("context_parallel", std::to_string(cand.contextParallel) + " ranks split each sequence, but "
                                               "workload.training.sequence_length is "
                                               + std::to_string(brief.workload.training->sequenceLength)
                                               + ": each rank needs a token at least");
            const std::string layout = trains ? "tensor_parallel x pipeline_parallel x context_parallel"
                                              : "tensor_parallel x pipeline_parallel";
            const double perReplica = double(cand.tensorParallel) * cand.pipelineParallel * cand.contextParallel;
            if (perReplica > limits::kGpusPerCandidate)
                c.fail("pipeline_parallel", layout + " = " + formatNumber(perReplica) + " GPUs per "
                                                + (trains ? "data-parallel rank" : "replica") + "; a candidate may have at most "
                                                + formatNumber(limits::kGpusPerCandidate) + " GPUs");
            cand.gpus = int(c.optInteger("gpus", range(c, "gpus")).value_or(cand.gpusPerReplica()));
            cand.servingStack = enumOr<ServingStack>(c, "serving_stack");
            if (auto version = c.optString("serving_stack_version")) {
                if (!compareVersions(*version, *version) || version->size() > 64)
                    c.fail("serving_stack_version", "\"" + version->substr(0, 64) + "\" is not a release number such as \"0.5.9\" or \"v1.1.0\"");
                cand.servingStackVersion = *version;
            }
            if (cand.gpus % cand.gpusPerReplica() != 0)
                c.fail("gpus", std::to_string(cand.gpus) + " GPUs cannot be split into " + (trains ? "data-parallel ranks" : "replicas")
                                   + " of " + layout + " = " + std::to_string(cand.gpusPerReplica()) + " GPUs");
            cand.weightsPrecision = c.optEnum<Precision>("weights_precision");
            if (cand.weightsPrecision && (isTraining(brief.workload.kind) || isAdapter(brief.workload.kind)))
                c.fail("weights_precision", "applies to inference and media candidates; a training brief sets the "
                                            "precision in workload.weights_precision");
            if (auto n = c.optObject("network")) {
                NetworkSpec net;
                net.kind = n->string("kind");
                const std::vector<std::string> &kinds = row(*n, "kind").choices;
                if (std::find(kinds.begin(), kinds.end(), net.kind) == kinds.end())
                    n->fail("kind", "must be one of " + joined(kinds));
                net.bytesPerSPerGpu = n->number("bytes_per_s_per_gpu", range(*n, "bytes_per_s_per_gpu"));
                noteUnknown(*n);
                cand.network = net;
            }
            noteUnknown(c);
            brief.candidates.push_back(cand);
        }
    }

    void parseAssumptions(const Fields &top)
    {
        auto a = top.optObject("assumptions");
        if (!a)
            return;
        const Json &obj = *top.find("assumptions");
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const std::string path = a->pathOf(it.key());
            // Retired: spot losses now follow from the interruption rate (briefs saved before still open).
            if (it.key() == "spot_work_lost_fraction") {
                brief.warnings.push_back(makeMessage("retired-assumption", path,
                                                     WB_MESSAGE("Messages", "{field} is no longer read: spot losses follow from "
                                                                "spot_interruptions_per_gpu_month (or a spot price's "
                                                                "interruptions_per_gpu_month); it was ignored"),
                                                     {{"field", path}}));
                continue;
            }
            double value = 0;
            if (it->is_boolean())
                value = it->get<bool>() ? 1.0 : 0.0;
            else if (it->is_number())
                value = it->get<double>();
            else
                throw FieldError{path, "must be a number or true/false, not " + detail::jsonTypeName(*it)};
            Status s = brief.assumptions.set(it.key(), value, path);
            if (!s)
                throw FieldError{path, s.error().message};
        }
    }

    void parseCost(const Fields &top)
    {
        auto c = top.optObject("cost");
        if (!c)
            return;
        CostInputs &cost = brief.cost;
        if (c->has("prices")) {
            const Json &list = c->array("prices");
            if (list.size() > limits::kPrices)
                c->fail("prices", "lists " + std::to_string(list.size()) + " prices; a brief may hold at most "
                                      + std::to_string(limits::kPrices));
            for (std::size_t i = 0; i < list.size(); ++i) {
                const Fields f(list[i], c->pathOf("prices") + "/" + std::to_string(i));
                GpuPrice p = detail::parseGpuPrice(f, "brief");
                if (!catalog.gpu(p.gpu))
                    f.fail("gpu", "\"" + p.gpu + "\" is not in the GPU catalog");
                noteUnknown(f);
                cost.prices.push_back(std::move(p));
            }
        }
        if (auto api = c->optObject("api")) {
            const Workload &w = brief.workload;
            if (w.kind == WorkloadKind::Training)
                c->fail("api", "prices a model API, but pre-training has none to compare with: leave cost.api out");
            const ApiUse use = apiUseOf(w);
            cost.api = detail::parseApiPrice(*api, "brief", w.media ? w.media->model.id : w.model.id, use);
            if (use == ApiUse::Embedding && api->has("usd_per_million_output"))
                brief.warnings.push_back(makeMessage("api-output-price-ignored", "/cost/api/usd_per_million_output",
                                                     WB_MESSAGE("Messages", "an embedding API bills its input tokens only: the "
                                                                "quote's output price is not used")));
            if (use == ApiUse::FineTune) {
                // A quote is for the brief's kind of run unless it says otherwise, and must match it.
                const WorkloadKind run = isAdapter(w.kind) ? WorkloadKind::Lora : WorkloadKind::FullFinetune;
                if (api->has("fine_tuning") && cost.api->fineTuning != run)
                    api->fail("fine_tuning", std::string("is \"") + std::string(enumName(cost.api->fineTuning))
                                                 + "\", but the brief's run is " + std::string(enumName(w.kind)));
                cost.api->fineTuning = run;
            }
            noteUnknown(*api);
        }
        cost.requestsPerMonth = c->optNumber("requests_per_month", range(*c, "requests_per_month"));
        if (auto d = c->optObject("decision")) {
            cost.decision.given = true;
            cost.decision.demandCertainty = enumOr<Level>(*d, "demand_certainty");
            cost.decision.modelChurn = enumOr<Level>(*d, "model_churn");
            cost.decision.needsHardwareControl = booleanOr(*d, "needs_hardware_control");
            cost.decision.apiAllowed = booleanOr(*d, "api_allowed");
            cost.decision.dataRegion = d->optEnum<DataRegion>("data_region");
            cost.decision.interruptionsAcceptable = d->optBoolean("interruptions_acceptable");
            noteUnknown(*d);
        }
        if (auto b = c->optObject("billing")) {
            BillingInputs &billing = cost.billing;
            billing.given = true;
            billing.model = b->enumValue<Billing>("model");
            if (billing.model == Billing::Scheduled) {
                billing.hoursPerDay = b->number("hours_per_day", range(*b, "hours_per_day"));
                billing.daysPerMonth = b->number("days_per_month", range(*b, "days_per_month"));
            }
            if (billing.model == Billing::Autoscaled)
                billing.minReplicas = int(integerOr(*b, "min_replicas"));
            if (billing.model == Billing::Serverless)
                billing.minReplicas = 0;  // billed per second of use: nothing runs without load
            for (const char *key : {"hours_per_day", "days_per_month"})
                if (billing.model != Billing::Scheduled && b->has(key))
                    b->fail(key, "applies to the \"scheduled\" billing model only");
            if (billing.model != Billing::Autoscaled && b->has("min_replicas"))
                b->fail("min_replicas", "applies to the \"autoscaled\" billing model only");
            noteUnknown(*b);
        }
        noteUnknown(*c);
    }

    void parse(const Json &root)
    {
        const Fields top(root, "");
        const std::string format = top.string("format");
        if (format != "gpu-workbench-brief")
            top.fail("format", "must be \"gpu-workbench-brief\", not \"" + format + "\"");
        const long long version = top.integer("version", Range{1, 1e9});
        if (version != 1)
            top.fail("version", "is " + std::to_string(version) + "; this build reads version 1");
        brief.name = top.optString("name").value_or(std::filesystem::path(file).stem().string());
        parseWorkload(top.object("workload"));
        parseCandidates(top);
        parseAssumptions(top);
        parseCost(top);
        noteUnknown(top);
    }
};

} // namespace

namespace {
std::atomic<std::uint64_t> g_parses{0};
}

std::uint64_t briefParseCount()
{
    return g_parses.load();
}

Result<Brief> parseBrief(const std::string &jsonText, const std::string &fileName, const Catalog &catalog)
{
    ++g_parses;
    if (auto bad = limits::checkJsonText(jsonText))
        return Error{fileName, "", *bad};
    Json root = Json::parse(jsonText, nullptr, false);
    if (root.is_discarded()) {
        // Parse again with exceptions on, only to say where the JSON breaks.
        std::string where;
        try {
            Json discarded = Json::parse(jsonText);
            (void)discarded;
        } catch (const Json::parse_error &e) {
            where = " (byte " + std::to_string(e.byte) + ")";
        } catch (const Json::exception &) {
            // A number too large for a double, found by fuzzing: out_of_range, not parse_error.
            where = " (a number is out of range)";
        }
        return Error{fileName, "", "is not valid JSON" + where};
    }
    BriefParser parser{catalog, fileName, {}};
    parser.brief.file = fileName;
    try {
        parser.parse(root);
    } catch (const FieldError &e) {
        return Error{fileName, e.path, e.message};
    } catch (const Json::exception &e) {
        return Error{fileName, "", std::string("cannot be read: ") + e.what()};
    }
    return std::move(parser.brief);
}

Result<Brief> loadBrief(const std::string &path, const Catalog &catalog)
{
    Result<std::string> text = readTextFile(path);
    if (!text)
        return text.error();
    return parseBrief(text.value(), path, catalog);
}

ApiUse apiUseOf(const Workload &w)
{
    return w.media ? (w.media->model.video ? ApiUse::Video : ApiUse::Image)
           : isTraining(w.kind) || isAdapter(w.kind) ? ApiUse::FineTune
           : w.kind == WorkloadKind::Embedding       ? ApiUse::Embedding
                                                     : ApiUse::Text;
}

} // namespace wb
