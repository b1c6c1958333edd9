// The recommendation over all candidates: the model-API route, the best option per kind of
// commitment, rent / reserve / buy / API / hybrid with its reasons, and the seed's six common
// mistakes as warnings. Every threshold is a named assumption (core/assumptions.h).
#include "cost/cost.h"
#include "cost/routes.h"
#include "evaluate/evaluate.h"
#include "core/format.h"
#include "evaluate/mistakes.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <optional>

namespace wb {

using namespace detail;

namespace {

// "2 x NVIDIA L40S 48GB TP1 vLLM (on-demand)": a priced GPU option in words, with its layout and
// stack (two candidates of one GPU read alike without).
std::string optionWords(const CandidateResult &d, const CostOption &o)
{
    const Candidate &c = d.candidate;
    return fmt::format("{} x {} TP{}{} {} ({})", o.gpus, d.gpuName.empty() ? c.gpu : d.gpuName, c.tensorParallel,
                       c.pipelineParallel > 1 ? fmt::format(" PP{}", c.pipelineParallel) : "", stackWords(c.servingStack), termWords(*o.term));
}

// What the labour assumptions the ranking check varies are, in words.
const char *assumptionWords(Assumption a)
{
    switch (a) {
    case Assumption::PlatformFteSelfHosted: return "the engineers running the GPU platform";
    case Assumption::PlatformFteApi: return "the engineers the API route needs";
    case Assumption::EngineerUsdPerYear: return "an engineer's yearly cost in USD";
    default: return "";
    }
}

// Spot capacity is interrupted at the provider's will: the method ties it to batch work that
// tolerates retries. A brief with a latency target leaves it out of the recommendation unless
// its decision says interruptions are acceptable.
bool spotAllowed(const Brief &brief)
{
    return brief.cost.decision.interruptionsAcceptable.value_or(brief.workload.slo.empty());
}

// Options the recommendation weighs: spot only where interruptions are acceptable, and none whose
// cold starts put the p99 time to first token over the brief's target (cost.h).
bool weighed(const Brief &brief, const CostOption &o)
{
    return (o.term != PricingTerm::Spot || spotAllowed(brief)) && !o.coldStartOverSlo;
}

// The two cheapest options per accepted output (current prices before stale ones), how close
// they are, and each labour assumption's value at which their order reverses. An option's monthly
// total is linear in each: total(x) = total(x0) + k (x - x0), with k the engineer cost a month per
// unit of the assumption (only the options the assumption applies to have k > 0).
std::optional<RankingCheck> checkRanking(const Brief &brief, const std::vector<CandidateResult> &results,
                                         const CostOption *api)
{
    struct Entry
    {
        std::string label;
        const CostOption *option;
    };
    std::vector<Entry> entries;
    bool anyCurrent = api && !api->stale;
    for (const CandidateResult &entered : results)
        for (const CostOption &o : deployment(entered).cost.options)
            anyCurrent = anyCurrent || !o.stale;
    for (const CandidateResult &entered : results) {
        const CandidateResult &r = deployment(entered);
        for (const CostOption &o : r.cost.options)
            if (!(anyCurrent && o.stale) && o.acceptedOutputsPerMonth > 0 && weighed(brief, o))
                entries.push_back({optionWords(r, o), &o});
    }
    if (api && !(anyCurrent && api->stale) && api->acceptedOutputsPerMonth > 0)
        entries.push_back({"the model API", api});
    if (entries.size() < 2)
        return std::nullopt;
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return a.option->costPerAcceptedOutput < b.option->costPerAcceptedOutput;
    });
    const Assumptions &a = brief.assumptions;
    RankingCheck check;
    const CostOption &first = *entries[0].option, &second = *entries[1].option;
    check.first = entries[0].label;
    check.second = entries[1].label;
    check.gap = first.costPerAcceptedOutput > 0
                    ? (second.costPerAcceptedOutput - first.costPerAcceptedOutput) / first.costPerAcceptedOutput
                    : 0;
    for (const Entry &e : entries)
        check.withinNearTie += e.option->costPerAcceptedOutput
                               <= first.costPerAcceptedOutput * (1 + a.value(Assumption::NearTieFraction));
    const double engineerMonth = a.value(Assumption::EngineerUsdPerYear) / 12;
    const auto slope = [&](const CostOption &o, Assumption which) {
        const bool gpu = !o.api;
        switch (which) {
        case Assumption::PlatformFteSelfHosted: return gpu ? engineerMonth : 0.0;
        case Assumption::PlatformFteApi: return gpu ? 0.0 : engineerMonth;
        case Assumption::EngineerUsdPerYear: {
            double fte = gpu ? a.value(Assumption::PlatformFteSelfHosted) : a.value(Assumption::PlatformFteApi);
            if (gpu && o.term == PricingTerm::Purchase)
                fte += a.value(Assumption::OperationsFtePurchase);
            return fte / 12;
        }
        default: return 0.0;
        }
    };
    // A run's labour is training_platform_fte for the run's length, not a monthly share: no
    // labour assumption's flip is worked out for runs.
    if (first.perRun || second.perRun)
        return check;
    for (Assumption which : {Assumption::PlatformFteSelfHosted, Assumption::PlatformFteApi, Assumption::EngineerUsdPerYear}) {
        const double k1 = slope(first, which) / first.acceptedOutputsPerMonth;
        const double k2 = slope(second, which) / second.acceptedOutputsPerMonth;
        if (std::abs(k1 - k2) < 1e-15)
            continue;  // moves both alike: never reverses them
        const double x0 = a.value(which);
        const double at = x0 + (second.costPerAcceptedOutput - first.costPerAcceptedOutput) / (k1 - k2);
        if (at >= 0 && std::isfinite(at))
            check.flips.push_back({which, x0, at});
    }
    return check;
}

} // namespace

CostSummary summarizeCost(const Brief &brief, const std::vector<CandidateResult> &results, const Catalog &catalog,
                          const std::string &today)
{
    CostSummary s;
    s.today = today;
    const Workload &w = brief.workload;
    s.unit = acceptedUnit(w);
    s.units = acceptedUnits(w);
    const bool media = w.media.has_value(), runs = isTraining(w.kind) || isAdapter(w.kind);
    const Decision &d = brief.cost.decision;
    const Demand demand = demandOf(brief);

    const ApiPrice *apiPrice = apiPriceFor(brief, catalog);
    s.apiAllowed = detail::apiUsableFor(brief);
    // An API left out by the data region is said so, not as a missing price.
    const std::vector<Warning> regionWarnings = apiRegionWarnings(brief, catalog);
    s.warnings.insert(s.warnings.end(), regionWarnings.begin(), regionWarnings.end());
    const bool apiOutsideRegion = !apiPrice && !regionWarnings.empty();
    if (apiPrice && runs) {
        // A run is one request: its training tokens (without them there is no run to price).
        if (w.training && w.training->tokens)
            s.api = apiOption(brief, *apiPrice, 1, today);
    } else if (apiPrice && demand.requestsPerMonth) {
        s.api = apiOption(brief, *apiPrice, *demand.requestsPerMonth, today);
        for (double v : volumeSamples(*demand.requestsPerMonth))
            s.api->monthlyCostByVolume.emplace_back(v, apiOption(brief, *apiPrice, v, today).totalUsdPerMonth);
    }
    else if (w.kind == WorkloadKind::Training || apiOutsideRegion) {
        // Pre-training has no API to compare with; one outside the data region is said above.
    }
    else if (runs)
        s.warnings.push_back(makeMessage("no-api-price", "/cost/api",
                                         WB_MESSAGE("Messages", "no managed fine-tuning price for {model} ({run}) in the price book: "
                                                    "the GPU route is not compared with one (add cost.api with "
                                                    "usd_per_million_training_tokens)"),
                                         {{"model", w.model.id}, {"run", std::string(isAdapter(w.kind) ? "LoRA" : "full fine-tuning")}}));
    else if (media && !apiPrice)
        s.warnings.push_back(makeMessage("no-api-price", "/cost/api",
                                         w.media->model.video
                                             ? WB_MESSAGE("Messages", "no video-API price for {pipeline} in the price book: the GPU "
                                                          "route is not compared with an API (add cost.api with "
                                                          "usd_per_video_second)")
                                             : WB_MESSAGE("Messages", "no image-API price for {pipeline} in the price book: the GPU "
                                                          "route is not compared with an API (add cost.api with usd_per_image "
                                                          "or usd_per_megapixel)"),
                                         {{"pipeline", w.media->model.name}}));
    else if (!apiPrice)
        s.warnings.push_back(makeMessage("no-api-price", "/cost/api",
                                         WB_MESSAGE("Messages", "no model-API price for {model}: the GPU route is not compared with an "
                                                    "API (add cost.api)"),
                                         {{"model", w.model.id}}));
    else
        s.warnings.push_back(makeMessage("no-api-volume", "/cost/requests_per_month",
                                         WB_MESSAGE("Messages", "the brief states no monthly volume, so the API route is not priced "
                                                    "(add cost.requests_per_month)")));
    // An API serving the model at fewer bits than the brief accepts is not quite the same model.
    if (const auto served = apiPrice && !runs && !media ? apiPrice->weightsPrecision : std::nullopt; s.api && served)
        if (std::find(w.acceptablePrecisions.begin(), w.acceptablePrecisions.end(), *served) == w.acceptablePrecisions.end()
            && weightBitsPerParameter(*served) < weightBitsPerParameter(w.weightsPrecision))
            s.warnings.push_back(makeMessage(
                "api-lower-precision", "/workload/weights_precision",
                WB_MESSAGE("Messages", "the model API ({provider}) serves {model} at {served}, the brief's weights are {asked}: "
                           "its answers may differ from the GPUs' (run the evaluation set through it, or add {served} to "
                           "workload.acceptable_precisions if its quality is accepted)"),
                {{"provider", apiPrice->provider}, {"model", w.model.name}, {"served", std::string(enumName(*served))},
                 {"asked", std::string(enumName(w.weightsPrecision))}}));
    if (s.api && s.api->stale)
        s.warnings.push_back(makeMessage("stale-price", "/cost/api/observed",
                                         WB_MESSAGE("Messages", "the API price was observed {observed}; check it"),
                                         {{"observed", s.api->observed}}));
    // A scheduled window bounds the work, not only the bill: a real-time service's requests arrive
    // only then. Said, since it lowers every route's volume.
    if (const BillingInputs &b = brief.cost.billing; b.model == Billing::Scheduled
        && brief.workload.kind == WorkloadKind::RealtimeInference && !brief.cost.requestsPerMonth
        && activeHoursPerMonth(brief) < brief.assumptions.value(Assumption::HoursPerMonth))
        s.warnings.push_back(makeMessage("scheduled-window-traffic", "/cost/billing",
                                         WB_MESSAGE("Messages", "billed in a scheduled window, the traffic runs only then: {hours} hours "
                                                    "of the month's {month_hours}, so every route, the API's too, is priced "
                                                    "for that share of the requests; a service that takes requests around "
                                                    "the clock is billed always on, autoscaled or serverless"),
                                         {{"hours", readableNumber(activeHoursPerMonth(brief))},
                                          {"month_hours", readableNumber(brief.assumptions.value(Assumption::HoursPerMonth))}}));

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
    std::optional<Pick> spotLeftOut, coldLeftOut;
    for (std::size_t i = 0; i < results.size(); ++i)
        for (const CostOption &o : deployment(results[i]).cost.options) {
            if (!weighed(brief, o)) {
                consider(o.term == PricingTerm::Spot && !spotAllowed(brief) ? spotLeftOut : coldLeftOut, i, o);
                continue;
            }
            consider(best, i, o);
            if (o.term == PricingTerm::OnDemand || o.term == PricingTerm::Spot)
                consider(rent, i, o);
            else if (o.term == PricingTerm::Purchase)
                consider(buy, i, o);
            else
                consider(reserve, i, o);
        }

    // The hybrid of a GPU option, when costCandidate priced one.
    const auto hybridOf = [&](const Pick &p) {
        s.hybrid.reset();
        s.hybridCandidate.reset();
        for (const CostOption &h : deployment(results[p.candidate]).cost.hybrids)
            if (h.term == p.option->term && h.hybrid && !h.coldStartOverSlo) {
                s.hybrid = h;
                s.hybridCandidate = p.candidate;
            }
    };
    if (best)
        hybridOf(*best);

    // Common mistakes 1 to 5 (mistakes.cpp); 6 once the recommendation is known.
    warnCommonMistakes(brief, results, catalog,
                       rent ? std::optional(std::pair{rent->candidate, rent->option}) : std::nullopt, s.warnings);

    s.ranking = checkRanking(brief, results, s.api && apiUsableFor(brief) ? &*s.api : nullptr);

    // The recommendation.
    Recommendation rec;
    rec.unit = s.unit;
    const bool apiUsable = s.api && apiUsableFor(brief);
    if (s.api && !d.apiAllowed)
        rec.reasons.push_back(makeMessage("api-ruled-out-by-boundary", "/cost/decision/api_allowed",
                                          WB_MESSAGE("Messages", "the data boundary rules out a third-party model API")));
    if (s.api && d.needsHardwareControl)
        rec.reasons.push_back(makeMessage("api-no-hardware-control", "/cost/decision/needs_hardware_control",
                                          WB_MESSAGE("Messages", "the brief needs control of the hardware (kernels, runtime, topology "
                                                     "or weights), which an API does not give")));
    if (!best && !apiUsable) {
        s.warnings.push_back(
            spotLeftOut ? makeMessage("no-recommendation", "/cost/decision/interruptions_acceptable",
                                      WB_MESSAGE("Messages", "only spot capacity was priced, and spot is left out (a latency target, or "
                                                 "cost.decision.interruptions_acceptable false), so there is nothing to "
                                                 "recommend"))
            : coldLeftOut ? makeMessage("no-recommendation", "/cost/billing",
                                        WB_MESSAGE("Messages", "every priced option waits for cold starts longer than the brief's p99 "
                                                   "time to first token (see the cold-start warning), so there is nothing "
                                                   "to recommend"))
                          : makeMessage("no-recommendation", "",
                                        WB_MESSAGE("Messages", "no candidate could be priced, so there is nothing to recommend")));
        s.recommendation = std::nullopt;
        return s;
    }
    // Which GPU commitment the decision allows: buy or reserve only for certain, sustained demand
    // on a stable model, and never a reservation dearer per accepted output than renting on
    // demand. `setAside` says why the cheapest GPU option was not taken, and what the next costs.
    std::optional<Pick> allowed = best;
    std::vector<Message> setAside;
    const auto cost = [](const Pick &p) { return p.option->costPerAcceptedOutput; };
    if (best && best->option->term == PricingTerm::Purchase && (d.demandCertainty != Level::High || d.modelChurn != Level::Low)
        && (reserve || rent)) {
        const bool reserveAllowed = reserve && (d.demandCertainty != Level::Low || !rent);
        const Pick next = reserveAllowed && (!rent || cost(*reserve) <= cost(*rent)) ? *reserve : *rent;
        setAside.push_back(makeMessage("purchase-needs-certainty", "/cost/decision/demand_certainty",
                                       runs ? WB_MESSAGE("Messages", "buying is the cheapest GPU option (${buy_cost_text} per accepted "
                                                         "run), but the brief does not state high demand certainty and low "
                                                         "model churn, which a purchase needs; the next, {option}, costs "
                                                         "${next_cost_text}")
                                            : WB_MESSAGE("Messages", "buying is the cheapest GPU option (${buy_cost:.6f} per {unit}), "
                                                         "but the brief does not state high demand certainty and low "
                                                         "model churn, which a purchase needs; the next, {option}, costs "
                                                         "${next_cost:.6f}"),
                                       {{"unit", rec.unit}, {"buy_cost", cost(*best)},
                                        {"option", optionWords(deployment(results[next.candidate]), *next.option)},
                                        {"next_cost", cost(next)}, {"buy_cost_text", usdPerOutput(cost(*best))},
                                        {"next_cost_text", usdPerOutput(cost(next))}}));
        if (reserveAllowed && rent && next.option == rent->option)
            setAside.push_back(makeMessage("reservation-dearer-than-rent", "",
                                           runs ? WB_MESSAGE("Messages", "the cheapest reservation, {option}, costs "
                                                             "${reserve_cost_text} per accepted run against ${rent_cost_text} "
                                                             "renting on demand, so it is not recommended")
                                                : WB_MESSAGE("Messages", "the cheapest reservation, {option}, costs "
                                                             "${reserve_cost:.6f} per {unit} against ${rent_cost:.6f} "
                                                             "renting on demand, so it is not recommended"),
                                           {{"unit", rec.unit}, {"option", optionWords(deployment(results[reserve->candidate]), *reserve->option)},
                                            {"reserve_cost", cost(*reserve)}, {"rent_cost", cost(*rent)},
                                            {"reserve_cost_text", usdPerOutput(cost(*reserve))},
                                            {"rent_cost_text", usdPerOutput(cost(*rent))}}));
        allowed = next;
    }
    if (allowed && allowed->option->term != PricingTerm::Purchase && allowed->option->term != PricingTerm::OnDemand
        && allowed->option->term != PricingTerm::Spot && d.demandCertainty == Level::Low && rent) {
        setAside.push_back(makeMessage("reservation-needs-certainty", "/cost/decision/demand_certainty",
                                       WB_MESSAGE("Messages", "reserving is cheaper, but demand certainty is low; a reservation "
                                                  "is paid whether used or not")));
        allowed = rent;
    }
    const double gpuCost = allowed ? cost(*allowed) : INFINITY;
    const bool uncertain = d.demandCertainty == Level::Low || d.modelChurn == Level::High;
    if (apiUsable && (s.api->costPerAcceptedOutput <= gpuCost || (uncertain && s.api->costPerAcceptedOutput <= brief.assumptions.value(Assumption::ApiFlexibilityPremium) * gpuCost))) {
        rec.route = Route::Api;
        rec.costPerAcceptedOutput = s.api->costPerAcceptedOutput;
        rec.usdPerMonth = s.api->totalUsdPerMonth;
        rec.perRun = s.api->perRun;
        rec.provider = s.api->provider;
        rec.reasons.push_back(makeMessage(
            "api-cheapest", "",
            runs ? (best ? WB_MESSAGE("Messages", "the managed fine-tuning service ({provider}) costs ${api_cost_text} per accepted "
                                      "run against ${gpu_cost_text} for the best GPU option the decision allows, with no "
                                      "cluster to run or watch")
                         : WB_MESSAGE("Messages", "the managed fine-tuning service ({provider}) costs ${api_cost_text} per accepted "
                                      "run, with no cluster to run or watch"))
            : best ? WB_MESSAGE("Messages", "the model API costs ${api_cost:.6f} per {unit} against ${gpu_cost:.6f} for the best "
                              "GPU option the decision allows at this volume, with no idle capacity and less platform work")
                 : WB_MESSAGE("Messages", "the model API costs ${api_cost:.6f} per {unit} at this volume, with no idle "
                              "capacity and less platform work"),
            {{"unit", rec.unit}, {"api_cost", s.api->costPerAcceptedOutput}, {"gpu_cost", best ? gpuCost : 0.0}, {"provider", s.api->provider},
             {"api_cost_text", usdPerOutput(s.api->costPerAcceptedOutput)}, {"gpu_cost_text", usdPerOutput(best ? gpuCost : 0.0)}}));
        if (uncertain)
            rec.reasons.push_back(makeMessage("api-flexibility", "/cost/decision/demand_certainty",
                                              WB_MESSAGE("Messages", "demand is uncertain or the model is expected to change: billing per "
                                                         "use avoids a commitment that could outlive the model")));
        std::copy_if(s.warnings.begin(), s.warnings.end(), std::back_inserter(rec.reasons),
                     [](const Warning &m) { return m.code == "api-lower-precision"; });
        rec.reasons.insert(rec.reasons.end(), setAside.begin(), setAside.end());
        if (allowed && allowed->option->breakEvenRequestsPerMonthVsApi)
            rec.reasons.push_back(makeMessage("api-break-even", "/cost/requests_per_month",
                                              WB_MESSAGE("Messages", "self-hosting on {option} becomes cheaper from about {requests_text} "
                                                         "requests a month; revisit then"),
                                              {{"option", optionWords(deployment(results[allowed->candidate]), *allowed->option)},
                                               {"requests", *allowed->option->breakEvenRequestsPerMonthVsApi},
                                               {"requests_text", readableCount(*allowed->option->breakEvenRequestsPerMonthVsApi)}}));
    } else if (!allowed) {
        // The API was usable but its cost is not a number (a volume beyond what it prices):
        // nothing to compare, and nothing to recommend.
        s.warnings.push_back(makeMessage("no-recommendation", "",
                                         WB_MESSAGE("Messages", "the model API's cost per {unit} could not be computed and no "
                                                    "GPU option was priced, so there is nothing to recommend"),
                                         {{"unit", rec.unit}}));
        s.recommendation = std::nullopt;
        return s;
    } else {
        const Pick pick = *allowed;
        rec.route = pick.option->term == PricingTerm::Purchase ? Route::Buy
                    : pick.option->term == PricingTerm::OnDemand || pick.option->term == PricingTerm::Spot ? Route::Rent
                                                                                                           : Route::Reserve;
        rec.reasons.insert(rec.reasons.end(), setAside.begin(), setAside.end());
        const CostOption &o = *pick.option;
        rec.candidate = pick.candidate;
        rec.term = o.term;
        rec.provider = o.provider;
        rec.offer = o.offer;
        rec.costPerAcceptedOutput = o.costPerAcceptedOutput;
        rec.usdPerMonth = o.totalUsdPerMonth;
        if (o.stale)
            rec.reasons.push_back(makeMessage("stale-price", "/cost/prices",
                                              WB_MESSAGE("Messages", "the price behind this option was observed {observed}, longer ago "
                                                         "than price_stale_days: get a current quote before deciding"),
                                              {{"observed", o.observed}}));
        rec.perRun = o.perRun;
        const MessageArgs optionArgs = {{"unit", rec.unit}, {"gpus", std::int64_t(o.gpus)}, {"gpu", deployment(results[pick.candidate]).gpuName},
                                        {"term", std::string(termWords(*o.term))}, {"provider", o.provider},
                                        {"cost", o.costPerAcceptedOutput},
                                        {o.perRun ? "usd_per_run" : "usd_per_month", o.totalUsdPerMonth},
                                        {"cost_text", usdPerOutput(o.costPerAcceptedOutput)},
                                        {"usd_text", usdAmount(o.totalUsdPerMonth)},
                                        {"utilization_percent", 100 * o.utilization}};
        // A run's utilization is the share of the GPU time paid for that trains (trainingcost.cpp).
        rec.reasons.push_back(makeMessage("option-cost", "",
                                          o.perRun ? WB_MESSAGE("Messages", "{gpus} {gpu} ({term}, {provider}) cost ${cost_text} per "
                                                                "accepted run, ${usd_text} a run, training "
                                                                "{utilization_percent:.0f}% of the GPU time paid for")
                                                   : WB_MESSAGE("Messages", "{gpus} {gpu} ({term}, {provider}) cost ${cost:.6f} per "
                                                                "{unit}, ${usd_text} a month, at "
                                                                "{utilization_percent:.0f}% utilization"),
                                          optionArgs));
        // A commitment against the same GPUs rented on demand, billed the brief's way (always on,
        // a scheduled window or autoscaled): the commitment wins when on-demand would be billed
        // for a larger share of the month than the price ratio.
        if (o.breakEvenUtilizationVsOnDemand && *o.breakEvenUtilizationVsOnDemand <= 1 && o.onDemandBilledShare) {
            const double breakEven = 100 * *o.breakEvenUtilizationVsOnDemand, billed = 100 * *o.onDemandBilledShare;
            const MessageArgs args = {{"break_even_percent", breakEven}, {"billed_percent", billed},
                                      {"billing", std::string(enumName(brief.cost.billing.model))}};
            if (*o.onDemandBilledShare >= *o.breakEvenUtilizationVsOnDemand)
                rec.reasons.push_back(makeMessage("commitment-pays", "/cost/billing",
                                                  WB_MESSAGE("Messages", "this commitment costs less than renting on demand once "
                                                             "on-demand GPUs are billed for more than "
                                                             "{break_even_percent:.0f}% of the month; with {billing} billing "
                                                             "they would be billed for {billed_percent:.0f}%"),
                                                  args));
            else
                rec.reasons.push_back(makeMessage("on-demand-cheaper", "/cost/billing",
                                                  WB_MESSAGE("Messages", "on-demand GPUs would be billed for {billed_percent:.0f}% of the "
                                                             "month with {billing} billing, below the "
                                                             "{break_even_percent:.0f}% from which this commitment pays: "
                                                             "renting on demand costs less for the same GPUs"),
                                                  args));
        }
        else if (o.breakEvenUtilizationVsOnDemand && *o.breakEvenUtilizationVsOnDemand > 1)
            rec.reasons.push_back(makeMessage("commitment-dearer-per-hour", "",
                                              WB_MESSAGE("Messages", "this commitment costs more per hour than the cheapest on-demand "
                                                         "offer, so it never beats renting on demand")));
        if (o.paybackMonths)
            rec.reasons.push_back(makeMessage("purchase-payback", "",
                                              WB_MESSAGE("Messages", "the purchase pays back in {months:.1f} months against renting on "
                                                         "demand"),
                                              {{"months", *o.paybackMonths}}));
        if (s.api)
            rec.reasons.push_back(makeMessage(
                "api-cost", "/cost/api",
                runs ? WB_MESSAGE("Messages", "the managed fine-tuning service ({provider}) would cost ${api_cost_text} per accepted run")
                : o.breakEvenRequestsPerMonthVsApi
                    ? WB_MESSAGE("Messages", "the model API would cost ${api_cost:.6f} per {unit}; self-hosting wins from "
                                 "about {requests_text} requests a month")
                    : WB_MESSAGE("Messages", "the model API would cost ${api_cost:.6f} per {unit}"),
                {{"unit", rec.unit}, {"api_cost", s.api->costPerAcceptedOutput}, {"provider", s.api->provider},
                 {"api_cost_text", usdPerOutput(s.api->costPerAcceptedOutput)},
                 {"requests", o.breakEvenRequestsPerMonthVsApi.value_or(0)},
                 {"requests_text", o.breakEvenRequestsPerMonthVsApi ? readableCount(*o.breakEvenRequestsPerMonthVsApi) : std::string()}}));
        // Hybrid: GPUs for the steady base, the API for what bursts add above it (costCandidate
        // prices it per option, in full); recommended when it costs less per accepted output.
        hybridOf(pick);
        if (s.hybrid && s.hybrid->costPerAcceptedOutput < o.costPerAcceptedOutput) {
            const CostOption &h = *s.hybrid;
            const CostOption::HybridSplit &split = *h.hybrid;
            rec.route = Route::Hybrid;
            rec.usdPerMonth = h.totalUsdPerMonth;
            rec.costPerAcceptedOutput = h.costPerAcceptedOutput;
            rec.reasons.push_back(makeMessage(
                "hybrid-cheaper", "/workload/traffic",
                WB_MESSAGE("Messages", "traffic peaks at {peak_to_average:.1f}x its average: {base_replicas} replicas for the steady base "
                           "(${gpu_usd_text} a month with their platform labour, storage and observability) and the "
                           "API for the {overflow_requests} requests a month bursts add above them ({overflow_input} input "
                           "and {overflow_output} output tokens, ${api_usd_text} a month with its own platform "
                           "labour) cost ${hybrid_cost:.6f} per {unit}, against ${gpu_cost:.6f} for the GPUs alone"),
                {{"unit", rec.unit}, {"peak_to_average", demand.peakToAverage}, {"base_replicas", std::int64_t(split.baseReplicas)},
                 {"gpu_usd_per_month", split.gpuUsdPerMonth}, {"gpu_usd_text", usdAmount(split.gpuUsdPerMonth)},
                 {"overflow_requests", readableCount(split.overflowRequestsPerMonth)},
                 {"overflow_input", readableCount(split.overflowInputTokensPerMonth)},
                 {"overflow_output", readableCount(split.overflowOutputTokensPerMonth)},
                 {"api_usd_per_month", split.apiUsdPerMonth}, {"api_usd_text", usdAmount(split.apiUsdPerMonth)},
                 {"hybrid_cost", h.costPerAcceptedOutput},
                 {"gpu_cost", o.costPerAcceptedOutput}}));
            // Cheaper than both pure routes: say which costs each of them carries that it does not.
            if (s.api && h.costPerAcceptedOutput < s.api->costPerAcceptedOutput) {
                double idle = 0;
                for (const CostLine &l : o.lines)
                    idle += l.name == "idle_capacity" ? l.usdPerMonth : 0;
                rec.reasons.push_back(makeMessage(
                    "hybrid-below-both", "",
                    WB_MESSAGE("Messages", "the hybrid costs less than either pure route: the GPUs alone keep {replicas} replicas for "
                               "the bursts and pay ${idle_usd_text} a month for their idle time, and the API alone "
                               "bills all {api_requests} requests at ${api_usd_text} a month; the hybrid pays the "
                               "API only for the overflow"),
                    {{"replicas", std::int64_t(o.replicas)}, {"idle_usd_per_month", idle}, {"idle_usd_text", usdAmount(idle)},
                     {"api_requests", readableCount(s.api->requestsPerMonth)}, {"api_usd_per_month", s.api->totalUsdPerMonth},
                     {"api_usd_text", usdAmount(s.api->totalUsdPerMonth)}}));
            }
        }
        // A reservation's term is a commitment too (12 or 36 months unless the offer says otherwise).
        if (rec.route == Route::Reserve && d.demandCertainty != Level::High) {
            const double months = o.commitmentMonths.value_or(o.term == PricingTerm::Reserved3y ? 36 : 12);
            if (months > brief.assumptions.value(Assumption::CommitmentMonthsWithoutCertainty))
                rec.reasons.push_back(makeMessage("reservation-term", "/cost/decision/demand_certainty",
                                                  WB_MESSAGE("Messages", "the reservation binds {months:g} months while demand "
                                                             "certainty is {certainty}: confirm the volume for the whole "
                                                             "term, or rent"),
                                                  {{"months", months}, {"certainty", std::string(enumName(d.demandCertainty))}}));
        }
        if (d.modelChurn == Level::High && (rec.route == Route::Buy || rec.route == Route::Reserve))
            rec.reasons.push_back(makeMessage("model-churn", "/cost/decision/model_churn",
                                              WB_MESSAGE("Messages", "the model is expected to change: keep the commitment short")));
    }
    // A ranking that a near tie or a plausible change of assumption would reverse says so: which
    // assumption, and at what value (from the same option figures the reasons above cite).
    if (s.ranking) {
        const RankingCheck &k = *s.ranking;
        const double nearTie = brief.assumptions.value(Assumption::NearTieFraction);
        if (k.gap < nearTie)
            rec.reasons.push_back(makeMessage("near-tie", "/assumptions/near_tie_fraction",
                                              WB_MESSAGE("Messages", "near tie: {first} and {second} differ by {gap_percent:.1f}% per "
                                                         "{unit} (options within {near_tie_percent:.0f}% of the "
                                                         "cheapest, near_tie_fraction: {within}); the choice between them "
                                                         "rests on the assumptions"),
                                              {{"unit", rec.unit}, {"first", k.first}, {"second", k.second}, {"gap_percent", 100 * k.gap},
                                               {"within", std::int64_t(k.withinNearTie)}, {"near_tie_percent", 100 * nearTie}}));
        for (const RankingFlip &f : k.flips) {
            const AssumptionInfo &info = assumptionInfo(f.assumption);
            // Only a reversal within a plausible range is worth the reader's attention: from half
            // to twice the value assumed (or any value while it is zero).
            const bool plausible = f.current == 0 ? f.flipsAt <= 1 : f.flipsAt >= 0.5 * f.current && f.flipsAt <= 2 * f.current;
            if (plausible || k.gap < nearTie)
                rec.reasons.push_back(makeMessage("ranking-flip", "/assumptions/" + std::string(info.name),
                                                  WB_MESSAGE("Messages", "{second} would become cheaper than {first} if {assumption} "
                                                             "were {flips_at_text} instead of {current_text} ({key})"),
                                                  {{"second", k.second}, {"first", k.first},
                                                   {"assumption", assumptionWords(f.assumption)}, {"flips_at", f.flipsAt},
                                                   {"flips_at_text", readableNumber(f.flipsAt)}, {"current", f.current},
                                                   {"current_text", readableNumber(f.current)}, {"key", std::string(info.name)}}));
        }
    }
    // A cheaper option whose price is stale is weighed only where no current price of its kind of
    // commitment exists: said, with what a new quote would be weighed against.
    std::optional<Pick> staleCheaper;
    for (std::size_t i = 0; i < results.size(); ++i)
        for (const CostOption &o : deployment(results[i]).cost.options)
            if (o.stale && weighed(brief, o) && o.costPerAcceptedOutput < rec.costPerAcceptedOutput
                && (!staleCheaper || o.costPerAcceptedOutput < cost(*staleCheaper)))
                staleCheaper = Pick{i, &o};
    if (staleCheaper && !(rec.candidate == staleCheaper->candidate && rec.term == staleCheaper->option->term))
        rec.reasons.push_back(makeMessage(
            "stale-price-left-out", "/cost/prices",
            runs ? WB_MESSAGE("Messages", "{option} would cost ${cost_text} per accepted run, but its price was observed "
                              "{observed}, longer ago than price_stale_days: a current quote is needed to weigh it")
                 : WB_MESSAGE("Messages", "{option} would cost ${cost:.6f} per {unit}, but its price was observed "
                              "{observed}, longer ago than price_stale_days: a current quote is needed to weigh it"),
            {{"unit", rec.unit}, {"option", optionWords(deployment(results[staleCheaper->candidate]), *staleCheaper->option)},
             {"cost", cost(*staleCheaper)}, {"cost_text", usdPerOutput(cost(*staleCheaper))},
             {"observed", staleCheaper->option->observed}}));
    if (spotLeftOut && (!best || spotLeftOut->option->costPerAcceptedOutput < best->option->costPerAcceptedOutput))
        rec.reasons.push_back(makeMessage(
            "spot-left-out", "/cost/decision/interruptions_acceptable",
            d.interruptionsAcceptable
                ? WB_MESSAGE("Messages", "spot capacity is left out ({option} at ${cost:.6f} per {unit}): the brief says "
                             "interruptions are not acceptable (cost.decision.interruptions_acceptable)")
                : WB_MESSAGE("Messages", "spot capacity is left out ({option} at ${cost:.6f} per {unit}): the brief has a "
                             "latency target, and a spot replica taken back mid-request breaks it; set "
                             "cost.decision.interruptions_acceptable to weigh spot anyway"),
            {{"unit", rec.unit}, {"option", optionWords(deployment(results[spotLeftOut->candidate]), *spotLeftOut->option)},
             {"cost", spotLeftOut->option->costPerAcceptedOutput}}));
    if (coldLeftOut && (!best || coldLeftOut->option->costPerAcceptedOutput < best->option->costPerAcceptedOutput)) {
        // The cold-start warning's words and arguments, after which option is left out and why.
        Message cold = coldStartMessage(brief, *coldLeftOut->option);
        cold.args.emplace_back("option", optionWords(deployment(results[coldLeftOut->candidate]), *coldLeftOut->option));
        cold.args.emplace_back("cost", coldLeftOut->option->costPerAcceptedOutput);
        cold.args.emplace_back("unit", rec.unit);
        rec.reasons.push_back(makeMessage(
            "cold-start-left-out", "/cost/billing",
            coldStartMissesSlo(brief, *coldLeftOut->option)
                ? WB_MESSAGE("Messages", "{option} is left out (${cost:.6f} per {unit}): as priced on {gpus} GPUs ({replicas} "
                             "replicas), under {billing} billing {share_percent:.1f}% of requests find no replica ready for "
                             "them ({zero_percent:.1f}% find the service scaled to zero, {burst_percent:.1f}% arrive as a "
                             "burst outgrows the replicas running) and wait up to {start_s:.0f} s for one to start, which "
                             "the simulated latencies do not include: the p99 time to first token is then over the brief's "
                             "{ttft_p99_s:g} s target; keep more replicas running (a minimum, or always on at the peak's "
                             "capacity), send bursts to an API, or commit to capacity")
                : WB_MESSAGE("Messages", "{option} is left out (${cost:.6f} per {unit}): as priced on {gpus} GPUs ({replicas} "
                             "replicas), under {billing} billing {share_percent:.1f}% of requests find no replica ready for "
                             "them ({zero_percent:.1f}% find the service scaled to zero, {burst_percent:.1f}% arrive as a "
                             "burst outgrows the replicas running) and wait up to {start_s:.0f} s for one to start, which "
                             "the simulated latencies do not include"),
            std::move(cold.args)));
    }
    if (!d.given)
        rec.reasons.push_back(makeMessage("decision-assumed", "/cost/decision",
                                          WB_MESSAGE("Messages", "the brief states no demand certainty, model churn or "
                                                     "hardware-control need (cost.decision); medium certainty and churn "
                                                     "were assumed")));
    // Mistake 6: sized only for today's model.
    if (rec.candidate)
        warnTodaysModel(brief, deployment(results[*rec.candidate]), rec.route, s.warnings);
    s.recommendation = rec;
    return s;
}

} // namespace wb
