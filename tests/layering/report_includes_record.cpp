// Deliberately wrong: the Report layer including a header of a layer above it. See CMakeLists.txt beside it.
#include "record/record.h"

int probe()
{
    return 0;
}
