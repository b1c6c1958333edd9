#include "settings.h"

#include <QLocale>

#include <QFileInfo>
#include <QSettings>

namespace wb {

namespace {
const char *kGeometry = "window/geometry";
const char *kRecent = "files/recent";
const char *kAutosave = "autosave_interval_s";
} // namespace

QByteArray Settings::windowGeometry() const
{
    return QSettings().value(QLatin1String(kGeometry)).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray &geometry)
{
    QSettings().setValue(QLatin1String(kGeometry), geometry);
}

QStringList Settings::recentFiles() const
{
    QStringList files;
    for (const QString &f : QSettings().value(QLatin1String(kRecent)).toStringList())
        if (QFileInfo::exists(f))
            files << f;
    return files;
}

void Settings::addRecentFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = QSettings().value(QLatin1String(kRecent)).toStringList();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QLatin1String(kRecent), files);
}

int Settings::autosaveIntervalS() const
{
    return std::max(5, QSettings().value(QLatin1String(kAutosave), 60).toInt());
}

void Settings::setAutosaveIntervalS(int seconds)
{
    QSettings().setValue(QLatin1String(kAutosave), std::max(5, seconds));
}

void useInterfaceLocale()
{
    QLocale english(QLocale::English, QLocale::UnitedStates);
    QLocale::setDefault(english);
}

} // namespace wb
