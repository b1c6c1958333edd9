#include "cost/gpuroute.h"

#include "core/format.h"
#include "core/limits.h"
#include "cost/routes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wb::detail {

double GpuRoute::replicasNeeded(double requests) const
{
    const double averageRate = requests / (activeHoursPerMonth(*brief) * kSecondsPerHour);
    return std::max(1.0, std::ceil(averageRate * peakToAverage / replicaRatePerS - 1e-9));
}

double GpuRoute::startS() const
{
    return replicaStartS(*brief);
}

GpuRoute::Ownership GpuRoute::ownership(double u) const
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

GpuRoute::Billed GpuRoute::rentedReplicaHours(int replicas, double busy) const
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
        const double start = startS();
        const Traffic &t = brief->workload.traffic;
        if (t.mode == TrafficMode::Offline) {
            // Offline work is queued at once: the queue keeps every replica started for it busy
            // until it drains, so it is billed for the work itself (at full use, not the
            // autoscaler's target) and one start per replica, not for a load spread over the month.
            const int extra = std::max(0, replicas - b.minReplicas);
            const double standing = b.minReplicas * hours;
            r.replicaHours = std::min(double(replicas) * hours,
                                      standing + std::max(0.0, busy - standing) + extra * start / kSecondsPerHour);
            r.basis = fmt::format("offline work: the queue keeps {} replica{} busy until it drains, billed for {:.1f} "
                                  "replica-hours of work plus a {:.0f} s start for each{}; the month's volume is taken as "
                                  "one queue (each further batch adds a start per replica)",
                                  replicas, replicas == 1 ? "" : "s", busy, start,
                                  b.minReplicas > 0 ? fmt::format(" started above the {} kept running", b.minReplicas)
                                                    : std::string());
            return r;
        }
        double billed = std::max(double(b.minReplicas) * hours, busy / target);
        r.basis = (b.model == Billing::Serverless
                       ? fmt::format("serverless, billed per second of use, scaled at {:.0f}% target utilization", 100 * target)
                       : fmt::format("autoscaled at {:.0f}% target utilization with at least {} replica{}", 100 * target,
                                     b.minReplicas, b.minReplicas == 1 ? "" : "s"))
            + fmt::format(" ({:.0f} s to start one: {:.1f} GB of weights at {:g} GB/s plus {:g} s)", start, weightsGb,
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
            billed = std::max(billed, (p + (1 - p) * (1 - cold)) * hours) + starts * start / kSecondsPerHour;
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
            } else if (start >= t.burstDurationS || t.burstPeriodS - t.burstDurationS < start) {
                billed = std::max(billed, double(replicas) * hours);
                r.coldStartShare = 0;
                r.basis += fmt::format("; bursts of {:g} s every {:g} s are shorter than a start, so the peak's {} replicas "
                                       "stay up",
                                       t.burstDurationS, t.burstPeriodS, replicas);
            } else {
                const double burstsPerMonth = hours * kSecondsPerHour / t.burstPeriodS;
                billed += extra * (t.burstDurationS + start) / kSecondsPerHour * burstsPerMonth;
                // What a burst adds above the running replicas' capacity waits for the new
                // ones in its first start time: a share of each period's requests.
                const double m = *t.burstMultiplier, rate = *t.requestRatePerS;
                const double excess = std::max(0.0, m * rate - std::max(1, base) * replicaRatePerS);
                const double waiting = excess * start / (rate * (t.burstPeriodS + (m - 1) * t.burstDurationS));
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

CostOption GpuRoute::at(double requests, std::optional<int> replicasOverride) const
{
    const Workload &w = brief->workload;
    const double hours = a().value(Assumption::HoursPerMonth);
    CostOption o;
    o.term = price->term;
    o.provider = price->provider;
    o.offer = price->offer;
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
    const double billed = committed ? o.replicas * hours : rented.replicaHours;
    if (!committed && rented.coldStartShare > 1e-6) {  // below one request in a million: none
        o.coldStartShare = rented.coldStartShare;
        o.coldStartS = startS();
        o.coldStartFromBursts = rented.coldStartFromBursts;
        o.coldStartOverSlo = coldStartMissesSlo(*brief, o);
    }
    o.billedShareOfMonth = billed / (o.replicas * hours);
    if (committed)
        o.onDemandBilledShare = rented.replicaHours / (o.replicas * hours);
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
        // The figure depends on the load (power): say so where it is read.
        priceBasis = fmt::format("ownership ${:.3f} per GPU-hour (depreciation, colocation, support, and power at {:.0f}% "
                                 "utilization), paid every hour", o.usdPerGpuHour, 100 * u);
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
            + (committed ? std::string(", paid every hour") : ", " + rented.basis);
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
    // Media generation names its lines as the method's media_accepted_cost does.
    const bool media = w.media.has_value();
    addLine(o.lines, media ? "failed_renders" : "retry_waste", gpuCost * u * wasted + spotExtra,
            fmt::format(fmt::runtime(media ? "busy time spent on renders that fail ({:.1f}%) and outputs the quality filter "
                                             "rejects ({:.1f}%)"
                                           : "busy time spent on failed attempts ({:.1f}%) and rejected outputs ({:.1f}%)"),
                        100 * f, 100 * (1 - q))
                + spotBasis);
    addLine(o.lines, "idle_capacity", gpuCost * (1 - u),
            (o.replicas > sized ? fmt::format("billed GPU time with no work: the {}-replica minimum kept running", o.replicas)
                                : fmt::format("billed GPU time with no work: provisioned for the peak ({:.2f}x the average)",
                                              peakToAverage))
                + (committed ? std::string(" and paid every hour of the month whether busy or not")
                             : std::string(" while billed")));
    const double included = price->includedStorageGbPerGpu.value_or(0) * o.gpus;
    // Media outputs are stored for output_retention_months: in steady state that many months of
    // accepted outputs are held.
    const double acceptedOutputs = requests * (1 - f) * q;
    const double outputGb = media ? acceptedOutputs * outputBytes(*brief) * a().value(Assumption::OutputRetentionMonths) / 1e9 : 0;
    addLine(o.lines, "storage",
            std::max(0.0, weightsGb * (o.replicas + 1) + outputGb - included) * a().value(Assumption::StorageUsdPerGbMonth),
            fmt::format("{:.1f} GB of weights x {:.0f} copies", weightsGb, o.replicas + 1.0)
                + (media ? fmt::format(" and {:.1f} GB of {} ({:.2f} MB each, kept {:g} months)", outputGb, acceptedUnits(brief->workload),
                                       outputBytes(*brief) / 1e6, a().value(Assumption::OutputRetentionMonths))
                         : std::string())
                + fmt::format(" x ${:.3f} per GB-month", a().value(Assumption::StorageUsdPerGbMonth))
                + (included > 0 ? fmt::format(", less {:g} GB included with the GPUs", included) : std::string()));
    // A media service's jobs go through a queue, priced per job; a text service's serving stack
    // is licensed per GPU.
    if (media)
        addLine(o.lines, "queue_overhead", requests * a().value(Assumption::QueueUsdPerMillionJobs) / 1e6,
                fmt::format("{} jobs through the queue at ${:.2f} per million (queue_usd_per_million_jobs)",
                            readableNumber(requests), a().value(Assumption::QueueUsdPerMillionJobs)));
    else
        addLine(o.lines, "serving_stack", o.gpus * a().value(Assumption::ServingStackUsdPerGpuMonth),
                fmt::format("${:.2f} per GPU a month", a().value(Assumption::ServingStackUsdPerGpuMonth)));
    const double egressGb = media ? requests * (1 - f) * outputBytes(*brief) / 1e9
                                  : requests * (1 - f) * outputTokensPerRequest(w) * a().value(Assumption::EgressBytesPerOutputToken) / 1e9;
    const double egressPrice = price->egressUsdPerGb.value_or(a().value(Assumption::EgressUsdPerGb));
    addLine(o.lines, "network", egressGb * egressPrice,
            fmt::format(fmt::runtime(media ? "{:.1f} GB of delivered outputs x ${:.3f} per GB"
                                           : "{:.1f} GB of streamed output x ${:.3f} per GB"),
                        egressGb, egressPrice)
                + (price->egressUsdPerGb ? " (the offer's egress price)" : ""));
    if (media) {
        const double finished = requests * (1 - f);
        addLine(o.lines, "moderation_or_quality_filtering", finished * a().value(Assumption::ModerationUsdPerOutput),
                fmt::format("{} finished outputs x ${:g} each (moderation_usd_per_output)", readableCount(finished),
                            a().value(Assumption::ModerationUsdPerOutput)));
        addLine(o.lines, "operator_review", finished * a().value(Assumption::OperatorReviewUsdPerOutput),
                fmt::format("{} finished outputs x ${:g} each (operator_review_usd_per_output)", readableCount(finished),
                            a().value(Assumption::OperatorReviewUsdPerOutput)));
    }
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

    finishOption(o, acceptedOutputs, tokensPerAcceptedOutput(w));
    return o;
}

} // namespace wb::detail
