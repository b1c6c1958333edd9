// Each predicted figure's P10-P90 band (catalog/bands.h), carried to the cost per accepted output
// of each option and its break-even with the model API; the SLO verdict at the pessimistic end
// of the latency bands; and whether the recommendation holds across the throughput band.
#pragma once

#include "evaluate/evaluate.h"

namespace wb {

// Fills r.uncertainty from the catalog's bands (nothing when it has none) and adds the warnings
// of figures the bands put in doubt: an SLO met at the estimate but not at the pessimistic end of
// the latency band, a brief outside the calibration's data (a serving stack version, a GPU
// family or a model size without cases).
void attachUncertainty(CandidateResult &r, const Brief &brief, const Catalog &catalog);

// The recommendation's reason on the band: "holds at P10 and P90 throughput", or which route
// is cheaper at the other end of the band. Nothing without bands.
std::optional<Message> bandReason(const Brief &brief, const Results &results);

} // namespace wb
