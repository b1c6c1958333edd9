// The application's settings in one typed place (QSettings underneath): window geometry, recent
// files, the autosave interval and the folder file dialogs open in.
#pragma once

#include <QByteArray>
#include <QStringList>

class QWidget;

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

    // The folder a file dialog opens in: the last one a file was opened from or saved to, else
    // the person's Documents folder (never the working directory the program started in).
    QString dialogFolder() const;
    void setDialogFolder(const QString &fileChosen);
};

// File dialogs that open in Settings::dialogFolder() (or beside `near`, a file the document
// already has) and remember where the person went. Empty when cancelled.
QString openFileName(QWidget *parent, const QString &title, const QString &filter = {}, const QString &near = {});
QString saveFileName(QWidget *parent, const QString &title, const QString &suggestedName, const QString &filter = {},
                     const QString &near = {});

// Numbers, dates and input fields follow the interface's language, not the system's: the text
// is English (until the Spanish interface exists), so "12.5" must not read "12,5" beside it, nor
// "12,500" mean twelve and a half. Called once at start, before any window.
void useInterfaceLocale();

} // namespace wb
