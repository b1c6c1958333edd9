#include "evaluate/mistakes.h"

#include "core/format.h"
#include "fit/fit.h"

#include <string>

namespace wb::detail {

namespace {

enum class Kind { Service, Media, Run };

Kind kindOf(const Brief &brief)
{
    const WorkloadKind k = brief.workload.kind;
    return brief.workload.media ? Kind::Media : isTraining(k) || isAdapter(k) ? Kind::Run : Kind::Service;
}

} // namespace

void warnCommonMistakes(const Brief &brief, const std::vector<CandidateResult> &results, const Catalog &catalog,
                        std::optional<std::pair<std::size_t, const CostOption *>> rent, std::vector<Warning> &warnings)
{
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    const Kind kind = kindOf(brief);

    // Mistake 1: the lowest hourly rate is not the lowest cost per accepted output (or run).
    std::optional<std::pair<std::size_t, const CostOption *>> cheapestHour;
    for (std::size_t i = 0; i < results.size(); ++i)
        for (const CostOption &o : deployment(results[i]).cost.options)
            if (o.term == PricingTerm::OnDemand && (!cheapestHour || o.usdPerGpuHour < cheapestHour->second->usdPerGpuHour))
                cheapestHour = std::pair{i, &o};
    if (cheapestHour && rent && cheapestHour->first != rent->first) {
        const MessageArgs args = {{"unit", acceptedUnit(w)}, {"cheapest_gpu", deployment(results[cheapestHour->first]).gpuName},
                                  {"usd_per_gpu_hour", cheapestHour->second->usdPerGpuHour},
                                  {"cost", cheapestHour->second->costPerAcceptedOutput},
                                  {"best_cost", rent->second->costPerAcceptedOutput},
                                  {"best_gpu", deployment(results[rent->first]).gpuName},
                                  {"cost_text", usdPerOutput(cheapestHour->second->costPerAcceptedOutput)},
                                  {"best_cost_text", usdPerOutput(rent->second->costPerAcceptedOutput)}};
        warnings.push_back(makeMessage("mistake-hourly-rate", "",
                                       kind == Kind::Run
                                           ? WB_MESSAGE("Messages", "choosing by hourly rate would pick {cheapest_gpu} at "
                                                        "${usd_per_gpu_hour:.2f} per GPU-hour, but a run on it costs "
                                                        "${cost_text} per accepted run against ${best_cost_text} on {best_gpu}: "
                                                        "a slower GPU is rented for longer (the method's common mistake 1)")
                                           : WB_MESSAGE("Messages", "choosing by hourly rate would pick {cheapest_gpu} at "
                                                        "${usd_per_gpu_hour:.2f} per GPU-hour, but its cost per {unit} is "
                                                        "${cost:.6f} against ${best_cost:.6f} for {best_gpu} (the method's "
                                                        "common mistake 1)"),
                                       args));
    }

    // Mistake 2: memory fit read as yes/no. A media pipeline fits at a batch: the brief's, or the
    // largest that fits (chosen to fit, so only the brief's own batch can be fragile); fragile
    // when twice that batch would not fit, as a service's concurrency is when it has room for
    // fewer than twice the sequences it needs. A run fits at its micro-batch and sequence length.
    const double fragile = a.value(Assumption::FragileFitHeadroomFraction);
    for (const CandidateResult &entered : results) {
        const CandidateResult &r = deployment(entered);
        if (!r.fit.computed || !r.fit.fits)
            continue;
        if (kind == Kind::Media) {
            if (w.media->batchSize && mediaMemory(brief, r.candidate, 2 * *w.media->batchSize).total() > double(r.fit.usableBytes))
                warnings.push_back(makeMessage("mistake-fit-yes-no", "/workload/media/batch_size",
                                               WB_MESSAGE("Messages", "{gpu} fits {pipeline} at the brief's batch of {batch} with "
                                                          "{headroom_percent:.0f}% headroom, but not at twice that batch: a "
                                                          "larger batch, a higher resolution or more frames can tip it over "
                                                          "(common mistake 2)"),
                                               {{"gpu", r.gpuName}, {"pipeline", w.media->model.name},
                                                {"batch", std::int64_t(*w.media->batchSize)},
                                                {"headroom_percent", 100 * r.fit.headroomFraction}}));
        } else if (kind == Kind::Run) {
            if (r.fit.headroomFraction < fragile)
                warnings.push_back(makeMessage("mistake-fit-yes-no", "/workload/training/sequence_length",
                                               WB_MESSAGE("Messages", "{gpu} fits the run at micro-batches of {micro_batch} "
                                                          "sequence(s) of {sequence_length} tokens with {headroom_percent:.0f}% "
                                                          "headroom: a longer sequence, a larger micro-batch or a framework "
                                                          "upgrade can tip it over (common mistake 2)"),
                                               {{"gpu", r.gpuName}, {"micro_batch", std::int64_t(w.training->microBatchSize)},
                                                {"sequence_length", std::int64_t(w.training->sequenceLength)},
                                                {"headroom_percent", 100 * r.fit.headroomFraction}}));
        } else if (const bool tight = fragileHeadroom(r.fit, brief.assumptions),
                   crowded = r.fit.maxConcurrencyPerReplica && *r.fit.maxConcurrencyPerReplica < 2 * r.fit.sizedConcurrencyPerReplica;
                   tight || crowded) {
            // Which margin is short, in so many words (a fresh-eyes pass read "fits ... room for
            // 66 against 81 needed" as a contradiction).
            warnings.push_back(makeMessage(
                "mistake-fit-yes-no", "",
                tight && crowded ? WB_MESSAGE("Messages", "{gpu} fits at the brief's point, but with {headroom_percent:.1f}% of its "
                                              "memory to spare (under {fragile_percent:.0f}%) and a KV cache with room for "
                                              "{room} sequences per replica where {needed} are in flight (under twice that): "
                                              "longer prompts, more concurrency or a framework upgrade can tip it over "
                                              "(common mistake 2)")
                : tight ? WB_MESSAGE("Messages", "{gpu} fits at the brief's point, but with {headroom_percent:.1f}% of its memory "
                                     "to spare (under {fragile_percent:.0f}%): longer prompts, more concurrency or a framework "
                                     "upgrade can tip it over (common mistake 2)")
                        : WB_MESSAGE("Messages", "{gpu} fits at the brief's point, but its KV cache has room for {room} sequences "
                                     "per replica where {needed} are in flight, under twice that: longer prompts or more "
                                     "concurrency make requests wait for memory (common mistake 2)"),
                {{"gpu", r.gpuName}, {"headroom_percent", 100 * r.fit.headroomFraction},
                 {"room", std::int64_t(r.fit.maxConcurrencyPerReplica.value_or(0))},
                 {"needed", std::int64_t(r.fit.sizedConcurrencyPerReplica)}, {"fragile_percent", 100 * fragile}}));
        }
    }

    // Mistake 3: interconnect ignored. Tensor parallelism over PCIe or the network, and a
    // training layout whose pipeline and data parallelism cross nodes on a network the brief
    // does not describe.
    for (std::size_t i = 0; i < results.size(); ++i) {
        const CandidateResult &r = deployment(results[i]);
        const GpuSpec *g = catalog.gpu(r.candidate.gpu);
        if (!g)
            continue;
        const std::string at = "/candidates/" + std::to_string(i);
        if (r.candidate.tensorParallel > 1 && (g->scaleUp.kind == "pcie" || r.candidate.tensorParallel > g->scaleUp.domainGpus))
            warnings.push_back(makeMessage(
                "mistake-interconnect", at + "/tensor_parallel",
                g->scaleUp.kind == "pcie"
                    ? WB_MESSAGE("Messages", "{gpu}: tensor parallelism of {tp} runs its all-reduces over PCIe, not a GPU-to-GPU "
                                 "fabric; topology is part of the GPU (common mistake 3)")
                    : WB_MESSAGE("Messages", "{gpu}: tensor parallelism of {tp} runs its all-reduces over the network, not a "
                                 "GPU-to-GPU fabric; topology is part of the GPU (common mistake 3)"),
                {{"gpu", r.gpuName}, {"tp", std::int64_t(r.candidate.tensorParallel)}}));
        else if (kind == Kind::Run && !r.candidate.network && r.candidate.gpus > std::max(1, g->scaleUp.domainGpus))
            warnings.push_back(makeMessage(
                "mistake-interconnect", at + "/network",
                WB_MESSAGE("Messages", "{gpu}: {gpus} GPUs span {domains} scale-up domains of {domain_gpus}, so the "
                           "pipeline and data-parallel traffic crosses a network the brief does not describe; the step "
                           "assumes {gb_per_s:g} GB/s per GPU (scale_out_bandwidth_bytes_per_s): give the candidate's "
                           "network, since topology is part of the GPU (common mistake 3)"),
                {{"gpu", r.gpuName}, {"gpus", std::int64_t(r.candidate.gpus)},
                 {"domains", std::int64_t((r.candidate.gpus + g->scaleUp.domainGpus - 1) / g->scaleUp.domainGpus)},
                 {"domain_gpus", std::int64_t(g->scaleUp.domainGpus)},
                 {"gb_per_s", a.value(Assumption::ScaleOutBandwidthBytesPerS) / 1e9}}));
    }

    // Mistake 4: generated instead of accepted outputs.
    if (!w.acceptance.given)
        warnings.push_back(makeMessage("mistake-generated-not-accepted", "/workload/acceptance",
                                       kind == Kind::Run
                                           ? WB_MESSAGE("Messages", "the brief gives no acceptance (the share of runs whose model "
                                                        "passes its evaluation), so every run counts as accepted and the cost "
                                                        "per accepted model is optimistic (common mistake 4)")
                                       : kind == Kind::Media
                                           ? WB_MESSAGE("Messages", "the brief gives no acceptance (the share of images or clips "
                                                        "that pass review, the failure rate), so every one generated counts "
                                                        "as accepted and costs are optimistic (common mistake 4)")
                                           : WB_MESSAGE("Messages", "the brief gives no acceptance (quality pass rate, failure "
                                                        "rate), so every generated output counts as accepted and costs are "
                                                        "optimistic (common mistake 4)")));

    // Mistake 5: platform responsibility left out. A run's cost reads training_platform_fte.
    if (kind == Kind::Run && !a.overridden(Assumption::TrainingPlatformFte))
        warnings.push_back(makeMessage("mistake-platform-responsibility", "/assumptions/training_platform_fte",
                                       WB_MESSAGE("Messages", "the brief does not say who runs the training platform; {fte:.2f} "
                                                  "engineers are assumed for the run (training_platform_fte). Scheduling, "
                                                  "storage, restarts and the cluster's health need an owner (common "
                                                  "mistake 5)"),
                                       {{"fte", a.value(Assumption::TrainingPlatformFte)}}));
    else if (kind != Kind::Run && !a.overridden(Assumption::PlatformFteSelfHosted))
        warnings.push_back(makeMessage("mistake-platform-responsibility", "/assumptions/platform_fte_self_hosted",
                                       WB_MESSAGE("Messages", "the brief does not say who runs the serving platform; {fte:.2f} "
                                                  "engineers are assumed (Platform engineers on the Brief page, "
                                                  "platform_fte_self_hosted in a brief file). Drivers, model servers, "
                                                  "autoscaling, on-call and spend reports need an owner (common mistake 5)"),
                                       {{"fte", a.value(Assumption::PlatformFteSelfHosted)}}));
}

void warnTodaysModel(const Brief &brief, const CandidateResult &r, Route route, std::vector<Warning> &warnings)
{
    if ((route != Route::Buy && route != Route::Reserve)
        || r.fit.headroomFraction >= brief.assumptions.value(Assumption::CommitmentMinHeadroomFraction))
        return;
    const Kind kind = kindOf(brief);
    warnings.push_back(makeMessage("mistake-todays-model", "",
                                   kind == Kind::Media
                                       ? WB_MESSAGE("Messages", "the recommended commitment leaves {headroom_percent:.0f}% memory "
                                                    "headroom: a larger pipeline, a higher resolution or longer clips may not "
                                                    "fit before the term ends (common mistake 6)")
                                   : kind == Kind::Run
                                       ? WB_MESSAGE("Messages", "the recommended commitment leaves {headroom_percent:.0f}% memory "
                                                    "headroom: a larger model or longer sequences may not fit before the term "
                                                    "ends (common mistake 6)")
                                       : WB_MESSAGE("Messages", "the recommended commitment leaves {headroom_percent:.0f}% memory "
                                                    "headroom: a larger model, longer context or new quantization may not fit "
                                                    "before the term ends (common mistake 6)"),
                                   {{"headroom_percent", 100 * r.fit.headroomFraction}}));
}

} // namespace wb::detail
