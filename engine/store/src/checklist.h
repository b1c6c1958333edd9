// The vendor checklist's rows (private to the store; Project's checklist methods use them).
#pragma once

#include "procurement/vendors.h"

#include <sqlite3.h>

#include <optional>
#include <string>

namespace wb::store {

// Reads and checks every checklist row; the error says which row is damaged ("is damaged: ...").
Result<ProjectChecklist> readChecklist(sqlite3 *db);
// Replaces the checklist's rows in one transaction.
Status writeChecklist(sqlite3 *db, const ProjectChecklist &checklist);
// Whether writeChecklist would store it (valid, every file its answers name attached), writing nothing.
Status checkStorable(sqlite3 *db, const ProjectChecklist &checklist);
Result<Attachment> storeAttachment(sqlite3 *db, const std::string &fileName, const std::string &bytes);
std::optional<std::string> attachmentBytes(sqlite3 *db, const std::string &sha256);

} // namespace wb::store
