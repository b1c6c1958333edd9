#include "core/result.h"

#include "core/limits.h"

namespace wb {

std::string Error::toString() const
{
    std::string line;
    if (!file.empty())
        line += file + ": ";
    if (!path.empty())
        line += path + ": ";
    line += message;
    // One line, whatever a file's values hold: control characters (a newline, ESC) escaped.
    return limits::printable(line, 4000);
}

} // namespace wb
