#include "evaluate/evaluate.h"

#include "brief/completeness.h"
#include "core/fault.h"
#include "core/threadpool.h"
#include "core/version.h"
#include "evaluate/uncertainty.h"

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
        if (r.fit.fits || !r.fit.resize)
            return;
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
