#include "evaluate/search.h"

#include "core/threadpool.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>

namespace wb {

namespace {

// A load curve's figure at `rate`, linear between its points and held flat beyond them.
double atRate(const std::vector<LoadPoint> &curve, double rate, double LoadPoint::*field)
{
    if (curve.empty())
        return NAN;
    if (rate <= curve.front().requestRatePerS)
        return curve.front().*field;
    for (std::size_t i = 1; i < curve.size(); ++i)
        if (rate <= curve[i].requestRatePerS) {
            const LoadPoint &a = curve[i - 1], &b = curve[i];
            const double f = (rate - a.requestRatePerS) / std::max(1e-12, b.requestRatePerS - a.requestRatePerS);
            return a.*field + f * (b.*field - a.*field);
        }
    return curve.back().*field;
}

// The layouts of one GPU: TP and PP sizes in powers of two, each acceptable precision and each
// serving stack the GPU's vendor runs (TensorRT-LLM on NVIDIA only); media pipelines split their
// passes over a replica's GPUs instead, so they get one GPU per replica and the generic stack.
std::vector<Candidate> layoutsOf(const Brief &brief, const GpuSpec &gpu, int maxGpus)
{
    const Workload &w = brief.workload;
    const bool media = w.kind == WorkloadKind::MediaGeneration;
    const std::vector<Precision> precisions = searchedPrecisions(brief);
    std::vector<ServingStack> stacks{ServingStack::Vllm, ServingStack::Sglang};
    if (gpu.vendor == "nvidia")
        stacks.push_back(ServingStack::Trtllm);
    if (media)
        stacks = {ServingStack::Generic};
    std::vector<Candidate> out;
    for (int tp = 1; tp <= (media ? 1 : 8) && tp <= maxGpus; tp *= 2) {
        // Serving engines refuse a tensor-parallel size that does not divide the attention heads.
        if (!media && w.model.attentionHeads % tp != 0)
            continue;
        for (int pp = 1; pp <= (media ? 1 : 4) && tp * pp <= maxGpus; pp *= 2)
            for (Precision p : precisions)
                for (ServingStack stack : stacks) {
                    Candidate c;
                    c.gpu = gpu.id;
                    c.tensorParallel = tp;
                    c.pipelineParallel = pp;
                    c.gpus = tp * pp;
                    c.servingStack = stack;
                    if (p != w.weightsPrecision)
                        c.weightsPrecision = p;
                    out.push_back(c);
                }
    }
    return out;
}

// The layout's figures from an evaluation of it. `sized`: the evaluation was of the deployment
// (its replicas for the peak), so its own operating point is the deployment's latency.
void describe(LayoutResult &l, const CandidateResult &r, const Brief &brief, int maxGpus, bool sized)
{
    const Workload &w = brief.workload;
    const PerformanceResult &p = r.performance;
    const bool media = p.media.has_value();
    l.gpuName = r.gpuName;
    l.fits = r.fit.fits;
    const CostOption *cheapest = r.cost.computed ? r.cost.cheapest() : nullptr;
    l.costed = cheapest != nullptr && p.computed;
    if (!l.costed) {
        const Warning *why = whyNotCosted(r);
        l.why = why ? why->message : "no price for this GPU";
        return;
    }
    l.why.clear();
    l.replicas = p.replicasForPeak.value_or(std::max(1, r.candidate.replicas()));
    l.candidate.gpus = l.candidate.gpusPerReplica() * l.replicas;
    l.withinGpuLimit = l.candidate.gpus <= maxGpus;
    l.costPerAcceptedOutput = cheapest->costPerAcceptedOutput;
    l.costPerMillionAcceptedTokens = cheapest->costPerMillionAcceptedTokens;
    l.pricingTerm = cheapest->term ? std::string(enumName(*cheapest->term)) : std::string();
    const bool hasSlo = !w.slo.empty();
    const double rateWithinSlo = hasSlo ? p.maxRequestRateWithinSloPerS.value_or(0) : p.maxRequestsPerS;
    // Open-loop traffic spreads over the replicas: a screened layout (one replica) meets the SLO
    // when some rate does and its replicas for the peak carry it; the deployment itself, when
    // simulated, at the brief's own point too. Offline and closed-loop traffic is the brief's own
    // point whatever the replicas: its verdict is that point's.
    const bool openLoop = w.traffic.mode == TrafficMode::OpenLoop;
    l.meetsSlo = !hasSlo
        || (rateWithinSlo > 0 && p.sloMetAsDeployed.value_or(true) && ((openLoop && !sized) || p.sloMet.value_or(false)));
    if (media) {
        l.latencyName = "E2E p99";
        l.p99LatencyS = p.e2e.empty ? NAN : p.e2e.p99;
        l.outputTokensPerSPerGpu = p.media->outputsPerHourPerGpu;
        return;
    }
    // An embedding's answer is its first token: its end to end is its TTFT.
    const bool embedding = w.kind == WorkloadKind::Embedding;
    l.latencyName = embedding ? "E2E p99" : "TTFT p99";
    const double rate = openLoop ? w.traffic.requestRatePerS.value_or(0) : 0;
    if (sized || rate <= 0 || p.loadCurve.empty()) {
        l.p99LatencyS = p.ttft.empty ? NAN : p.ttft.p99;
    } else {
        l.p99LatencyS = atRate(p.loadCurve, rate / l.replicas, &LoadPoint::ttftP99S);
    }
    // Interactivity and throughput per GPU at the highest rate within the SLO (capacity without);
    // embeddings turn out no tokens: theirs is the prompts' tokens.
    if (embedding) {
        l.outputTokensPerSPerGpu = rateWithinSlo * w.inputTokens / std::max(1, r.candidate.gpus);
        return;
    }
    // The load curve is the candidate's as evaluated (all its replicas): read at its own rate.
    const double tpot = atRate(p.loadCurve, rateWithinSlo, &LoadPoint::tpotP50S);
    l.tokensPerSPerUser = tpot > 0 ? 1.0 / tpot : 0;
    const double tokens = hasSlo ? p.outputTokensPerSWithinSlo.value_or(0) : p.maxOutputTokensPerS;
    l.outputTokensPerSPerGpu = tokens / std::max(1, r.candidate.gpus);
}

// Pareto flags and the cheapest layout of each GPU, over the costed layouts within the limit.
// `fullOnly`: each GPU's cheapest is taken among the layouts evaluated in full (once the search
// has confirmed some), so that it does not rest on screening figures.
void markFronts(std::vector<LayoutResult> &layouts, bool fullOnly)
{
    const auto eligible = [](const LayoutResult &l) { return l.costed && l.withinGpuLimit; };
    for (LayoutResult &l : layouts) {
        l.costFront = l.throughputFront = l.cheapestOfGpu = false;
        if (!eligible(l))
            continue;
        const bool timed = std::isfinite(l.p99LatencyS);
        l.costFront = timed;
        l.throughputFront = l.tokensPerSPerUser > 0;
        for (const LayoutResult &o : layouts) {
            if (&o == &l || !eligible(o))
                continue;
            if (timed && std::isfinite(o.p99LatencyS) && o.costPerAcceptedOutput <= l.costPerAcceptedOutput
                && o.p99LatencyS <= l.p99LatencyS
                && (o.costPerAcceptedOutput < l.costPerAcceptedOutput || o.p99LatencyS < l.p99LatencyS))
                l.costFront = false;
            if (o.tokensPerSPerUser > 0 && o.outputTokensPerSPerGpu >= l.outputTokensPerSPerGpu
                && o.tokensPerSPerUser >= l.tokensPerSPerUser
                && (o.outputTokensPerSPerGpu > l.outputTokensPerSPerGpu || o.tokensPerSPerUser > l.tokensPerSPerUser))
                l.throughputFront = false;
        }
    }
    // Each GPU's cheapest within the SLO; costs within a thousandth of it are a tie (the same GPUs
    // at the same price, differing by rounding), which the lower latency breaks, then the order.
    std::map<std::string, std::vector<LayoutResult *>> byGpu;
    for (LayoutResult &l : layouts)
        if (eligible(l) && l.meetsSlo && (l.full || !fullOnly))
            byGpu[l.candidate.gpu].push_back(&l);
    for (auto &[gpu, list] : byGpu) {
        double least = INFINITY;
        for (const LayoutResult *l : list)
            least = std::min(least, l->costPerAcceptedOutput);
        LayoutResult *best = nullptr;
        for (LayoutResult *l : list)
            if (l->costPerAcceptedOutput <= least * 1.001
                && (!best || (std::isfinite(l->p99LatencyS) && !(l->p99LatencyS >= best->p99LatencyS))))
                best = l;
        if (best)
            best->cheapestOfGpu = true;
    }
}

// Each GPU's few cheapest screened layouts within the SLO: confirmed whatever else is searched,
// so that a GPU's choice does not depend on the other GPUs ticked.
std::vector<std::size_t> cheapestScreened(const std::vector<LayoutResult> &layouts, std::size_t perGpu)
{
    std::map<std::string, std::vector<std::size_t>> byGpu;
    for (std::size_t i = 0; i < layouts.size(); ++i) {
        const LayoutResult &l = layouts[i];
        if (l.costed && l.withinGpuLimit && l.meetsSlo)
            byGpu[l.candidate.gpu].push_back(i);
    }
    std::vector<std::size_t> out;
    for (auto &[gpu, list] : byGpu) {
        std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
            return layouts[a].costPerAcceptedOutput < layouts[b].costPerAcceptedOutput;
        });
        out.insert(out.end(), list.begin(), list.begin() + std::ptrdiff_t(std::min(perGpu, list.size())));
    }
    return out;
}

// The layouts on their own GPU's fronts (or its cheapest): which to confirm does not depend on
// the other GPUs searched (issue 39: an L40S layout was confirmed at 4 replicas when searched
// alone and left at its screened 3 beside an H100). A layout on the fronts of all the GPUs is on
// its own GPU's, so these include every layout the fronts drawn show.
std::vector<std::size_t> ownFronts(const std::vector<LayoutResult> &layouts, bool fullOnly)
{
    std::map<std::string, std::vector<std::size_t>> byGpu;
    for (std::size_t i = 0; i < layouts.size(); ++i)
        byGpu[layouts[i].candidate.gpu].push_back(i);
    std::vector<std::size_t> out;
    for (const auto &[gpu, list] : byGpu) {
        std::vector<LayoutResult> own;
        for (std::size_t i : list)
            own.push_back(layouts[i]);
        markFronts(own, fullOnly);
        for (std::size_t k = 0; k < own.size(); ++k)
            if (own[k].costFront || own[k].throughputFront || own[k].cheapestOfGpu)
                out.push_back(list[k]);
    }
    return out;
}

} // namespace

std::optional<SearchResult> searchLayouts(const Brief &brief, const Catalog &catalog, const SearchOptions &options,
                                          std::string *why)
{
    const Workload &w = brief.workload;
    if (!isInference(w.kind) && w.kind != WorkloadKind::MediaGeneration) {
        if (why)
            *why = "the layout search covers inference and media generation; a " + std::string(enumName(w.kind))
                + " brief's layouts are compared as candidates";
        return std::nullopt;
    }
    std::vector<const GpuSpec *> gpus;
    if (options.gpus.empty()) {
        for (const GpuSpec &g : catalog.gpus())
            gpus.push_back(&g);
    } else {
        for (const std::string &id : options.gpus) {
            const GpuSpec *g = catalog.gpu(id);
            if (g && std::find(gpus.begin(), gpus.end(), g) != gpus.end())
                continue;  // named twice: searched once
            if (!g) {
                if (why)
                    *why = "\"" + id + "\" is not in the GPU catalog (gpuwb catalog gpus lists the ids)";
                return std::nullopt;
            }
            gpus.push_back(g);
        }
    }
    SearchResult result;
    for (const GpuSpec *g : gpus)
        for (const Candidate &c : layoutsOf(brief, *g, options.maxGpus)) {
            LayoutResult l;
            l.candidate = c;
            l.gpuName = g->name;
            result.layouts.push_back(l);
        }
    const bool endToEnd = w.kind == WorkloadKind::MediaGeneration || w.kind == WorkloadKind::Embedding;
    result.latencyName = endToEnd ? "E2E p99" : "TTFT p99";
    result.sloLatencyS = endToEnd && w.slo.e2eP99S ? w.slo.e2eP99S : w.slo.ttftP99S;

    const std::string today = options.today.empty() ? todayIso() : options.today;
    std::atomic<std::size_t> finished{0};
    std::atomic<std::size_t> total{result.layouts.size()};
    const auto tick = [&] {
        const std::size_t done = ++finished;
        if (options.progress)
            options.progress(done, total.load());
    };

    // Screening: every layout, one replica, the quick budget.
    const bool media = w.kind == WorkloadKind::MediaGeneration;
    EvaluateOptions quick;
    quick.today = today;
    quick.stop = options.stop;
    // A media queue is cheap to simulate in full, and its replica count depends on the run's
    // length: screened with the full budget, every layout is sized alike.
    quick.preview = !media;
    parallelFor(result.layouts.size(), [&](std::size_t i) {
        LayoutResult &l = result.layouts[i];
        const CandidateResult r = evaluateCandidate(brief, l.candidate, catalog, quick, today);
        describe(l, r, brief, options.maxGpus, false);
        l.evaluated = true;
        // A media queue is cheap to simulate: its latency is taken on the deployment at once.
        if (media && l.costed && l.withinGpuLimit && l.replicas > 1)
            describe(l, evaluateCandidate(brief, l.candidate, catalog, quick, today), brief, options.maxGpus, true);
        l.full = media;  // the full budget, on the deployment: nothing left to confirm
        tick();
    }, options.stop);
    markFronts(result.layouts, false);

    // Confirmation: the chosen layouts as deployed (their replicas for the peak), the full budget.
    // The full figures can move a layout off a front or below another GPU's price, making a
    // screened layout the choice: those are confirmed in turn, until every choice is (a few
    // rounds; the last says so if one is left). The brief's own layouts are confirmed too, so
    // that a row which is already a candidate reads what its Compare & decide row does (issue 39:
    // the sample's H100 TP2 vLLM screened at 5 replicas, deployed at 4, and was never confirmed).
    const auto briefHas = [&](const Candidate &c) {
        return std::any_of(brief.candidates.begin(), brief.candidates.end(), [&](const Candidate &b) {
            return b.gpu == c.gpu && b.tensorParallel == c.tensorParallel && b.pipelineParallel == c.pipelineParallel
                && b.servingStack == c.servingStack
                && b.weightsPrecision.value_or(w.weightsPrecision) == c.weightsPrecision.value_or(w.weightsPrecision);
        });
    };
    for (int round = 0; options.confirm && round < 4 && !options.stop.stop_requested(); ++round) {
        std::vector<std::size_t> chosen;
        if (round == 0) {
            for (std::size_t i : cheapestScreened(result.layouts, 3))
                if (!result.layouts[i].full)
                    chosen.push_back(i);
            for (std::size_t i = 0; i < result.layouts.size(); ++i)
                if (const LayoutResult &l = result.layouts[i]; !l.full && l.fits && briefHas(l.candidate)
                    && std::find(chosen.begin(), chosen.end(), i) == chosen.end())
                    chosen.push_back(i);
        }
        for (std::size_t i : ownFronts(result.layouts, round > 0))
            if (!result.layouts[i].full && std::find(chosen.begin(), chosen.end(), i) == chosen.end())
                chosen.push_back(i);
        if (chosen.empty())
            break;
        total += chosen.size();
        EvaluateOptions full = quick;
        full.preview = false;
        parallelFor(chosen.size(), [&](std::size_t k) {
            LayoutResult &l = result.layouts[chosen[k]];
            // At the screened count first; where the full run sizes the peak to other replicas,
            // at those, as evaluate() deploys a candidate: the row's latency is then of the GPUs
            // its cost pays for (the H100 TP2 row read 4 replicas with 5 replicas' TTFT).
            CandidateResult r = evaluateCandidate(brief, l.candidate, catalog, full, today);
            for (int again = 0; again < 3 && r.performance.computed; ++again) {
                const CostOption *priced = r.cost.cheapest();
                const int replicas = priced && !priced->perRun && priced->replicas > 0 ? priced->replicas
                                                                                        : r.performance.replicasForPeak.value_or(0);
                if (replicas <= 0 || replicas == r.candidate.replicas())
                    break;
                Candidate deployed = l.candidate;
                deployed.gpus = replicas * deployed.gpusPerReplica();
                r = evaluateCandidate(brief, deployed, catalog, full, today);
            }
            LayoutResult confirmed = l;
            describe(confirmed, r, brief, options.maxGpus, true);
            confirmed.full = true;
            l = confirmed;
            tick();
        }, options.stop);
        markFronts(result.layouts, true);
    }
    result.cancelled = options.stop.stop_requested();
    const auto unconfirmed = std::count_if(result.layouts.begin(), result.layouts.end(), [](const LayoutResult &l) {
        return !l.full && (l.costFront || l.throughputFront || l.cheapestOfGpu);
    });
    if (options.confirm && unconfirmed > 0 && !result.cancelled)
        result.warnings.push_back(makeMessage("search-unconfirmed", "",
                                              WB_MESSAGE("Messages", "{count} of the layouts chosen rest on the screening simulations "
                                                         "only (marked quick)"),
                                              {{"count", std::int64_t(unconfirmed)}}));
    if (w.acceptablePrecisions.empty()) {
        std::string names;
        for (Precision p : searchedPrecisions(brief))
            names += (names.empty() ? "" : ", ") + std::string(enumName(p));
        result.warnings.push_back(makeMessage("search-one-precision", "/workload/acceptable_precisions",
                                              WB_MESSAGE("Messages", "the brief lists no acceptable_precisions, so only its weights "
                                                         "precision and its candidates' own were searched ({precisions})"),
                                              {{"precisions", names}}));
    }
    return result;
}

std::vector<Precision> searchedPrecisions(const Brief &brief)
{
    const Workload &w = brief.workload;
    if (!w.acceptablePrecisions.empty())
        return w.acceptablePrecisions;
    std::vector<Precision> out{w.weightsPrecision};
    for (const Candidate &c : brief.candidates)
        if (c.weightsPrecision && std::find(out.begin(), out.end(), *c.weightsPrecision) == out.end())
            out.push_back(*c.weightsPrecision);
    return out;
}

std::string layoutLabel(const LayoutResult &l, const Brief &brief)
{
    const Candidate &c = l.candidate;
    return fmt::format("{} TP{}{} {} {}", c.gpu, c.tensorParallel,
                       c.pipelineParallel > 1 ? fmt::format(" PP{}", c.pipelineParallel) : "",
                       enumName(c.weightsPrecision.value_or(brief.workload.weightsPrecision)), stackWords(c.servingStack));
}

std::vector<Candidate> layoutCandidates(const Brief &brief, const std::vector<LayoutResult> &layouts)
{
    std::vector<Candidate> out;
    for (const LayoutResult &l : layouts) {
        Candidate c = l.candidate;
        if (c.weightsPrecision && *c.weightsPrecision == brief.workload.weightsPrecision)
            c.weightsPrecision.reset();
        out.push_back(c);
    }
    return out;
}

} // namespace wb
