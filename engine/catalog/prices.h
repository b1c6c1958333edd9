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
#include <utility>
#include <vector>

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
    // Where the offer's GPUs are, when it says (a brief's data_region leaves out offers elsewhere).
    std::optional<DataRegion> region;
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

// What a model-API price bills by: tokens in and out (text), tokens in (embeddings), an image
// or its megapixels, a second of generated video, or a million tokens a managed fine-tune trains on.
enum class ApiUnit { Tokens, Image, Megapixel, VideoSecond, TrainingTokens };
// What a brief's work is billed by at a model API, so which units its cost.api may give: text
// (input and output tokens), embeddings (input tokens), images (an image or its megapixels),
// video (seconds) or a fine-tune (training tokens).
enum class ApiUse { Text, Embedding, Image, Video, FineTune };
// Whether a price in `unit` bills work of `use` (tokens for text and embeddings, an image or its
// megapixels for images, seconds for video, training tokens for a fine-tune).
bool apiUnitBills(ApiUnit unit, ApiUse use);

struct ApiPrice
{
    std::string model;         // catalog id: a language or encoder model, or a media pipeline
    std::string provider;
    ApiUnit unit = ApiUnit::Tokens;
    double usdPerMillionInput = 0;
    double usdPerMillionOutput = 0;
    double usdPerImage = 0;
    double usdPerMegapixel = 0;
    double usdPerVideoSecond = 0;
    double usdPerMillionTrainingTokens = 0;
    // A managed fine-tune's kind of run: WorkloadKind::Lora (adapters, QLoRA's too) or
    // WorkloadKind::FullFinetune. Unused for other units.
    WorkloadKind fineTuning = WorkloadKind::Lora;
    double failureRate = 0;    // requests the API fails (retried and paid again)
    std::string observed;
    std::string source;
    std::string note;
    std::string origin;
    std::optional<DataRegion> region;  // where the API processes requests, when it says
    // The precision the provider serves the model's weights at, when it says ("fp8" for a
    // "Turbo" endpoint): a brief that asks for more bits is warned that the API is not the
    // same model (recommend.cpp).
    std::optional<Precision> weightsPrecision;
};

// The API price's rate in words, with its unit ("$0.13 per million input and $0.40 per million
// output tokens", "$0.0075 per image", "$0.06 per second of video", ...).
std::string apiRateWords(const ApiPrice &price);
// The price's rates under their field names, those of its unit only ("usd_per_million_input"
// and "usd_per_million_output" for tokens, "usd_per_image", ...).
std::vector<std::pair<std::string, double>> apiRateFields(const ApiPrice &price);


} // namespace wb
