#include "core/result.h"

namespace wb {

std::string Error::toString() const
{
    std::string line;
    if (!file.empty())
        line += file + ": ";
    if (!path.empty())
        line += path + ": ";
    line += message;
    return line;
}

} // namespace wb
