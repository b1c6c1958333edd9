// Private to cost/: what the per-candidate cost (cost.cpp) and the recommendation
// (recommend.cpp) both need: the demand a brief implies and the model-API route.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "cost/cost.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb::detail {

inline constexpr double kSecondsPerHour = 3600;

// The volume and shape of demand the brief implies, independent of any candidate.
struct Demand
{
    std::optional<double> requestsPerMonth;  // empty: the brief states none (offline/closed loop)
    double peakToAverage = 1;                // peak rate / average rate
    bool fromBrief = false;                  // requests_per_month given explicitly
};

Demand demandOf(const Brief &brief);

// What every route's cost lines are built with (cost.cpp).
double outputTokensPerRequest(const Workload &w);
// Tokens an accepted output is counted in: output tokens, or input tokens for embeddings.
double tokensPerAcceptedOutput(const Workload &w);
// Bytes of one stored media output (image_bytes_per_pixel, video_bytes_per_pixel_frame); 0 for text.
double outputBytes(const Brief &brief);
// An assumption counting engineers (FTE), as USD a month at engineer_usd_per_year.
double salaryPerMonth(const Assumptions &a, Assumption fte);
// Adds a line rounded to cents.
void addLine(std::vector<CostLine> &lines, const char *name, double usd, std::string basis);
// The total as the sum of the rounded lines, the accepted outputs and tokens, and the costs per
// accepted output and per million accepted tokens.
void finishOption(CostOption &o, double accepted, double tokensPerOutput);
// Hours a month the work runs: the scheduled window's, else every hour (hours_per_month).
double activeHoursPerMonth(const Brief &brief);
// Tokens a managed fine-tuning service bills for a run: those trained on and those its
// evaluations read.
double trainingTokensBilled(const TrainingSpec &t);
// What one request costs at the API in the price's unit: a text or embedding request's tokens,
// an image (or its megapixels), a clip's seconds, or a fine-tuning run's tokens.
double usdPerApiRequest(const Brief &brief, const ApiPrice &price);
// The model-API route at a monthly volume (for a run: one run), priced from the brief's or the
// book's API price.
CostOption apiOption(const Brief &brief, const ApiPrice &price, double requests, const std::string &today);
// The brief's own API price, else the book's newest for the model; nullptr when there is none.
// Only prices that may hold the brief's data (its data_region) count; with inRegion false, the
// one that would count among those that may not (for the message that says why there is none).
const ApiPrice *apiPriceFor(const Brief &brief, const Catalog &catalog, bool inRegion = true);
// Warnings on the API price and the brief's data region: one left out as being elsewhere, or the
// one used not saying where it runs (pricing.cpp).
std::vector<Warning> apiRegionWarnings(const Brief &brief, const Catalog &catalog);
// Whether the brief lets the model API route be used at all (its data boundary, hardware control).
bool apiUsableFor(const Brief &brief);
// Per pricing term, the price that counts for a GPU (cost/pricing.h); empty, with a "no-price"
// warning added to `warnings`, when there is none. Offers outside the brief's data region are left
// out, and those used that do not say where they run are flagged (pricing.cpp).
std::map<PricingTerm, const GpuPrice *> pricesFor(const Brief &brief, const Catalog &catalog, const GpuSpec &gpu,
                                                  const std::string &today, std::vector<Warning> &warnings);
// The option's price age and staleness from its observed date, with a "stale-price" warning when
// it is older than price_stale_days.
void agePrice(CostOption &option, const Brief &brief, const GpuSpec &gpu, const GpuPrice &price, const std::string &today,
              std::vector<Warning> &warnings);
// Monthly volumes for the break-even chart: 41 points, a hundredth to a hundred times `center`.
std::vector<double> volumeSamples(double center);

} // namespace wb::detail
