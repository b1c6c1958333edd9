// The project file's schema: the tables of each version and the migrations between them.
#pragma once

#include "core/result.h"

#include <set>
#include <string>

struct sqlite3;

namespace wb::store {

// Creates the current schema in an empty database.
Status createSchema(sqlite3 *db);
// The tables a file of this schema version has; empty for an unknown version.
const std::set<std::string> &tablesOf(int schemaVersion);
// Upgrades a database of schema `from` to the current one, in one transaction (the caller's).
Status migrate(sqlite3 *db, int from);

} // namespace wb::store
