#include "procurement/plan.h"

#include "procurement/plancommands.h"

#include "core/assumptions.h"
#include "core/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

using namespace detail;


constexpr double kGiB = 1024.0 * 1024 * 1024;
// A steady-traffic run lasts this long (10 minutes: enough requests for a stable p99 at the
// rates briefs give, at least kMinPrompts requests), a burst run the brief's burst duration.
constexpr double kSteadyRunS = 600;
constexpr int kMinPrompts = 200;

// "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json" -> "meta-llama/Llama-3.1-70B";
// else the catalog id (the user sets $MODEL to what the server serves).
std::string modelRepo(const std::string &sourceUrl, const std::string &id)
{
    const std::string prefix = "https://huggingface.co/";
    if (sourceUrl.rfind(prefix, 0) == 0) {
        const std::string rest = sourceUrl.substr(prefix.size());
        const auto first = rest.find('/');
        if (first != std::string::npos) {
            const auto second = rest.find('/', first + 1);
            return rest.substr(0, second);
        }
    }
    return id;
}

struct SloTarget
{
    double seconds;
    const char *field;
    const char *percentile;
};

void performancePhase(PlanPhase &phase, const Brief &brief, const CandidateResult &r, const std::string &tag,
                      bool commands, const Endpoint &at)
{
    const Workload &w = brief.workload;
    const Traffic &t = w.traffic;
    const PerformanceResult &p = r.performance;
    const std::optional<LoadPoint> &point = p.briefPoint;

    Load steady;
    std::string loadWords;
    if (t.mode == TrafficMode::OpenLoop && t.requestRatePerS) {
        steady.rate = *t.requestRatePerS;
        steady.burstiness = t.burstiness;
        loadWords = fmt::format("at {} requests/s (gamma arrivals, burstiness {})", num(*t.requestRatePerS), num(t.burstiness));
    } else if (t.mode == TrafficMode::ClosedLoop && t.concurrency) {
        steady.concurrency = *t.concurrency;
        loadWords = fmt::format("with {} concurrent clients", *t.concurrency);
    } else {
        loadWords = "with every request queued at once (offline)";
    }
    const int prompts = steady.rate ? std::max(kMinPrompts, int(std::ceil(*steady.rate * kSteadyRunS)))
                                    : std::max(kMinPrompts, steady.concurrency.value_or(0) * 10);

    PlanStep run = wordStep("perf-steady-run", "Replay steady traffic " + loadWords + " with the brief's mean lengths (" +
                                                   num(w.inputTokens) + " input, " + num(w.outputTokens) + " output tokens).",
                            "The tool's result file: TTFT, TPOT, inter-token and end-to-end latency at p50/p95/p99, "
                            "throughput, errors.",
                            "The run completes with no more failed requests than the brief's failure rate (" +
                                fmt::format("{:.1f}%", 100 * w.acceptance.failureRate) + ").");
    if (commands) {
        run.commands.push_back(vllmCommand("steady traffic", brief, w.inputTokens, w.outputTokens, steady, prompts,
                                           tag + "-steady.json", at));
        run.commands.push_back(guidellmCommand("steady traffic", w.inputTokens, w.outputTokens, steady, kSteadyRunS,
                                               tag + "-steady-guidellm.json"));
    }
    phase.steps.push_back(std::move(run));

    // The brief's latency targets, each against the prediction at the brief's own point.
    const SloTarget targets[] = {
        {w.slo.ttftP99S.value_or(-1), "slo.ttft_p99_s", "p99"}, {w.slo.ttftP95S.value_or(-1), "slo.ttft_p95_s", "p95"},
        {w.slo.tpotP99S.value_or(-1), "slo.tpot_p99_s", "p99"}, {w.slo.tpotP95S.value_or(-1), "slo.tpot_p95_s", "p95"},
        {w.slo.e2eP99S.value_or(-1), "slo.e2e_p99_s", "p99"},   {w.slo.e2eP95S.value_or(-1), "slo.e2e_p95_s", "p95"},
    };
    for (const SloTarget &target : targets) {
        if (target.seconds < 0)
            continue;
        const std::string field = target.field;
        const bool ttft = field.find("ttft") != std::string::npos, tpot = field.find("tpot") != std::string::npos;
        const bool p99 = std::string(target.percentile) == "p99";
        std::optional<double> predicted;
        if (point && ttft)
            predicted = p99 ? point->ttftP99S : point->ttftP95S;
        else if (point && tpot)
            predicted = p99 ? point->tpotP99S : point->tpotP95S;
        else if (!p.e2e.empty && !ttft && !tpot)
            predicted = p99 ? p.e2e.p99 : p.e2e.p95;
        const char *metric = ttft ? "TTFT" : tpot ? "TPOT" : "End-to-end latency";
        const std::string id = std::string("perf-") + (ttft ? "ttft-" : tpot ? "tpot-" : "e2e-") + target.percentile;
        phase.steps.push_back(figureStep(
            id, std::string("Read the steady run's ") + target.percentile + " " + metric + ".",
            std::string(metric) + " " + target.percentile + " (vLLM: " + target.percentile + "_" +
                (ttft ? "ttft" : tpot ? "tpot" : "e2el") + "_ms; GuideLLM: " +
                (ttft ? "time_to_first_token_ms" : tpot ? "inter_token_latency_ms" : "request_latency") + ")",
            fmt::format("{} {} <= {} {}", metric, target.percentile, seconds(target.seconds), loadWords) +
                (predicted ? "; predicted " + seconds(*predicted) : std::string("; no prediction")),
            target.seconds, predicted, "<=", "s", "brief: workload." + field));
    }

    // Bursts: the peak rate for the burst's length.
    if (t.mode == TrafficMode::OpenLoop && t.burstMultiplier && t.burstDurationS > 0 && t.requestRatePerS) {
        Load burst = steady;
        burst.rate = t.peakRate();
        const int burstPrompts = std::max(50, int(std::ceil(*burst.rate * t.burstDurationS)));
        PlanStep b = wordStep(
            "perf-burst-run",
            fmt::format("Replay a burst: {} requests/s ({}x the base rate) for {} s, as the brief's bursts come every {} s. "
                        "vLLM's bench has no periodic pattern, so the burst runs on its own, right after the steady run.",
                        num(*burst.rate), num(*t.burstMultiplier), num(t.burstDurationS), num(t.burstPeriodS)),
            "The same figures as the steady run, and the queue wait.",
            "");
        std::optional<double> predicted = p.deployedPoint ? std::optional<double>(p.deployedPoint->ttftP99S) : std::nullopt;
        if (w.slo.ttftP99S) {
            b = figureStep(b.id, b.what, b.record,
                           fmt::format("TTFT p99 <= {} during the burst at {} requests/s on the {} replicas the cost "
                                       "provisions",
                                       seconds(*w.slo.ttftP99S), num(*burst.rate), p.replicasForPeak.value_or(0)) +
                               (predicted ? "; predicted " + seconds(*predicted) : std::string("; no prediction")),
                           *w.slo.ttftP99S, predicted, "<=", "s", "brief: workload.slo.ttft_p99_s at the peak rate");
        } else {
            b.criterion = "The burst's requests complete without errors; record how long the queue takes to drain.";
        }
        if (commands) {
            b.commands.push_back(vllmCommand("burst", brief, w.inputTokens, w.outputTokens, burst, burstPrompts,
                                             tag + "-burst.json", at));
            b.commands.push_back(guidellmCommand("burst", w.inputTokens, w.outputTokens, burst, t.burstDurationS,
                                                 tag + "-burst-guidellm.json"));
        }
        phase.steps.push_back(std::move(b));
    } else {
        PlanStep twice = wordStep("perf-burst-run",
                                  "The brief has no bursts; still run the steady traffic at twice its load for a "
                                  "minute to see how latency degrades past the operating point.",
                                  "p99 TTFT and TPOT at twice the load.",
                                  "Recorded for the decision; no target (the brief states no peak).");
        Load doubled = steady;
        if (doubled.rate)
            *doubled.rate *= 2;
        if (doubled.concurrency)
            *doubled.concurrency *= 2;
        if (commands && (doubled.rate || doubled.concurrency)) {
            const int twicePrompts = doubled.rate ? std::max(50, int(std::ceil(*doubled.rate * 60)))
                                                  : std::max(50, *doubled.concurrency * 5);
            twice.commands.push_back(vllmCommand("twice the load", brief, w.inputTokens, w.outputTokens, doubled,
                                                 twicePrompts, tag + "-twice.json", at));
            twice.commands.push_back(guidellmCommand("twice the load", w.inputTokens, w.outputTokens, doubled, 60,
                                                     tag + "-twice-guidellm.json"));
        }
        phase.steps.push_back(std::move(twice));
    }

    // Throughput: the load offered must be carried.
    if (steady.rate) {
        const double demand = *steady.rate * w.outputTokens;
        phase.steps.push_back(figureStep(
            "perf-throughput", "Read the steady run's output throughput.", "Output tokens/s (vLLM: output_throughput).",
            fmt::format("Output throughput >= {} tokens/s, the load offered ({} requests/s x {} tokens)", num(demand),
                        num(*steady.rate), num(w.outputTokens)) +
                (p.computed ? "; predicted " + num(p.outputTokensPerS) + " tokens/s" : std::string()),
            demand, p.computed ? std::optional<double>(p.outputTokensPerS) : std::nullopt, ">=", "tokens/s",
            "brief: traffic.request_rate_per_s x output_tokens"));
    } else if (p.computed) {
        phase.steps.push_back(figureStep(
            "perf-throughput", "Read the run's output throughput.", "Output tokens/s.",
            fmt::format("Output throughput >= 90% of the predicted {} tokens/s (a shortfall beyond 10% means the step "
                        "model is optimistic for this candidate)",
                        num(p.outputTokensPerS)),
            0.9 * p.outputTokensPerS, p.outputTokensPerS, ">=", "tokens/s", "prediction"));
    }
    // Capacity: the highest rate within the targets must reach the peak the replicas are sized for.
    if (steady.rate && !w.slo.empty()) {
        const double peak = t.peakRate();
        std::optional<double> predicted = p.maxRequestRateWithinSloPerS;
        PlanStep capacity = figureStep(
            "perf-capacity", "Sweep the request rate from idle to saturation (GuideLLM's sweep).",
            "The highest rate whose p99 latency stays within the brief's targets.",
            fmt::format("The highest rate within the targets >= {} requests/s, the peak the deployment must carry", num(peak)) +
                (predicted ? fmt::format("; predicted {} requests/s", num(*predicted)) : std::string("; no prediction")),
            peak, predicted, ">=", "requests/s", "brief: traffic peak rate");
        if (commands)
            capacity.commands.push_back(guidellmCommand("rate sweep", w.inputTokens, w.outputTokens, steady, 60,
                                                        tag + "-sweep-guidellm.json", true));
        phase.steps.push_back(std::move(capacity));
    }

    const double accepted = w.acceptance.qualityPassRate * (1 - w.acceptance.failureRate);
    PlanStep quality = figureStep(
        "perf-accepted",
        "Replay the team's own representative prompts ($PROMPTS) at the brief's load, keep the generated text, and run "
        "the brief's quality filter over it (random prompts say nothing about quality).",
        "Outputs generated, failed, rejected by the filter, accepted.",
        fmt::format("Accepted share >= {:.1f}% (quality pass rate {:.1f}% of the {:.1f}% that do not fail); the cost per "
                    "{} assumes it",
                    100 * accepted, 100 * w.acceptance.qualityPassRate, 100 * (1 - w.acceptance.failureRate), acceptedUnit(w)),
        accepted, std::nullopt, ">=", "share", "brief: acceptance.quality_pass_rate x (1 - acceptance.failure_rate)");
    if (commands)
        quality.commands.push_back(vllmCommand("the team's prompts, outputs saved", brief, w.inputTokens, w.outputTokens,
                                               steady, std::min(prompts, 1000), tag + "-quality.json", at, Prompts::Own));
    phase.steps.push_back(std::move(quality));
}

CandidatePlan candidatePlan(const Brief &brief, const Results &results, const Catalog &catalog, std::size_t index)
{
    const Workload &w = brief.workload;
    const CandidateResult &own = results.results[index];
    const CandidateResult &r = deployment(own);
    CandidatePlan plan;
    plan.candidate = index;
    plan.label = candidateLabel(r.candidate) + " (" + std::string(enumName(r.candidate.servingStack)) + ")";
    if (own.resized)
        plan.notes.push_back("As entered (" + candidateLabel(own.candidate) + ") the candidate does not hold the brief or does not "
                             "carry its peak within the targets; the plan tests the deployment the engine sized it to.");
    const std::string tag = fmt::format("c{}", index + 1);
    const bool llmServing = isInference(w.kind) && w.kind != WorkloadKind::Embedding;
    const bool commands = llmServing;
    if (!llmServing)
        plan.notes.push_back("No serving commands: vLLM's and GuideLLM's benchmarks measure LLM serving, and this brief is " +
                             std::string(enumName(w.kind)) + ". Measure with the team's own job and record the same figures.");
    if (results.preview)
        plan.notes.push_back("Predictions from the quick first evaluation; the full one may differ.");
    if (const Warning *why = whyNotCosted(r))
        plan.notes.push_back("The engine predicts trouble before the benchmark starts: " + why->message);
    const GpuSpec *gpu = catalog.gpu(r.candidate.gpu);
    const std::string vendor = gpu ? gpu->vendor : std::string();
    Endpoint deployment;
    if (r.candidate.servingStack != ServingStack::Vllm) {
        deployment.backend = "openai";
        if (commands)
            plan.notes.push_back("The commands drive the " + std::string(stackWords(r.candidate.servingStack)) +
                                 " server through its OpenAI-compatible endpoint (vLLM's benchmark client, backend openai); "
                                 "its own logs and metrics stand for vLLM's where the plan names them.");
    }
    Endpoint replica = deployment;
    replica.url = "$REPLICA_URL";
    if (isTraining(w.kind) || isAdapter(w.kind)) {
        plan.phases = runPlanPhases(brief, r, candidateLabel(r.candidate));
        return plan;
    }

    // Phase 1: memory fit.
    PlanPhase fit{"memory-fit", "Memory fit", "Prueba de ajuste de memoria", {}};
    const double inP95 = w.inputTokensP95.value_or(w.inputTokens), outP95 = w.outputTokensP95.value_or(w.outputTokens);
    const auto &media = w.media;
    PlanStep load = media ? wordStep("fit-load",
                                     "Load " + media->model.name + " (denoiser at " + std::string(enumName(w.weightsPrecision))
                                         + ", text encoders and VAE in bf16) on " + candidateLabel(r.candidate) + ".",
                                     "The pipeline's load log and the memory per GPU once loaded.",
                                     "The pipeline loads at the intended precision with no out-of-memory error.")
                          : wordStep("fit-load",
                                     "Load " + w.model.name + " (the exact model, or the closest proxy) at "
                                         + std::string(enumName(w.weightsPrecision)) + " weights and "
                                         + std::string(enumName(w.kvCachePrecision)) + " KV cache, "
                                         + candidateLabel(r.candidate) + ".",
                                     "The serving engine's startup log: weights loaded, KV cache blocks, the maximum "
                                     "concurrency it reports.",
                                     "The model loads at the intended precision and layout with no out-of-memory error.");
    if (commands) {
        if (auto watch = memoryWatch(vendor, tag + "-memory.csv"))
            load.commands.push_back(*watch);
        else
            plan.notes.push_back("Record memory per GPU with the GPU vendor's own tool (no command known for " +
                                 (vendor.empty() ? std::string("this GPU") : vendor) + ").");
    }
    fit.steps.push_back(std::move(load));
    if (r.fit.computed && r.fit.capacityBytes > 0) {
        const double usable = double(r.fit.usableBytes) / kGiB, need = double(r.fit.perGpuBytes) / kGiB;
        PlanStep peak = figureStep(
            "fit-peak-memory",
            media ? fmt::format("Generate a batch of {} at the brief's size ({} x {}{}) and decode it, on one replica.",
                                r.fit.mediaBatch.value_or(1), media->width, media->height,
                                media->model.video ? fmt::format(", {} frames", media->frames) : std::string())
                  : fmt::format("Drive one replica ($REPLICA_URL, its own endpoint, not the load balancer) with the longest "
                                "requests the brief expects ({} input, {} output tokens: the p95 where given) at {} "
                                "concurrent sequence{}.",
                                num(inP95), num(outP95), r.fit.sizedConcurrencyPerReplica,
                                r.fit.sizedConcurrencyPerReplica == 1 ? "" : "s"),
            media ? "Peak memory per GPU during denoising and during the VAE decode, OOM errors."
                  : "Memory per GPU (the serving engine reserves its cap at start, so this checks the cap and what runs "
                    "outside it), KV cache usage (vLLM: vllm:kv_cache_usage_perc), preemptions, OOM errors.",
            fmt::format("Peak memory per GPU <= {:.1f} GiB, the usable share of {:.1f} GiB; predicted {:.1f} GiB", usable,
                        double(r.fit.capacityBytes) / kGiB, need),
            usable, need, "<=", "GiB", "catalog memory less the safety margin (or the serving engine's memory cap)");
        if (commands && r.fit.sizedConcurrencyPerReplica > 0) {
            Load saturate;
            saturate.concurrency = r.fit.sizedConcurrencyPerReplica;
            peak.commands.push_back(vllmCommand("one replica at the p95 lengths", brief, inP95, outP95, saturate,
                                                std::max(kMinPrompts, *saturate.concurrency * 4), tag + "-fit.json", replica));
        }
        fit.steps.push_back(std::move(peak));
        if (r.fit.maxConcurrencyPerReplica)
            fit.steps.push_back(figureStep(
                "fit-kv-concurrency", "Read the KV cache's capacity from the serving engine's startup log.",
                "Sequences of the brief's p95 context the KV cache holds per replica (vLLM logs \"Maximum concurrency\").",
                fmt::format("The KV cache holds >= {} sequences of {} tokens per replica, the concurrency the brief needs; "
                            "predicted {}",
                            r.fit.sizedConcurrencyPerReplica, num(r.fit.sizedContextTokens), *r.fit.maxConcurrencyPerReplica),
                r.fit.sizedConcurrencyPerReplica, double(*r.fit.maxConcurrencyPerReplica), ">=", "requests",
                "brief: concurrency the traffic needs at the p95 context"));
    }
    fit.steps.push_back(figureStep("fit-oom", "Count out-of-memory errors and preemptions over every run of the plan.",
                                   "OOM errors, preemptions (vLLM: num_preemptions), restarts.",
                                   "No out-of-memory error in any run", 0, 0.0, "<=", "requests", "the method: OOM rate"));
    plan.phases.push_back(std::move(fit));

    // Phase 2: performance and latency.
    PlanPhase perf{"performance", "Performance and latency", "Prueba de rendimiento y latencia", {}};
    if (llmServing || w.kind == WorkloadKind::Embedding) {
        performancePhase(perf, brief, r, tag, commands, deployment);
    } else if (const auto &m = r.performance.media) {
        // Media generation: one output alone, then the throughput at the batch, then the queue.
        perf.steps.push_back(figureStep(
            "perf-media-single", "Generate one output alone on a replica at the brief's size, steps and guidance.",
            "Seconds from the request to the decoded output (median of ten), split into text encoding, denoising and "
            "VAE decode where the pipeline can time them.",
            fmt::format("Seconds per output <= 110% of the predicted {} s (beyond, the pipeline runs below the media "
                        "shares this prediction used)",
                        num(m->secondsPerOutput)),
            1.1 * m->secondsPerOutput, m->secondsPerOutput, "<=", "s", "prediction"));
        perf.steps.push_back(figureStep(
            "perf-media-throughput", fmt::format("Generate a steady stream at batch {} on every GPU of the candidate.", m->batch),
            "Outputs an hour (images or clips) and the GPU memory at its peak.",
            fmt::format("Outputs an hour >= 90% of the predicted {}", num(m->outputsPerHour)), 0.9 * m->outputsPerHour,
            m->outputsPerHour, ">=", "outputs/h", "prediction"));
        if (w.slo.e2eP99S && !r.performance.e2e.empty)
            perf.steps.push_back(figureStep(
                "perf-media-latency", "Replay the brief's traffic through the job queue for at least ten minutes.",
                "End-to-end seconds per output at p50, p95 and p99, and the queue's length over time.",
                fmt::format("End-to-end p99 <= {} s, the brief's target; predicted {} s", num(*w.slo.e2eP99S),
                            num(r.performance.e2e.p99)),
                *w.slo.e2eP99S, r.performance.e2e.p99, "<=", "s", "brief: slo.e2e_p99_s"));
    }
    plan.phases.push_back(std::move(perf));

    // Phase 3: failures and operations.
    PlanPhase ops{"operations", "Failures and operations", "Prueba de fallos y operaciones", {}};
    const double start = replicaStartS(brief);
    const double failure = w.acceptance.failureRate;
    ops.steps.push_back(wordStep("ops-kill-worker",
                                 "During a steady run, kill one serving worker (one replica's process).",
                                 "Requests failed, time until the replica serves again, what the load balancer did.",
                                 fmt::format("Failed requests stay within the brief's failure rate ({:.1f}%) and the replica "
                                             "serves again within {}, the predicted start time",
                                             100 * failure, seconds(start))));
    ops.steps.push_back(wordStep("ops-drain-node", "Drain one node (cordon and evict, or the provider's maintenance path).",
                                 "Requests failed or retried, how long the remaining replicas ran over the SLO.",
                                 "No request is lost without a retry; the remaining replicas carry the load or the "
                                 "autoscaler replaces the node."));
    ops.steps.push_back(wordStep("ops-restart-stack", "Restart the whole serving stack.",
                                 "Time from restart to the first successful request; errors seen by clients.",
                                 fmt::format("Serving again within {}, the predicted start time", seconds(start))));
    ops.steps.push_back(wordStep("ops-bad-rollout", "Roll out a deliberately broken version (a wrong model path), then roll back.",
                                 "How the failure shows (health checks, alerts), time to roll back.",
                                 "The broken version never takes traffic, or the rollback restores service within the "
                                 "team's incident target."));
    ops.steps.push_back(figureStep(
        "ops-cold-start", "Start a replica from nothing (an empty node, the weights in the brief's storage).",
        w.media ? "Time to load the pipeline and time to the first output." : "Time to load the model and time to the first token of the first request.",
        fmt::format("Cold start <= {}: {:.1f} GB of weights at {} GB/s plus {} to start (assumptions model_load_gb_per_s "
                    "and replica_start_s); more means the storage bandwidth or the image is slower than assumed",
                    seconds(start), modelWeightsGb(brief), num(brief.assumptions.value(Assumption::ModelLoadGbPerS)),
                    seconds(brief.assumptions.value(Assumption::ReplicaStartS))),
        start, start, "<=", "s", "assumptions: model_load_gb_per_s, replica_start_s"));
    ops.steps.push_back(wordStep("ops-observability",
                                 "Check the logs and metrics platform, security and finance will use.",
                                 "GPU utilization, memory, queue wait, latency, errors, cost per team: where each shows.",
                                 "Every figure of this plan is visible without logging into the node (the checklist's "
                                 "sw-observability item)."));
    ops.steps.push_back(wordStep("ops-cost-attribution",
                                 "Reconcile the provider's usage export for the test against the runs.",
                                 "GPU-hours billed, requests including retries, accepted outputs.",
                                 fmt::format("Retried and failed requests are attributed to the workload that caused them; "
                                             "the cost model assumes {:.1f}% of requests fail and are retried",
                                             100 * failure)));
    plan.phases.push_back(std::move(ops));

    // Phase 4: financial normalization: the row this tool computes.
    PlanPhase money{"financial", "Financial normalization", "Normalización financiera", {}};
    if (const CostOption *o = r.cost.cheapest()) {
        const double tie = brief.assumptions.value(Assumption::NearTieFraction);
        money.steps.push_back(figureStep(
            "fin-cost-per-accepted",
            fmt::format("Fill the candidate's row with measured figures: the price quoted, the measured capacity per "
                        "replica and the accepted share, and recompute the cost per {}.",
                        acceptedUnit(brief.workload)),
            fmt::format("Price and date, replicas needed at the measured capacity, utilization, cost lines, {}.",
                        acceptedUnits(brief.workload)),
            fmt::format("Cost per {} within {:.0f}% (near_tie_fraction, the margin within which the ranking "
                        "treats options as tied) of the predicted ${:.6f} ({} {}, {}); beyond it, rank again with the "
                        "measured figure",
                        acceptedUnit(brief.workload), 100 * tie, o->costPerAcceptedOutput, o->provider, termWords(*o->term), usdAmount(o->totalUsdPerMonth) + " USD a month"),
            o->costPerAcceptedOutput * (1 + tie), o->costPerAcceptedOutput, "<=", "USD",
            "prediction x (1 + near_tie_fraction)"));
    } else {
        money.steps.push_back(wordStep("fin-cost-per-accepted",
                                       "Fill the candidate's row with the measured figures and a dated price quote.",
                                       "Price and date, capacity, utilization, cost lines, accepted outputs.",
                                       "The engine priced nothing for this candidate (see its warnings): obtain a quote "
                                       "first."));
    }
    plan.phases.push_back(std::move(money));
    return plan;
}

} // namespace

std::optional<bool> PlanStep::predictedToPass() const
{
    if (!target || !predicted || comparison.empty())
        return std::nullopt;
    return comparison == "<=" ? *predicted <= *target : *predicted >= *target;
}

BenchmarkPlan makeBenchmarkPlan(const Brief &brief, const Results &results, const Catalog &catalog,
                                std::optional<std::size_t> only)
{
    BenchmarkPlan plan;
    plan.briefName = brief.name;
    plan.engineVersion = engineVersion();
    plan.modelRepo = brief.workload.media ? modelRepo(brief.workload.media->model.sourceUrl, brief.workload.media->model.id)
                                          : modelRepo(brief.workload.model.sourceUrl, brief.workload.model.id);
    for (std::size_t i = 0; i < results.results.size() && i < brief.candidates.size(); ++i)
        if (!only || *only == i)
            plan.candidates.push_back(candidatePlan(brief, results, catalog, i));
    return plan;
}

} // namespace wb
