// The renderings of ../shared/spec/brief-and-results-v1.md: results and catalogs as JSON, as a
// fixed-width table and as CSV. The CLI prints them; the UI shows the same figures through the
// labels in report/labels.h. Numbers use the C locale; JSON follows the spec's key names.
#pragma once

#include "catalog/catalog.h"
#include "evaluate/evaluate.h"

#include <string>

namespace wb {

std::string resultsToJson(const Brief &brief, const Results &results);
std::string resultsToTable(const Brief &brief, const Results &results);
// The normalization table: one row per candidate and pricing option, then the model-API row.
std::string resultsToCsv(const Brief &brief, const Results &results);

std::string catalogGpusTable(const Catalog &catalog);
std::string catalogModelsTable(const Catalog &catalog);
std::string catalogGpusJson(const Catalog &catalog);
std::string catalogModelsJson(const Catalog &catalog);

} // namespace wb
