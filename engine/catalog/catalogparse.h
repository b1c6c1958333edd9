// Private to the engine: the model-entry parser shared by catalogs and inline brief models.
#pragma once

#include "catalog/catalog.h"
#include "core/jsonfields.h"

namespace wb::detail {

// Reads and validates one model entry (the catalog's field names); throws FieldError.
ModelSpec parseModelEntry(const Fields &f);
// Reads and validates one media model entry (media_models); throws FieldError.
MediaModelSpec parseMediaEntry(const Fields &f);

} // namespace wb::detail
