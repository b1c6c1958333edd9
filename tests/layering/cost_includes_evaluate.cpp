// Deliberately wrong: the Cost layer including a header of a layer above it. See CMakeLists.txt beside it.
#include "evaluate/evaluate.h"

int probe()
{
    return 0;
}
