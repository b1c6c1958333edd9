// Deliberately wrong: the Core layer including a header of a layer above it. See CMakeLists.txt beside it.
#include "catalog/catalog.h"

int probe()
{
    return 0;
}
