// The renderings of ../shared/spec/brief-and-results-v1.md: results and catalogs as JSON, as a
// fixed-width table and as CSV. The CLI prints them; the UI shows the same figures through the
// labels in report/labels.h. Numbers use the C locale; JSON follows the spec's key names.
#pragma once

#include "catalog/catalog.h"
#include "core/sheet.h"
#include "evaluate/evaluate.h"
#include "evaluate/search.h"

#include <string>
#include <vector>

namespace wb {

std::string resultsToJson(const Brief &brief, const Results &results);
std::string resultsToTable(const Brief &brief, const Results &results);
// The rows of the normalization table, in the one order every view lists them (the CSV, the
// workbook's sheet, the window's Compare page): for each candidate, its row as entered when it was
// sized to a deployment that holds the brief (its figures, no price), then the deployment's rows,
// one per pricing option (one unpriced row when it has none), then its hybrid with the model API
// when the cost model weighed it; last the model API.
struct NormalizationRow
{
    const CandidateResult *result = nullptr;   // whose figures the row shows; null: the model API
    const CostOption *option = nullptr;        // null: not priced
    const CandidateResult *entered = nullptr;  // the candidate as entered; null: the model API
    bool asEntered = false;                    // the as-entered row of a sized candidate
    bool recommended = false;                  // the recommendation's option
};
std::vector<NormalizationRow> normalizationRows(const Results &results);

// The normalization table: one row per candidate and pricing option, then the model-API row.
std::string resultsToCsv(const Brief &brief, const Results &results);

// The same figures as typed cells (sheets.cpp, csv.cpp): the normalization table that
// resultsToCsv prints; each option's cost lines with its total; each candidate's fit (GiB) and
// performance (seconds); every assumption and efficiency factor with its origin. A candidate
// resized to a deployment that holds the brief has a row as entered, then the deployment's.
Sheet normalizationSheet(const Results &results);
Sheet costLinesSheet(const Results &results);
Sheet fitSheet(const Results &results);
Sheet performanceSheet(const Results &results);
Sheet assumptionsSheet(const Brief &brief, const Results &results);
// All five, in the order a workbook shows them.
std::vector<Sheet> resultSheets(const Brief &brief, const Results &results);

std::string catalogGpusTable(const Catalog &catalog);
std::string catalogModelsTable(const Catalog &catalog);
std::string catalogGpusJson(const Catalog &catalog);
std::string catalogModelsJson(const Catalog &catalog);
// The media catalog: each pipeline's parts, the model card's defaults and the work of one pass
// at them (catalog/mediamodel.h).
std::string catalogMediaTable(const Catalog &catalog);
std::string catalogMediaJson(const Catalog &catalog);

// The layout search (evaluate/search.h): every layout tried, the costed ones by cost per
// accepted output, with its replicas, SLO verdict, latency, throughput per GPU and per user,
// the budget its figures came from and which choice it is (cheapest of its GPU, on a front).
Sheet searchSheet(const Brief &brief, const SearchResult &result);
std::string searchToCsv(const Brief &brief, const SearchResult &result);
std::string searchToJson(const Brief &brief, const SearchResult &result);
// Within the GPU limit only (and each GPU's cheapest), cheapest first.
std::string searchToTable(const Brief &brief, const SearchResult &result);

} // namespace wb
