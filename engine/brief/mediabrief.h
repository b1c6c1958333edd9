// Private to brief/: the parts of the brief parser that live apart from brief.cpp.
#pragma once

#include "brief/brief.h"
#include "core/jsonfields.h"

#include <set>
#include <string>
#include <vector>

namespace wb::detail {

// An "unknown-field" warning for every key of f that is not in known.
void noteUnknownFields(const Fields &f, const std::set<std::string> &known, std::vector<Warning> &warnings);

// workload.media of a media-generation brief, from the workload's fields: the pipeline and one
// output's size. Absent sizes, frames and steps are the model card's, said in a "media-defaults"
// warning. Throws FieldError naming the field.
MediaSpec parseMediaSpec(const Fields &workload, const Catalog &catalog, std::vector<Warning> &warnings);

} // namespace wb::detail
