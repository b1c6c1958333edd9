#include "core/result.h"

#include "core/limits.h"

#include <cstdio>
#include <cstdlib>

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

namespace detail {

void resultMisused(const char *what, const Error *error)
{
    std::fprintf(stderr, "internal error: %s%s%s\n", what, error ? ": " : "", error ? error->toString().c_str() : "");
    std::abort();
}

} // namespace detail

} // namespace wb
