#include "report/report.h"

#include "core/jsonfields.h"
#include "brief/completeness.h"
#include "catalog/modelarch.h"
#include "report/labels.h"
#include "core/version.h"

#include <nlohmann/json.hpp>

namespace wb {

using Json = nlohmann::ordered_json;

namespace {

template<typename T>
Json optionalJson(const std::optional<T> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

// A recommendation's reasons for English readers, and beside them their codes, fields and
// arguments (../shared/spec: reason_codes[]), from which a translation renders them.
Json reasonTexts(const std::vector<Message> &reasons)
{
    Json list = Json::array();
    for (const Message &m : reasons)
        list.push_back(m.message);
    return list;
}

Json reasonCodes(const std::vector<Message> &reasons)
{
    Json list = Json::array();
    for (const Message &m : reasons) {
        Json j = detail::messageJson(m);
        j.erase("message");
        list.push_back(std::move(j));
    }
    return list;
}

Json fitJson(const FitResult &f)
{
    Json j;
    j["fits"] = f.fits;
    if (!f.computed) {
        for (const char *key : {"per_gpu_bytes", "usable_bytes", "headroom_fraction", "breakdown_bytes",
                                "kv_cache_capacity_tokens", "max_concurrency"})
            j[key] = nullptr;
        j["gpu_capacity_bytes"] = f.capacityBytes ? Json(f.capacityBytes) : Json(nullptr);
        return j;
    }
    j["per_gpu_bytes"] = f.perGpuBytes;
    j["gpu_capacity_bytes"] = f.capacityBytes;
    j["usable_bytes"] = f.usableBytes;
    j["headroom_fraction"] = f.headroomFraction;
    j["breakdown_bytes"] = {{"weights", f.breakdown.weights},
                            {"kv_cache", f.breakdown.kvCache},
                            {"activations", f.breakdown.activations},
                            {"gradients", f.breakdown.gradients},
                            {"optimizer_states", f.breakdown.optimizerStates},
                            {"runtime_overhead", f.breakdown.runtimeOverhead}};
    j["busiest_pipeline_stage"] = f.busiestStage;
    j["kv_cache_capacity_tokens"] = optionalJson(f.kvCacheCapacityTokensPerReplica);
    j["kv_cache_capacity_tokens_per_replica"] = optionalJson(f.kvCacheCapacityTokensPerReplica);
    j["max_concurrency"] = optionalJson(f.maxConcurrency);
    j["max_concurrency_per_replica"] = optionalJson(f.maxConcurrencyPerReplica);
    j["peak_basis"] = f.peakBasis;
    j["sized_context_tokens"] = f.sizedContextTokens;
    j["sized_concurrency_per_replica"] = f.sizedConcurrencyPerReplica;
    j["smallest_gpu_count"] = optionalJson(f.smallestGpuCount);
    if (f.smallestLayout)
        j["smallest_layout"] = {{"tensor_parallel", f.smallestLayout->tensorParallel},
                                {"pipeline_parallel", f.smallestLayout->pipelineParallel},
                                {"data_parallel", f.smallestLayout->dataParallel}};
    else
        j["smallest_layout"] = nullptr;
    if (!f.remedies.empty()) {
        // Training whose layout does not fit as stated: what was tried at that layout.
        Json remedies = Json::array();
        for (const FitRemedy &m : f.remedies)
            remedies.push_back({{"option", m.option}, {"per_gpu_bytes", m.perGpuBytes}, {"fits", m.fits},
                                {"step_time_s", optionalJson(m.stepTimeS)}, {"step_time_lower_bound", m.stepTimeLowerBound}});
        j["remedies"] = remedies;
        j["applied_remedy"] = optionalJson(f.appliedRemedy);
        j["stated_per_gpu_bytes"] = optionalJson(f.statedPerGpuBytes);
        j["stated_step_time_s"] = optionalJson(f.statedStepTimeS);
    }
    return j;
}

Json distributionJson(const Distribution &d)
{
    if (d.empty)
        return Json(nullptr);
    return {{"mean", d.mean}, {"p50", d.p50}, {"p95", d.p95}, {"p99", d.p99}};
}

Json pairsJson(const std::vector<std::pair<double, double>> &points, const char *x, const char *y)
{
    Json list = Json::array();
    for (const auto &[a, b] : points)
        list.push_back({{x, a}, {y, b}});
    return list;
}

// performance.training of ../shared/spec/brief-and-results-v1.md ("Training, media and
// embeddings"), with the step's parts and the charts' curves besides.
Json trainingJson(const TrainingPerformance &t)
{
    Json j;
    j["tokens_per_s"] = t.tokensPerS;
    j["tokens_per_s_per_gpu"] = t.tokensPerSPerGpu;
    j["step_time_s"] = t.stepTimeS;
    j["mfu"] = t.mfu;
    j["time_to_train_s"] = optionalJson(t.timeToTrainS);
    j["expected_time_to_train_s"] = optionalJson(t.expectedTimeToTrainS);
    j["gpu_hours"] = optionalJson(t.gpuHours);
    j["expected_interruptions"] = optionalJson(t.expectedInterruptions);
    j["checkpoint"] = {{"size_bytes", t.checkpoint.sizeBytes},
                       {"write_s", t.checkpoint.writeS},
                       // Null when no checkpoint is taken on the way (no interruption expected).
                       {"interval_s", t.checkpoint.intervalS > 0 ? Json(t.checkpoint.intervalS) : Json(nullptr)},
                       {"wasted_fraction", t.expectedTimeToTrainS ? Json(t.checkpoint.wastedFraction) : Json(nullptr)},
                       {"read_s", t.checkpoint.readS},
                       {"restart_s", t.checkpoint.restartS},
                       {"optimal_interval_s", t.checkpoint.optimalIntervalS > 0 ? Json(t.checkpoint.optimalIntervalS) : Json(nullptr)},
                       {"interval_from_brief", t.checkpoint.intervalFromBrief}};
    j["time_to_first_checkpoint_s"] = optionalJson(t.timeToFirstCheckpointS);
    j["interruptions_per_gpu_hour"] = t.interruptionsPerGpuHour;
    j["interruptions_source"] = t.interruptionsSource;
    j["job_mtbf_s"] = std::isfinite(t.jobMtbfS) ? Json(t.jobMtbfS) : Json(nullptr);
    j["data_parallel"] = t.dataParallel;
    j["micro_batches_per_step"] = t.microBatches;
    j["tokens_per_step"] = t.tokensPerStep;
    j["model_flops_per_token"] = t.modelFlopsPerToken;
    j["hardware_flops_per_token"] = t.hardwareFlopsPerToken;
    j["peak_flops_per_gpu"] = t.peakFlopsPerGpu;
    j["compute_efficiency"] = t.computeEfficiency;
    j["efficiency_factor"] = t.efficiencyKey;
    const TrainingStepParts &s = t.parts;
    j["step_parts_s"] = {{"compute", s.compute},         {"pipeline_bubble", s.bubble},
                         {"tensor_parallel", s.tensorParallel}, {"context_parallel", s.contextParallel},
                         {"data_parallel", s.dataParallel}, {"optimizer", s.optimizer},
                         {"dequantization", s.dequantization}, {"offload", s.offload},
                         {"evaluation", s.evaluation}};
    j["waste_by_interval"] = pairsJson(t.wasteByInterval, "interval_s", "wasted_fraction");
    Json scaling = Json::array();
    for (const auto &[gpus, rate] : t.scaling)
        scaling.push_back({{"gpus", gpus}, {"tokens_per_s", rate}});
    j["scaling"] = scaling;
    return j;
}

// performance.media of the spec, with the batch, the parts of a batch's time, the work counted
// and the throughput against batch besides.
Json mediaJson(const MediaPerformance &m, const Distribution &e2e)
{
    Json j;
    j["seconds_per_output"] = m.secondsPerOutput;
    j["outputs_per_hour"] = m.outputsPerHour;
    j["outputs_per_hour_per_gpu"] = m.outputsPerHourPerGpu;
    j["e2e_s"] = distributionJson(e2e);
    j["batch"] = m.batch;
    j["batch_from_brief"] = m.batchFromBrief;
    j["queue_batch"] = m.queueBatch;
    j["seconds_per_batch"] = m.secondsPerBatch;
    const auto parts = [](const MediaTimes &t) {
        return Json{{"text_encoders", t.text}, {"denoising", t.denoise}, {"vae_decode", t.vae}};
    };
    j["output_parts_s"] = parts(m.single);
    j["batch_parts_s"] = parts(m.batchParts);
    j["flops_per_output"] = m.flopsPerOutput;
    j["denoiser_pass"] = {{"tokens", m.work.tokens}, {"linear_macs", m.work.pass.linear},
                          {"attention_macs", m.work.pass.attention}, {"passes_per_step", m.work.passesPerStep},
                          {"steps", m.work.steps}};
    j["vae_decode_macs"] = m.work.vae.linear + m.work.vae.attention;
    j["media_dense_share"] = m.denseShare;
    j["media_attention_share"] = m.attentionShare;
    j["outputs_per_hour_per_gpu_by_batch"] = pairsJson(m.outputsPerHourByBatch, "batch", "outputs_per_hour_per_gpu");
    return j;
}

Json performanceJson(const PerformanceResult &p)
{
    if (!p.computed)
        return Json(nullptr);
    Json j;
    if (p.media) {
        // Requests are outputs; the token figures have no meaning for an image or a clip.
        for (const char *key : {"output_tokens_per_s", "output_tokens_per_s_per_gpu", "ttft_s", "tpot_s",
                                "output_tokens_per_s_within_slo"})
            j[key] = nullptr;
        j["requests_per_s"] = p.requestsPerS;
        j["e2e_s"] = distributionJson(p.e2e);
        j["slo_met"] = optionalJson(p.sloMet);
        j["max_request_rate_within_slo_per_s"] = optionalJson(p.maxRequestRateWithinSloPerS);
        j["max_requests_per_s"] = p.maxRequestsPerS;
        j["peak_request_rate_per_s"] = p.peakRequestRatePerS > 0 ? Json(p.peakRequestRatePerS) : Json(nullptr);
        j["replicas_for_peak"] = optionalJson(p.replicasForPeak);
        j["simulated_traffic"] = enumName(p.mode);
        j["overloaded"] = p.overloaded;
        j["media"] = mediaJson(*p.media, p.e2e);
        return j;
    }
    if (p.training) {
        // The inference figures have no meaning for a training run: null, in the spec's shape.
        for (const char *key : {"output_tokens_per_s", "output_tokens_per_s_per_gpu", "requests_per_s", "ttft_s", "tpot_s",
                                "e2e_s", "slo_met", "max_request_rate_within_slo_per_s", "output_tokens_per_s_within_slo"})
            j[key] = nullptr;
        j["training"] = trainingJson(*p.training);
        return j;
    }
    const bool generates = !p.tpot.empty || p.outputTokensPerS > 0;
    j["output_tokens_per_s"] = generates ? Json(p.outputTokensPerS) : Json(nullptr);
    j["output_tokens_per_s_per_gpu"] = generates ? Json(p.outputTokensPerSPerGpu) : Json(nullptr);
    j["input_tokens_per_s"] = p.inputTokensPerS;
    j["requests_per_s"] = p.requestsPerS;
    j["ttft_s"] = distributionJson(p.ttft);
    j["tpot_s"] = distributionJson(p.tpot);
    j["itl_s"] = distributionJson(p.itl);
    j["e2e_s"] = distributionJson(p.e2e);
    j["slo_met"] = optionalJson(p.sloMet);
    j["goodput_requests_per_s"] = optionalJson(p.goodputRequestsPerS);
    j["max_request_rate_within_slo_per_s"] = optionalJson(p.maxRequestRateWithinSloPerS);
    j["output_tokens_per_s_within_slo"] = optionalJson(p.outputTokensPerSWithinSlo);
    j["max_output_tokens_per_s"] = generates ? Json(p.maxOutputTokensPerS) : Json(nullptr);
    j["peak_request_rate_per_s"] = p.peakRequestRatePerS > 0 ? Json(p.peakRequestRatePerS) : Json(nullptr);
    j["replicas_for_peak"] = optionalJson(p.replicasForPeak);
    j["simulated_traffic"] = enumName(p.mode);
    j["simulated_requests"] = p.simulatedRequests;
    j["mean_batch_sequences"] = p.meanBatchSequences;
    j["overloaded"] = p.overloaded;
    j["preemptions"] = p.preemptions;
    j["rejected_requests"] = p.rejectedRequests;
    Json curve = Json::array();
    for (const LoadPoint &l : p.loadCurve)
        curve.push_back({{"request_rate_per_s", l.requestRatePerS}, {"ttft_p50_s", l.ttftP50S},
                         {"ttft_p95_s", l.ttftP95S}, {"ttft_p99_s", l.ttftP99S}, {"tpot_p50_s", l.tpotP50S},
                         {"tpot_p95_s", l.tpotP95S}, {"tpot_p99_s", l.tpotP99S},
                         {"output_tokens_per_s", l.outputTokensPerS}, {"slo_met", l.sloMet}});
    j["load_curve"] = curve;
    const StepCoefficients &c = p.coefficients;
    j["step_model"] = {{"b0_s", c.b0},
                       {"b1_s_per_prefill_token", c.b1},
                       {"b2_s_per_decode_sequence", c.b2},
                       {"b3_s_per_kv_token_read", c.b3},
                       {"b4_s_per_prefill_attention_pair", c.b4},
                       {"compute_efficiency", p.efficiency.compute},
                       {"memory_efficiency", p.efficiency.memory},
                       {"kv_read_efficiency", p.efficiency.kvRead},
                       {"link_efficiency", p.efficiency.link},
                       {"step_overhead_s", p.efficiency.stepOverheadS},
                       {"layer_overhead_s", p.efficiency.layerOverheadS},
                       {"kernel_time_s", p.efficiency.kernelTimeS},
                       {"grouped_gemm_share", p.efficiency.groupedGemmShare},
                       {"basis", p.efficiency.basis}};
    return j;
}

// A training run's lines are in dollars for the run, every other option's in dollars a month.
Json costLinesJson(const std::vector<CostLine> &lines, bool perRun = false)
{
    Json list = Json::array();
    for (const CostLine &l : lines)
        // "title": the line's name in words, as the window, the workbook and the PDF print it.
        list.push_back({{"name", l.name}, {"title", costLineTitle(l.name)}, {perRun ? "usd_per_run" : "usd_per_month", l.usdPerMonth},
                        {"basis", l.basis}});
    return list;
}

Json costOptionJson(const CostOption &o)
{
    Json j;
    j["route"] = o.api ? "api" : o.hybrid ? "hybrid" : "gpu";
    j["term"] = o.term ? Json(enumName(*o.term)) : Json(nullptr);
    j["provider"] = o.provider;
    j["price_observed"] = o.observed;
    j["price_age_days"] = o.ageDays;
    j["price_stale"] = o.stale;
    j["price_source"] = o.source;
    if (!o.note.empty())
        j["price_note"] = o.note;
    j["price_origin"] = o.origin;
    for (const auto &[field, usd] : o.apiRates)
        j[field] = usd;
    if (!o.api) {
        j["usd_per_gpu_hour"] = o.usdPerGpuHour;
        j["usd_per_gpu"] = o.term == PricingTerm::Purchase ? Json(o.usdPerGpu) : Json(nullptr);
        j["replicas"] = o.replicas;
        j["gpus"] = o.gpus;
    }
    j["utilization"] = o.utilization;
    if (!o.api) {
        j["billed_share_of_month"] = o.billedShareOfMonth;
        j["on_demand_billed_share"] = optionalJson(o.onDemandBilledShare);
        j["commercial_terms"] = o.terms;
        j["commitment_months"] = optionalJson(o.commitmentMonths);
        j["committed_usd"] = o.commitmentMonths ? Json(o.committedUsd) : Json(nullptr);
        j["cold_start_share"] = optionalJson(o.coldStartShare);
        j["cold_start_s"] = o.coldStartShare ? Json(o.coldStartS) : Json(nullptr);
        j["cold_start_share_from_bursts"] = o.coldStartShare ? Json(o.coldStartFromBursts) : Json(nullptr);
        j["cold_start_over_slo"] = o.coldStartOverSlo;
    }
    j["lines"] = costLinesJson(o.lines, o.perRun);
    if (!o.ownershipDetail.empty())
        j["ownership_detail"] = costLinesJson(o.ownershipDetail);
    if (o.perRun) {
        // One completed training run: its cost, and the share of runs whose model is accepted.
        j["period"] = "run";
        j["usd_per_run"] = o.totalUsdPerMonth;
        j["accepted_runs_per_run"] = o.acceptedOutputsPerMonth;
        j["cost_per_accepted_output_usd"] = o.costPerAcceptedOutput;
        return j;
    }
    j["usd_per_month"] = o.totalUsdPerMonth;
    j["requests_per_month"] = o.requestsPerMonth;
    j["accepted_outputs_per_month"] = o.acceptedOutputsPerMonth;
    j["accepted_tokens_per_month"] = o.acceptedTokensPerMonth;
    j["cost_per_accepted_output_usd"] = o.costPerAcceptedOutput;
    j["cost_per_million_accepted_tokens_usd"] = o.costPerMillionAcceptedTokens;
    j["break_even_requests_per_month_vs_api"] = optionalJson(o.breakEvenRequestsPerMonthVsApi);
    j["break_even_utilization_vs_on_demand"] = optionalJson(o.breakEvenUtilizationVsOnDemand);
    j["payback_months"] = optionalJson(o.paybackMonths);
    if (o.hybrid)
        j["hybrid"] = {{"base_replicas", o.hybrid->baseReplicas},
                       {"overflow_requests_per_month", o.hybrid->overflowRequestsPerMonth},
                       {"overflow_input_tokens_per_month", o.hybrid->overflowInputTokensPerMonth},
                       {"overflow_output_tokens_per_month", o.hybrid->overflowOutputTokensPerMonth},
                       {"gpu_usd_per_month", o.hybrid->gpuUsdPerMonth},
                       {"api_usd_per_month", o.hybrid->apiUsdPerMonth}};
    Json curve = Json::array();
    for (const auto &[requests, usd] : o.monthlyCostByVolume)
        curve.push_back({requests, usd});
    j["monthly_cost_by_volume"] = curve;
    return j;
}

Json candidateCostJson(const CandidateCost &c)
{
    if (!c.computed)
        return Json(nullptr);
    Json j;
    const CostOption *best = c.cheapest();
    j["cost_per_accepted_output_usd"] = best ? Json(best->costPerAcceptedOutput) : Json(nullptr);
    j["cheapest_term"] = best && best->term ? Json(enumName(*best->term)) : Json(nullptr);
    Json options = Json::array();
    for (const CostOption &o : c.options)
        options.push_back(costOptionJson(o));
    j["options"] = options;
    Json hybrids = Json::array();
    for (const CostOption &o : c.hybrids)
        hybrids.push_back(costOptionJson(o));
    j["hybrids"] = hybrids;
    return j;
}

Json costSummaryJson(const Brief &brief, const CostSummary &s)
{
    Json j;
    j["prices_aged_against"] = s.today;
    j["accepted_unit"] = s.unit;  // what cost_per_accepted_output_usd counts, in words
    j["accepted_units"] = s.units;
    const BillingInputs &b = brief.cost.billing;
    j["billing"] = {{"model", enumName(b.model)}, {"given", b.given}};
    if (b.model == Billing::Scheduled)
        j["billing"].update({{"hours_per_day", b.hoursPerDay}, {"days_per_month", b.daysPerMonth}});
    if (b.model == Billing::Autoscaled)
        j["billing"]["min_replicas"] = b.minReplicas;
    j["api"] = s.api ? costOptionJson(*s.api) : Json(nullptr);
    j["hybrid"] = s.hybrid ? costOptionJson(*s.hybrid) : Json(nullptr);
    if (s.hybrid)
        j["hybrid"]["candidate_index"] = *s.hybridCandidate;
    if (s.recommendation) {
        const Recommendation &r = *s.recommendation;
        j["recommendation"] = {
            {"route", enumName(r.route)},
            {"candidate_index", optionalJson(r.candidate)},
            {"gpu", r.candidate ? Json(brief.candidates[*r.candidate].gpu) : Json(nullptr)},
            {"term", r.term ? Json(enumName(*r.term)) : Json(nullptr)},
            {"cost_per_accepted_output_usd", r.costPerAcceptedOutput},
            {"unit", r.unit},
            {"period", r.perRun ? "run" : "month"},
            {"usd_per_month", r.perRun ? Json(nullptr) : Json(r.usdPerMonth)},
            {"usd_per_run", r.perRun ? Json(r.usdPerMonth) : Json(nullptr)},
            {"reasons", reasonTexts(r.reasons)},
            {"reason_codes", reasonCodes(r.reasons)},
            {"subject_to_evidence", r.evidence.has_value()}};
        if (r.evidence)
            j["recommendation"]["evidence"] = {{"commitment", enumName(r.evidence->commitment)},
                                               {"vendor", r.evidence->vendor.empty() ? Json(nullptr) : Json(r.evidence->vendor)},
                                               {"missing", r.evidence->missing},
                                               {"unbacked", r.evidence->unbacked}};
    } else {
        j["recommendation"] = nullptr;
    }
    if (s.ranking) {
        Json flips = Json::array();
        for (const RankingFlip &f : s.ranking->flips)
            flips.push_back({{"assumption", assumptionInfo(f.assumption).name}, {"current", f.current}, {"flips_at", f.flipsAt}});
        j["ranking"] = {{"first", s.ranking->first},
                        {"second", s.ranking->second},
                        {"gap_fraction", s.ranking->gap},
                        {"options_within_near_tie", s.ranking->withinNearTie},
                        {"flips", flips}};
    }
    return j;
}

// The brief's assumptions, then the step model's efficiency factors: "calibrated" from the
// measured cases listed, or a literature "prior".
Json assumptionsJson(const Assumptions &a, const std::vector<EfficiencyFactor> &factors)
{
    Json list = Json::array();
    for (const AssumptionInfo &info : assumptionCatalog())
        list.push_back({{"name", info.name},
                        {"value", a.value(info.key)},
                        {"unit", info.unit},
                        {"origin", a.overridden(info.key) ? "brief" : "default"},
                        {"reason", info.reason}});
    for (const EfficiencyFactor &f : factors)
        list.push_back({{"name", "efficiency." + f.key},
                        {"value", f.value},
                        {"unit", f.unit()},
                        {"origin", f.calibrated() ? "calibrated" : "prior"},
                        {"prior", f.prior},
                        {"cases", f.cases},
                        {"reason", f.source()}});
    return list;
}

Json completenessJson(const Completeness &c)
{
    Json items = Json::array();
    for (const BriefItem &i : c.items)
        items.push_back({{"item", i.name}, {"pointer", i.pointer}, {"given", i.given}, {"blocking", i.blocking}});
    return {{"fraction", c.fraction()}, {"rankable", c.rankable()}, {"items", items}};
}

} // namespace

std::string resultsToJson(const Brief &brief, const Results &results)
{
    Json root;
    root["format"] = "gpu-workbench-results";
    root["version"] = 1;
    root["engine_version"] = engineVersion();
    root["brief"] = brief.name;
    root["results"] = Json::array();
    const auto resultJson = [](const CandidateResult &r) {
        const Candidate &c = r.candidate;
        Json item;
        item["candidate"] = {{"gpu", c.gpu},
                             {"gpus", c.gpus},
                             {"tensor_parallel", c.tensorParallel},
                             {"pipeline_parallel", c.pipelineParallel},
                             {"replicas", c.replicas()},
                             {"serving_stack", enumName(c.servingStack)}};
        // Training layouts: what the brief said, as it said it (inference candidates unchanged).
        if (c.contextParallel > 1)
            item["candidate"]["context_parallel"] = c.contextParallel;
        if (c.virtualPipeline > 1)
            item["candidate"]["virtual_pipeline"] = c.virtualPipeline;
        if (!c.servingStackVersion.empty())
            item["candidate"]["serving_stack_version"] = c.servingStackVersion;
        if (c.network)
            item["candidate"]["network"] = {{"kind", c.network->kind}, {"bytes_per_s_per_gpu", c.network->bytesPerSPerGpu}};
        // Where the step model's factors come from: the shipped calibration, or this project's
        // measured runs of the candidate's GPU and stack.
        item["provenance"] = {{"step_model", provenanceText(r)}, {"calibrated_from_runs", r.calibrationRuns}};
        item["fit"] = fitJson(r.fit);
        item["performance"] = performanceJson(r.performance);
        item["cost"] = candidateCostJson(r.cost);
        item["warnings"] = detail::messagesJson(r.warnings);
        // Each predicted figure's P10-P90 band, by its dotted path (catalog/bands.h).
        Json bands = Json::object();
        for (const auto &[path, b] : r.uncertainty)
            bands[path] = {{"p10", b.p10}, {"p50", b.p50}, {"p90", b.p90}, {"basis", b.basis}};
        item["uncertainty"] = bands;
        return item;
    };
    for (const CandidateResult &r : results.results) {
        Json item = resultJson(r);
        // The candidate sized to the smallest deployment that holds the brief (its own figures
        // above stay those of the count as entered).
        if (r.resized)
            item["resized"] = resultJson(*r.resized);
        root["results"].push_back(item);
    }
    std::vector<Warning> notes = results.briefWarnings;
    notes.insert(notes.end(), results.cost.warnings.begin(), results.cost.warnings.end());
    root["cost"] = costSummaryJson(brief, results.cost);
    Json heldBack = Json::array();
    for (const BriefItem &item : results.rankingHeldBackBy)
        heldBack.push_back({{"item", item.name}, {"pointer", item.pointer}});
    root["cost"]["recommendation_held_back_by"] = heldBack;
    root["warnings"] = detail::messagesJson(notes);
    // A project's vendor answers that bear on the figures (procurement/gate.h); empty for a brief.
    Json notesJson = Json::array();
    for (const VendorNote &n : results.vendorNotes)
        notesJson.push_back({{"candidate_index", n.candidate}, {"vendor", n.vendor}, {"item", n.item}, {"figures", n.figures},
                             {"what", n.what}, {"answer", n.answer}, {"text", n.text}});
    root["checklist_notes"] = notesJson;
    root["assumptions"] = assumptionsJson(brief.assumptions, results.efficiencyFactors);
    root["brief_completeness"] = completenessJson(results.completeness);
    return root.dump(2) + "\n";
}

} // namespace wb
