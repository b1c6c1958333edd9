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

bool apiUnitBills(ApiUnit unit, ApiUse use)
{
    switch (use) {
    case ApiUse::Text:
    case ApiUse::Embedding: return unit == ApiUnit::Tokens;
    case ApiUse::Image: return unit == ApiUnit::Image || unit == ApiUnit::Megapixel;
    case ApiUse::Video: return unit == ApiUnit::VideoSecond;
    case ApiUse::FineTune: return unit == ApiUnit::TrainingTokens;
    }
    return false;
}

std::vector<std::pair<std::string, double>> apiRateFields(const ApiPrice &p)
{
    switch (p.unit) {
    case ApiUnit::Tokens:
        return {{"usd_per_million_input", p.usdPerMillionInput}, {"usd_per_million_output", p.usdPerMillionOutput}};
    case ApiUnit::Image:
        return {{"usd_per_image", p.usdPerImage}};
    case ApiUnit::Megapixel:
        return {{"usd_per_megapixel", p.usdPerMegapixel}};
    case ApiUnit::VideoSecond:
        return {{"usd_per_video_second", p.usdPerVideoSecond}};
    case ApiUnit::TrainingTokens:
        return {{"usd_per_million_training_tokens", p.usdPerMillionTrainingTokens}};
    }
    return {};
}

std::string apiRateWords(const ApiPrice &p)
{
    switch (p.unit) {
    case ApiUnit::Tokens:
        return p.usdPerMillionOutput > 0 ? fmt::format("${:.3f} per million input and ${:.3f} per million output tokens",
                                                       p.usdPerMillionInput, p.usdPerMillionOutput)
                                         : fmt::format("${:.3f} per million input tokens", p.usdPerMillionInput);
    case ApiUnit::Image:
        return fmt::format("${:.4f} per image", p.usdPerImage);
    case ApiUnit::Megapixel:
        return fmt::format("${:.4f} per megapixel", p.usdPerMegapixel);
    case ApiUnit::VideoSecond:
        return fmt::format("${:.4f} per second of video", p.usdPerVideoSecond);
    case ApiUnit::TrainingTokens:
        return fmt::format("${:.3f} per million training tokens ({})", p.usdPerMillionTrainingTokens,
                           p.fineTuning == WorkloadKind::FullFinetune ? "full fine-tuning" : "LoRA");
    }
    return {};
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
    p.region = f.optEnum<DataRegion>("region");
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
        {.pointer = "/region", .type = Enum, .choices = enumNames<DataRegion>(),
         .defaultReason = "not stated: the offer does not say where it runs"},
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
        // One unit a price: tokens (input, and output unless the brief embeds), an image or its
        // megapixels, a second of video, or training tokens (parseApiPrice).
        {.pointer = "/usd_per_million_input", .type = Number, .min = 0, .max = limits::kUsd, .unit = "USD/million tokens",
         .defaultReason = "a text or embedding API's price"},
        {.pointer = "/usd_per_million_output", .type = Number, .min = 0, .max = limits::kUsd, .unit = "USD/million tokens",
         .defaultReason = "a text API's price (an embedding API bills its input only)"},
        {.pointer = "/usd_per_image", .type = Number, .min = 0, .max = limits::kUsd, .minExclusive = true, .unit = "USD/image",
         .defaultReason = "an image API's price, or usd_per_megapixel"},
        {.pointer = "/usd_per_megapixel", .type = Number, .min = 0, .max = limits::kUsd, .minExclusive = true,
         .unit = "USD/megapixel", .defaultReason = "an image API's price, or usd_per_image"},
        {.pointer = "/usd_per_video_second", .type = Number, .min = 0, .max = limits::kUsd, .minExclusive = true,
         .unit = "USD/second of video", .defaultReason = "a video API's price"},
        {.pointer = "/usd_per_million_training_tokens", .type = Number, .min = 0, .max = limits::kUsd, .minExclusive = true,
         .unit = "USD/million tokens", .defaultReason = "a managed fine-tuning service's price"},
        {.pointer = "/fine_tuning", .type = Enum, .choices = {"lora", "full-finetune"},
         .defaultReason = "a managed fine-tuning price's kind of run; in a brief, the brief's own"},
        {.pointer = "/failure_rate", .type = Number, .min = 0, .max = 0.999, .defaultJson = "0"},
        {.pointer = "/observed", .type = String, .required = true, .unit = "YYYY-MM-DD"},
        {.pointer = "/source", .type = String, .required = true},
        {.pointer = "/note", .type = String},
        {.pointer = "/region", .type = Enum, .choices = enumNames<DataRegion>(),
         .defaultReason = "not stated: the offer does not say where it runs"},
        {.pointer = "/weights_precision", .type = Enum, .choices = enumNames<Precision>(),
         .defaultReason = "not stated: the offer does not say how the model is quantized"},
    });
    return table;
}

GpuPrice parseGpuPrice(const Fields &f, const std::string &origin)
{
    GpuPrice p;
    p.gpu = f.string("gpu");
    p.provider = f.string("provider");
    if (p.provider.find_first_not_of(" \t\r\n") == std::string::npos)
        f.fail("provider", "is empty: every price names who sells it");
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

ApiPrice parseApiPrice(const Fields &f, const std::string &origin, const std::string &model, std::optional<ApiUse> use)
{
    ApiPrice p;
    p.model = model.empty() ? f.string("model") : model;
    p.provider = f.string("provider");
    if (p.provider.find_first_not_of(" \t\r\n") == std::string::npos)
        f.fail("provider", "is empty: every price names who sells it");
    const auto rate = [&](const char *key) {
        return f.optNumber(key, apiPriceFields().at(std::string("/") + key).range());
    };
    // The unit is the one whose price is given; a price bills by one.
    struct Given
    {
        const char *key;
        ApiUnit unit;
        std::optional<double> usd;
    };
    const Given given[] = {{"usd_per_million_input", ApiUnit::Tokens, rate("usd_per_million_input")},
                           {"usd_per_image", ApiUnit::Image, rate("usd_per_image")},
                           {"usd_per_megapixel", ApiUnit::Megapixel, rate("usd_per_megapixel")},
                           {"usd_per_video_second", ApiUnit::VideoSecond, rate("usd_per_video_second")},
                           {"usd_per_million_training_tokens", ApiUnit::TrainingTokens, rate("usd_per_million_training_tokens")}};
    // Whether a unit bills the brief's work (any unit does for the price book).
    const auto fitsUse = [&](ApiUnit u) { return !use || apiUnitBills(u, *use); };
    // Of two units given, the one blamed is one that does not bill the brief's work, else the second.
    const Given *unit = nullptr;
    for (const Given &g : given)
        if (g.usd) {
            if (unit) {
                const bool blameFirst = !fitsUse(unit->unit) && fitsUse(g.unit);
                f.fail(blameFirst ? unit->key : g.key,
                       std::string("cannot go with ") + (blameFirst ? g.key : unit->key) + ": a price bills by one unit");
            }
            unit = &g;
        }
    // What the brief's work is billed by, named for the messages.
    const auto wanted = [](ApiUse u) -> std::string {
        switch (u) {
        case ApiUse::Text: return "usd_per_million_input and usd_per_million_output (its tokens)";
        case ApiUse::Embedding: return "usd_per_million_input (its input tokens)";
        case ApiUse::Image: return "usd_per_image or usd_per_megapixel";
        case ApiUse::Video: return "usd_per_video_second";
        case ApiUse::FineTune: return "usd_per_million_training_tokens";
        }
        return {};
    };
    if (!unit && f.has("usd_per_million_output"))
        f.fail("usd_per_million_output", use && *use == ApiUse::Text
                                             ? "needs usd_per_million_input beside it: the prompt's tokens are billed too"
                                             : use ? "does not price this brief's work, which an API bills by " + wanted(*use)
                                                   : "needs usd_per_million_input beside it");
    if (!unit)
        f.fail(use ? (*use == ApiUse::Image ? "usd_per_image" : *use == ApiUse::Video ? "usd_per_video_second"
                      : *use == ApiUse::FineTune ? "usd_per_million_training_tokens" : "usd_per_million_input")
                   : "usd_per_million_input",
               use ? "is required: this brief's API is priced by " + wanted(*use)
                   : std::string("is required: a price gives usd_per_million_input (text, embeddings), usd_per_image or "
                                 "usd_per_megapixel (images), usd_per_video_second (video) or "
                                 "usd_per_million_training_tokens (managed fine-tuning)"));
    p.unit = unit->unit;
    const std::optional<double> output = rate("usd_per_million_output");
    if (output && p.unit != ApiUnit::Tokens)
        f.fail("usd_per_million_output", std::string("does not apply to a price given as ") + unit->key);
    if (f.has("fine_tuning") && p.unit != ApiUnit::TrainingTokens)
        f.fail("fine_tuning", "applies to a managed fine-tuning price (usd_per_million_training_tokens)");
    if (use) {
        if (!fitsUse(p.unit))
            f.fail(unit->key, "does not price this brief's work, which an API bills by " + wanted(*use));
        if (*use == ApiUse::Text && !output)
            f.fail("usd_per_million_output", "is required: the model's output tokens are billed (an embedding brief's API "
                                             "may leave it out)");
    }
    p.usdPerMillionInput = p.unit == ApiUnit::Tokens ? *unit->usd : 0;
    // An embedding API bills its input only: an output price (which quotes entered before that was
    // said carry) is not read (the brief warns, brief.cpp).
    p.usdPerMillionOutput = use && *use == ApiUse::Embedding ? 0 : output.value_or(0);
    p.usdPerImage = p.unit == ApiUnit::Image ? *unit->usd : 0;
    p.usdPerMegapixel = p.unit == ApiUnit::Megapixel ? *unit->usd : 0;
    p.usdPerVideoSecond = p.unit == ApiUnit::VideoSecond ? *unit->usd : 0;
    p.usdPerMillionTrainingTokens = p.unit == ApiUnit::TrainingTokens ? *unit->usd : 0;
    if (p.unit == ApiUnit::TrainingTokens) {
        // The price book says which runs a price is for; a brief's quote is for the brief's own.
        const std::optional<std::string> kind = f.optString("fine_tuning");
        if (!kind && !use)
            f.fail("fine_tuning", "is required of a managed fine-tuning price: \"lora\" or \"full-finetune\"");
        if (kind && *kind != "lora" && *kind != "full-finetune")
            f.fail("fine_tuning", "must be \"lora\" or \"full-finetune\", not \"" + *kind + "\"");
        p.fineTuning = kind ? *enumFromString<WorkloadKind>(*kind) : WorkloadKind::Lora;
    }
    p.failureRate = f.optNumber("failure_rate", apiPriceFields().at("/failure_rate").range()).value_or(apiPriceFields().at("/failure_rate").defaultNumber());
    p.weightsPrecision = f.optEnum<Precision>("weights_precision");
    readProvenance(f, p, origin);
    return p;
}

} // namespace wb::detail
