#include "core/fault.h"

#ifdef WB_FAULT_INJECTION

#include <cstdlib>

namespace wb {

bool faultInjected(std::string_view site)
{
    const char *sites = std::getenv("WB_INJECT_FAULT");
    if (!sites)
        return false;
    std::string_view rest(sites);
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        if (rest.substr(0, comma) == site)
            return true;
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    return false;
}

} // namespace wb

#endif
