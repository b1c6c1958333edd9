#include "catalog/prices.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

namespace wb {

std::string commercialTermsWords(const GpuPrice &p)
{
    std::vector<std::string> parts;
    if (p.offer != Offer::Cloud)
        parts.push_back(std::string(enumName(p.offer)) + " offer");
    if (p.minCommitmentMonths && *p.minCommitmentMonths > 0)
        parts.push_back(fmt::format("{:g}-month minimum commitment", *p.minCommitmentMonths));
    if (p.upfrontFraction && *p.upfrontFraction > 0)
        parts.push_back(fmt::format("{:.0f}% paid up front", 100 * *p.upfrontFraction));
    if (!p.cancellation.empty())
        parts.push_back("cancellation: " + p.cancellation);
    if (p.supportUsdPerGpuMonth)
        parts.push_back(fmt::format("support ${:.2f} per GPU a month", *p.supportUsdPerGpuMonth));
    if (p.egressUsdPerGb)
        parts.push_back(fmt::format("egress ${:.3f} per GB", *p.egressUsdPerGb));
    if (p.includedStorageGbPerGpu)
        parts.push_back(fmt::format("{:g} GB of storage included per GPU", *p.includedStorageGbPerGpu));
    if (p.interruptionsPerGpuMonth)
        parts.push_back(fmt::format("interrupted {:g} times per GPU a month", *p.interruptionsPerGpuMonth));
    std::string out;
    for (const std::string &part : parts)
        out += (out.empty() ? "" : ", ") + part;
    return out;
}


} // namespace wb

#include "catalog/priceparse.h"
#include "core/limits.h"

namespace wb::detail {

namespace {


// The fields every price carries: when it was seen, where, and a note.
template<typename Price>
void readProvenance(const Fields &f, Price &p, const std::string &origin)
{
    p.observed = f.string("observed");
    // A well-formed date beyond the calendar parse() accepts (9999-12-31) is in the future too.
    const bool dateShaped = p.observed.size() == 10 && p.observed[4] == '-' && p.observed[7] == '-'
                            && std::all_of(p.observed.begin(), p.observed.end(), [](char c) { return c == '-' || std::isdigit(static_cast<unsigned char>(c)); });
    if (!isIsoDate(p.observed) && !(dateShaped && p.observed > isoDateFromToday(1)))
        f.fail("observed", "must be a date written YYYY-MM-DD, not \"" + p.observed + "\"");
    // A day of clock skew is allowed; a price seen later than that has not been seen.
    if (p.observed > isoDateFromToday(1))
        f.fail("observed", p.observed + " is in the future (today is " + todayIso() + ")");
    p.source = f.string("source");
    if (p.source.empty())
        f.fail("source", "is empty: every price names where it was seen");
    p.note = f.optString("note").value_or("");
    p.origin = origin;
}

Range gpuRange(const char *key)
{
    return gpuPriceFields().at(std::string("/") + key).range();
}

} // namespace

// Any one price from a fraction of a cent to limits::kUsd; fees and rates as the parser always read them.
const FieldTable &gpuPriceFields()
{
    using enum FieldType;
    static const FieldTable table({
        {.pointer = "/gpu", .type = String, .required = true},
        {.pointer = "/provider", .type = String, .required = true},
        {.pointer = "/term", .type = Enum, .required = true, .choices = enumNames<PricingTerm>()},
        {.pointer = "/usd_per_gpu_hour", .type = Number, .min = 0, .max = limits::kUsd, .minExclusive = true,
         .unit = "USD/GPU-hour", .defaultReason = "required of every term but purchase"},
        {.pointer = "/usd_per_gpu", .type = Number, .min = 0, .max = limits::kUsd, .minExclusive = true,
         .unit = "USD/GPU", .defaultReason = "required of a purchase"},
        {.pointer = "/observed", .type = String, .required = true, .unit = "YYYY-MM-DD"},
        {.pointer = "/source", .type = String, .required = true},
        {.pointer = "/note", .type = String},
        {.pointer = "/offer", .type = Enum, .choices = enumNames<Offer>(), .defaultJson = "\"cloud\""},
        {.pointer = "/min_commitment_months", .type = Number, .min = 0, .max = 120, .unit = "months"},
        {.pointer = "/upfront_fraction", .type = Number, .min = 0, .max = 1},
        {.pointer = "/cancellation", .type = String},
        {.pointer = "/support_usd_per_gpu_month", .type = Number, .min = 0, .max = limits::kUsd, .unit = "USD/GPU-month"},
        {.pointer = "/egress_usd_per_gb", .type = Number, .min = 0, .max = 10, .unit = "USD/GB"},
        {.pointer = "/included_storage_gb_per_gpu", .type = Number, .min = 0, .max = 1e6, .unit = "GB"},
        {.pointer = "/interruptions_per_gpu_month", .type = Number, .min = 0, .max = 10000, .unit = "1/GPU-month"},
    });
    return table;
}

const FieldTable &apiPriceFields()
{
    using enum FieldType;
    static const FieldTable table({
        {.pointer = "/model", .type = String, .defaultReason = "a brief's API price is for the brief's model"},
        {.pointer = "/provider", .type = String, .required = true},
        {.pointer = "/usd_per_million_input", .type = Number, .required = true, .min = 0, .max = limits::kUsd,
         .unit = "USD/million tokens"},
        // Required unless the brief is an embedding's, whose API bills its input only (parseApiPrice).
        {.pointer = "/usd_per_million_output", .type = Number, .min = 0, .max = limits::kUsd, .unit = "USD/million tokens"},
        {.pointer = "/failure_rate", .type = Number, .min = 0, .max = 0.999, .defaultJson = "0"},
        {.pointer = "/observed", .type = String, .required = true, .unit = "YYYY-MM-DD"},
        {.pointer = "/source", .type = String, .required = true},
        {.pointer = "/note", .type = String},
    });
    return table;
}

GpuPrice parseGpuPrice(const Fields &f, const std::string &origin)
{
    GpuPrice p;
    p.gpu = f.string("gpu");
    p.provider = f.string("provider");
    p.term = f.enumValue<PricingTerm>("term");
    if (p.term == PricingTerm::Purchase) {
        p.usdPerGpu = f.number("usd_per_gpu", gpuRange("usd_per_gpu"));
        if (f.has("usd_per_gpu_hour"))
            f.fail("usd_per_gpu_hour", "does not apply to a purchase; give usd_per_gpu (capital cost per GPU)");
    } else {
        p.usdPerGpuHour = f.number("usd_per_gpu_hour", gpuRange("usd_per_gpu_hour"));
        if (f.has("usd_per_gpu"))
            f.fail("usd_per_gpu", "applies to purchases only; a rental gives usd_per_gpu_hour");
    }
    readProvenance(f, p, origin);
    p.offer = f.optEnum<Offer>("offer").value_or(*enumFromString<Offer>(gpuPriceFields().at("/offer").defaultString()));
    p.minCommitmentMonths = f.optNumber("min_commitment_months", gpuRange("min_commitment_months"));
    p.upfrontFraction = f.optNumber("upfront_fraction", gpuRange("upfront_fraction"));
    p.supportUsdPerGpuMonth = f.optNumber("support_usd_per_gpu_month", gpuRange("support_usd_per_gpu_month"));
    p.egressUsdPerGb = f.optNumber("egress_usd_per_gb", gpuRange("egress_usd_per_gb"));
    p.includedStorageGbPerGpu = f.optNumber("included_storage_gb_per_gpu", gpuRange("included_storage_gb_per_gpu"));
    p.cancellation = f.optString("cancellation").value_or("");
    p.interruptionsPerGpuMonth = f.optNumber("interruptions_per_gpu_month", gpuRange("interruptions_per_gpu_month"));
    if (p.term == PricingTerm::Spot && p.minCommitmentMonths && *p.minCommitmentMonths > 0)
        f.fail("min_commitment_months", "does not apply to spot capacity, which the provider can take back at any time");
    if (p.interruptionsPerGpuMonth && p.term != PricingTerm::Spot)
        f.fail("interruptions_per_gpu_month", "applies to spot prices only: other terms are not taken back");
    if (p.upfrontFraction && *p.upfrontFraction > 0 && !p.minCommitmentMonths && p.term != PricingTerm::Purchase)
        f.fail("upfront_fraction", "is a share of a commitment; give min_commitment_months too");
    return p;
}

ApiPrice parseApiPrice(const Fields &f, const std::string &origin, const std::string &model, bool outputBilled)
{
    ApiPrice p;
    p.model = model.empty() ? f.string("model") : model;
    p.provider = f.string("provider");
    p.usdPerMillionInput = f.number("usd_per_million_input", apiPriceFields().at("/usd_per_million_input").range());
    const std::optional<double> output = f.optNumber("usd_per_million_output", apiPriceFields().at("/usd_per_million_output").range());
    if (!output && outputBilled)
        f.fail("usd_per_million_output", "is required: the model's output tokens are billed (an embedding brief's API "
                                         "may leave it out)");
    p.usdPerMillionOutput = output.value_or(0);
    p.failureRate = f.optNumber("failure_rate", apiPriceFields().at("/failure_rate").range()).value_or(apiPriceFields().at("/failure_rate").defaultNumber());
    readProvenance(f, p, origin);
    return p;
}

} // namespace wb::detail
