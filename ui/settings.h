// The application's settings in one typed place (QSettings underneath): window geometry, recent
// files and the autosave interval.
#pragma once

#include <QByteArray>
#include <QStringList>

namespace wb {

class Settings
{
public:
    static constexpr int kMaxRecent = 8;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);

    // Most recent first; files that no longer exist are left out.
    QStringList recentFiles() const;
    void addRecentFile(const QString &path);

    // Seconds between autosaves of unsaved work (at least 5).
    int autosaveIntervalS() const;
    void setAutosaveIntervalS(int seconds);
};

// Numbers, dates and input fields follow the interface's language, not the system's: the text
// is English (until the Spanish interface exists), so "12.5" must not read "12,5" beside it, nor
// "12,500" mean twelve and a half. Called once at start, before any window.
void useInterfaceLocale();

} // namespace wb
