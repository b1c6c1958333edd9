#include "evaluate/evaluate.h"

#include "brief/completeness.h"
#include "core/fault.h"
#include "core/format.h"
#include "core/threadpool.h"
#include "core/version.h"
#include "evaluate/uncertainty.h"
#include "performance/training.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>

namespace wb {

namespace {
std::atomic<std::uint64_t> g_resultsCopies{0};
}

ResultsCopies::ResultsCopies(const ResultsCopies &) noexcept
{
    ++g_resultsCopies;
}

ResultsCopies &ResultsCopies::operator=(const ResultsCopies &) noexcept
{
    ++g_resultsCopies;
    return *this;
}

std::uint64_t resultsCopyCount()
{
    return g_resultsCopies.load();
}

const char *engineVersion()
{
    return WB_ENGINE_VERSION;
}

const Warning *whyNotCosted(const CandidateResult &result)
{
    if (result.cost.computed)
        return nullptr;
    // The steps' stopping warnings in pipeline order: the first present is the cause.
    static const char *const causes[] = {"engine-error", "cancelled", "unknown-gpu",
                                         "precision-unsupported", "does-not-fit", "performance-not-modelled",
                                         "performance-not-computed", "cost-not-modelled", "no-price", "cost-not-computed"};
    for (const char *code : causes)
        for (const Warning &w : result.warnings)
            if (w.code == code)
                return &w;
    return nullptr;
}

std::shared_ptr<const std::vector<FitResult>> fitsOf(const Results &results)
{
    auto fits = std::make_shared<std::vector<FitResult>>();
    for (const CandidateResult &r : results.results)
        fits->push_back(r.fit);
    return fits;
}

namespace {

// A training layout that does not fit as stated but would with a change to its set-up
// (FitResult::remedies): each fitting change is timed, and the candidate is evaluated, at its
// own layout, with the fastest; the stated need and step time stay in its fit. Empty when no
// change fits (the evaluation then re-lays it out) or none can be timed.
std::optional<CandidateResult> evaluateRemedied(const Brief &b, const Candidate &c, const Catalog &catalog,
                                                const EvaluateOptions &options, const std::string &today,
                                                const FitResult &stated, const GpuSpec &gpu, const EfficiencyTable &table)
{
    FitResult fit = stated;
    std::vector<Warning> scratch;
    if (auto s = evaluateTraining(b, c, gpu, table, stated, scratch))
        fit.statedStepTimeS = s->stepTimeS;
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < fit.remedies.size(); ++i) {
        FitRemedy &option = fit.remedies[i];
        if (!option.fits)
            continue;
        Brief changed = b;
        changed.workload.training = withRemedy(*b.workload.training, option.option);
        const FitResult f = fitCandidate(changed, c, catalog);
        if (auto p = evaluateTraining(changed, c, gpu, table, f, scratch)) {
            option.stepTimeS = p->stepTimeS;
            option.stepTimeLowerBound = changed.workload.training->optimizerPlacement == OptimizerPlacement::CpuOffload;
            // The fastest, among those whose whole cost is timed when any is.
            const FitRemedy *current = best ? &fit.remedies[*best] : nullptr;
            if (!current || (current->stepTimeLowerBound && !option.stepTimeLowerBound)
                || (current->stepTimeLowerBound == option.stepTimeLowerBound && *option.stepTimeS < *current->stepTimeS))
                best = i;
        }
    }
    if (!best)
        return std::nullopt;
    const FitRemedy &chosen = fit.remedies[*best];
    Brief changed = b;
    changed.workload.training = withRemedy(*b.workload.training, chosen.option);
    CandidateResult r = evaluateCandidate(changed, c, catalog, options, today);
    r.fit.remedies = fit.remedies;
    r.fit.appliedRemedy = chosen.option;
    r.fit.statedPerGpuBytes = stated.perGpuBytes;
    r.fit.statedStepTimeS = fit.statedStepTimeS;
    std::vector<const FitRemedy *> alternatives;
    for (const FitRemedy &option : fit.remedies)
        if (&option != &chosen && option.fits && option.stepTimeS)
            alternatives.push_back(&option);
    std::sort(alternatives.begin(), alternatives.end(),
              [](const FitRemedy *x, const FitRemedy *y) { return *x->stepTimeS < *y->stepTimeS; });
    alternatives.resize(std::min<std::size_t>(alternatives.size(), 3));
    std::string others;
    for (const FitRemedy *alternative : alternatives) {
        const FitRemedy &option = *alternative;
        others += fmt::format("{}{} ({:.1f} GiB, step {:.3g} s{})", others.empty() ? "" : "; ", remedyText(option.option),
                              double(option.perGpuBytes) / double(1ULL << 30), *option.stepTimeS,
                              option.stepTimeLowerBound ? " or more" : "");
    }
    const double stepChange = fit.statedStepTimeS && r.performance.training
        ? 100.0 * (r.performance.training->stepTimeS / *fit.statedStepTimeS - 1.0) : 0.0;
    r.warnings.insert(r.warnings.begin(),
                      makeMessage("fit-remedy-applied", "/workload/training",
                                  WB_MESSAGE("Messages", "as stated, the layout needs {stated_gib:.1f} GiB on the busiest GPU, more "
                                             "than it can use; with {remedy} it needs {needed_gib:.1f} GiB and its step takes "
                                             "{step_change_percent:+.1f}%{lower_bound_text}, the fastest change that fits "
                                             "{chosen_rule}, so the figures are for the layout as stated with that "
                                             "change{others_text}"),
                                  {{"stated_gib", double(stated.perGpuBytes) / double(1ULL << 30)},
                                   {"remedy", remedyText(chosen.option)}, {"remedy_option", chosen.option},
                                   {"needed_gib", double(chosen.perGpuBytes) / double(1ULL << 30)},
                                   {"step_change_percent", stepChange}, {"others", others},
                                   {"chosen_rule", chosen.stepTimeLowerBound
                                        ? std::string("(none whose whole cost is timed fits)")
                                        : std::string("among those whose whole cost is timed (a CPU optimizer's update is "
                                                      "not, so its step is a lower bound and it is chosen only when "
                                                      "nothing else fits)")},
                                   {"lower_bound_text", chosen.stepTimeLowerBound
                                        ? std::string(" or more (the CPU's optimizer update is not timed)") : std::string()},
                                   {"others_text", others.empty() ? std::string()
                                                                  : ". The next fastest that fit: " + others}}));
    return r;
}

} // namespace

CandidateResult evaluateCandidate(const Brief &brief, const Candidate &c, const Catalog &catalog,
                                  const EvaluateOptions &options, const std::string &today, const FitResult *knownFit)
{
    CandidateResult r;
    r.candidate = c;
    // A candidate with its own weight precision is evaluated on the brief as it sees it.
    std::optional<Brief> own;
    if (c.weightsPrecision)
        own = briefFor(brief, c);
    const Brief &b = own ? *own : brief;
    const GpuSpec *gpu = catalog.gpu(c.gpu);
    r.gpuName = gpu ? gpu->name : c.gpu;
    r.fit = knownFit ? *knownFit : fitCandidate(b, c, catalog);
    r.warnings = r.fit.warnings;
    const EfficiencyTable *table = options.efficiency ? options.efficiency : &catalog.efficiency();
    for (const CandidateEfficiency &e : options.candidateEfficiency)
        if (e.table && e.gpu == c.gpu && e.stack == c.servingStack) {
            table = e.table;
            r.provenance = e.provenance;
            r.calibrationRuns = e.runs;
            r.warnings.insert(r.warnings.end(), e.warnings.begin(), e.warnings.end());
        }
    if (gpu && options.performance && r.fit.computed && !r.fit.fits && b.workload.training
        && std::any_of(r.fit.remedies.begin(), r.fit.remedies.end(), [](const FitRemedy &m) { return m.fits; }))
        if (auto remedied = evaluateRemedied(b, c, catalog, options, today, r.fit, *gpu, *table))
            return std::move(*remedied);
    if (gpu && options.performance) {
        r.performance = evaluatePerformance(b, c, *gpu, r.fit, options.stop,
                                            options.preview ? SimulationBudget::quick() : SimulationBudget::full(), *table);
        r.warnings.insert(r.warnings.end(), r.performance.warnings.begin(), r.performance.warnings.end());
        r.cost = costCandidate(b, c, *gpu, r.fit, r.performance, catalog, today);
        r.warnings.insert(r.warnings.end(), r.cost.warnings.begin(), r.cost.warnings.end());
        // Calibrated figures only: a project's own calibration has no held-out errors to band it.
        if (!options.efficiency && r.provenance.empty())
            attachUncertainty(r, b, catalog);
    }
    return r;
}

// A deployment sized for the peak is evaluated in full up to this many GPUs; beyond, the
// candidate's figures stand for it (the simulator represents many replicas by a few anyway).
constexpr double kMostGpusSized = 100000;
// Replicas held below this share of their flat-out rate are said to be sized by the latency
// targets (a hint, not a figure): below half its capacity a queue's wait is at most the service
// time itself (M/M/1: rho / (1 - rho) <= 1), so what holds the rate down is each request's own
// time against the target, which a wider layout shortens.
constexpr double kLatencyBoundShare = 0.5;

Results evaluate(const Brief &brief, const Catalog &catalog, const EvaluateOptions &options)
{
    if (faultInjected("engine-throws"))  // tests of the barriers above (core/fault.h)
        throw std::runtime_error("injected fault (engine-throws)");
    Results results;
    results.briefName = brief.name;
    results.briefWarnings = brief.warnings;
    results.completeness = assessCompleteness(brief);
    for (const BriefItem *item : results.completeness.missing())
        if (item->blocking)
            results.rankingHeldBackBy.push_back(*item);
    if (!results.ranked())
        results.briefWarnings.push_back(makeMessage(
            "brief-incomplete", results.rankingHeldBackBy.front().pointer,
            WB_MESSAGE("Messages", "The brief is incomplete: {held_back} (the method: if you cannot complete the workload brief, "
                       "pause the GPU selection)."),
            {{"held_back", rankingHeldBackText(results.rankingHeldBackBy)}}));
    results.results.resize(brief.candidates.size());
    for (std::size_t i = 0; i < brief.candidates.size(); ++i)
        results.results[i].candidate = brief.candidates[i];
    const std::string today = options.today.empty() ? todayIso() : options.today;
    // Candidates are independent and each costs tens of simulations: they run on the process's
    // thread pool.
    std::mutex errorMutex;
    const auto evaluateOne = [&](std::size_t i) {
        CandidateResult &r = results.results[i];
        const bool known = options.fits && options.fits->size() == brief.candidates.size();
        r = evaluateCandidate(brief, brief.candidates[i], catalog, options, today, known ? &(*options.fits)[i] : nullptr);
        bindCandidate(r.warnings, i);
        if (!r.fit.fits && r.fit.resize) {
            Candidate resized = r.candidate;
            resized.tensorParallel = r.fit.resize->tensorParallel;
            resized.pipelineParallel = r.fit.resize->pipelineParallel;
            resized.gpus = r.fit.resize->gpus();
            if (resized.pipelineParallel == 1)
                resized.virtualPipeline = 1;
            auto sized = std::make_shared<CandidateResult>(evaluateCandidate(brief, resized, catalog, options, today));
            if (!sized->fit.fits)
                return;
            r.warnings.push_back(r.fit.resizeReason);
            bindCandidate(r.warnings, i);
            bindCandidate(sized->warnings, i);
            r.resized = std::move(sized);
        }
        // The deployment is the layout at the replicas its cost pays for (those the peak needs
        // within the SLO, or for a batch or a volume given per month, those the volume needs):
        // when that is not the count entered, it is evaluated in full at that count, so that
        // every figure shown beside its cost (latencies, SLO verdict, replicas) is of the GPUs
        // the cost pays for (issue 39). The candidate as entered keeps its own result, where the
        // sizing started. A peak the simulation could not carry within the SLO stays as entered.
        const CandidateResult &layout = r.resized ? *r.resized : r;
        const PerformanceResult &p = layout.performance;
        const int gpusPerReplica = std::max(1, layout.candidate.gpusPerReplica());
        const CostOption *priced = layout.cost.cheapest();
        const bool byCost = priced && !priced->perRun && priced->replicas > 0;
        const int replicas = byCost ? priced->replicas : p.replicasForPeak.value_or(0);
        if (options.preview || !p.computed || replicas <= 0 || (p.replicasForPeak && p.sloMetAsDeployed == false)
            || replicas == layout.candidate.replicas() || double(replicas) * gpusPerReplica > kMostGpusSized)
            return;
        Candidate deployed = layout.candidate;
        deployed.gpus = replicas * gpusPerReplica;
        auto sized = std::make_shared<CandidateResult>(evaluateCandidate(brief, deployed, catalog, options, today));
        if (!sized->fit.fits)
            return;
        // What the entered count's own performance and cost said is superseded by the
        // deployment's; what is about the layout (its fit, its calibration) is said once, by the
        // deployment.
        const auto in = [](const std::vector<Warning> &list, const Warning &w) {
            return std::any_of(list.begin(), list.end(), [&](const Warning &v) { return v.code == w.code && v.message == w.message; });
        };
        // Of the same layout, the deployment's fit says what applies: the entered count's notes on
        // the requests in flight per replica ("KV cache sized for 41", "holds 94 of the 81") are
        // of replicas that are not deployed.
        std::erase_if(r.warnings, [&](const Warning &w) {
            return in(sized->warnings, w)
                || (&layout == &r && (in(r.fit.warnings, w) || in(r.performance.warnings, w) || in(r.cost.warnings, w)))
                || w.code == "slo-at-band-edge";
        });
        const bool forPeak = p.replicasForPeak == replicas && p.sloMetAsDeployed.value_or(false);
        const MessageArgs args = {{"peak_rate", p.peakRequestRatePerS},
                                  {"requests", readableCount(priced ? priced->requestsPerMonth : 0.0)},
                                  {"replicas", std::int64_t(replicas)},
                                  {"gpus_per_replica", std::int64_t(gpusPerReplica)},
                                  {"gpu", layout.gpuName},
                                  {"deployed_gpus", std::int64_t(deployed.gpus)},
                                  {"entered_gpus", std::int64_t(r.candidate.gpus)}};
        r.warnings.push_back(
            forPeak ? makeMessage("sized-for-peak", candidateField("gpus"),
                                  WB_MESSAGE("Messages", "the peak of {peak_rate:.3g} requests/s within the latency targets needs "
                                             "{replicas} replicas of {gpus_per_replica} {gpu}; the figures and the cost are for "
                                             "those {deployed_gpus} GPUs, evaluated in full ({entered_gpus} entered)"),
                                  args)
                    : makeMessage("sized-for-volume", candidateField("gpus"),
                                  WB_MESSAGE("Messages", "{requests} requests a month need {replicas} replicas of "
                                             "{gpus_per_replica} {gpu} at their busiest; the figures and the cost are for "
                                             "those {deployed_gpus} GPUs, evaluated in full ({entered_gpus} entered)"),
                                  args));
        // Replicas held far below what they carry flat out are sized by the latency targets, not
        // by throughput: a wider layout shortens each request and may need fewer GPUs.
        const double flatOut = p.maxRequestsPerS / std::max(1, layout.candidate.replicas());
        const double each = p.peakRequestRatePerS / replicas;  // what each deployed replica carries
        const bool llm = !brief.workload.media && brief.workload.kind != WorkloadKind::Embedding;
        if (forPeak && llm && replicas > 1 && layout.candidate.tensorParallel < 8 && flatOut > 0
            && each < kLatencyBoundShare * flatOut)
            r.warnings.push_back(makeMessage(
                "latency-bound-replicas", candidateField("tensor_parallel"),
                WB_MESSAGE("Messages", "each of the {replicas} replicas carries {rate:.3g} requests/s of the peak, {share:.0f}% "
                           "of the {flat_out:.3g} it serves flat out: the latency targets, not throughput, size this "
                           "deployment. A wider tensor-parallel layout shortens each request and may need fewer GPUs "
                           "(Find Layouts compares them)"),
                {{"rate", each}, {"share", 100 * each / flatOut},
                 {"flat_out", flatOut}, {"replicas", std::int64_t(replicas)}}));
        bindCandidate(r.warnings, i);
        bindCandidate(sized->warnings, i);
        r.resized = std::move(sized);
    };
    // No exception may leave a worker thread: a failure of the engine on one candidate is
    // reported on it and on the results.
    const auto evaluateIndex = [&](std::size_t i) {
        try {
            evaluateOne(i);
        } catch (const std::exception &e) {
            const Message m = makeMessage("engine-error", "",
                                          WB_MESSAGE("Messages", "the engine failed on this candidate: {what}"), {{"what", std::string(e.what())}});
            const std::string &message = m.message;
            results.results[i].warnings.push_back(m);
            const std::lock_guard lock(errorMutex);
            if (!results.engineError)
                results.engineError = candidateLabel(brief.candidates[i]) + ": " + message;
        }
    };
    parallelFor(brief.candidates.size(), evaluateIndex, options.stop);
    results.performanceEvaluated = options.performance;
    results.efficiencyFactors = (options.efficiency ? *options.efficiency : catalog.efficiency()).factors();
    results.preview = options.performance && options.preview;
    results.cancelled = options.stop.stop_requested();
    // A cancelled or failed run has figures for some candidates only: nothing is recommended.
    if (options.performance && !results.engineError && !results.cancelled) {
        results.cost = summarizeCost(brief, results.results, catalog, today);
        // A recommendation resting on figures calibrated from the project's runs says so.
        if (auto &rec = results.cost.recommendation; rec && rec->candidate && *rec->candidate < results.results.size())
            if (const std::string &p = results.results[*rec->candidate].provenance; !p.empty())
                rec->reasons.push_back(makeMessage("calibrated-figures", "",
                                                   WB_MESSAGE("Messages", "its performance figures are {provenance} measured in this "
                                                              "project"),
                                                   {{"provenance", p}}));
        if (auto &rec = results.cost.recommendation; rec)
            if (auto reason = bandReason(brief, results))
                rec->reasons.push_back(std::move(*reason));
        // The engine, not its presenters, holds the ranking back (the method: pause the selection).
        if (!results.ranked())
            results.cost.recommendation.reset();
    }
    return results;
}

} // namespace wb
