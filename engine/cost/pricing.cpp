#include "cost/pricing.h"

#include "core/format.h"
#include "cost/routes.h"

#include <algorithm>

namespace wb {

double unitPrice(const GpuPrice &p)
{
    return p.term == PricingTerm::Purchase ? p.usdPerGpu : p.usdPerGpuHour;
}

bool mayHoldData(std::optional<DataRegion> offered, std::optional<DataRegion> wanted)
{
    return !wanted || !offered || offered == wanted;
}

PriceSelection selectPrices(const std::vector<GpuPrice> &briefPrices, const Catalog &catalog, const std::string &gpu,
                            const std::string &today, double staleDays, std::optional<DataRegion> region)
{
    PriceSelection s;
    for (const std::vector<GpuPrice> *list : {&briefPrices, &catalog.prices()})
        for (const GpuPrice &p : *list)
            if (p.gpu == gpu)
                s.offers.push_back(&p);
    for (const GpuPrice *p : s.offers) {
        if (!mayHoldData(p->region, region)) {
            s.outsideRegion.push_back(p);
            continue;
        }
        const long age = daysBetween(p->observed, today).value_or(0);
        const PriceChoice candidate{p, age, double(age) > staleDays};
        auto it = s.chosen.find(p->term);
        if (it == s.chosen.end()) {
            s.chosen.emplace(p->term, candidate);
            continue;
        }
        const PriceChoice &q = it->second;
        // Where the data must stay in a region, an offer stated to run there before one that does
        // not say where it runs.
        const bool stated = region && p->region == region, qStated = region && q.price->region == region;
        const bool better = q.stale != candidate.stale    ? !candidate.stale
                            : stated != qStated            ? stated
                            : q.price->origin != p->origin ? p->origin == "brief"
                                                           : unitPrice(*p) < unitPrice(*q.price);
        if (better)
            it->second = candidate;
    }
    return s;
}

std::optional<PriceChoice> PriceSelection::headline() const
{
    if (auto od = chosen.find(PricingTerm::OnDemand); od != chosen.end())
        return od->second;
    if (!chosen.empty())
        return chosen.begin()->second;
    return std::nullopt;
}

bool PriceSelection::isChosen(const GpuPrice *price) const
{
    for (const auto &[term, c] : chosen)
        if (c.price == price)
            return true;
    return false;
}

namespace detail {

namespace {

// The region's name in messages ("the EU", "Japan").
std::string regionWords(DataRegion r)
{
    static const std::map<DataRegion, std::string> names{
        {DataRegion::Us, "the United States"}, {DataRegion::Ca, "Canada"},      {DataRegion::Br, "Brazil"},
        {DataRegion::Eu, "the EU"},            {DataRegion::Uk, "the United Kingdom"}, {DataRegion::Ch, "Switzerland"},
        {DataRegion::Ae, "the United Arab Emirates"}, {DataRegion::In, "India"}, {DataRegion::Sg, "Singapore"},
        {DataRegion::Jp, "Japan"},             {DataRegion::Kr, "South Korea"}, {DataRegion::Au, "Australia"}};
    return names.at(r);
}

std::string providers(const std::vector<const GpuPrice *> &prices)
{
    std::vector<std::string> names;
    for (const GpuPrice *p : prices)
        if (std::find(names.begin(), names.end(), p->provider) == names.end())
            names.push_back(p->provider);
    std::string out;
    for (const std::string &n : names)
        out += (out.empty() ? "" : "; ") + n;
    return out;
}

} // namespace

std::map<PricingTerm, const GpuPrice *> pricesFor(const Brief &brief, const Catalog &catalog, const GpuSpec &gpu,
                                                  const std::string &today, std::vector<Warning> &warnings)
{
    std::map<PricingTerm, const GpuPrice *> chosen;
    const std::optional<DataRegion> region = brief.cost.decision.dataRegion;
    const PriceSelection s = selectPrices(brief.cost.prices, catalog, gpu.id, today,
                                          brief.assumptions.value(Assumption::PriceStaleDays), region);
    std::vector<const GpuPrice *> unstated;
    for (const auto &[term, choice] : s.chosen) {
        chosen.emplace(term, choice.price);
        if (region && !choice.price->region)
            unstated.push_back(choice.price);
    }
    if (!s.outsideRegion.empty())
        warnings.push_back(makeMessage("price-outside-region", "/cost/decision/data_region",
                                       WB_MESSAGE("Messages", "{gpu} offers that run outside {region}, where the brief keeps its "
                                                  "data, are left out ({count}: {providers})"),
                                       {{"count", std::int64_t(s.outsideRegion.size())}, {"gpu", gpu.name},
                                        {"region", regionWords(*region)}, {"providers", providers(s.outsideRegion)}}));
    if (!unstated.empty())
        warnings.push_back(makeMessage("price-region-unstated", "/cost/decision/data_region",
                                       WB_MESSAGE("Messages", "the {gpu} prices used do not say where their GPUs are ({providers}); "
                                                  "the brief keeps its data in {region}: confirm the region with the provider "
                                                  "before committing"),
                                       {{"gpu", gpu.name}, {"providers", providers(unstated)}, {"region", regionWords(*region)}}));
    if (chosen.empty())
        warnings.push_back(s.outsideRegion.empty()
                               ? makeMessage("no-price", "/cost/prices",
                                             WB_MESSAGE("Messages", "no dated price for {gpu} in the price book or the brief; add "
                                                        "a price quote (cost.prices in a brief file)"),
                                             {{"gpu", gpu.name}})
                               : makeMessage("no-price", "/cost/prices",
                                             WB_MESSAGE("Messages", "no dated price for {gpu} in {region}; add a quote for GPUs "
                                                        "there (cost.prices, with its region)"),
                                             {{"gpu", gpu.name}, {"region", regionWords(*region)}}));
    return chosen;
}

const ApiPrice *apiPriceFor(const Brief &brief, const Catalog &catalog, bool inRegion)
{
    const Workload &w = brief.workload;
    // Pre-training has no API; a fine-tune has managed services that bill its training tokens.
    if (w.kind == WorkloadKind::Training)
        return nullptr;
    const std::optional<DataRegion> region = brief.cost.decision.dataRegion;
    const auto fits = [&](const ApiPrice &p) { return mayHoldData(p.region, region) == inRegion; };
    if (brief.cost.api)
        return fits(*brief.cost.api) ? &*brief.cost.api : nullptr;
    // The book's newest price that bills this brief's work: its pipeline's images or clips, its
    // kind of fine-tuning run, or its model's tokens.
    const ApiUse use = apiUseOf(w);
    const WorkloadKind run = isAdapter(w.kind) ? WorkloadKind::Lora : WorkloadKind::FullFinetune;
    const auto bills = [&](const ApiPrice &p) {
        return p.model == (w.media ? w.media->model.id : w.model.id) && apiUnitBills(p.unit, use)
               && (use != ApiUse::FineTune || p.fineTuning == run)
               && (use != ApiUse::Text || p.usdPerMillionOutput > 0 || w.outputTokens == 0);
    };
    // An API stated to run in the data region before one that does not say, then the newest.
    const auto stated = [&](const ApiPrice &p) { return region && p.region == region; };
    const ApiPrice *best = nullptr;
    for (const ApiPrice &p : catalog.apiPrices())
        if (bills(p) && fits(p)
            && (!best || (stated(p) != stated(*best) ? stated(p) : p.observed > best->observed)))
            best = &p;
    return best;
}

std::vector<Warning> apiRegionWarnings(const Brief &brief, const Catalog &catalog)
{
    const std::optional<DataRegion> region = brief.cost.decision.dataRegion;
    if (!region)
        return {};
    if (const ApiPrice *used = apiPriceFor(brief, catalog); used && !used->region)
        return {makeMessage("api-region-unstated", "/cost/decision/data_region",
                            WB_MESSAGE("Messages", "the model API's price ({provider}) does not say where it processes "
                                       "requests; the brief keeps its data in {region}: confirm it before sending data"),
                            {{"provider", used->provider}, {"region", regionWords(*region)}})};
    if (const ApiPrice *outside = apiPriceFor(brief, catalog, false); outside && !apiPriceFor(brief, catalog))
        return {makeMessage("api-outside-region", "/cost/decision/data_region",
                            WB_MESSAGE("Messages", "the model API ({provider}) processes requests in {api_region}, outside "
                                       "{region} where the brief keeps its data: it is not an option"),
                            {{"provider", outside->provider}, {"api_region", regionWords(*outside->region)},
                             {"region", regionWords(*region)}})};
    return {};
}

} // namespace detail

} // namespace wb
