#include "cost/cost.h"

#include <fmt/format.h>

#include "catalog/modelarch.h"
#include "cost/pricing.h"
#include "cost/gpuroute.h"
#include "cost/routes.h"
#include "cost/trainingcost.h"
#include "core/format.h"
#include "core/limits.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

using namespace detail;

namespace detail {

double outputTokensPerRequest(const Workload &w)
{
    return w.kind == WorkloadKind::Embedding ? 0 : w.outputTokens;
}

// Tokens an accepted output is counted in: output tokens, or input tokens for embeddings.
double tokensPerAcceptedOutput(const Workload &w)
{
    return w.kind == WorkloadKind::Embedding ? w.inputTokens : w.outputTokens;
}

double outputBytes(const Brief &brief)
{
    const auto &media = brief.workload.media;
    if (!media)
        return 0;
    const Assumptions &a = brief.assumptions;
    const double pixels = double(media->width) * media->height;
    return media->model.video ? pixels * media->frames * a.value(Assumption::VideoBytesPerPixelFrame)
                              : pixels * a.value(Assumption::ImageBytesPerPixel);
}

double salaryPerMonth(const Assumptions &a, Assumption fte)
{
    return a.value(fte) * a.value(Assumption::EngineerUsdPerYear) / 12;
}

// Adds a line rounded to cents.
void addLine(std::vector<CostLine> &lines, const char *name, double usd, std::string basis)
{
    lines.push_back({name, roundCents(usd), std::move(basis)});
}

static double sumLines(const std::vector<CostLine> &lines)
{
    // In whole cents, so that the total is exactly the sum of the lines as displayed; beyond
    // what cents can count in 64 bits (no input within core/limits.h gets there) in dollars.
    long double cents = 0;
    for (const CostLine &l : lines)
        cents += std::round(static_cast<long double>(l.usdPerMonth) * 100);
    return double(cents / 100);
}

void agePrice(CostOption &o, const Brief &brief, const GpuSpec &gpu, const GpuPrice &price, const std::string &today,
              std::vector<Warning> &warnings)
{
    o.ageDays = daysBetween(price.observed, today).value_or(0);
    o.stale = o.ageDays > brief.assumptions.value(Assumption::PriceStaleDays);
    if (o.stale)
        warnings.push_back(makeMessage("stale-price", "/cost/prices",
                                       WB_MESSAGE("Messages", "the {term} price of {gpu} was observed {age_days} days ago ({observed}, "
                                                  "{provider}); check it before relying on it"),
                                       {{"term", std::string(termWords(price.term))}, {"gpu", gpu.name},
                                        {"age_days", std::int64_t(o.ageDays)}, {"observed", price.observed},
                                        {"provider", price.provider}}));
}

void finishOption(CostOption &o, double accepted, double tokensPerOutput)
{
    o.totalUsdPerMonth = sumLines(o.lines);
    o.acceptedOutputsPerMonth = accepted;
    o.acceptedTokensPerMonth = accepted * tokensPerOutput;
    o.costPerAcceptedOutput = accepted > 0 ? o.totalUsdPerMonth / accepted : 0;
    o.costPerMillionAcceptedTokens = o.acceptedTokensPerMonth > 0 ? o.totalUsdPerMonth / o.acceptedTokensPerMonth * 1e6 : 0;
}

} // namespace detail

namespace {

// Monthly API cost at a volume, for break-evens: a fixed part and a per-request part.
struct LinearCost
{
    double fixed = 0, perRequest = 0;
    double at(double v) const { return fixed + perRequest * v; }
};

LinearCost apiCurve(const Brief &brief, const ApiPrice &price)
{
    const Assumptions &a = brief.assumptions;
    return {salaryPerMonth(a, Assumption::PlatformFteApi), usdPerApiRequest(brief, price) * (1 + a.value(Assumption::ObservabilityFraction))};
}

// The smallest monthly volume from which the GPU route costs no more than the API. The GPU cost
// is a step function of volume (whole replicas) and the API's a line. Each replica adds a nearly
// constant cost (only purchased power varies with load), so the crossing replica count is
// estimated from one and two replicas, checked around that estimate, and the volume within that
// replica step found by bisection.
std::optional<double> breakEvenVsApi(const GpuRoute &route, const LinearCost &api)
{
    const double perReplica = route.replicaRatePerS / route.peakToAverage * activeHoursPerMonth(*route.brief) * kSecondsPerHour;
    if (perReplica <= 0 || api.perRequest <= 0)
        return std::nullopt;
    const auto self = [&](double v, int n) { return route.at(v, n).totalUsdPerMonth; };
    const auto diffAtStep = [&](int n) { return self(n * perReplica, n) - api.at(n * perReplica); };
    const double d1 = diffAtStep(1), d2 = diffAtStep(2);
    const double slope = d2 - d1;  // change of (GPU - API) cost per extra fully used replica
    int first = 1;
    if (d1 > 0) {
        if (slope >= 0)
            return std::nullopt;  // each replica adds more than the API would charge for its requests
        first = std::max(1, int(std::floor(1 + d1 / -slope)) - 3);
    }
    for (int n = first; n < first + 200 && n <= 1000000; ++n) {
        if (diffAtStep(n) > 0)
            continue;
        const double lo = std::max((n - 1) * perReplica, 1.0);
        const auto diff = [&](double v) { return self(v, n) - api.at(v); };
        if (diff(lo) <= 0)
            return lo;
        double a = lo, b = n * perReplica;  // diff(a) > 0 >= diff(b)
        for (int i = 0; i < 50; ++i) {
            const double m = 0.5 * (a + b);
            (diff(m) > 0 ? a : b) = m;
        }
        return b;
    }
    return std::nullopt;
}

// The hybrid of a GPU option and the model API: the fewest replicas that carry the steady base
// rate hold it, with every fixed cost a running service has, and the API takes the requests that
// bursts add above their capacity. The overflow follows the traffic's own shape: during a burst
// of multiplier x base for duration_s every period_s, base replicas serving c requests/s each
// leave (multiplier x base - replicas x c) requests/s to the API, so a share
// overflow_rate x duration / period / average_rate of all requests (a brief's own monthly volume
// is split in that proportion).
std::optional<CostOption> hybridOf(const GpuRoute &route, const ApiPrice &api, double requests, const CostOption &gpuOnly,
                                   const std::string &today)
{
    const Brief &brief = *route.brief;
    const Workload &w = brief.workload;
    const Traffic &t = w.traffic;
    if (!t.requestRatePerS || *t.requestRatePerS <= 0 || !t.burstMultiplier || t.burstPeriodS <= 0 || route.replicaRatePerS <= 0)
        return std::nullopt;
    const double rate = *t.requestRatePerS, burstShare = t.burstDurationS / t.burstPeriodS;
    // An autoscaler's minimum runs whatever the load: the base is at least that.
    const BillingInputs &billing = brief.cost.billing;
    const int minimum = billing.model == Billing::Autoscaled ? billing.minReplicas : 1;
    const int base = std::max(minimum, int(std::ceil(rate / route.replicaRatePerS - 1e-9)));
    const double overflowRate = std::max(0.0, rate * *t.burstMultiplier - base * route.replicaRatePerS);
    const double average = rate * (1 + (*t.burstMultiplier - 1) * burstShare);
    const double overflow = requests * overflowRate * burstShare / average;
    if (base >= gpuOnly.replicas || overflow <= 0)
        return std::nullopt;  // the base already needs every replica the peak does
    CostOption h = route.at(requests - overflow, base);
    for (CostLine &l : h.lines)
        if (l.name == "idle_capacity")
            l.basis = fmt::format("billed GPU time with no work on the {} base replicas, sized for the steady rate (the API "
                                  "takes the bursts)",
                                  base);
    const CostOption viaApi = apiOption(brief, api, overflow, today);
    for (const CostLine &l : viaApi.lines)
        h.lines.push_back({l.name.rfind("api_", 0) == 0 ? l.name : "api_" + l.name, l.usdPerMonth,
                           fmt::format("the API for the {:.0f} requests a month bursts add above {} base replicas: ", overflow, base)
                               + l.basis});
    CostOption::HybridSplit split;
    split.baseReplicas = base;
    split.overflowRequestsPerMonth = overflow;
    split.overflowInputTokensPerMonth = overflow * w.inputTokens;
    split.overflowOutputTokensPerMonth = overflow * outputTokensPerRequest(w);
    split.gpuUsdPerMonth = h.totalUsdPerMonth;
    split.apiUsdPerMonth = viaApi.totalUsdPerMonth;
    h.hybrid = split;
    h.requestsPerMonth = requests;
    h.ageDays = gpuOnly.ageDays;
    h.stale = gpuOnly.stale || viaApi.stale;
    finishOption(h, h.acceptedOutputsPerMonth + viaApi.acceptedOutputsPerMonth, tokensPerAcceptedOutput(w));
    return h;
}

} // namespace

namespace detail {

Demand demandOf(const Brief &brief)
{
    Demand d;
    const Traffic &t = brief.workload.traffic;
    const double hours = activeHoursPerMonth(brief);
    if (t.mode == TrafficMode::OpenLoop && t.requestRatePerS) {
        // Steady plus bursts: the base rate, and multiplier x base for duration of every period.
        const double burstShare = t.burstMultiplier && t.burstPeriodS > 0 ? t.burstDurationS / t.burstPeriodS : 0;
        const double average = *t.requestRatePerS * (1 + (t.burstMultiplier.value_or(1) - 1) * burstShare);
        d.requestsPerMonth = average * hours * kSecondsPerHour;
        d.peakToAverage = average > 0 ? std::max(1.0, t.peakRate() / average) : 1;
    }
    if (brief.cost.requestsPerMonth) {
        d.requestsPerMonth = brief.cost.requestsPerMonth;
        d.fromBrief = true;
    }
    return d;
}

double activeHoursPerMonth(const Brief &brief)
{
    const double month = brief.assumptions.value(Assumption::HoursPerMonth);
    const BillingInputs &b = brief.cost.billing;
    return b.model == Billing::Scheduled ? std::min(month, b.hoursPerDay * b.daysPerMonth) : month;
}

double trainingTokensBilled(const TrainingSpec &t)
{
    const double tokens = t.tokens.value_or(0);
    const double evaluations = t.evalIntervalTokens && *t.evalIntervalTokens > 0 ? std::floor(tokens / *t.evalIntervalTokens) : 0;
    return tokens + evaluations * t.evalTokens.value_or(0);
}

double usdPerApiRequest(const Brief &brief, const ApiPrice &price)
{
    const Workload &w = brief.workload;
    switch (price.unit) {
    case ApiUnit::Tokens:
        return (w.inputTokens * price.usdPerMillionInput + outputTokensPerRequest(w) * price.usdPerMillionOutput) / 1e6;
    case ApiUnit::Image:
        return price.usdPerImage;
    case ApiUnit::Megapixel:
        return w.media ? price.usdPerMegapixel * w.media->width * w.media->height / 1e6 : 0;
    case ApiUnit::VideoSecond:
        return w.media && w.media->model.fps > 0 ? price.usdPerVideoSecond * w.media->frames / w.media->model.fps : 0;
    case ApiUnit::TrainingTokens:
        return w.training ? price.usdPerMillionTrainingTokens * trainingTokensBilled(*w.training) / 1e6 : 0;
    }
    return 0;
}

CostOption apiOption(const Brief &brief, const ApiPrice &price, double requests, const std::string &today)
{
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    CostOption o;
    o.api = true;
    o.perRun = price.unit == ApiUnit::TrainingTokens;
    o.apiRates = apiRateFields(price);
    o.provider = price.provider;
    o.observed = price.observed;
    o.source = price.source;
    o.note = price.note;
    o.origin = price.origin;
    o.ageDays = daysBetween(price.observed, today).value_or(0);
    o.stale = o.ageDays > a.value(Assumption::PriceStaleDays);
    o.requestsPerMonth = requests;
    o.utilization = 1;  // billed per use: no idle capacity
    const double perRequest = usdPerApiRequest(brief, price);
    const double usage = requests * perRequest;
    const double f = price.failureRate, q = w.acceptance.qualityPassRate;
    const double wasted = 1 - (1 - f) * q;
    // What one request is and its price: its tokens, its image, its clip's seconds, or a run's
    // tokens. The usage line counts the accepted ones and the waste line the rest, so that each
    // line's count times the price is its amount (issue 39: "32872500 requests x $0.002024" once
    // stood beside the amount for the 31.07M accepted).
    std::string what, each;
    switch (price.unit) {
    case ApiUnit::Tokens:
        what = "requests";
        each = fmt::format("${:.6f} each ({})", perRequest, apiRateWords(price));
        break;
    case ApiUnit::Image:
        what = "images";
        each = fmt::format("${:.4f} each", perRequest);
        break;
    case ApiUnit::Megapixel:
        what = fmt::format("images of {:.2f} megapixels", w.media ? w.media->width * double(w.media->height) / 1e6 : 0.0);
        each = fmt::format("${:.6f} each ({})", perRequest, apiRateWords(price));
        break;
    case ApiUnit::VideoSecond:
        what = fmt::format("clips of {:.2f} s ({} frames at {:g} per second)",
                           w.media && w.media->model.fps > 0 ? w.media->frames / w.media->model.fps : 0.0,
                           w.media ? w.media->frames : 0, w.media ? w.media->model.fps : 0.0);
        each = fmt::format("${:.4f} each ({})", perRequest, apiRateWords(price));
        break;
    case ApiUnit::TrainingTokens:
        // Billed on every token the job processes: the training tokens and the evaluations' (Together
        // AI's formula: n_epochs x training tokens + n_evals x validation tokens,
        // https://docs.together.ai/docs/fine-tuning-pricing).
        what = fmt::format("runs of {} tokens, evaluations included,",
                           readableCount(w.training ? trainingTokensBilled(*w.training) : 0));
        each = fmt::format("{} = ${} each", apiRateWords(price), usdAmount(perRequest));
        break;
    }
    const auto count = [&](double share) {
        return o.perRun ? fmt::format("{:.3g}", requests * share) : groupedInteger(std::llround(requests * share));
    };
    addLine(o.lines, "api_usage", usage * (1 - wasted),
            fmt::format("{} {} accepted ({:.1f}% of {}) x {}", count(1 - wasted), what, 100 * (1 - wasted), count(1), each));
    // Media's waste is named as the GPU options' is (one legend entry, one colour on a chart).
    addLine(o.lines, w.media ? "failed_renders" : "retry_waste", usage * wasted,
            o.perRun ? fmt::format("{} {} the service fails ({:.1f}%) or whose tuned model fails its evaluation ({:.1f}%), "
                                   "run again, x {}",
                                   count(wasted), what, 100 * f, 100 * (1 - q), each)
                     : fmt::format("{} {} the API fails ({:.1f}%) or the quality filter rejects ({:.1f}%), x {}", count(wasted),
                                   what, 100 * f, 100 * (1 - q), each));
    addLine(o.lines, "observability", usage * a.value(Assumption::ObservabilityFraction),
            fmt::format("{:.0f}% of the API spend", 100 * a.value(Assumption::ObservabilityFraction)));
    // A managed run has no cluster to watch; the data and evaluation work is the team's on every route.
    if (o.perRun)
        addLine(o.lines, "platform_labour", 0, "the service runs the job: no cluster to watch (the data and evaluation work "
                                               "is the team's on every route, and priced on none)");
    else
        addLine(o.lines, "platform_labour", salaryPerMonth(a, Assumption::PlatformFteApi),
                fmt::format("{:.2f} engineers x ${:.0f} a year", a.value(Assumption::PlatformFteApi), a.value(Assumption::EngineerUsdPerYear)));
    finishOption(o, requests * (1 - f) * q, o.perRun ? 0 : tokensPerAcceptedOutput(w));
    return o;
}

bool apiUsableFor(const Brief &brief)
{
    return brief.cost.decision.apiAllowed && !brief.cost.decision.needsHardwareControl;
}

// Monthly volumes for the break-even chart: 41 points, a hundredth to a hundred times `center`.
std::vector<double> volumeSamples(double center)
{
    std::vector<double> out;
    for (int i = -20; i <= 20; ++i)
        out.push_back(center * std::pow(10.0, i / 10.0));
    return out;
}

} // namespace detail

double roundCents(double usd)
{
    // std::round, not llround: 1e300 dollars overflowed a long long into -9.2e16.
    return std::abs(usd) < 1e13 ? std::round(usd * 100) / 100 : usd;
}

const CostOption *CandidateCost::cheapest() const
{
    // A current price beats any stale one; among equals, the lower cost per accepted output.
    const CostOption *best = nullptr;
    for (const CostOption &o : options)
        if (!best || (best->stale && !o.stale)
            || (best->stale == o.stale && o.costPerAcceptedOutput < best->costPerAcceptedOutput))
            best = &o;
    return best;
}

bool coldStartMissesSlo(const Brief &brief, const CostOption &o)
{
    const std::optional<double> &ttft = brief.workload.slo.ttftP99S;
    return o.coldStartShare && *o.coldStartShare >= kColdStartWarnShare && ttft && o.coldStartS > *ttft;
}

Message coldStartMessage(const Brief &brief, const CostOption &o)
{
    const std::optional<double> &ttft = brief.workload.slo.ttftP99S;
    const double share = o.coldStartShare.value_or(0), startS = o.coldStartS, bursts = std::min(o.coldStartFromBursts, share);
    return makeMessage(
        "cold-start", "/cost/billing",
        ttft && startS > *ttft
            ? WB_MESSAGE("Messages", "as priced on {gpus} GPUs ({replicas} replicas), under {billing} billing {share_percent:.1f}% of "
                         "requests find no replica ready for them ({zero_percent:.1f}% find the service scaled to zero, "
                         "{burst_percent:.1f}% arrive as a burst outgrows the replicas running) and wait up to "
                         "{start_s:.0f} s for one to start, which the simulated latencies do not include: the p99 time to "
                         "first token is then over the brief's {ttft_p99_s:g} s target; keep more replicas running (a "
                         "minimum, or always on at the peak's capacity), send bursts to an API, or commit to capacity")
            : WB_MESSAGE("Messages", "as priced on {gpus} GPUs ({replicas} replicas), under {billing} billing {share_percent:.1f}% of "
                         "requests find no replica ready for them ({zero_percent:.1f}% find the service scaled to zero, "
                         "{burst_percent:.1f}% arrive as a burst outgrows the replicas running) and wait up to "
                         "{start_s:.0f} s for one to start, which the simulated latencies do not include"),
        {{"gpus", std::int64_t(o.gpus)}, {"replicas", std::int64_t(o.replicas)},
         {"billing", std::string(enumName(brief.cost.billing.model))}, {"share_percent", 100 * share},
         {"zero_percent", 100 * (share - bursts)}, {"burst_percent", 100 * bursts}, {"start_s", startS},
         {"ttft_p99_s", ttft.value_or(0)}});
}

double modelWeightsGb(const Brief &brief)
{
    if (const auto &media = brief.workload.media)
        return media->pipelineBytes(brief.workload.weightsPrecision) / 1e9;
    return countParameters(brief.workload.model).total() *
           weightBitsPerParameter(brief.workload.weightsPrecision, brief.assumptions.flag(Assumption::Nf4DoubleQuant)) / 8 / 1e9;
}

double replicaStartS(const Brief &brief)
{
    const Assumptions &a = brief.assumptions;
    return modelWeightsGb(brief) / a.value(Assumption::ModelLoadGbPerS) + a.value(Assumption::ReplicaStartS);
}

CandidateCost costCandidate(const Brief &brief, const Candidate &cand, const GpuSpec &gpu, const FitResult &fit,
                            const PerformanceResult &perf, const Catalog &catalog, const std::string &today)
{
    CandidateCost c;
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    if (perf.training)
        return costTrainingRun(brief, cand, gpu, *perf.training, catalog, today);
    if (isTraining(w.kind) || isAdapter(w.kind)) {
        c.warnings.push_back(makeMessage("cost-not-computed", "",
                                         WB_MESSAGE("Messages", "the training step is not timed (see the warnings above), so there is "
                                                    "no run to price")));
        return c;
    }
    if (!isInference(w.kind) && !w.media) {
        c.warnings.push_back(makeMessage("cost-not-modelled", "/workload/media",
                                         WB_MESSAGE("Messages", "a media-generation brief without workload.media has nothing to price")));
        return c;
    }
    if (!fit.computed || !fit.fits || !perf.computed) {
        c.warnings.push_back(makeMessage("cost-not-computed", "",
                                         WB_MESSAGE("Messages", "without a fit and simulated performance there is no cost to price")));
        return c;
    }
    if (perf.requestRatePerReplicaPerS <= 0) {
        c.warnings.push_back(makeMessage("cost-not-computed", "/workload/slo",
                                         WB_MESSAGE("Messages", "the candidate carries no load within the SLO, so no amount of it "
                                                    "serves the brief; its cost is left empty")));
        return c;
    }

    Demand demand = demandOf(brief);
    if (!demand.requestsPerMonth) {
        // Offline or closed-loop work with no stated volume: the candidate busy all month.
        demand.requestsPerMonth = perf.requestsPerS * activeHoursPerMonth(brief) * kSecondsPerHour;
        c.warnings.push_back(makeMessage("volume-assumed", "/cost/requests_per_month",
                                         WB_MESSAGE("Messages", "the brief states no monthly volume (cost.requests_per_month), so this "
                                                    "candidate is priced busy all its active hours: {requests:.3g} requests"),
                                         {{"requests", *demand.requestsPerMonth}}));
    }

    GpuRoute route;
    route.brief = &brief;
    route.gpu = &gpu;
    route.gpusPerReplica = cand.gpusPerReplica();
    route.replicaRatePerS = perf.requestRatePerReplicaPerS;
    route.peakToAverage = demand.peakToAverage;
    route.weightsGb = modelWeightsGb(brief);
    route.meanE2eS = perf.e2e.empty ? 0 : perf.e2e.mean;
    // The performance engine's replica count for the brief's own peak (simulated within the
    // SLO) wins over the linear estimate when the volume is the brief's own.
    std::optional<int> simulated;
    if (perf.replicasForPeak && !demand.fromBrief)
        simulated = *perf.replicasForPeak;
    if (!simulated && route.replicasNeeded(*demand.requestsPerMonth) > limits::kReplicas) {
        c.warnings.push_back(makeMessage("replicas-beyond-limit", "/cost/requests_per_month",
                                         WB_MESSAGE("Messages", "{requests} requests a month in {hours} active hours would need "
                                                    "{replicas} replicas at their peak, more than the {limit} the engine "
                                                    "sizes; no cost is given"),
                                         {{"requests", readableCount(*demand.requestsPerMonth)},
                                          {"hours", readableNumber(activeHoursPerMonth(brief))},
                                          {"replicas", readableCount(route.replicasNeeded(*demand.requestsPerMonth))},
                                          {"limit", readableCount(limits::kReplicas)}}));
        return c;
    }

    // Every price for this GPU, and per term the one that counts (cost/pricing.h).
    const std::map<PricingTerm, const GpuPrice *> chosen = pricesFor(brief, catalog, gpu, today, c.warnings);
    if (chosen.empty())
        return c;
    if (auto od = chosen.find(PricingTerm::OnDemand); od != chosen.end())
        route.onDemandUsdPerGpuHour = od->second->usdPerGpuHour;

    const ApiPrice *api = apiPriceFor(brief, catalog);
    for (const auto &[term, price] : chosen) {
        route.price = price;
        CostOption o = route.at(*demand.requestsPerMonth, simulated);
        for (double v : volumeSamples(*demand.requestsPerMonth))
            if (route.replicasNeeded(v) <= limits::kReplicas)
                o.monthlyCostByVolume.emplace_back(v, route.at(v, std::nullopt).totalUsdPerMonth);
        // Spot replicas that spend much of their time restarting cannot carry the load they were
        // sized for: said from spot_restart_warn_fraction, and not priced from spot_restart_max_fraction.
        if (o.spotRestartShare && *o.spotRestartShare >= a.value(Assumption::SpotRestartWarnFraction)) {
            const bool unusable = *o.spotRestartShare >= a.value(Assumption::SpotRestartMaxFraction);
            c.warnings.push_back(makeMessage(
                unusable ? "spot-unusable" : "spot-interruptions", "/assumptions/spot_interruptions_per_gpu_month",
                unusable ? WB_MESSAGE("Messages", "{gpu}'s spot replicas ({provider}) would spend {restart_percent:.0f}% of their time "
                                      "restarting after interruptions ({interruptions:g} per GPU a month, {start_s:.0f} s a "
                                      "start): they cannot carry the load, so the option is not priced")
                         : WB_MESSAGE("Messages", "{gpu}'s spot replicas ({provider}) would spend {restart_percent:.0f}% of their time "
                                      "restarting after interruptions ({interruptions:g} per GPU a month, {start_s:.0f} s a "
                                      "start); the capacity they lose is not replaced in this price"),
                {{"gpu", gpu.name}, {"provider", price->provider}, {"restart_percent", 100 * *o.spotRestartShare},
                 {"interruptions", price->interruptionsPerGpuMonth.value_or(a.value(Assumption::SpotInterruptionsPerGpuMonth))},
                 {"start_s", route.startS()}}));
            if (unusable)
                continue;
        }
        agePrice(o, brief, gpu, *price, today, c.warnings);
        if (api)
            o.breakEvenRequestsPerMonthVsApi = breakEvenVsApi(route, apiCurve(brief, *api));
        if (route.onDemandUsdPerGpuHour && term != PricingTerm::OnDemand && term != PricingTerm::Spot) {
            // A commitment pays for every hour; on-demand capacity for the hours it is billed.
            const double committed = term == PricingTerm::Purchase ? route.ownership(1.0).total() / a.value(Assumption::HoursPerMonth)
                                                                   : price->usdPerGpuHour;
            o.breakEvenUtilizationVsOnDemand = committed / *route.onDemandUsdPerGpuHour;
        }
        // A reserved or spot price above the on-demand price the same GPU is priced at is priced
        // as given, and said (issue 39: ranked without comment): a slip in a quote, or an offer
        // that renting on demand beats with no commitment.
        if (const auto od = chosen.find(PricingTerm::OnDemand); od != chosen.end() && term != PricingTerm::OnDemand
            && term != PricingTerm::Purchase && price->usdPerGpuHour > od->second->usdPerGpuHour * (1 + 1e-9))
            c.warnings.push_back(makeMessage(
                "price-above-on-demand", "/cost/prices",
                WB_MESSAGE("Messages", "the {term} price of {gpu} ({provider}, ${usd_per_gpu_hour:.2f} per GPU-hour) is above the "
                           "on-demand price of {on_demand_provider} (${on_demand_usd_per_gpu_hour:.2f}), which needs no "
                           "commitment: check the quote"),
                {{"term", std::string(termWords(term))}, {"gpu", gpu.name}, {"provider", price->provider},
                 {"usd_per_gpu_hour", price->usdPerGpuHour}, {"on_demand_provider", od->second->provider},
                 {"on_demand_usd_per_gpu_hour", od->second->usdPerGpuHour}}));
        if (term == PricingTerm::Purchase && route.onDemandUsdPerGpuHour) {
            const GpuRoute::Ownership own = route.ownership(o.utilization);
            const double opex = own.power + own.colocation + own.support
                + salaryPerMonth(a, Assumption::OperationsFtePurchase) / std::max(1, o.gpus);
            // Renting the same GPU on demand costs its price for the hours the brief's billing bills.
            const double saved = *route.onDemandUsdPerGpuHour * a.value(Assumption::HoursPerMonth) * o.onDemandBilledShare.value_or(1) - opex;
            if (saved > 0)
                o.paybackMonths = own.capex / saved;
        }
        if (o.commitmentMonths && *o.commitmentMonths > a.value(Assumption::CommitmentMonthsWithoutCertainty)
            && brief.cost.decision.demandCertainty != Level::High)
        {
            const double upfront = price->upfrontFraction.value_or(0);
            c.warnings.push_back(makeMessage(
                "commitment-vs-certainty", "/cost/decision/demand_certainty",
                upfront > 0 ? WB_MESSAGE("Messages", "the {term} offer of {gpu} ({provider}) binds a {months:g}-month minimum "
                                         "commitment, ${committed_text} over the term for the {gpus} GPUs priced "
                                         "({upfront_percent:.0f}% up front: ${upfront_text}), while the brief's demand "
                                         "certainty is {certainty}: commitments beyond {months_without_certainty:g} months "
                                         "need demand that is certain (commitment_months_without_certainty)")
                            : WB_MESSAGE("Messages", "the {term} offer of {gpu} ({provider}) binds a {months:g}-month minimum "
                                         "commitment, ${committed_text} over the term for the {gpus} GPUs priced, while "
                                         "the brief's demand certainty is {certainty}: commitments beyond "
                                         "{months_without_certainty:g} months need demand that is certain "
                                         "(commitment_months_without_certainty)"),
                {{"term", std::string(termWords(term))}, {"gpu", gpu.name}, {"provider", price->provider},
                 {"months", *o.commitmentMonths}, {"committed_usd", o.committedUsd}, {"committed_text", usdAmount(o.committedUsd)},
                 {"gpus", std::int64_t(o.gpus)}, {"upfront_percent", 100 * upfront},
                 {"upfront_text", usdAmount(o.committedUsd * upfront)},
                 {"certainty", std::string(enumName(brief.cost.decision.demandCertainty))},
                 {"months_without_certainty", a.value(Assumption::CommitmentMonthsWithoutCertainty)}}));
        }
        if (o.coldStartShare && *o.coldStartShare >= kColdStartWarnShare
            && std::none_of(c.warnings.begin(), c.warnings.end(), [](const Warning &x) { return x.code == "cold-start"; }))
            c.warnings.push_back(coldStartMessage(brief, o));
        if (api && apiUsableFor(brief) && demand.peakToAverage >= a.value(Assumption::HybridMinPeakToAverage))
            if (std::optional<CostOption> h = hybridOf(route, *api, *demand.requestsPerMonth, o, today))
                c.hybrids.push_back(std::move(*h));
        c.options.push_back(std::move(o));
    }
    c.computed = true;
    return c;
}

std::string acceptedUnit(const Workload &w)
{
    return w.media ? (w.media->model.video ? WB_WORD("Message words", "accepted clip") : WB_WORD("Message words", "accepted image"))
           : isTraining(w.kind) || isAdapter(w.kind) ? WB_WORD("Message words", "accepted run")
           : w.kind == WorkloadKind::Evaluation      ? WB_WORD("Message words", "evaluated record")
                                                     : WB_WORD("Message words", "accepted output");
}

std::string acceptedUnits(const Workload &w)
{
    return w.media ? (w.media->model.video ? WB_WORD("Message words", "accepted clips") : WB_WORD("Message words", "accepted images"))
           : isTraining(w.kind) || isAdapter(w.kind) ? WB_WORD("Message words", "accepted runs")
           : w.kind == WorkloadKind::Evaluation      ? WB_WORD("Message words", "evaluated records")
                                                     : WB_WORD("Message words", "accepted outputs");
}

} // namespace wb
