// Private to the engine: reading price entries, shared by catalog files and briefs.
#pragma once

#include "catalog/prices.h"
#include "core/fieldtable.h"
#include "core/jsonfields.h"

namespace wb::detail {

// The fields of a GPU price and of a model-API price, from the entry's root ("/usd_per_gpu_hour"):
// the price book's entries and a brief's cost.prices[] and cost.api read the same rows.
const FieldTable &gpuPriceFields();
const FieldTable &apiPriceFields();

GpuPrice parseGpuPrice(const Fields &f, const std::string &origin);
// model: the model id when the entry is inside a brief (which knows its model); empty to read
// the "model" field (catalog files). `use`: a brief's work, whose unit the price must bill by
// (absent for the price book, whose entries give any one unit).
ApiPrice parseApiPrice(const Fields &f, const std::string &origin, const std::string &model = {},
                       std::optional<ApiUse> use = std::nullopt);

} // namespace wb::detail
