// The price book: dated GPU prices per provider and term, and model-API prices per model. Shipped
// in resources/catalog/prices.json (read with the catalog); a brief adds or overrides prices under
// "cost": {"prices": [...], "api": {...}} with the same fields. Every price carries the date it
// was observed and its source; a price older than the assumption price_stale_days is stale.
// Units: US dollars; GPU-hours; millions of tokens.
#pragma once

#include "core/types.h"
#include "core/dates.h"

#include <optional>
#include <string>

namespace wb {

struct GpuPrice
{
    std::string gpu;           // catalog id
    std::string provider;      // who sells it, and the product
    PricingTerm term = PricingTerm::OnDemand;
    double usdPerGpuHour = 0;  // rental terms
    double usdPerGpu = 0;      // purchase: capital cost of one GPU with its share of the server
    std::string observed;      // ISO date the price was seen
    std::string source;        // URL or repository path
    std::string note;
    std::string origin;        // "catalog" or "brief"
    // Commercial terms, where the offer states them: the minimum commitment and the share of it
    // paid up front, how it can be cancelled, a support fee per GPU a month, the provider's own
    // egress price, storage included per GPU, and the kind of offer.
    Offer offer = Offer::Cloud;
    std::optional<double> minCommitmentMonths, upfrontFraction, supportUsdPerGpuMonth, egressUsdPerGb,
        includedStorageGbPerGpu;
    // Spot: how often the provider takes a GPU's instance back, per GPU a month, where the offer
    // (or the buyer's own record of it) says; else the assumption spot_interruptions_per_gpu_month.
    std::optional<double> interruptionsPerGpuMonth;
    std::string cancellation;
};

// The commercial terms of a price in words ("12-month minimum commitment, 25% up front, ..."),
// empty when it states none.
std::string commercialTermsWords(const GpuPrice &price);

struct ApiPrice
{
    std::string model;         // catalog id
    std::string provider;
    double usdPerMillionInput = 0;
    double usdPerMillionOutput = 0;
    double failureRate = 0;    // requests the API fails (retried and paid again)
    std::string observed;
    std::string source;
    std::string note;
    std::string origin;
};


} // namespace wb
