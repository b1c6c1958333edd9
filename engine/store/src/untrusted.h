// Checks for project files from anywhere, before and after SQLite reads them: the header
// (https://www.sqlite.org/fileformat.html), the integrity, and that the file holds our tables
// only, never triggers or views that could run code when read.
#pragma once

#include "core/result.h"

#include <set>
#include <string>

struct sqlite3;

namespace wb::store {

// The header of a project's bytes; name is for messages.
Status checkHeader(const std::string &bytes, const std::string &name);

struct Contents
{
    int schemaVersion = 0;
    std::set<std::string> tables;
};

// quick_check, then what the database holds. Call under a Deadline.
Result<Contents> checkContents(sqlite3 *db, const std::string &name);

} // namespace wb::store
