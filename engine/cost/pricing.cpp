#include "cost/pricing.h"

namespace wb {

double unitPrice(const GpuPrice &p)
{
    return p.term == PricingTerm::Purchase ? p.usdPerGpu : p.usdPerGpuHour;
}

PriceSelection selectPrices(const std::vector<GpuPrice> &briefPrices, const Catalog &catalog, const std::string &gpu,
                            const std::string &today, double staleDays)
{
    PriceSelection s;
    for (const std::vector<GpuPrice> *list : {&briefPrices, &catalog.prices()})
        for (const GpuPrice &p : *list)
            if (p.gpu == gpu)
                s.offers.push_back(&p);
    for (const GpuPrice *p : s.offers) {
        const long age = daysBetween(p->observed, today).value_or(0);
        const PriceChoice candidate{p, age, double(age) > staleDays};
        auto it = s.chosen.find(p->term);
        if (it == s.chosen.end()) {
            s.chosen.emplace(p->term, candidate);
            continue;
        }
        const PriceChoice &q = it->second;
        const bool better = q.stale != candidate.stale    ? !candidate.stale
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

} // namespace wb
