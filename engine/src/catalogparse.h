// Private to the engine: the model-entry parser shared by catalogs and inline brief models.
#pragma once

#include "engine/catalog.h"
#include "jsonfields.h"

namespace wb::detail {

// Reads and validates one model entry (the catalog's field names); throws FieldError.
ModelSpec parseModelEntry(const Fields &f);

} // namespace wb::detail
