#include "cost/cost.h"

#include <fmt/format.h>

#include "evaluate/evaluate.h"
#include "catalog/modelarch.h"
#include "cost/pricing.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

namespace {

constexpr double kSecondsPerHour = 3600;

// The volume and shape of demand the brief implies, independent of any candidate.
struct Demand
{
    std::optional<double> requestsPerMonth;  // empty: the brief states none (offline/closed loop)
    double peakToAverage = 1;                // peak rate / average rate
    bool fromBrief = false;                  // requests_per_month given explicitly
};

Demand demandOf(const Brief &brief)
{
    Demand d;
    const Traffic &t = brief.workload.traffic;
    const double hours = brief.assumptions.value(Assumption::HoursPerMonth);
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

double outputTokensPerRequest(const Workload &w)
{
    return w.kind == WorkloadKind::Embedding ? 0 : w.outputTokens;
}

// Tokens an accepted output is counted in: output tokens, or input tokens for embeddings.
double tokensPerAcceptedOutput(const Workload &w)
{
    return w.kind == WorkloadKind::Embedding ? w.inputTokens : w.outputTokens;
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

double sumLines(const std::vector<CostLine> &lines)
{
    // In whole cents, so that the total is exactly the sum of the lines as displayed.
    long long cents = 0;
    for (const CostLine &l : lines)
        cents += std::llround(l.usdPerMonth * 100);
    return double(cents) / 100;
}

void finishOption(CostOption &o, double accepted, double tokensPerOutput)
{
    o.totalUsdPerMonth = sumLines(o.lines);
    o.acceptedOutputsPerMonth = accepted;
    o.acceptedTokensPerMonth = accepted * tokensPerOutput;
    o.costPerAcceptedOutput = accepted > 0 ? o.totalUsdPerMonth / accepted : 0;
    o.costPerMillionAcceptedTokens = o.acceptedTokensPerMonth > 0 ? o.totalUsdPerMonth / o.acceptedTokensPerMonth * 1e6 : 0;
}

// Everything the GPU route's cost depends on besides the monthly volume.
struct GpuRoute
{
    const Brief *brief = nullptr;
    const GpuSpec *gpu = nullptr;
    const GpuPrice *price = nullptr;
    int gpusPerReplica = 1;
    double replicaRatePerS = 0;      // requests/s one replica carries within the SLO
    double peakToAverage = 1;
    std::optional<int> simulatedReplicas;  // replicas the performance engine found for the brief's peak
    double weightsGb = 0;
    std::optional<double> onDemandUsdPerGpuHour;  // the cheapest current on-demand offer, for break-evens

    const Assumptions &a() const { return brief->assumptions; }

    // Capital per GPU and the monthly ownership parts per GPU at utilization u (purchase only).
    struct Ownership
    {
        double capex = 0, depreciation = 0, power = 0, colocation = 0, support = 0;
        double total() const { return depreciation + power + colocation + support; }
    };
    Ownership ownership(double u) const
    {
        Ownership o;
        o.capex = price->usdPerGpu + a().value(Assumption::NodeCapexUsdPerGpu);
        o.depreciation = o.capex * (1 - a().value(Assumption::ResidualValueFraction)) / (a().value(Assumption::DepreciationYears) * 12);
        const double kw = gpu->boardPowerW / 1000 * a().value(Assumption::ServerPowerOverhead);
        const double idle = a().value(Assumption::IdlePowerFraction);
        o.power = kw * (idle + (1 - idle) * u) * a().value(Assumption::Pue) * a().value(Assumption::HoursPerMonth)
            * a().value(Assumption::EnergyUsdPerKwh);
        o.colocation = kw * a().value(Assumption::ColocationUsdPerKwMonth);
        o.support = o.capex * a().value(Assumption::SupportFractionPerYear) / 12;
        return o;
    }

    // The option at a monthly volume of `requests`. `replicasOverride` fixes the provisioned
    // replicas (the performance engine's answer for the brief's own volume).
    CostOption at(double requests, std::optional<int> replicasOverride) const
    {
        const Workload &w = brief->workload;
        const double hours = a().value(Assumption::HoursPerMonth);
        const double averageRate = requests / (hours * kSecondsPerHour);
        CostOption o;
        o.term = price->term;
        o.provider = price->provider;
        o.observed = price->observed;
        o.source = price->source;
        o.note = price->note;
        o.origin = price->origin;
        o.requestsPerMonth = requests;
        const int needed = std::max(1, int(std::ceil(averageRate * peakToAverage / replicaRatePerS - 1e-9)));
        o.replicas = replicasOverride.value_or(needed);
        o.gpus = o.replicas * gpusPerReplica;
        o.utilization = std::min(1.0, averageRate / (o.replicas * replicaRatePerS));
        const double u = o.utilization;

        double gpuCost = 0;
        double spotExtra = 0;
        std::string priceBasis;
        if (price->term == PricingTerm::Purchase) {
            const Ownership own = ownership(u);
            o.usdPerGpu = own.capex;
            o.usdPerGpuHour = own.total() / hours;
            gpuCost = own.total() * o.gpus;
            addLine(o.ownershipDetail, "depreciation", own.depreciation * o.gpus,
                    fmt::format("${:.0f} per GPU x (1 - {:.2f} residual) over {:.0f} years", own.capex,
                        a().value(Assumption::ResidualValueFraction), a().value(Assumption::DepreciationYears)));
            addLine(o.ownershipDetail, "power", own.power * o.gpus,
                    fmt::format("{:.0f} W board power x {:.2f} server overhead, PUE {:.2f}, at this load", gpu->boardPowerW,
                        a().value(Assumption::ServerPowerOverhead), a().value(Assumption::Pue)));
            addLine(o.ownershipDetail, "colocation", own.colocation * o.gpus,
                    fmt::format("${:.0f} per provisioned kW a month", a().value(Assumption::ColocationUsdPerKwMonth)));
            addLine(o.ownershipDetail, "hardware_support", own.support * o.gpus,
                    fmt::format("{:.0f}% of the purchase price a year", 100 * a().value(Assumption::SupportFractionPerYear)));
            priceBasis = fmt::format("ownership ${:.3f} per GPU-hour", o.usdPerGpuHour);
        } else {
            o.usdPerGpuHour = price->usdPerGpuHour;
            gpuCost = o.gpus * price->usdPerGpuHour * hours;
            if (price->term == PricingTerm::Spot) {
                const double lost = a().value(Assumption::SpotWorkLostFraction);
                spotExtra = gpuCost * u * lost / (1 - lost);
            }
            priceBasis = fmt::format("${:.2f} per GPU-hour x {:.1f} hours", price->usdPerGpuHour, hours);
        }

        // Attempts that fail, and outputs the quality filter rejects, are work paid for and thrown
        // away: the retry waste. What the GPUs are not busy with is idle capacity.
        const double f = w.acceptance.failureRate, q = w.acceptance.qualityPassRate;
        const double wasted = 1 - (1 - f) * q;
        const std::string gpus = fmt::format("{:.0f} GPUs ({:.0f} replicas)", double(o.gpus), double(o.replicas));
        addLine(o.lines, "gpu_compute", gpuCost * u * (1 - wasted),
                gpus + ", " + priceBasis + fmt::format(", busy {:.1f}% of the time, on accepted work", 100 * u));
        addLine(o.lines, "retry_waste", gpuCost * u * wasted + spotExtra,
                fmt::format("busy time spent on failed attempts ({:.1f}%) and rejected outputs ({:.1f}%)", 100 * f,
                    100 * (1 - q))
                    + (spotExtra > 0 ? fmt::format(", plus {:.0f}% of spot work lost to interruptions",
                                           100 * a().value(Assumption::SpotWorkLostFraction))
                                     : std::string()));
        addLine(o.lines, "idle_capacity", gpuCost * (1 - u),
                fmt::format("provisioned for the peak ({:.2f}x the average) and paid whether busy or not", peakToAverage));
        addLine(o.lines, "storage", weightsGb * (o.replicas + 1) * a().value(Assumption::StorageUsdPerGbMonth),
                fmt::format("{:.1f} GB of weights x {:.0f} copies x ${:.3f} per GB-month", weightsGb, o.replicas + 1.0,
                    a().value(Assumption::StorageUsdPerGbMonth)));
        addLine(o.lines, "serving_stack", o.gpus * a().value(Assumption::ServingStackUsdPerGpuMonth),
                fmt::format("${:.2f} per GPU a month", a().value(Assumption::ServingStackUsdPerGpuMonth)));
        const double egressGb = requests * (1 - f) * outputTokensPerRequest(w) * a().value(Assumption::EgressBytesPerOutputToken) / 1e9;
        addLine(o.lines, "network", egressGb * a().value(Assumption::EgressUsdPerGb),
                fmt::format("{:.1f} GB of streamed output x ${:.3f} per GB", egressGb, a().value(Assumption::EgressUsdPerGb)));
        addLine(o.lines, "observability", gpuCost * a().value(Assumption::ObservabilityFraction),
                fmt::format("{:.0f}% of the GPU spend", 100 * a().value(Assumption::ObservabilityFraction)));
        double labour = salaryPerMonth(a(), Assumption::PlatformFteSelfHosted);
        std::string labourBasis = fmt::format("{:.2f} engineers x ${:.0f} a year", a().value(Assumption::PlatformFteSelfHosted),
                                      a().value(Assumption::EngineerUsdPerYear));
        if (price->term == PricingTerm::Purchase) {
            labour += salaryPerMonth(a(), Assumption::OperationsFtePurchase);
            labourBasis += fmt::format(", plus {:.2f} for owned hardware", a().value(Assumption::OperationsFtePurchase));
        }
        addLine(o.lines, "platform_labour", labour, labourBasis);

        finishOption(o, requests * (1 - f) * q, tokensPerAcceptedOutput(w));
        return o;
    }
};

CostOption apiOption(const Brief &brief, const ApiPrice &price, double requests, const std::string &today)
{
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    CostOption o;
    o.api = true;
    o.provider = price.provider;
    o.observed = price.observed;
    o.source = price.source;
    o.note = price.note;
    o.origin = price.origin;
    o.ageDays = daysBetween(price.observed, today).value_or(0);
    o.stale = o.ageDays > a.value(Assumption::PriceStaleDays);
    o.requestsPerMonth = requests;
    o.utilization = 1;  // billed per token: no idle capacity
    const double perRequest = (w.inputTokens * price.usdPerMillionInput + outputTokensPerRequest(w) * price.usdPerMillionOutput) / 1e6;
    const double usage = requests * perRequest;
    const double f = price.failureRate, q = w.acceptance.qualityPassRate;
    const double wasted = 1 - (1 - f) * q;
    addLine(o.lines, "api_usage", usage * (1 - wasted),
            fmt::format("{:.0f} requests x ${:.6f} each", requests, perRequest)
                + fmt::format(" (${:.3f} per million input and ${:.3f} per million output tokens), on accepted work",
                      price.usdPerMillionInput, price.usdPerMillionOutput));
    addLine(o.lines, "retry_waste", usage * wasted,
            fmt::format("requests the API fails ({:.1f}%) and outputs the quality filter rejects ({:.1f}%)", 100 * f, 100 * (1 - q)));
    addLine(o.lines, "observability", usage * a.value(Assumption::ObservabilityFraction),
            fmt::format("{:.0f}% of the API spend", 100 * a.value(Assumption::ObservabilityFraction)));
    addLine(o.lines, "platform_labour", salaryPerMonth(a, Assumption::PlatformFteApi),
            fmt::format("{:.2f} engineers x ${:.0f} a year", a.value(Assumption::PlatformFteApi), a.value(Assumption::EngineerUsdPerYear)));
    finishOption(o, requests * (1 - f) * q, tokensPerAcceptedOutput(w));
    return o;
}

const ApiPrice *apiPriceFor(const Brief &brief, const Catalog &catalog)
{
    if (brief.cost.api)
        return &*brief.cost.api;
    const ApiPrice *best = nullptr;
    for (const ApiPrice &p : catalog.apiPrices())
        if (p.model == brief.workload.model.id && (!best || p.observed > best->observed))
            best = &p;
    return best;
}

// Monthly API cost at a volume, for break-evens: a fixed part and a per-request part.
struct LinearCost
{
    double fixed = 0, perRequest = 0;
    double at(double v) const { return fixed + perRequest * v; }
};

// Monthly volumes for the break-even chart: 41 points, a hundredth to a hundred times `center`.
std::vector<double> volumeSamples(double center)
{
    std::vector<double> out;
    for (int i = -20; i <= 20; ++i)
        out.push_back(center * std::pow(10.0, i / 10.0));
    return out;
}

LinearCost apiCurve(const Brief &brief, const ApiPrice &price)
{
    const Assumptions &a = brief.assumptions;
    const double perRequest = (brief.workload.inputTokens * price.usdPerMillionInput
                               + outputTokensPerRequest(brief.workload) * price.usdPerMillionOutput) / 1e6;
    return {salaryPerMonth(a, Assumption::PlatformFteApi), perRequest * (1 + a.value(Assumption::ObservabilityFraction))};
}

// The smallest monthly volume from which the GPU route costs no more than the API. The GPU cost
// is a step function of volume (whole replicas) and the API's a line. Each replica adds a nearly
// constant cost (only purchased power varies with load), so the crossing replica count is
// estimated from one and two replicas, checked around that estimate, and the volume within that
// replica step found by bisection.
std::optional<double> breakEvenVsApi(const GpuRoute &route, const LinearCost &api)
{
    const double hours = route.a().value(Assumption::HoursPerMonth);
    const double perReplica = route.replicaRatePerS / route.peakToAverage * hours * kSecondsPerHour;
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

} // namespace

double roundCents(double usd)
{
    return double(std::llround(usd * 100)) / 100;
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

CandidateCost costCandidate(const Brief &brief, const Candidate &cand, const GpuSpec &gpu, const FitResult &fit,
                            const PerformanceResult &perf, const Catalog &catalog, const std::string &today)
{
    CandidateCost c;
    const Workload &w = brief.workload;
    const Assumptions &a = brief.assumptions;
    if (!isInference(w.kind)) {
        c.warnings.push_back({"cost-not-modelled", "cost per completed training run arrives with the training-time "
                                                   "model; this kind's cost is left empty"});
        return c;
    }
    if (!fit.computed || !fit.fits || !perf.computed) {
        c.warnings.push_back({"cost-not-computed", "without a fit and simulated performance there is no cost to price"});
        return c;
    }
    const int replicas = std::max(1, cand.replicas());
    const bool hasSlo = !w.slo.empty();
    const double candidateRate = hasSlo ? perf.maxRequestRateWithinSloPerS.value_or(0) : perf.maxRequestsPerS;
    if (candidateRate <= 0) {
        c.warnings.push_back({"cost-not-computed", "the candidate carries no load within the SLO, so no amount of it "
                                                   "serves the brief; its cost is left empty"});
        return c;
    }

    Demand demand = demandOf(brief);
    if (!demand.requestsPerMonth) {
        // Offline or closed-loop work with no stated volume: the candidate busy all month.
        demand.requestsPerMonth = perf.requestsPerS * a.value(Assumption::HoursPerMonth) * kSecondsPerHour;
        c.warnings.push_back({"volume-assumed",
                              fmt::format("the brief states no monthly volume (cost.requests_per_month), so this candidate is "
                                  "priced busy all month: {:.3g} requests",
                                  *demand.requestsPerMonth)});
    }

    GpuRoute route;
    route.brief = &brief;
    route.gpu = &gpu;
    route.gpusPerReplica = cand.gpusPerReplica();
    route.replicaRatePerS = candidateRate / replicas;
    route.peakToAverage = demand.peakToAverage;
    const ParameterCounts params = countParameters(w.model);
    route.weightsGb = params.total() * weightBitsPerParameter(w.weightsPrecision, a.flag(Assumption::Nf4DoubleQuant)) / 8 / 1e9;
    // The performance engine's replica count for the brief's own peak (simulated within the
    // SLO) wins over the linear estimate when the volume is the brief's own.
    std::optional<int> simulated;
    if (perf.replicasForPeak && !demand.fromBrief)
        simulated = *perf.replicasForPeak;

    // Every price for this GPU, and per term the one that counts (cost/pricing.h).
    const double staleDays = a.value(Assumption::PriceStaleDays);
    std::map<PricingTerm, const GpuPrice *> chosen;
    for (const auto &[term, choice] : selectPrices(brief.cost.prices, catalog, cand.gpu, today, staleDays).chosen)
        chosen.emplace(term, choice.price);
    if (chosen.empty()) {
        c.warnings.push_back({"no-price", "no dated price for " + gpu.name
                                              + " in the price book or the brief; add one under cost.prices"});
        return c;
    }
    if (auto od = chosen.find(PricingTerm::OnDemand); od != chosen.end())
        route.onDemandUsdPerGpuHour = od->second->usdPerGpuHour;

    const ApiPrice *api = apiPriceFor(brief, catalog);
    for (const auto &[term, price] : chosen) {
        route.price = price;
        CostOption o = route.at(*demand.requestsPerMonth, simulated);
        for (double v : volumeSamples(*demand.requestsPerMonth))
            o.monthlyCostByVolume.emplace_back(v, route.at(v, std::nullopt).totalUsdPerMonth);
        o.ageDays = daysBetween(price->observed, today).value_or(0);
        o.stale = o.ageDays > staleDays;
        if (o.stale)
            c.warnings.push_back({"stale-price", "the " + std::string(enumName(term)) + " price of " + gpu.name
                                                     + fmt::format(" was observed {:.0f} days ago (", double(o.ageDays))
                                                     + price->observed + ", " + price->provider
                                                     + "); check it before relying on it"});
        if (api)
            o.breakEvenRequestsPerMonthVsApi = breakEvenVsApi(route, apiCurve(brief, *api));
        if (route.onDemandUsdPerGpuHour && term != PricingTerm::OnDemand && term != PricingTerm::Spot) {
            // Elastic on-demand capacity pays only for busy hours; a commitment pays for all of them.
            const double committed = term == PricingTerm::Purchase ? route.ownership(1.0).total() / a.value(Assumption::HoursPerMonth)
                                                                   : price->usdPerGpuHour;
            o.breakEvenUtilizationVsOnDemand = committed / *route.onDemandUsdPerGpuHour;
        }
        if (term == PricingTerm::Purchase && route.onDemandUsdPerGpuHour) {
            const GpuRoute::Ownership own = route.ownership(o.utilization);
            const double opex = own.power + own.colocation + own.support
                + salaryPerMonth(a, Assumption::OperationsFtePurchase) / std::max(1, o.gpus);
            const double saved = *route.onDemandUsdPerGpuHour * a.value(Assumption::HoursPerMonth) - opex;
            if (saved > 0)
                o.paybackMonths = own.capex / saved;
        }
        c.options.push_back(std::move(o));
    }
    c.computed = true;
    return c;
}

CostSummary summarizeCost(const Brief &brief, const std::vector<CandidateResult> &results, const Catalog &catalog,
                          const std::string &today)
{
    CostSummary s;
    s.today = today;
    const Workload &w = brief.workload;
    if (!isInference(w.kind))
        return s;
    const Decision &d = brief.cost.decision;
    const Demand demand = demandOf(brief);

    const ApiPrice *apiPrice = apiPriceFor(brief, catalog);
    if (apiPrice && demand.requestsPerMonth)
    {
        s.api = apiOption(brief, *apiPrice, *demand.requestsPerMonth, today);
        for (double v : volumeSamples(*demand.requestsPerMonth))
            s.api->monthlyCostByVolume.emplace_back(v, apiOption(brief, *apiPrice, v, today).totalUsdPerMonth);
    }
    else if (!apiPrice)
        s.warnings.push_back({"no-api-price", "no model-API price for " + w.model.id
                                                  + ": the GPU route is not compared with an API (add cost.api)"});
    else
        s.warnings.push_back({"no-api-volume", "the brief states no monthly volume, so the API route is not priced "
                                               "(add cost.requests_per_month)"});
    if (s.api && s.api->stale)
        s.warnings.push_back({"stale-price", "the API price was observed " + s.api->observed + "; check it"});

    // The best GPU option overall and per kind of commitment.
    struct Pick
    {
        std::size_t candidate = 0;
        const CostOption *option = nullptr;
    };
    std::optional<Pick> best, rent, reserve, buy;
    // Stale prices count only where no current one exists for the same kind of commitment.
    const auto consider = [](std::optional<Pick> &slot, std::size_t i, const CostOption &o) {
        if (!slot || (slot->option->stale && !o.stale)
            || (slot->option->stale == o.stale && o.costPerAcceptedOutput < slot->option->costPerAcceptedOutput))
            slot = Pick{i, &o};
    };
    for (std::size_t i = 0; i < results.size(); ++i)
        for (const CostOption &o : results[i].cost.options) {
            consider(best, i, o);
            if (o.term == PricingTerm::OnDemand || o.term == PricingTerm::Spot)
                consider(rent, i, o);
            else if (o.term == PricingTerm::Purchase)
                consider(buy, i, o);
            else
                consider(reserve, i, o);
        }

    // Common mistake 1: the lowest hourly rate is not the lowest cost per accepted output.
    std::optional<Pick> cheapestHour;
    for (std::size_t i = 0; i < results.size(); ++i)
        for (const CostOption &o : results[i].cost.options)
            if (o.term == PricingTerm::OnDemand
                && (!cheapestHour || o.usdPerGpuHour < cheapestHour->option->usdPerGpuHour))
                cheapestHour = Pick{i, &o};
    if (cheapestHour && rent && cheapestHour->candidate != rent->candidate)
        s.warnings.push_back({"mistake-hourly-rate",
                              "choosing by hourly rate would pick " + results[cheapestHour->candidate].candidate.gpu
                                  + fmt::format(" at ${:.2f} per GPU-hour, but its cost per accepted output is ${:.6f} against ${:.6f} for ",
                                        cheapestHour->option->usdPerGpuHour, cheapestHour->option->costPerAcceptedOutput,
                                        rent->option->costPerAcceptedOutput)
                                  + results[rent->candidate].candidate.gpu + " (the seed's common mistake 1)"});
    // Mistake 2: memory fit read as yes/no.
    for (const CandidateResult &r : results)
        if (r.fit.computed && r.fit.fits
            && (r.fit.headroomFraction < brief.assumptions.value(Assumption::FragileFitHeadroomFraction)
                || (r.fit.maxConcurrencyPerReplica && *r.fit.maxConcurrencyPerReplica < 2 * r.fit.sizedConcurrencyPerReplica))) {
            s.warnings.push_back({"mistake-fit-yes-no",
                                  r.candidate.gpu + fmt::format(" fits at the brief's point with {:.0f}% headroom and room for {:.0f} ",
                                                        100 * r.fit.headroomFraction,
                                                        double(r.fit.maxConcurrencyPerReplica.value_or(0)))
                                      + fmt::format("sequences per replica against {:.0f} needed: longer prompts, more concurrency "
                                            "or a framework upgrade can tip it over (common mistake 2)",
                                            double(r.fit.sizedConcurrencyPerReplica))});
        }
    // Mistake 3: interconnect ignored.
    for (const CandidateResult &r : results) {
        const GpuSpec *g = catalog.gpu(r.candidate.gpu);
        if (!g || r.candidate.tensorParallel <= 1)
            continue;
        if (g->scaleUp.kind == "pcie" || r.candidate.tensorParallel > g->scaleUp.domainGpus)
            s.warnings.push_back({"mistake-interconnect",
                                  r.candidate.gpu + fmt::format(": tensor parallelism of {:.0f} runs its all-reduces over ",
                                                        double(r.candidate.tensorParallel))
                                      + (g->scaleUp.kind == "pcie" ? std::string("PCIe") : std::string("the network"))
                                      + ", not a GPU-to-GPU fabric; topology is part of the GPU (common mistake 3)"});
    }
    // Mistake 4: generated instead of accepted outputs.
    if (!w.acceptance.given)
        s.warnings.push_back({"mistake-generated-not-accepted",
                              "the brief gives no acceptance (quality pass rate, failure rate), so every generated "
                              "output counts as accepted and costs are optimistic (common mistake 4)"});
    // Mistake 5: platform responsibility left out.
    if (!brief.assumptions.overridden(Assumption::PlatformFteSelfHosted))
        s.warnings.push_back({"mistake-platform-responsibility",
                              fmt::format("the brief does not say who runs the serving platform; {:.2f} engineers are assumed "
                                  "(platform_fte_self_hosted). Drivers, model servers, autoscaling, on-call and spend "
                                  "reports need an owner (common mistake 5)",
                                  brief.assumptions.value(Assumption::PlatformFteSelfHosted))});

    // The recommendation.
    Recommendation rec;
    const bool apiUsable = s.api && d.apiAllowed && !d.needsHardwareControl;
    if (s.api && !d.apiAllowed)
        rec.reasons.push_back("the data boundary rules out a third-party model API");
    if (s.api && d.needsHardwareControl)
        rec.reasons.push_back("the brief needs control of the hardware (kernels, runtime, topology or weights), which "
                              "an API does not give");
    if (!best && !apiUsable) {
        s.warnings.push_back({"no-recommendation", "no candidate could be priced, so there is nothing to recommend"});
        s.recommendation = std::nullopt;
        return s;
    }
    const double gpuCost = best ? best->option->costPerAcceptedOutput : INFINITY;
    const bool uncertain = d.demandCertainty == Level::Low || d.modelChurn == Level::High;
    if (apiUsable && (s.api->costPerAcceptedOutput <= gpuCost || (uncertain && s.api->costPerAcceptedOutput <= brief.assumptions.value(Assumption::ApiFlexibilityPremium) * gpuCost))) {
        rec.route = Route::Api;
        rec.costPerAcceptedOutput = s.api->costPerAcceptedOutput;
        rec.usdPerMonth = s.api->totalUsdPerMonth;
        rec.reasons.push_back(fmt::format("the model API costs ${:.6f} per accepted output", s.api->costPerAcceptedOutput)
                              + (best ? fmt::format(" against ${:.6f} for the best GPU option", gpuCost) : std::string())
                              + " at this volume, with no idle capacity and less platform work");
        if (uncertain)
            rec.reasons.push_back("demand is uncertain or the model is expected to change: per-token billing avoids a "
                                  "commitment that could outlive the model");
        if (best && best->option->breakEvenRequestsPerMonthVsApi)
            rec.reasons.push_back(fmt::format("self-hosting becomes cheaper from about {:.3g} requests a month; revisit then",
                                      *best->option->breakEvenRequestsPerMonthVsApi));
    } else {
        // Which commitment: buy or reserve only for certain, sustained demand on a stable model.
        Pick pick = *best;
        rec.route = pick.option->term == PricingTerm::Purchase ? Route::Buy
                    : pick.option->term == PricingTerm::OnDemand || pick.option->term == PricingTerm::Spot ? Route::Rent
                                                                                                           : Route::Reserve;
        if (rec.route == Route::Buy && (d.demandCertainty != Level::High || d.modelChurn != Level::Low) && (reserve || rent)) {
            rec.reasons.push_back("buying is cheapest per accepted output, but the brief does not state high demand "
                                  "certainty and low model churn, which a purchase needs");
            pick = reserve && d.demandCertainty != Level::Low ? *reserve : *rent;
            rec.route = pick.option->term == PricingTerm::OnDemand || pick.option->term == PricingTerm::Spot ? Route::Rent : Route::Reserve;
        }
        if (rec.route == Route::Reserve && d.demandCertainty == Level::Low && rent) {
            rec.reasons.push_back("reserving is cheaper, but demand certainty is low; a reservation is paid whether "
                                  "used or not");
            pick = *rent;
            rec.route = Route::Rent;
        }
        const CostOption &o = *pick.option;
        rec.candidate = pick.candidate;
        rec.term = o.term;
        rec.costPerAcceptedOutput = o.costPerAcceptedOutput;
        rec.usdPerMonth = o.totalUsdPerMonth;
        if (o.stale)
            rec.reasons.push_back("the price behind this option was observed " + o.observed
                                  + ", longer ago than price_stale_days: get a current quote before deciding");
        rec.reasons.push_back(fmt::format("{} GPUs ", o.gpus) + results[pick.candidate].candidate.gpu + " ("
                              + std::string(enumName(*o.term)) + ", " + o.provider + ") cost "
                              + fmt::format("${:.6f} per accepted output, ${:.2f} a month, at {:.0f}% utilization",
                                    o.costPerAcceptedOutput, o.totalUsdPerMonth, 100 * o.utilization));
        if (o.breakEvenUtilizationVsOnDemand && *o.breakEvenUtilizationVsOnDemand <= 1)
            rec.reasons.push_back(fmt::format("this commitment beats on-demand above {:.0f}% sustained utilization; the brief's "
                                      "load gives {:.0f}%",
                                      100 * *o.breakEvenUtilizationVsOnDemand, 100 * o.utilization));
        else if (o.breakEvenUtilizationVsOnDemand)
            rec.reasons.push_back("this commitment costs more per hour than the cheapest on-demand offer, so it never "
                                  "beats renting on demand");
        if (o.paybackMonths)
            rec.reasons.push_back(fmt::format("the purchase pays back in {:.1f} months against renting on demand", *o.paybackMonths));
        if (s.api)
            rec.reasons.push_back(fmt::format("the model API would cost ${:.6f} per accepted output", s.api->costPerAcceptedOutput)
                                  + (o.breakEvenRequestsPerMonthVsApi
                                         ? fmt::format("; self-hosting wins from about {:.3g} requests a month",
                                               *o.breakEvenRequestsPerMonthVsApi)
                                         : std::string()));
        // Hybrid: GPUs sized for the steady base, the API for what bursts add above it.
        if (apiUsable && demand.peakToAverage >= brief.assumptions.value(Assumption::HybridMinPeakToAverage) && demand.requestsPerMonth) {
            const double hours = brief.assumptions.value(Assumption::HoursPerMonth);
            const double average = *demand.requestsPerMonth / (hours * kSecondsPerHour);
            const double perReplica = o.utilization * o.replicas > 0 ? average / (o.utilization * o.replicas) : 0;
            const Traffic &t = w.traffic;
            if (perReplica > 0 && t.requestRatePerS && t.burstMultiplier && t.burstPeriodS > 0) {
                const int base = std::max(1, int(std::ceil(*t.requestRatePerS / perReplica - 1e-9)));
                const double overflowRate = std::max(0.0, *t.requestRatePerS * *t.burstMultiplier - base * perReplica);
                const double overflow = overflowRate * t.burstDurationS / t.burstPeriodS * hours * kSecondsPerHour;
                const double gpuShare = o.totalUsdPerMonth * double(base) / o.replicas;
                const double apiShare = overflow * (s.api->totalUsdPerMonth / std::max(1.0, s.api->requestsPerMonth));
                if (gpuShare + apiShare < o.totalUsdPerMonth) {
                    rec.route = Route::Hybrid;
                    rec.usdPerMonth = roundCents(gpuShare + apiShare);
                    rec.costPerAcceptedOutput = rec.usdPerMonth / std::max(1.0, o.acceptedOutputsPerMonth);
                    rec.reasons.push_back(fmt::format("traffic peaks at {:.1f}x its average: {:.0f} replicas for the steady base and the "
                                              "API for the bursts above them cost about ",
                                              demand.peakToAverage, double(base))
                                          + fmt::format("${:.2f} a month instead of ${:.2f}", rec.usdPerMonth, o.totalUsdPerMonth));
                }
            }
        }
        if (d.modelChurn == Level::High && (rec.route == Route::Buy || rec.route == Route::Reserve))
            rec.reasons.push_back("the model is expected to change: keep the commitment short");
    }
    if (!d.given)
        rec.reasons.push_back("the brief states no demand certainty, model churn or hardware-control need "
                              "(cost.decision); medium certainty and churn were assumed");
    // Mistake 6: sized only for today's model.
    if (rec.candidate) {
        const CandidateResult &r = results[*rec.candidate];
        if ((rec.route == Route::Buy || rec.route == Route::Reserve) && r.fit.headroomFraction < brief.assumptions.value(Assumption::CommitmentMinHeadroomFraction))
            s.warnings.push_back({"mistake-todays-model",
                                  fmt::format("the recommended commitment leaves {:.0f}% memory headroom: a larger model, longer "
                                      "context or new quantization may not fit before the term ends (common mistake 6)",
                                      100 * r.fit.headroomFraction)});
    }
    s.recommendation = rec;
    return s;
}

} // namespace wb
