// A GPU's key specifications as table cells, each with the catalog source behind it, and its
// dated prices: shared by the candidates table and the catalog browser.
#pragma once

#include <catalog/catalog.h>
#include <catalog/prices.h>
#include <cost/pricing.h>

#include <QString>

#include <vector>

namespace wb {

enum class GpuFigure { Memory, Bandwidth, Bf16, Fp8, Fp4, ScaleUp, Power };

// The figure as shown ("80", "3.35", "–" where the GPU has no such path).
QString gpuFigureText(const GpuSpec &gpu, GpuFigure figure);
// "Source: title (url), read date" for the figure, or empty when the catalog names none.
QString gpuFigureSource(const Catalog &catalog, const GpuSpec &gpu, GpuFigure figure);
// Header text with unit ("Memory GiB").
QString gpuFigureHeader(GpuFigure figure);

// Every dated price of a GPU (the brief's own first, then the price book's) and the ones the cost
// model uses, by the engine's rule (cost/pricing.h), aged against today; offers outside the
// brief's data region are left out.
PriceSelection gpuPrices(const Catalog &catalog, const std::vector<GpuPrice> &briefPrices, const std::string &gpu,
                         double staleDays, std::optional<DataRegion> region = std::nullopt);
// The price the cost model uses for on-demand (else the first term it prices) on two lines
// ("$3.49/h on-demand", "2026-09-25", "stale" after the date when it is), else "no price".
QString priceSummary(const PriceSelection &prices);
// One line per price: term, amount, provider, date and source; the ones used are marked.
QString priceDetails(const PriceSelection &prices);

} // namespace wb
