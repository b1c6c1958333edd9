#include "brief/brief.h"

#include "core/fileio.h"
#include "core/limits.h"

#include "brief/mediabrief.h"
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
using detail::kFraction;
using detail::kNonNegative;
using detail::kPositive;
// The open-loop rates the simulator is meaningful for (core/limits.h).
constexpr detail::Range kRate{limits::kMinRequestRatePerS, limits::kRequestRatePerS};
using detail::Range;

namespace {

struct BriefParser
{
    const Catalog &catalog;
    std::string file;
    Brief brief;

    void noteUnknown(const Fields &f, const std::set<std::string> &known)
    {
        detail::noteUnknownFields(f, known, brief.warnings);
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
        const Precision defaultWeights = wl.kind == WorkloadKind::Qlora ? Precision::Nf4 : Precision::Bf16;
        wl.weightsPrecision = w.optEnum<Precision>("weights_precision").value_or(defaultWeights);
        wl.kvCachePrecision = w.optEnum<Precision>("kv_cache_precision").value_or(Precision::Bf16);
        if (wl.kvCachePrecision == Precision::Nf4)
            w.fail("kv_cache_precision", "nf4 is a weight format; the KV cache takes fp32, bf16, fp16, fp8, int8, "
                                         "int4 or fp4");

        if (inference) {
            wl.inputTokens = double(w.integer("input_tokens", Range{1, 1e8}));
            const bool embedding = wl.kind == WorkloadKind::Embedding;
            if (embedding)
                wl.outputTokens = double(w.optInteger("output_tokens", kNonNegative).value_or(0));
            else
                wl.outputTokens = double(w.integer("output_tokens", Range{1, 1e8}));
        } else if (media) {
            for (const char *key : {"input_tokens", "output_tokens", "input_tokens_p95", "output_tokens_p95",
                                    "kv_cache_precision"})
                if (w.has(key))
                    w.fail(key, "does not apply to media generation (an output is one image or clip of "
                                "workload.media)");
        } else {
            wl.inputTokens = double(w.optInteger("input_tokens", kNonNegative).value_or(0));
            wl.outputTokens = double(w.optInteger("output_tokens", kNonNegative).value_or(0));
        }
        if (auto p95 = w.optInteger("input_tokens_p95", Range{0, 1e8})) {
            if (*p95 < wl.inputTokens)
                w.fail("input_tokens_p95", "must be at least input_tokens (" + formatNumber(wl.inputTokens) + ")");
            wl.inputTokensP95 = double(*p95);
        }
        if (auto p95 = w.optInteger("output_tokens_p95", Range{0, 1e8})) {
            if (*p95 < wl.outputTokens)
                w.fail("output_tokens_p95", "must be at least output_tokens (" + formatNumber(wl.outputTokens) + ")");
            wl.outputTokensP95 = double(*p95);
        }

        if (auto t = w.optObject("traffic")) {
            wl.traffic.mode = t->enumValue<TrafficMode>("mode");
            wl.traffic.burstiness = t->optNumber("burstiness", Range{0.01, 100}).value_or(1.0);
            if (auto c = t->optInteger("concurrency", Range{1, limits::kConcurrency}))
                wl.traffic.concurrency = int(*c);
            if (wl.traffic.mode == TrafficMode::OpenLoop)
                wl.traffic.requestRatePerS = t->number("request_rate_per_s", kRate);
            else
                wl.traffic.requestRatePerS = t->optNumber("request_rate_per_s", kRate);
            if (wl.traffic.mode == TrafficMode::ClosedLoop && !wl.traffic.concurrency)
                t->fail("concurrency", "is missing: closed-loop traffic needs the number of requests in flight");
            if (auto b = t->optObject("bursts")) {
                if (wl.traffic.mode != TrafficMode::OpenLoop)
                    t->fail("bursts", "apply to open-loop traffic only");
                wl.traffic.burstMultiplier = b->number("multiplier", Range{1, 1000});
                wl.traffic.burstDurationS = b->number("duration_s", kPositive);
                wl.traffic.burstPeriodS = b->number("period_s", kPositive);
                if (wl.traffic.burstDurationS >= wl.traffic.burstPeriodS)
                    b->fail("duration_s", "must be shorter than period_s (a burst that never ends is a higher base rate)");
                if (wl.traffic.requestRatePerS && *wl.traffic.requestRatePerS * *wl.traffic.burstMultiplier > limits::kRequestRatePerS)
                    b->fail("multiplier", "makes bursts of " + formatNumber(*wl.traffic.requestRatePerS * *wl.traffic.burstMultiplier)
                                              + " requests/s, over the " + formatNumber(limits::kRequestRatePerS)
                                              + " the simulator is meaningful for");
                noteUnknown(*b, {"multiplier", "duration_s", "period_s"});
            }
            wl.traffic.peakRequestRatePerS = t->optNumber("peak_request_rate_per_s", kRate);
            if (wl.traffic.peakRequestRatePerS && wl.traffic.requestRatePerS
                && *wl.traffic.peakRequestRatePerS < *wl.traffic.requestRatePerS)
                t->fail("peak_request_rate_per_s", "is below request_rate_per_s (" + formatNumber(*wl.traffic.requestRatePerS)
                                                       + "): the peak is the highest rate the service must carry");
            noteUnknown(*t, {"mode", "request_rate_per_s", "burstiness", "concurrency", "bursts",
                             "peak_request_rate_per_s"});
        } else if (wl.kind == WorkloadKind::RealtimeInference) {
            w.fail("traffic", "is missing: real-time inference needs its traffic (open-loop rate or closed-loop "
                              "concurrency)");
        }

        if (auto s = w.optObject("slo")) {
            wl.slo.ttftP99S = s->optNumber("ttft_p99_s", kPositive);
            wl.slo.tpotP99S = s->optNumber("tpot_p99_s", kPositive);
            wl.slo.e2eP99S = s->optNumber("e2e_p99_s", kPositive);
            wl.slo.ttftP95S = s->optNumber("ttft_p95_s", kPositive);
            wl.slo.tpotP95S = s->optNumber("tpot_p95_s", kPositive);
            wl.slo.e2eP95S = s->optNumber("e2e_p95_s", kPositive);
            noteUnknown(*s, {"ttft_p99_s", "tpot_p99_s", "e2e_p99_s", "ttft_p95_s", "tpot_p95_s", "e2e_p95_s"});
        }
        if (auto a = w.optObject("acceptance")) {
            wl.acceptance.qualityPassRate = a->optNumber("quality_pass_rate", kFraction).value_or(1.0);
            if (wl.acceptance.qualityPassRate <= 0)
                a->fail("quality_pass_rate", "is 0: with no output accepted there is no cost per accepted output");
            wl.acceptance.failureRate = a->optNumber("failure_rate", Range{0.0, 0.999}).value_or(0.0);
            wl.acceptance.given = true;
            noteUnknown(*a, {"quality_pass_rate", "failure_rate"});
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
            ts.sequenceLength = int(t->integer("sequence_length", Range{1, 1e8}));
            ts.microBatchSize = int(t->optInteger("micro_batch_size", Range{1, 1e6}).value_or(1));
            // Up to a trillion tokens a step and 10^16 tokens a run (a thousand times today's largest).
            ts.globalBatchTokens = t->optNumber("global_batch_tokens", Range{1, 1e12});
            ts.tokens = t->optNumber("tokens", Range{1, 1e16});
            ts.optimizer = t->optEnum<Optimizer>("optimizer").value_or(Optimizer::AdamW);
            ts.optimizerPlacement = t->optEnum<OptimizerPlacement>("optimizer_placement").value_or(OptimizerPlacement::Gpu);
            ts.masterWeights = t->optBoolean("master_weights").value_or(true);
            ts.optimizerInBackward = t->optBoolean("optimizer_in_backward").value_or(false);
            ts.sharding = t->optEnum<Sharding>("sharding").value_or(Sharding::None);
            ts.recompute = t->optEnum<Recompute>("activation_recompute").value_or(Recompute::None);
            ts.activationOffload = t->optBoolean("activation_offload").value_or(false);
            ts.sequenceParallel = t->optBoolean("sequence_parallel").value_or(false);
            ts.loraRank = int(t->optInteger("lora_rank", Range{1, 65536}).value_or(16));
            ts.loraTargets = t->optEnum<LoraTargets>("lora_targets").value_or(LoraTargets::AllLinear);
            if (!isAdapter(wl.kind) && (t->has("lora_rank") || t->has("lora_targets")))
                brief.warnings.push_back({"lora-fields-ignored", "/workload/training/lora_rank and lora_targets "
                                                                 "apply to lora and qlora; a " + std::string(enumName(wl.kind))
                                                                 + " trains every weight, so they are ignored"});
            if (isAdapter(wl.kind) && wl.model.hiddenSize > 0 && ts.loraRank > wl.model.hiddenSize)
                brief.warnings.push_back({"lora-rank-above-width",
                                          "/workload/training/lora_rank " + std::to_string(ts.loraRank)
                                              + " exceeds the model's hidden size " + std::to_string(wl.model.hiddenSize)
                                              + ": the adapters are larger than a full-rank update"});
            if (auto c = t->optObject("checkpoint")) {
                // Storage from 1 MB/s to 100 TB/s; intervals and restarts up to about four months.
                constexpr Range kStorage{1e6, 1e14};
                constexpr Range kSeconds{1, 1e7};
                ts.checkpoint.storageWriteBytesPerS = c->optNumber("storage_write_bytes_per_s", kStorage);
                ts.checkpoint.storageReadBytesPerS = c->optNumber("storage_read_bytes_per_s", kStorage);
                ts.checkpoint.intervalS = c->optNumber("interval_s", kSeconds);
                ts.checkpoint.restartS = c->optNumber("restart_s", Range{0, 1e7});
                noteUnknown(*c, {"storage_write_bytes_per_s", "storage_read_bytes_per_s", "interval_s", "restart_s"});
            }
            ts.interruptionsPerGpuHour = t->optNumber("interruptions_per_gpu_hour", Range{0, 1});
            noteUnknown(*t, {"sequence_length", "micro_batch_size", "global_batch_tokens", "tokens", "optimizer",
                             "optimizer_placement", "master_weights", "optimizer_in_backward", "sharding",
                             "activation_recompute", "activation_offload", "sequence_parallel", "lora_rank",
                             "lora_targets", "checkpoint", "interruptions_per_gpu_hour"});
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
        noteUnknown(w, {"kind", "model", "weights_precision", "kv_cache_precision", "input_tokens", "output_tokens",
                        "input_tokens_p95", "output_tokens_p95", "traffic", "slo", "acceptance", "training", "media",
                        "acceptable_precisions"});
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
            cand.tensorParallel = int(c.optInteger("tensor_parallel", Range{1, 4096}).value_or(1));
            cand.pipelineParallel = int(c.optInteger("pipeline_parallel", Range{1, 4096}).value_or(1));
            cand.contextParallel = int(c.optInteger("context_parallel", Range{1, 4096}).value_or(1));
            cand.virtualPipeline = int(c.optInteger("virtual_pipeline", Range{1, 1024}).value_or(1));
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
            const std::string layout = trains ? "tensor_parallel x pipeline_parallel x context_parallel"
                                              : "tensor_parallel x pipeline_parallel";
            const double perReplica = double(cand.tensorParallel) * cand.pipelineParallel * cand.contextParallel;
            if (perReplica > limits::kGpusPerCandidate)
                c.fail("pipeline_parallel", layout + " = " + formatNumber(perReplica) + " GPUs per "
                                                + (trains ? "data-parallel rank" : "replica") + "; a candidate may have at most "
                                                + formatNumber(limits::kGpusPerCandidate) + " GPUs");
            cand.gpus = int(c.optInteger("gpus", Range{1, limits::kGpusPerCandidate}).value_or(cand.gpusPerReplica()));
            cand.servingStack = c.optEnum<ServingStack>("serving_stack").value_or(ServingStack::Generic);
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
                if (net.kind != "infiniband" && net.kind != "roce" && net.kind != "ethernet" && net.kind != "efa")
                    n->fail("kind", "must be one of infiniband, roce, ethernet, efa");
                // From 1 Gb/s to 10 TB/s per GPU.
                net.bytesPerSPerGpu = n->number("bytes_per_s_per_gpu", Range{1.25e8, 1e13});
                noteUnknown(*n, {"kind", "bytes_per_s_per_gpu"});
                cand.network = net;
            }
            noteUnknown(c, {"gpu", "gpus", "tensor_parallel", "pipeline_parallel", "context_parallel", "virtual_pipeline",
                            "serving_stack", "network", "weights_precision"});
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
                brief.warnings.push_back({"retired-assumption", path + " is no longer read: spot losses follow from "
                                                                       "spot_interruptions_per_gpu_month (or a spot price's "
                                                                       "interruptions_per_gpu_month); it was ignored"});
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
                noteUnknown(f, {"gpu", "provider", "term", "usd_per_gpu_hour", "usd_per_gpu", "observed", "source", "note",
                                "offer", "min_commitment_months", "upfront_fraction", "cancellation",
                                "support_usd_per_gpu_month", "egress_usd_per_gb", "included_storage_gb_per_gpu",
                                "interruptions_per_gpu_month"});
                cost.prices.push_back(std::move(p));
            }
        }
        if (auto api = c->optObject("api")) {
            cost.api = detail::parseApiPrice(*api, "brief", brief.workload.model.id);
            noteUnknown(*api, {"provider", "usd_per_million_input", "usd_per_million_output", "failure_rate", "observed",
                               "source", "note"});
        }
        cost.requestsPerMonth = c->optNumber("requests_per_month", Range{limits::kMinRequestsPerMonth, limits::kRequestsPerMonth});
        if (auto d = c->optObject("decision")) {
            cost.decision.given = true;
            cost.decision.demandCertainty = d->optEnum<Level>("demand_certainty").value_or(Level::Medium);
            cost.decision.modelChurn = d->optEnum<Level>("model_churn").value_or(Level::Medium);
            cost.decision.needsHardwareControl = d->optBoolean("needs_hardware_control").value_or(false);
            cost.decision.apiAllowed = d->optBoolean("api_allowed").value_or(true);
            cost.decision.interruptionsAcceptable = d->optBoolean("interruptions_acceptable");
            noteUnknown(*d, {"demand_certainty", "model_churn", "needs_hardware_control", "api_allowed",
                             "interruptions_acceptable"});
        }
        if (auto b = c->optObject("billing")) {
            BillingInputs &billing = cost.billing;
            billing.given = true;
            billing.model = b->enumValue<Billing>("model");
            if (billing.model == Billing::Scheduled) {
                billing.hoursPerDay = b->number("hours_per_day", Range{0.0, 24.0, true});
                billing.daysPerMonth = b->number("days_per_month", Range{0.0, 31.0, true});
            }
            if (billing.model == Billing::Autoscaled)
                billing.minReplicas = int(b->optInteger("min_replicas", Range{0, limits::kGpusPerCandidate}).value_or(1));
            if (billing.model == Billing::Serverless)
                billing.minReplicas = 0;  // billed per second of use: nothing runs without load
            for (const char *key : {"hours_per_day", "days_per_month"})
                if (billing.model != Billing::Scheduled && b->has(key))
                    b->fail(key, "applies to the \"scheduled\" billing model only");
            if (billing.model != Billing::Autoscaled && b->has("min_replicas"))
                b->fail("min_replicas", "applies to the \"autoscaled\" billing model only");
            noteUnknown(*b, {"model", "hours_per_day", "days_per_month", "min_replicas"});
        }
        noteUnknown(*c, {"prices", "api", "requests_per_month", "decision", "billing"});
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
        noteUnknown(top, {"format", "version", "name", "workload", "candidates", "assumptions", "cost", "notes"});
    }
};

} // namespace

std::string candidateLabel(const Candidate &c)
{
    std::string label = std::to_string(c.gpus) + "x " + c.gpu + " TP" + std::to_string(c.tensorParallel);
    if (c.pipelineParallel > 1)
        label += " PP" + std::to_string(c.pipelineParallel);
    if (c.contextParallel > 1)
        label += " CP" + std::to_string(c.contextParallel);
    if (c.weightsPrecision)
        label += " " + std::string(enumName(*c.weightsPrecision));
    return label;
}

Brief briefFor(const Brief &brief, const Candidate &candidate)
{
    Brief b = brief;
    if (candidate.weightsPrecision)
        b.workload.weightsPrecision = *candidate.weightsPrecision;
    return b;
}

std::string candidateJson(const Candidate &c)
{
    nlohmann::ordered_json j = {{"gpu", c.gpu},
                                {"gpus", c.gpus},
                                {"tensor_parallel", c.tensorParallel},
                                {"pipeline_parallel", c.pipelineParallel},
                                {"serving_stack", enumName(c.servingStack)}};
    // Training layouts only: an inference candidate's JSON stays as it always was.
    if (c.contextParallel > 1)
        j["context_parallel"] = c.contextParallel;
    if (c.virtualPipeline > 1)
        j["virtual_pipeline"] = c.virtualPipeline;
    if (c.weightsPrecision)
        j["weights_precision"] = enumName(*c.weightsPrecision);
    if (c.network)
        j["network"] = {{"kind", c.network->kind}, {"bytes_per_s_per_gpu", c.network->bytesPerSPerGpu}};
    return j.dump();
}

Candidate withGpuCount(Candidate c, int gpus)
{
    c.gpus = std::max(1, gpus);
    if (c.gpus % c.gpusPerReplica() != 0) {
        c.pipelineParallel = 1;
        c.virtualPipeline = 1;
    }
    if (c.gpus % c.gpusPerReplica() != 0)
        c.contextParallel = 1;
    while (c.tensorParallel > 1 && c.gpus % c.gpusPerReplica() != 0)
        c.tensorParallel /= 2;
    if (c.gpus % c.gpusPerReplica() != 0)
        c.tensorParallel = 1;
    return c;
}

Candidate withLayout(Candidate c, int tensorParallel, int pipelineParallel)
{
    c.tensorParallel = std::max(1, tensorParallel);
    c.pipelineParallel = std::max(1, pipelineParallel);
    if (c.pipelineParallel == 1)
        c.virtualPipeline = 1;
    const int perReplica = c.gpusPerReplica();
    c.gpus = std::max(perReplica, (c.gpus + perReplica - 1) / perReplica * perReplica);
    return c;
}

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

} // namespace wb
