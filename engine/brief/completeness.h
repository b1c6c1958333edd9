// How complete a brief is, item by item, in the order of the seed's workload brief (kind and
// model; context and outputs; traffic and latency targets; acceptance; data boundary and
// operating model). The seed: "if you cannot complete this table, pause the GPU selection".
// Items marked blocking hold back the ranking and the recommendation until they are given; the
// others are filled by a stated assumption and lower the completeness only.
#pragma once

#include "brief/brief.h"

#include <string>
#include <vector>

namespace wb {

struct BriefItem
{
    std::string name;     // "latency targets", for a person
    std::string pointer;  // where in the brief it is given: "/workload/slo"
    bool given = false;
    bool blocking = false;  // the ranking waits for it
    std::string why;        // what the results assume or cannot do without it
};

struct Completeness
{
    std::vector<BriefItem> items;  // only the items that apply to the workload kind

    int givenCount() const;
    double fraction() const;  // given / applicable
    // True when no blocking item is missing: the ranking and recommendation may be shown.
    bool rankable() const;
    // The missing items, blocking first, as "name" strings.
    std::vector<const BriefItem *> missing() const;
};

Completeness assessCompleteness(const Brief &brief);

// "the ranking and recommendation are held back until the brief gives: latency targets
// (/workload/slo); acceptance (/workload/acceptance)"; empty when nothing holds them back.
// withPointers: each item followed by its JSON pointer ("latency targets (/workload/slo)"), for
// the command line, whose reader edits the file; the window names the fields only.
std::string rankingHeldBackText(const std::vector<BriefItem> &missing, bool withPointers = true);

} // namespace wb
