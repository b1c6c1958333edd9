// Deliberately wrong: the Fit layer including a header of a layer above it. See CMakeLists.txt beside it.
#include "performance/performance.h"

int probe()
{
    return 0;
}
