#include "cost/cost.h"

#include <fmt/format.h>

#include "evaluate/evaluate.h"
#include "catalog/modelarch.h"
#include "cost/pricing.h"
#include "cost/routes.h"
#include "core/format.h"
#include "core/limits.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

using namespace detail;

namespace {

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
    // In whole cents, so that the total is exactly the sum of the lines as displayed; beyond
    // what cents can count in 64 bits (no input within core/limits.h gets there) in dollars.
    long double cents = 0;
    for (const CostLine &l : lines)
        cents += std::round(static_cast<long double>(l.usdPerMonth) * 100);
    return double(cents / 100);
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
    double meanE2eS = 0;             // a request's simulated mean end-to-end latency

    const Assumptions &a() const { return brief->assumptions; }

    // Replicas the peak of a monthly volume needs, uncapped: checked against limits::kReplicas
    // before it becomes a count (a tiny scheduled window once wrapped a billion to 1).
    double replicasNeeded(double requests) const
    {
        const double averageRate = requests / (activeHoursPerMonth(*brief) * kSecondsPerHour);
        return std::max(1.0, std::ceil(averageRate * peakToAverage / replicaRatePerS - 1e-9));
    }

    // Seconds a new replica takes to start: its weights read at model_load_gb_per_s, plus the rest.
    double startS() const
    {
        return weightsGb / a().value(Assumption::ModelLoadGbPerS) + a().value(Assumption::ReplicaStartS);
    }

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

    // The replica-hours rented capacity is billed for a month under the brief's billing model,
    // for `replicas` provisioned for the peak and `busy` replica-hours of work, with how it was
    // worked out. Reservations and purchases are not asked: they are paid every hour.
    struct Billed
    {
        double replicaHours = 0;
        std::string basis;
        // Capacity that follows the load: the share of requests that find no replica ready (the
        // service scaled to zero, or a burst outgrew the replicas running) and wait for one to
        // start, and how long a start takes.
        double coldStartShare = 0;
        double coldStartFromBursts = 0;  // of which as bursts begin
        double startS = 0;
    };
    Billed rentedReplicaHours(int replicas, double busy) const
    {
        const BillingInputs &b = brief->cost.billing;
        const double hours = a().value(Assumption::HoursPerMonth), active = activeHoursPerMonth(*brief);
        switch (b.model) {
        case Billing::AlwaysOn: return {replicas * hours, "billed around the clock"};
        case Billing::Scheduled:
            return {replicas * active, fmt::format("billed for the scheduled window, {:g} h a day on {:g} days ({:.1f} h a month{})",
                                                   b.hoursPerDay, b.daysPerMonth, active,
                                                   b.hoursPerDay * b.daysPerMonth > active ? ", capped at hours_per_month" : "")};
        case Billing::Autoscaled:
        case Billing::Serverless: {
            // Replicas follow the load at the autoscaler's target utilization, never below the
            // minimum (serverless: none); each burst starts the replicas it needs above the steady
            // base, and they are billed from the moment they start loading. A burst shorter than a
            // replica's start cannot be followed: the peak's replicas stay up.
            const double target = a().value(Assumption::AutoscaleTargetUtilization);
            Billed r;
            r.startS = startS();
            const Traffic &t = brief->workload.traffic;
            double billed = std::max(double(b.minReplicas) * hours, busy / target);
            r.basis = (b.model == Billing::Serverless
                           ? fmt::format("serverless, billed per second of use, scaled at {:.0f}% target utilization", 100 * target)
                           : fmt::format("autoscaled at {:.0f}% target utilization with at least {} replica{}", 100 * target,
                                         b.minReplicas, b.minReplicas == 1 ? "" : "s"))
                + fmt::format(" ({:.0f} s to start one: {:.1f} GB of weights at {:g} GB/s plus {:g} s)", r.startS, weightsGb,
                              a().value(Assumption::ModelLoadGbPerS), a().value(Assumption::ReplicaStartS));
            if (b.minReplicas == 0) {
                // Scaled to zero, a replica stays up scale_to_zero_idle_s (T) after its last
                // request. With requests at random (Poisson) at an average rate L, a gap between
                // two exceeds T with probability e^(-LT): the next request finds nothing running,
                // waits for a start, and the start is billed. One replica is busy a share p of the
                // time and, of the rest, up a share 1 - e^(-LT) (L times the mean of min(gap, T)).
                const double idleS = a().value(Assumption::ScaleToZeroIdleS);
                const double rate = busy * replicaRatePerS / hours;  // requests/s on average
                const double cold = std::exp(-rate * idleS);
                const double p = std::min(1.0, busy / hours);
                const double starts = rate * (1 - p) * cold * hours * kSecondsPerHour;
                billed = std::max(billed, (p + (1 - p) * (1 - cold)) * hours) + starts * r.startS / kSecondsPerHour;
                r.coldStartShare = (1 - p) * cold;
                r.basis += fmt::format("; up {:g} s after the last request, so {:.1f}% of requests find none running "
                                       "({:.0f} starts a month, billed while they load)",
                                       idleS, 100 * r.coldStartShare, starts);
            }
            if (t.burstMultiplier && t.burstPeriodS > 0 && t.requestRatePerS) {
                const int base = std::max(b.minReplicas, int(std::ceil(*t.requestRatePerS / replicaRatePerS / target - 1e-9)));
                const int extra = std::max(0, replicas - base);
                if (extra == 0) {
                    // The replicas running carry the bursts too: nothing starts for them.
                } else if (r.startS >= t.burstDurationS || t.burstPeriodS - t.burstDurationS < r.startS) {
                    billed = std::max(billed, double(replicas) * hours);
                    r.coldStartShare = 0;
                    r.basis += fmt::format("; bursts of {:g} s every {:g} s are shorter than a start, so the peak's {} replicas "
                                           "stay up",
                                           t.burstDurationS, t.burstPeriodS, replicas);
                } else {
                    const double burstsPerMonth = hours * kSecondsPerHour / t.burstPeriodS;
                    billed += extra * (t.burstDurationS + r.startS) / kSecondsPerHour * burstsPerMonth;
                    // What a burst adds above the running replicas' capacity waits for the new
                    // ones in its first start time: a share of each period's requests.
                    const double m = *t.burstMultiplier, rate = *t.requestRatePerS;
                    const double excess = std::max(0.0, m * rate - std::max(1, base) * replicaRatePerS);
                    const double waiting = excess * r.startS / (rate * (t.burstPeriodS + (m - 1) * t.burstDurationS));
                    r.coldStartShare += waiting;
                    r.coldStartFromBursts = waiting;
                    r.basis += fmt::format("; {} more replica{} for each burst, billed from start to its end", extra,
                                           extra == 1 ? "" : "s")
                        + (waiting > 0 ? fmt::format(" ({:.1f}% of requests wait for them)", 100 * waiting) : std::string());
                }
            }
            if (billed >= replicas * hours)
                r.basis += fmt::format("; that is the {} replica{} the peak needs, running all month", replicas,
                                       replicas == 1 ? "" : "s");
            r.replicaHours = std::min(billed, replicas * hours);
            r.coldStartShare = std::min(1.0, r.coldStartShare);
            r.coldStartFromBursts = std::min(r.coldStartFromBursts, r.coldStartShare);
            return r;
        }
        }
        return {replicas * hours, ""};
    }

    // The option at a monthly volume of `requests`. `replicasOverride` fixes the provisioned
    // replicas (the performance engine's answer for the brief's own volume). The work runs in the
    // brief's active hours (a scheduled window, else all month); rented GPUs are billed by the
    // billing model, committed ones every hour. Utilization is the busy share of the billed time.
    CostOption at(double requests, std::optional<int> replicasOverride) const
    {
        const Workload &w = brief->workload;
        const double hours = a().value(Assumption::HoursPerMonth);
        CostOption o;
        o.term = price->term;
        o.provider = price->provider;
        o.observed = price->observed;
        o.source = price->source;
        o.note = price->note;
        o.origin = price->origin;
        o.requestsPerMonth = requests;
        const int sized = replicasOverride.value_or(int(std::min(replicasNeeded(requests), limits::kReplicas)));
        o.replicas = sized;
        if (brief->cost.billing.model == Billing::Autoscaled || brief->cost.billing.model == Billing::Serverless)
            o.replicas = std::max(o.replicas, brief->cost.billing.minReplicas);
        o.gpus = o.replicas * gpusPerReplica;
        const double busy = requests / replicaRatePerS / kSecondsPerHour;  // replica-hours of work
        const bool committed = price->term != PricingTerm::OnDemand && price->term != PricingTerm::Spot;
        const Billed rented = rentedReplicaHours(o.replicas, busy);
        const double rentedHours = rented.replicaHours;
        const std::string &billingBasis = rented.basis;
        const double billed = committed ? o.replicas * hours : rentedHours;
        if (!committed && rented.coldStartShare > 1e-6) {  // below one request in a million: none
            o.coldStartShare = rented.coldStartShare;
            o.coldStartS = rented.startS;
            o.coldStartFromBursts = rented.coldStartFromBursts;
            o.coldStartOverSlo = coldStartMissesSlo(*brief, o);
        }
        o.billedShareOfMonth = billed / (o.replicas * hours);
        if (committed)
            o.onDemandBilledShare = rentedHours / (o.replicas * hours);
        o.utilization = billed > 0 ? std::min(1.0, busy / billed) : 0;
        const double u = o.utilization;

        double gpuCost = 0;
        double spotExtra = 0;
        std::string spotBasis;
        std::string priceBasis;
        if (price->term == PricingTerm::Purchase) {
            // Power follows the load over the whole month, which the owned GPUs are paid for.
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
            priceBasis = fmt::format("ownership ${:.3f} per GPU-hour, paid every hour", o.usdPerGpuHour);
        } else {
            o.usdPerGpuHour = price->usdPerGpuHour;
            gpuCost = billed * gpusPerReplica * price->usdPerGpuHour;
            if (price->term == PricingTerm::Spot) {
                // Taking back any of a replica's GPUs stops the replica: its replacement is billed
                // while it starts, and requests in flight that cannot finish within the notice are
                // redone (the replica's work on them, half their length on average, at its load).
                const double perGpu = price->interruptionsPerGpuMonth.value_or(a().value(Assumption::SpotInterruptionsPerGpuMonth));
                const double interruptions = perGpu * gpusPerReplica * billed / hours;
                const double notice = a().value(Assumption::SpotNoticeS);
                const double inFlightS = meanE2eS > notice ? u * meanE2eS / 2 : 0;
                spotExtra = interruptions * (startS() + inFlightS) / kSecondsPerHour * gpusPerReplica * price->usdPerGpuHour;
                o.spotRestartShare = billed > 0 ? interruptions * startS() / kSecondsPerHour / billed : 0;
                spotBasis = fmt::format(", plus {:.1f} interruptions a month ({:g} per GPU a month{}), each a {:.0f} s replacement "
                                        "start{}",
                                        interruptions, perGpu, price->interruptionsPerGpuMonth ? ", the offer's" : "", startS(),
                                        inFlightS > 0 ? fmt::format(" and {:.0f} s of work in flight redone", inFlightS)
                                                      : fmt::format(" (work in flight finishes within the {:g} s notice)", notice));
            }
            priceBasis = fmt::format("${:.2f} per GPU-hour x {:.1f} hours", price->usdPerGpuHour, billed / o.replicas)
                + (committed ? std::string(", paid every hour") : ", " + billingBasis);
        }

        // Attempts that fail, and outputs the quality filter rejects, are work paid for and thrown
        // away: the retry waste. What the GPUs are not busy with is idle capacity.
        const double f = w.acceptance.failureRate, q = w.acceptance.qualityPassRate;
        const double wasted = 1 - (1 - f) * q;
        const std::string gpus = fmt::format("{:.0f} GPUs ({:.0f} replicas)", double(o.gpus), double(o.replicas));
        // A minimum commitment binds the GPU bill for its term: said where the bill is.
        std::string commitment;
        if (price->minCommitmentMonths && *price->minCommitmentMonths > 0) {
            o.commitmentMonths = *price->minCommitmentMonths;
            o.committedUsd = gpuCost * *price->minCommitmentMonths;
            commitment = fmt::format("; under a {:g}-month minimum commitment: ${} owed over the term", *o.commitmentMonths,
                                     usdAmount(o.committedUsd))
                + (price->upfrontFraction ? fmt::format(", {:.0f}% of it up front (${})", 100 * *price->upfrontFraction,
                                                        usdAmount(o.committedUsd * *price->upfrontFraction))
                                          : std::string())
                + (price->cancellation.empty() ? std::string() : " (cancellation: " + price->cancellation + ")");
        }
        o.terms = commercialTermsWords(*price);
        addLine(o.lines, "gpu_compute", gpuCost * u * (1 - wasted),
                gpus + ", " + priceBasis + fmt::format(", busy {:.1f}% of the time, on accepted work", 100 * u) + commitment);
        addLine(o.lines, "retry_waste", gpuCost * u * wasted + spotExtra,
                fmt::format("busy time spent on failed attempts ({:.1f}%) and rejected outputs ({:.1f}%)", 100 * f,
                    100 * (1 - q))
                    + spotBasis);
        addLine(o.lines, "idle_capacity", gpuCost * (1 - u),
                (o.replicas > sized ? fmt::format("billed GPU time with no work: the {}-replica minimum kept running", o.replicas)
                                    : fmt::format("billed GPU time with no work: provisioned for the peak ({:.2f}x the average)",
                                                  peakToAverage))
                    + (committed ? std::string(" and paid every hour of the month whether busy or not")
                                 : std::string(" while billed")));
        const double included = price->includedStorageGbPerGpu.value_or(0) * o.gpus;
        addLine(o.lines, "storage", std::max(0.0, weightsGb * (o.replicas + 1) - included) * a().value(Assumption::StorageUsdPerGbMonth),
                fmt::format("{:.1f} GB of weights x {:.0f} copies x ${:.3f} per GB-month", weightsGb, o.replicas + 1.0,
                    a().value(Assumption::StorageUsdPerGbMonth))
                    + (included > 0 ? fmt::format(", less {:g} GB included with the GPUs", included) : std::string()));
        addLine(o.lines, "serving_stack", o.gpus * a().value(Assumption::ServingStackUsdPerGpuMonth),
                fmt::format("${:.2f} per GPU a month", a().value(Assumption::ServingStackUsdPerGpuMonth)));
        const double egressGb = requests * (1 - f) * outputTokensPerRequest(w) * a().value(Assumption::EgressBytesPerOutputToken) / 1e9;
        const double egressPrice = price->egressUsdPerGb.value_or(a().value(Assumption::EgressUsdPerGb));
        addLine(o.lines, "network", egressGb * egressPrice,
                fmt::format("{:.1f} GB of streamed output x ${:.3f} per GB", egressGb, egressPrice)
                    + (price->egressUsdPerGb ? " (the offer's egress price)" : ""));
        if (price->supportUsdPerGpuMonth)
            addLine(o.lines, "vendor_support", o.gpus * *price->supportUsdPerGpuMonth,
                    fmt::format("the offer's support fee, ${:.2f} per GPU a month", *price->supportUsdPerGpuMonth));
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

// Monthly API cost at a volume, for break-evens: a fixed part and a per-request part.
struct LinearCost
{
    double fixed = 0, perRequest = 0;
    double at(double v) const { return fixed + perRequest * v; }
};

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

bool apiUsableFor(const Brief &brief)
{
    return brief.cost.decision.apiAllowed && !brief.cost.decision.needsHardwareControl;
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

std::string coldStartWords(const Brief &brief, const CostOption &o)
{
    const std::optional<double> &ttft = brief.workload.slo.ttftP99S;
    const double share = o.coldStartShare.value_or(0), startS = o.coldStartS, bursts = o.coldStartFromBursts;
    const std::string why = bursts <= 0 ? "the service has scaled to zero"
                            : bursts >= share ? "they arrive as a burst outgrows the replicas running"
                                              : fmt::format("{:.1f}% find the service scaled to zero, {:.1f}% arrive as a burst "
                                                            "outgrows the replicas running",
                                                            100 * (share - bursts), 100 * bursts);
    return fmt::format("under {} billing {:.1f}% of requests find no replica ready for them ({}) and wait up to {:.0f} s for "
                       "one to start, which the simulated latencies do not include",
                       enumName(brief.cost.billing.model), 100 * share, why, startS)
        + (ttft && startS > *ttft
               ? fmt::format(": the p99 time to first token is then over the brief's {:g} s target; keep more replicas "
                             "running (a minimum, or always on at the peak's capacity), send bursts to an API, or commit "
                             "to capacity",
                             *ttft)
               : std::string());
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
    if (perf.requestRatePerReplicaPerS <= 0) {
        c.warnings.push_back({"cost-not-computed", "the candidate carries no load within the SLO, so no amount of it "
                                                   "serves the brief; its cost is left empty"});
        return c;
    }

    Demand demand = demandOf(brief);
    if (!demand.requestsPerMonth) {
        // Offline or closed-loop work with no stated volume: the candidate busy all month.
        demand.requestsPerMonth = perf.requestsPerS * activeHoursPerMonth(brief) * kSecondsPerHour;
        c.warnings.push_back({"volume-assumed",
                              fmt::format("the brief states no monthly volume (cost.requests_per_month), so this candidate is "
                                  "priced busy all its active hours: {:.3g} requests",
                                  *demand.requestsPerMonth)});
    }

    GpuRoute route;
    route.brief = &brief;
    route.gpu = &gpu;
    route.gpusPerReplica = cand.gpusPerReplica();
    route.replicaRatePerS = perf.requestRatePerReplicaPerS;
    route.peakToAverage = demand.peakToAverage;
    const ParameterCounts params = countParameters(w.model);
    route.weightsGb = params.total() * weightBitsPerParameter(w.weightsPrecision, a.flag(Assumption::Nf4DoubleQuant)) / 8 / 1e9;
    route.meanE2eS = perf.e2e.empty ? 0 : perf.e2e.mean;
    // The performance engine's replica count for the brief's own peak (simulated within the
    // SLO) wins over the linear estimate when the volume is the brief's own.
    std::optional<int> simulated;
    if (perf.replicasForPeak && !demand.fromBrief)
        simulated = *perf.replicasForPeak;
    if (!simulated && route.replicasNeeded(*demand.requestsPerMonth) > limits::kReplicas) {
        c.warnings.push_back({"replicas-beyond-limit",
                              fmt::format("{} requests a month in {} active hours would need {} replicas at their peak, more "
                                          "than the {} the engine sizes; no cost is given",
                                          readableCount(*demand.requestsPerMonth), readableNumber(activeHoursPerMonth(brief)),
                                          readableCount(route.replicasNeeded(*demand.requestsPerMonth)),
                                          readableCount(limits::kReplicas))});
        return c;
    }

    // Every price for this GPU, and per term the one that counts (cost/pricing.h).
    const double staleDays = a.value(Assumption::PriceStaleDays);
    std::map<PricingTerm, const GpuPrice *> chosen;
    for (const auto &[term, choice] : selectPrices(brief.cost.prices, catalog, cand.gpu, today, staleDays).chosen)
        chosen.emplace(term, choice.price);
    if (chosen.empty()) {
        c.warnings.push_back({"no-price", "no dated price for " + gpu.name
                                              + " in the price book or the brief; add a price quote (cost.prices in a brief file)"});
        return c;
    }
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
            c.warnings.push_back({unusable ? "spot-unusable" : "spot-interruptions",
                                  fmt::format("{}'s spot replicas ({}) would spend {:.0f}% of their time restarting after "
                                              "interruptions ({:g} per GPU a month, {:.0f} s a start){}",
                                              gpu.name, price->provider, 100 * *o.spotRestartShare,
                                              price->interruptionsPerGpuMonth.value_or(a.value(Assumption::SpotInterruptionsPerGpuMonth)),
                                              route.startS(),
                                              unusable ? ": they cannot carry the load, so the option is not priced"
                                                       : "; the capacity they lose is not replaced in this price")});
            if (unusable)
                continue;
        }
        o.ageDays = daysBetween(price->observed, today).value_or(0);
        o.stale = o.ageDays > staleDays;
        if (o.stale)
            c.warnings.push_back({"stale-price", "the " + std::string(termWords(term)) + " price of " + gpu.name
                                                     + fmt::format(" was observed {:.0f} days ago (", double(o.ageDays))
                                                     + price->observed + ", " + price->provider
                                                     + "); check it before relying on it"});
        if (api)
            o.breakEvenRequestsPerMonthVsApi = breakEvenVsApi(route, apiCurve(brief, *api));
        if (route.onDemandUsdPerGpuHour && term != PricingTerm::OnDemand && term != PricingTerm::Spot) {
            // A commitment pays for every hour; on-demand capacity for the hours it is billed.
            const double committed = term == PricingTerm::Purchase ? route.ownership(1.0).total() / a.value(Assumption::HoursPerMonth)
                                                                   : price->usdPerGpuHour;
            o.breakEvenUtilizationVsOnDemand = committed / *route.onDemandUsdPerGpuHour;
        }
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
            c.warnings.push_back({"commitment-vs-certainty",
                                  fmt::format("the {} offer of {} ({}) binds a {:g}-month minimum commitment, ${} over the "
                                              "term for the {} GPUs priced{}, while the brief's demand certainty is {}: "
                                              "commitments beyond {:g} months need demand that is certain "
                                              "(commitment_months_without_certainty)",
                                              termWords(term), gpu.name, price->provider, *o.commitmentMonths,
                                              usdAmount(o.committedUsd), o.gpus,
                                              price->upfrontFraction && *price->upfrontFraction > 0
                                                  ? fmt::format(" ({:.0f}% up front: ${})", 100 * *price->upfrontFraction,
                                                                usdAmount(o.committedUsd * *price->upfrontFraction))
                                                  : std::string(),
                                              enumName(brief.cost.decision.demandCertainty),
                                              a.value(Assumption::CommitmentMonthsWithoutCertainty))});
        if (o.coldStartShare && *o.coldStartShare >= kColdStartWarnShare
            && std::none_of(c.warnings.begin(), c.warnings.end(), [](const Warning &x) { return x.code == "cold-start"; }))
            c.warnings.push_back({"cold-start", fmt::format("as priced on {} GPUs ({} replicas), ", o.gpus, o.replicas) + coldStartWords(brief, o)});
        if (api && apiUsableFor(brief) && demand.peakToAverage >= a.value(Assumption::HybridMinPeakToAverage))
            if (std::optional<CostOption> h = hybridOf(route, *api, *demand.requestsPerMonth, o, today))
                c.hybrids.push_back(std::move(*h));
        c.options.push_back(std::move(o));
    }
    c.computed = true;
    return c;
}

} // namespace wb
