// What the fuzz targets share: the shipped catalog, loaded once.
#pragma once

#include <catalog/catalog.h>

#include <cstdlib>
#include <string>

namespace fuzz {

inline const wb::Catalog &catalog()
{
    static const wb::Catalog c = [] {
        auto loaded = wb::Catalog::loadShipped(std::string(WB_SOURCE_DIR) + "/resources");
        if (!loaded)
            std::abort();
        return std::move(loaded).value();
    }();
    return c;
}

} // namespace fuzz
