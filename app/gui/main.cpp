// gpu-workbench [BRIEF.json]: opens the given brief, or the bundled sample.

#include <engine/catalog.h>
#include <engine/evaluate.h>
#include <ui/document.h>
#include <ui/mainwindow.h>

#include <QApplication>
#include <QDir>
#include <QMessageBox>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("GPU Workbench"));
    QApplication::setOrganizationName(QStringLiteral("gpu-workbench"));
    QApplication::setApplicationVersion(QString::fromLatin1(wb::engineVersion()));

    auto catalog = wb::Catalog::loadDefault();
    if (!catalog) {
        QMessageBox::critical(nullptr, QObject::tr("GPU Workbench"),
                              QObject::tr("The catalog cannot be loaded:\n%1").arg(QString::fromStdString(catalog.error().toString())));
        return 2;
    }
    wb::Document document(std::move(catalog).value());
    wb::MainWindow window(&document);
    const QStringList args = QApplication::arguments();
    const QString path = args.size() > 1
        ? args.at(1)
        : QDir(QString::fromStdString(wb::resourceDir())).filePath(QStringLiteral("samples/chat-70b.brief.json"));
    window.show();
    window.openFile(path);
    return QApplication::exec();
}
