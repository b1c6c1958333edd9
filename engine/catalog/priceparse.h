// Private to the engine: reading price entries, shared by catalog files and briefs.
#pragma once

#include "catalog/prices.h"
#include "core/jsonfields.h"

namespace wb::detail {

GpuPrice parseGpuPrice(const Fields &f, const std::string &origin);
// model: the model id when the entry is inside a brief (which knows its model); empty to read
// the "model" field (catalog files).
ApiPrice parseApiPrice(const Fields &f, const std::string &origin, const std::string &model = {});

} // namespace wb::detail
