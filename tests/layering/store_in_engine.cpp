// Deliberately wrong: an engine-side file including the store. See CMakeLists.txt beside it.
#include <store/project.h>

int probe()
{
    return wb::kProjectSchemaVersion;
}
