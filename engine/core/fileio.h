// Small file helpers with the engine's error conventions.
#pragma once

#include "core/result.h"

#include <string>

namespace wb {

// Writes content to path so that path is either untouched or holds all of content: the bytes
// go to a temporary file in the same folder, are flushed, and the file is renamed over path.
// Errors name the path and the reason.
Status writeFileAtomically(const std::string &path, const std::string &content);

Result<std::string> readTextFile(const std::string &path);

} // namespace wb
