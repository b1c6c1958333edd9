// Which price counts: the one rule the cost model and every page that shows a price follow.
// Offers for a GPU are the brief's own quotes, then the price book's. Per pricing term the
// chosen one is a current price before a stale one (older than price_stale_days), the brief's
// own before the book's, then the lowest unit price (per GPU-hour; per GPU for purchases).
// Where the brief keeps its data in one region (cost.decision.data_region), an offer stated to be
// elsewhere is left out; one stated to be there comes before one that does not say where it runs
// (kept, and flagged).
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
    std::vector<const GpuPrice *> outsideRegion;  // offers left out: stated to run outside the data region

    // The price a page shows as the GPU's price: the chosen on-demand one, else the first term's.
    std::optional<PriceChoice> headline() const;
    bool isChosen(const GpuPrice *price) const;
};

// today: ISO date prices are aged against; staleDays: the assumption price_stale_days; region:
// where the data must stay (none: anywhere).
PriceSelection selectPrices(const std::vector<GpuPrice> &briefPrices, const Catalog &catalog, const std::string &gpu,
                            const std::string &today, double staleDays, std::optional<DataRegion> region = std::nullopt);

// Whether an offer in `offered` (unset: it does not say) may hold data that must stay in `wanted`
// (unset: anywhere): only one stated to be elsewhere may not.
bool mayHoldData(std::optional<DataRegion> offered, std::optional<DataRegion> wanted);

// Per GPU-hour for rentals, per GPU for purchases.
double unitPrice(const GpuPrice &price);

} // namespace wb
