// The cost of a completed training run, following the seed's formula:
//
//   training_run_cost = gpu_hours + storage + network + checkpointing + failed_run_waste
//       + platform_labor (the line platform_labour, as every option names it)
//
// per pricing option of the candidate's GPU, from its expected time to train (training.h):
// productive GPU-hours, the GPU-hours spent writing checkpoints, the GPU-hours lost to
// interruptions (work redone since the last checkpoint, and restarts), checkpoint storage for
// the run's length, and the people watching it. A fine-tune is accepted when it passes its
// evaluation (acceptance.quality_pass_rate): cost per accepted model = run cost / pass rate.
#include "cost/gpuroute.h"
#include "cost/routes.h"
#include "cost/pricing.h"
#include "cost/trainingcost.h"

#include "core/format.h"
#include "performance/training.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace wb {

using namespace detail;

CandidateCost costTrainingRun(const Brief &brief, const Candidate &cand, const GpuSpec &gpu, const TrainingPerformance &t,
                              const Catalog &catalog, const std::string &today)
{
    CandidateCost c;
    const Assumptions &a = brief.assumptions;
    if (!t.timeToTrainS || !t.expectedTimeToTrainS) {
        c.warnings.push_back(t.timeToTrainS ? makeMessage("cost-not-computed", "",
                                                          WB_MESSAGE("Messages", "the run has no expected end (see the warnings "
                                                                     "above), so there is no run to price"))
                                            : makeMessage("cost-not-computed", "/workload/training/tokens",
                                                          WB_MESSAGE("Messages", "without the tokens to train on "
                                                                     "(workload.training.tokens) there is no run to price")));
        return c;
    }
    const double hoursPerMonth = a.value(Assumption::HoursPerMonth);
    const std::map<PricingTerm, const GpuPrice *> chosen = pricesFor(brief, catalog, gpu, today, c.warnings);
    if (chosen.empty())
        return c;
    const CheckpointPlan &ck = t.checkpoint;
    const double solveS = *t.timeToTrainS;
    // The dataset: moved to the GPUs once a run unless it is already there, and staged beside them.
    const TrainingSpec &spec = *brief.workload.training;
    const double datasetGb = spec.datasetGb.value_or(0);
    const double transferRate = spec.datasetTransferUsdPerGb.value_or(a.value(Assumption::EgressUsdPerGb));
    const double transferUsd = spec.datasetGb && !spec.datasetWithGpus ? datasetGb * transferRate : 0;
    const std::string network =
        !spec.datasetGb ? std::string("the cluster's own network is in the GPU-hour price; no dataset is priced (workload.training.dataset "
                                      "gives its size and where it is)")
        : spec.datasetWithGpus
            ? fmt::format("the {} GB dataset is already where the GPUs are; the cluster's own network is in the GPU-hour price",
                          readableNumber(datasetGb))
            : fmt::format("the {} GB dataset moved to the GPUs once a run at ${}/GB ({})", readableNumber(datasetGb),
                          usdAmount(transferRate),
                          spec.datasetTransferUsdPerGb ? "the brief's transfer price" : "egress_usd_per_gb: its home sends it out");
    const double passRate = brief.workload.acceptance.qualityPassRate;
    // Commitments charged whole to the one run, when the brief gives no campaign to share them.
    std::vector<std::string> chargedToOneRun;
    for (const auto &[term, price] : chosen) {
        CostOption o;
        o.perRun = true;
        o.term = term;
        o.provider = price->provider;
        o.observed = price->observed;
        o.source = price->source;
        o.note = price->note;
        o.origin = price->origin;
        o.terms = commercialTermsWords(*price);
        o.offer = price->offer;
        o.gpus = cand.gpus;
        o.replicas = 1;
        agePrice(o, brief, gpu, *price, today, c.warnings);

        // Spot instances are taken back on top of the cluster's own interruptions.
        double mtbfS = t.jobMtbfS;
        double intervalS = ck.intervalS;
        if (term == PricingTerm::Spot) {
            const double spotPerGpuHour =
                price->interruptionsPerGpuMonth.value_or(a.value(Assumption::SpotInterruptionsPerGpuMonth)) / hoursPerMonth;
            mtbfS = 3600.0 / ((t.interruptionsPerGpuHour + spotPerGpuHour) * cand.gpus);
            if (!ck.intervalFromBrief)
                intervalS = dalyOptimalIntervalS(ck.writeS, mtbfS);
        }
        const double interval = intervalS > 0 ? intervalS : solveS;
        const double wallS = dalyExpectedWallS(solveS, interval, ck.writeS, ck.restartS, mtbfS);
        const double writesS = std::floor(solveS / interval) * ck.writeS;
        const double lostS = std::max(0.0, wallS - solveS - writesS);
        // A run that spends more than spot_restart_max_fraction of its time redoing work and
        // restarting is not one to buy (the same bound the serving spot option has).
        if (term == PricingTerm::Spot && !(lostS < a.value(Assumption::SpotRestartMaxFraction) * wallS)) {
            c.warnings.push_back(makeMessage(
                "spot-unusable", "/assumptions/spot_interruptions_per_gpu_month",
                std::isfinite(wallS)
                    ? WB_MESSAGE("Messages", "on {gpu}'s spot capacity ({provider}) {gpus} GPUs would be interrupted every {mtbf} on "
                                 "average, and the run would spend {lost_percent:.0f}% of its expected time redoing work "
                                 "and restarting ({restart} a restart): the option is not priced")
                    : WB_MESSAGE("Messages", "on {gpu}'s spot capacity ({provider}) {gpus} GPUs would be interrupted every {mtbf} on "
                                 "average, and the run would spend all of its expected time redoing work and restarting "
                                 "({restart} a restart): the option is not priced"),
                {{"gpu", gpu.name}, {"provider", price->provider}, {"gpus", std::int64_t(cand.gpus)},
                 {"mtbf", readableDuration(mtbfS)}, {"mtbf_s", mtbfS},
                 {"lost_percent", std::isfinite(wallS) ? 100 * lostS / wallS : 100.0},
                 {"restart", readableDuration(ck.restartS)}, {"restart_s", ck.restartS}}));
            continue;
        }

        // What one GPU-hour of the run costs: the rental price, or the ownership cost per hour
        // of a GPU owned and kept busy (its depreciation, power, colocation and support).
        double perGpuHour = price->usdPerGpuHour;
        std::string rate = fmt::format("${}/GPU-h ({})", usdAmount(perGpuHour), price->provider);
        if (term == PricingTerm::Purchase) {
            GpuRoute route;
            route.brief = &brief;
            route.gpu = &gpu;
            route.price = price;
            route.gpusPerReplica = cand.gpus;
            perGpuHour = route.ownership(1.0).total() / hoursPerMonth;
            rate = fmt::format("${}/GPU-h owned ({})", usdAmount(perGpuHour), price->provider);
            o.usdPerGpu = route.ownership(1.0).capex;
        }
        o.usdPerGpuHour = perGpuHour;
        const double gpuHoursOf = cand.gpus / 3600.0;
        addLine(o.lines, "gpu_hours", solveS * gpuHoursOf * perGpuHour,
                fmt::format("{} GPUs x {} of training at {}", cand.gpus, readableDuration(solveS), rate));
        const double checkpoints = std::floor(solveS / interval);
        addLine(o.lines, "checkpointing", writesS * gpuHoursOf * perGpuHour,
                intervalS > 0 ? fmt::format("{} checkpoint{} of {} GB, {} each, every {} of work", readableNumber(checkpoints),
                                            checkpoints == 1 ? "" : "s", readableNumber(ck.sizeBytes / 1e9),
                                            readableDuration(ck.writeS), readableDuration(interval))
                              : fmt::format("one checkpoint of {} GB at the end, {} to write (no interruption is expected, so "
                                            "none is needed on the way)",
                                            readableNumber(ck.sizeBytes / 1e9), readableDuration(ck.writeS)));
        addLine(o.lines, "failed_run_waste", lostS * gpuHoursOf * perGpuHour,
                std::isfinite(mtbfS)
                    ? fmt::format("{} interruptions expected (one every {} for {} GPUs{}): work redone since the last "
                                  "checkpoint and restarts of {}",
                                  readableNumber(wallS / mtbfS), readableDuration(mtbfS), cand.gpus,
                                  term == PricingTerm::Spot ? ", spot reclaims included" : "", readableDuration(ck.restartS))
                    : std::string("no interruptions expected (interruptions_per_gpu_hour is 0)"));
        // A commitment longer than the run is paid for whether the GPUs are used or not: the
        // offer's own minimum, else the term a reservation is (12 or 36 months). A campaign of
        // runs_per_year runs shares the term: each run carries its share of the hours no run uses.
        const double runMonths = wallS / 3600.0 / hoursPerMonth;
        const std::optional<double> runsPerYear = brief.workload.training->runsPerYear;
        // A purchase binds the GPUs' depreciation life, as a reservation binds its term: both are
        // paid for unless other work uses the rest of it.
        const std::optional<double> binds = price->minCommitmentMonths ? price->minCommitmentMonths
                                            : term == PricingTerm::Reserved1y ? std::optional<double>(12)
                                            : term == PricingTerm::Reserved3y ? std::optional<double>(36)
                                            : term == PricingTerm::Purchase
                                                ? std::optional<double>(12 * a.value(Assumption::DepreciationYears))
                                                : std::nullopt;
        // Runs in the term: the campaign's (at least one), else the one run.
        const double runsInTerm = binds && runsPerYear ? std::max(1.0, *runsPerYear * *binds / 12) : 1.0;
        if (binds && *binds > runsInTerm * runMonths) {
            o.commitmentMonths = binds;
            const double idleHours = (*binds - runsInTerm * runMonths) * hoursPerMonth / runsInTerm;
            o.committedUsd = *binds * hoursPerMonth * cand.gpus * perGpuHour;
            const char *what = term == PricingTerm::Purchase ? "bought GPUs are written off over" : "the offer binds";
            addLine(o.lines, "idle_capacity", idleHours * cand.gpus * perGpuHour,
                    runsPerYear ? fmt::format("{} {:g} months; {} run(s) of {} each in it ({} a year): this run's share "
                                              "of the rest, paid for unless other work uses it",
                                              what, *binds, readableNumber(runsInTerm), readableDuration(wallS),
                                              readableNumber(*runsPerYear))
                                : fmt::format("{} {:g} months; the run takes {}: the rest is paid for unless other work uses "
                                              "it (workload.training.runs_per_year shares it over a campaign)",
                                              what, *binds, readableDuration(wallS)));
        }
        // Checkpoints kept, and the dataset staged beside the GPUs, for the run's length.
        const double storageRate = a.value(Assumption::StorageUsdPerGbMonth);
        const double checkpointGb = ck.sizeBytes / 1e9 * a.value(Assumption::CheckpointsKept);
        addLine(o.lines, "storage", (checkpointGb + datasetGb) * storageRate * runMonths,
                fmt::format("{} checkpoints of {} GB{} kept for {} at ${}/GB-month", readableNumber(a.value(Assumption::CheckpointsKept)),
                            readableNumber(ck.sizeBytes / 1e9),
                            datasetGb > 0 ? fmt::format(" and the {} GB dataset", readableNumber(datasetGb)) : std::string(),
                            readableDuration(wallS), usdAmount(storageRate)));
        addLine(o.lines, "network", transferUsd, network);
        addLine(o.lines, "platform_labour", salaryPerMonth(a, Assumption::TrainingPlatformFte) * runMonths,
                fmt::format("{:g} engineers for {} (training_platform_fte)", a.value(Assumption::TrainingPlatformFte),
                            readableDuration(wallS)));
        o.requestsPerMonth = 1;
        finishOption(o, passRate, 0);
        if (o.commitmentMonths && !runsPerYear)
            chargedToOneRun.push_back(fmt::format("{} ({:g} months, ${} a run, {} of it idle)", termWords(term),
                                                  *o.commitmentMonths, usdAmount(o.totalUsdPerMonth),
                                                  [&] {
                                                      for (const CostLine &l : o.lines)
                                                          if (l.name == "idle_capacity")
                                                              return "$" + usdAmount(l.usdPerMonth);
                                                      return std::string("none");
                                                  }()));
        // The share of the GPU time paid for that trains: the run's own wall time when rented, the
        // term's when committed (the campaign's runs, or the one run, in it).
        o.utilization = wallS <= 0 ? 0
                        : binds    ? std::min(1.0, runsInTerm * solveS / (*binds * hoursPerMonth * 3600))
                                   : solveS / wallS;
        c.options.push_back(std::move(o));
    }
    // A commitment priced for one run is a true cost only if no other run will use the term: the
    // brief should say how many runs share it.
    if (!chargedToOneRun.empty())
        c.warnings.push_back(makeMessage(
            "commitment-for-one-run", "/workload/training/runs_per_year",
            WB_MESSAGE("Messages", "{options}: a commitment longer than the run is charged whole to this one run, "
                       "since the brief gives no runs a year (workload.training.runs_per_year); give it to share "
                       "the term over a campaign, or read these options as what one run alone would owe"),
            {{"options", fmt::format("{}", fmt::join(chargedToOneRun, "; "))}}));
    // A campaign whose runs need more than the candidate's GPUs can give in a year: its runs
    // overlap, so it needs that many times the GPUs (each run's cost is the same; the commitment is
    // that many times larger).
    if (const auto runs = brief.workload.training->runsPerYear; runs && t.expectedTimeToTrainS
        && *runs * *t.expectedTimeToTrainS > 12 * hoursPerMonth * 3600)
        c.warnings.push_back(makeMessage("campaign-exceeds-gpus", "/workload/training/runs_per_year",
                                         WB_MESSAGE("Messages", "{runs_text} runs a year of {duration} each need {times:.1f} times "
                                                    "the candidate's GPUs ({gpus}) running all year: the runs overlap, so a "
                                                    "reservation or purchase must cover that many GPUs (the cost per run is "
                                                    "priced as if it does)"),
                                         {{"runs", *runs}, {"runs_text", readableNumber(*runs)},
                                          {"duration", readableDuration(*t.expectedTimeToTrainS)},
                                          {"duration_s", *t.expectedTimeToTrainS},
                                          {"times", *runs * *t.expectedTimeToTrainS / (12 * hoursPerMonth * 3600)},
                                          {"gpus", std::int64_t(cand.gpus)}}));
    c.computed = true;
    return c;
}

} // namespace wb
