// Which price counts: the one rule the cost model and every page that shows a price follow.
// Offers for a GPU are the brief's own quotes, then the price book's. Per pricing term the
// chosen one is a current price before a stale one (older than price_stale_days), the brief's
// own before the book's, then the lowest unit price (per GPU-hour; per GPU for purchases).
#pragma once

#include "catalog/catalog.h"
#include "catalog/prices.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct PriceChoice
{
    const GpuPrice *price = nullptr;
    long ageDays = 0;    // from the date observed to today
    bool stale = false;
};

struct PriceSelection
{
    std::vector<const GpuPrice *> offers;         // every offer for the GPU, the brief's first
    std::map<PricingTerm, PriceChoice> chosen;    // per term, the price the cost model uses

    // The price a page shows as the GPU's price: the chosen on-demand one, else the first term's.
    std::optional<PriceChoice> headline() const;
    bool isChosen(const GpuPrice *price) const;
};

// today: ISO date prices are aged against; staleDays: the assumption price_stale_days.
PriceSelection selectPrices(const std::vector<GpuPrice> &briefPrices, const Catalog &catalog, const std::string &gpu,
                            const std::string &today, double staleDays);

// Per GPU-hour for rentals, per GPU for purchases.
double unitPrice(const GpuPrice &price);

} // namespace wb
