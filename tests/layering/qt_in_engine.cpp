// Deliberately wrong: an engine-side file including Qt. See CMakeLists.txt beside it.
#include <core/result.h>
#include <QString>

QString probe()
{
    return QString();
}
