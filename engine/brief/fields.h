// The brief's one table of fields (core/fieldtable.h): every field a brief may give, with its
// type, unit, range, the kinds it applies to, whether it is required and its default. The
// parser (brief.cpp, mediabrief.cpp) reads its ranges, defaults and known keys from it, the
// window's Brief form its ranges, and `gpuwb schema brief` prints the JSON Schema made from it.
#pragma once

#include "core/fieldtable.h"

#include <string>

namespace wb {

class Catalog;

// The rows of the brief: its own, a price entry's under /cost/prices/*, the API price's under
// /cost/api and every assumption under /assumptions.
const FieldTable &briefFields();

// A JSON Schema (draft 2020-12) of a brief, made from briefFields(): per kind, the fields that
// apply, their types, ranges and defaults, the required ones, and those refused; catalog ids as
// enumerations. Rules between fields are the parser's alone (a p95 at least its mean, a burst
// shorter than its period, a rate for open-loop traffic), so a brief the schema accepts can
// still be refused, with the field and the reason.
std::string briefJsonSchema(const Catalog &catalog);

} // namespace wb
