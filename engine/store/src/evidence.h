// A project's measured runs (private to the store; Project's evidence methods use them). A run
// is stored as its original file (an attachment), which run of the file it is, the mapping
// decided at import (GPU, count, layout, stack, load, lengths), the scenario and candidate it
// measures, and who imported it when; reading it back reads the file again with its importer.
#pragma once

#include "evidence/evidence.h"

#include <sqlite3.h>

#include <vector>

namespace wb::store {

// Every run (a scenario's only when named), in import order. Errors say which run is damaged.
Result<std::vector<EvidenceRun>> readEvidence(sqlite3 *db, const std::string &scenario = {});
// Stores a run whose file is already attached: a new id when run.id is 0, else that id (undo).
Result<long long> writeEvidence(sqlite3 *db, const EvidenceRun &run);
Status deleteEvidence(sqlite3 *db, long long id);

} // namespace wb::store
