// The benchmark plan of a training, fine-tuning or adapter run. The method's two stages for an
// adapter: prove the fit (the brief's micro-batch and sequence length load and step without running
// out of memory), then time to the first checkpoint and the cost per accepted tuned model. Every
// criterion carries the engine's prediction for the layout as evaluated.
#include "procurement/plancommands.h"

#include "core/format.h"
#include "performance/training.h"

#include <fmt/format.h>

namespace wb::detail {

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

} // namespace

std::vector<PlanPhase> runPlanPhases(const Brief &brief, const CandidateResult &r, const std::string &layout)
{
    const Workload &w = brief.workload;
    // The set-up as evaluated: the brief's, with the engine's remedy where it applied one.
    const TrainingSpec t = r.fit.appliedRemedy ? withRemedy(*w.training, *r.fit.appliedRemedy) : *w.training;
    const std::optional<TrainingPerformance> &p = r.performance.training;
    std::vector<PlanPhase> phases;

    // Phase 1: the fit at the brief's micro-batch and sequence length.
    PlanPhase fit{"memory-fit", "Memory fit", "Prueba de ajuste de memoria", {}};
    const std::string setUp = fmt::format("{} optimizer, sharding {}, recomputation {}{}", enumName(t.optimizer),
                                          enumName(t.sharding), enumName(t.recompute),
                                          r.fit.appliedRemedy ? "; the engine's remedy: " + remedyText(*r.fit.appliedRemedy)
                                                              : std::string());
    fit.steps.push_back(wordStep("fit-load",
                                 fmt::format("Load {} at {} weights in the training framework on {} ({}).", w.model.name,
                                             enumName(w.weightsPrecision), layout, setUp),
                                 "Memory per GPU once the weights, the optimizer's states and (for adapters) the adapters "
                                 "are in place.",
                                 "The model loads at the intended precision and layout with no out-of-memory error."));
    if (r.fit.computed && r.fit.capacityBytes > 0) {
        const double usable = double(r.fit.usableBytes) / kGiB, need = double(r.fit.perGpuBytes) / kGiB;
        fit.steps.push_back(figureStep(
            "fit-peak-memory",
            fmt::format("Run ten training steps at micro-batches of {} sequence{} of {} tokens, the brief's.", t.microBatchSize,
                        t.microBatchSize == 1 ? "" : "s", t.sequenceLength),
            "The allocated peak per GPU (PyTorch: torch.cuda.max_memory_allocated()) and the reserved memory; OOM errors.",
            fmt::format("Allocated peak per GPU <= {:.1f} GiB, the usable share of {:.1f} GiB; predicted {:.1f} GiB", usable,
                        double(r.fit.capacityBytes) / kGiB, need),
            usable, need, "<=", "GiB", "catalog memory less training_safety_margin"));
    }
    fit.steps.push_back(figureStep("fit-oom", "Count out-of-memory errors over every run of the plan.",
                                   "OOM errors and restarts.", "No out-of-memory error in any step", 0, 0.0, "<=", "errors",
                                   "the method: OOM rate"));
    phases.push_back(std::move(fit));

    // Phase 2: the step and the first checkpoint.
    PlanPhase perf{"performance", "Performance and latency", "Prueba de rendimiento y latencia", {}};
    if (p) {
        perf.steps.push_back(figureStep(
            "perf-step-time",
            fmt::format("After ten warm-up steps, time fifty steps of {} tokens each ({} micro-batch{} per data-parallel "
                        "rank).",
                        readableCount(p->tokensPerStep), p->microBatches, p->microBatches == 1 ? "" : "es"),
            "Median step time, tokens/s and MFU (model FLOPs over the dense peak).",
            fmt::format("Median step time <= 110% of the predicted {} (MFU {:.0f}%); beyond, the GPU trains below the "
                        "efficiency this prediction used",
                        seconds(p->stepTimeS), 100 * p->mfu),
            1.1 * p->stepTimeS, p->stepTimeS, "<=", "s", "prediction"));
        perf.steps.push_back(figureStep("perf-tokens", "From the same steps, the training tokens a second of the whole job.",
                                        "Tokens/s (the job's, all GPUs).",
                                        fmt::format("Tokens/s >= 90% of the predicted {}", num(p->tokensPerS)),
                                        0.9 * p->tokensPerS, p->tokensPerS, ">=", "tokens/s", "prediction"));
        if (p->timeToFirstCheckpointS)
            perf.steps.push_back(figureStep(
                "perf-first-checkpoint",
                isAdapter(w.kind) ? "Run until the first adapter checkpoint is saved." : "Run until the first checkpoint is saved.",
                "Time from the job's start to the saved checkpoint, and its write time.",
                fmt::format("First checkpoint within 110% of the predicted {} ({} to write)",
                            readableDuration(*p->timeToFirstCheckpointS), readableDuration(p->checkpoint.writeS)),
                1.1 * *p->timeToFirstCheckpointS, *p->timeToFirstCheckpointS, "<=", "s", "prediction"));
    } else {
        perf.steps.push_back(wordStep("perf-step-time", "Time fifty training steps after ten warm-up steps.",
                                      "Median step time, tokens/s, MFU.",
                                      "The engine could not time this step (see the candidate's warnings): record the "
                                      "figures for the decision."));
    }
    phases.push_back(std::move(perf));

    // Phase 3: failures: a resume from a checkpoint, what is watched, what is billed.
    PlanPhase ops{"operations", "Failures and operations", "Prueba de fallos y operaciones", {}};
    if (p)
        ops.steps.push_back(figureStep(
            "ops-checkpoint", "Kill the job after its first checkpoint and resume from it.",
            "Checkpoint write time, the time from the kill to the resumed first step, steps lost.",
            fmt::format("The job resumes with the same loss curve within {} (restart_s and the checkpoint's read); longer "
                        "restarts lengthen every interruption of the run",
                        readableDuration(p->checkpoint.restartS)),
            p->checkpoint.restartS, p->checkpoint.restartS, "<=", "s", "assumptions: restart_init_s, checkpoint read"));
    else
        ops.steps.push_back(wordStep("ops-checkpoint", "Kill the job after its first checkpoint and resume from it.",
                                     "Checkpoint write time, restart and load time, steps lost.",
                                     "The job resumes from the checkpoint with the same loss curve."));
    ops.steps.push_back(wordStep("ops-observability", "Check the logs and metrics platform, security and finance will use.",
                                 "GPU utilization and memory, step time, loss, interruptions, cost per team: where each shows.",
                                 "Every figure of this plan is visible without logging into the node (the checklist's "
                                 "sw-observability item)."));
    ops.steps.push_back(wordStep("ops-cost-attribution", "Reconcile the provider's usage export for the test against the runs.",
                                 "GPU-hours billed against the GPU-hours the steps and restarts account for.",
                                 "Every GPU-hour billed is a step, a checkpoint or a restart of the test."));
    phases.push_back(std::move(ops));

    // Phase 4: the cost per accepted run.
    PlanPhase money{"financial", "Financial normalization", "Normalización financiera", {}};
    if (const CostOption *o = r.cost.cheapest()) {
        const double tie = brief.assumptions.value(Assumption::NearTieFraction);
        money.steps.push_back(figureStep(
            "fin-cost-per-accepted",
            "Recompute the run's cost with the measured step time, the price quoted and the share of runs whose model passes "
            "its evaluation.",
            "Price and date, the run's GPU-hours at the measured step time, checkpoint and restart time, the runs that pass.",
            fmt::format("Cost per accepted run within {:.0f}% (near_tie_fraction) of the predicted ${} ({} {}, {} USD a "
                        "run); beyond it, rank again with the measured figure",
                        100 * tie, usdAmount(o->costPerAcceptedOutput), o->provider, termWords(*o->term),
                        usdAmount(o->totalUsdPerMonth)),
            o->costPerAcceptedOutput * (1 + tie), o->costPerAcceptedOutput, "<=", "USD", "prediction x (1 + near_tie_fraction)"));
    } else {
        money.steps.push_back(wordStep("fin-cost-per-accepted", "Recompute the run's cost with the measured figures and a dated "
                                       "price quote.",
                                       "Price and date, GPU-hours, checkpoint and restart time, the runs that pass.",
                                       "The engine priced nothing for this candidate (see its warnings): obtain a quote first."));
    }
    phases.push_back(std::move(money));
    return phases;
}

} // namespace wb::detail
