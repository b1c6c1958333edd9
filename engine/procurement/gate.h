// The checklist gates the decision (the method: "the larger the commitment, the more evidence it
// should demand"). A reserve, purchase or dedicated-cluster recommendation whose vendor has not
// answered what the checklist requires at that commitment stands "subject to evidence", with a
// warning naming the missing items, until they are answered.
#pragma once

#include "evaluate/evaluate.h"
#include "procurement/vendors.h"

#include <string>

namespace wb {

// The commitment a recommended GPU option makes: a reservation, a purchase, or a dedicated
// cluster (the price's offer is one, or the vendor rents whole clusters). Renting on demand or
// spot, and the model API, commit to nothing the checklist gates.
std::vector<VendorNote> vendorNotes(const Results &results, const std::string &scenario, const ChecklistTemplate &tmpl,
                                    const ProjectChecklist &checklist);

std::optional<Commitment> commitmentOf(const Recommendation &rec, const Vendor *vendor);

// Applies a project's checklist to the results of one of its scenarios: sets
// results.cost.recommendation->evidence and adds a "checklist-evidence-missing" warning to
// results.cost.warnings when a commitment's required items are missing. The vendor that backs
// the option is the one whose providers name the option's provider, else one that lists the
// scenario's candidate (the one with fewest gaps); with none, every required item is missing.
// Results without a recommendation, or recommending no commitment, are left as they are.
// It also sets results.vendorNotes: the answers of the vendors that back each candidate (by
// candidate, or by the provider of one of its prices) to the questions that bear on its figures.
// Apply it once to results fresh from evaluate() (it adds a reason and a warning).
void gateByChecklist(Results &results, const std::string &scenario, const ChecklistTemplate &tmpl,
                     const ProjectChecklist &checklist);

} // namespace wb
