// Named defaults. Every number the models assume rather than read from the brief or the
// catalog is listed here with its unit and its reason; a brief overrides any of them under
// "assumptions": { "name": value }. Results print the ones they used.
#pragma once

#include "core/result.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct AssumptionInfo
{
    std::string_view name;
    std::string_view unit;     // "bytes", "fraction", "tokens", "sequences", "bool", "count"
    double defaultValue;
    double min;
    double max;
    std::string_view reason;
};

// Every assumption the engine knows, in a stable order.
const std::vector<AssumptionInfo> &assumptionCatalog();
const AssumptionInfo *findAssumption(std::string_view name);

class Assumptions
{
public:
    // The brief's value if it set one, else the default. Asking for an unknown name is a
    // programming error and returns 0.
    double value(std::string_view name) const;
    bool flag(std::string_view name) const { return value(name) != 0.0; }
    bool overridden(std::string_view name) const;
    // Sets an override after checking the name and range; the error's path is jsonPath.
    Status set(const std::string &name, double value, const std::string &jsonPath = {});
    const std::map<std::string, double, std::less<>> &overrides() const { return m_overrides; }

private:
    std::map<std::string, double, std::less<>> m_overrides;
};

} // namespace wb
