// Small file helpers with the engine's error conventions, and the one atomic-write
// implementation every writer uses (the CLI's --out, project saves, recovery files).
#pragma once

#include "core/limits.h"
#include "core/result.h"

#include <cstddef>
#include <functional>
#include <string>

namespace wb {

// Replaces path whole or not at all: `fill` writes the complete new content to a temporary file
// in the same folder (whose path it is given); that file is then flushed and renamed over path,
// and the rename made durable. A failure leaves path as it was and no temporary file behind;
// the error names path and says why, starting with `verb` ("cannot be saved: ..."). Temporary
// files of writers killed half-way (their process gone) are removed on the next write there.
// Through a symbolic link the file it points to is replaced; an existing file's permissions
// are kept.
Status writeAtomically(const std::string &path, const std::function<Status(const std::string &tempPath)> &fill,
                       const std::string &verb = "cannot be written");

// Removes the temporary files that writers of path killed half-way left beside it (their
// process gone); writeAtomically() does it too, and opening a project does it first.
void removeStaleSaves(const std::string &path);

// writeAtomically() with these bytes.
Status writeFileAtomically(const std::string &path, const std::string &content);

// A regular file's bytes, read without blocking on a FIFO and at most maxBytes of them: a FIFO,
// a device, a socket or a folder is refused with what it is, and a larger file with the limit.
Result<std::string> readTextFile(const std::string &path, std::size_t maxBytes = limits::kJsonBytes);

// The first `bytes` of a regular file (fewer if it is shorter), with readTextFile's checks.
Result<std::string> readFileHead(const std::string &path, std::size_t bytes);

} // namespace wb
