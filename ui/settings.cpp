#include "settings.h"

#include <QLocale>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace wb {

namespace {
const char *kGeometry = "window/geometry";
const char *kRecent = "files/recent";
const char *kAutosave = "autosave_interval_s";
const char *kDialogFolder = "files/dialog_folder";
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

QString Settings::dialogFolder() const
{
    const QString last = QSettings().value(QLatin1String(kDialogFolder)).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void Settings::setDialogFolder(const QString &fileChosen)
{
    if (!fileChosen.isEmpty())
        QSettings().setValue(QLatin1String(kDialogFolder), QFileInfo(fileChosen).absolutePath());
}

namespace {

// Where a dialog starts: beside the document's own file when it has one, else the last folder.
QString startIn(const QString &near, const QString &name)
{
    const QString folder = !near.isEmpty() && QFileInfo(QFileInfo(near).absolutePath()).isDir()
                               ? QFileInfo(near).absolutePath()
                               : Settings().dialogFolder();
    return name.isEmpty() ? folder : QDir(folder).filePath(name);
}

} // namespace

QString openFileName(QWidget *parent, const QString &title, const QString &filter, const QString &near)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, startIn(near, {}), filter);
    Settings().setDialogFolder(path);
    return path;
}

QString saveFileName(QWidget *parent, const QString &title, const QString &suggestedName, const QString &filter,
                     const QString &near)
{
    const QString path = QFileDialog::getSaveFileName(parent, title, startIn(near, suggestedName), filter);
    Settings().setDialogFolder(path);
    return path;
}

void useInterfaceLocale()
{
    QLocale english(QLocale::English, QLocale::UnitedStates);
    QLocale::setDefault(english);
}

} // namespace wb
