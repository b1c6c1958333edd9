// gpu-workbench [PROJECT.gpuwb | BRIEF.json]: offers to recover work a crash left behind, then
// opens the given file, or the bundled sample project (three scenarios: a real-time chat
// assistant on a 70B model, a nightly batch summarization job, a LoRA fine-tune).

#include <catalog/catalog.h>
#include <evaluate/evaluate.h>
#include <document/document.h>
#include <mainwindow.h>
#include <settings.h>

#include <store/project.h>

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("GPU Workbench"));
    QApplication::setOrganizationName(QStringLiteral("gpu-workbench"));
    QApplication::setApplicationVersion(QString::fromLatin1(wb::engineVersion()));
    wb::useInterfaceLocale();

    auto catalog = wb::Catalog::loadDefault();
    if (!catalog) {
        QMessageBox::critical(nullptr, QObject::tr("GPU Workbench"),
                              QObject::tr("The catalog cannot be loaded:\n%1").arg(QString::fromStdString(catalog.error().toString())));
        return 2;
    }
    wb::Document document(std::move(catalog).value());
    document.setAutosaveIntervalS(wb::Settings().autosaveIntervalS());
    wb::MainWindow window(&document);
    window.show();

    // Work a crash left behind: offer the newest; declining deletes it.
    bool recovered = false;
    for (const std::string &file : wb::pendingRecoveryFiles()) {
        const QString path = QString::fromStdString(file);
        if (!recovered) {
            auto probe = wb::Project::open(file, wb::OpenAccess::ReadOnly);
            const QString what = probe ? QString::fromStdString(probe->recoveryKey()) : path;
            const auto answer = QMessageBox::question(
                &window, QObject::tr("Recover unsaved work?"),
                QObject::tr("GPU Workbench did not close cleanly. Unsaved work on %1 was autosaved at %2.\n\n"
                            "Recover it? (No deletes the recovery data.)")
                    .arg(what, QFileInfo(path).lastModified().toString(Qt::ISODate)));
            if (answer == QMessageBox::Yes && !document.openRecovery(path)) {
                recovered = true;
                continue;
            }
        }
        QFile::remove(path);
    }
    if (!recovered) {
        const QStringList args = QApplication::arguments();
        if (args.size() > 1) {
            window.openFile(args.at(1));
        } else {
            const QDir samples(QString::fromStdString(wb::resourceDir()) + QStringLiteral("/samples"));
            const QStringList briefs = {samples.filePath(QStringLiteral("chat-70b.brief.json")),
                                        samples.filePath(QStringLiteral("batch-summarization.brief.json")),
                                        samples.filePath(QStringLiteral("lora-finetune.brief.json")),
                                        samples.filePath(QStringLiteral("chat-70b-h200-measured.brief.json"))};
            // Three vendors with partly answered checklists, to show the Checklist page at work.
            const QStringList answers = {samples.filePath(QStringLiteral("vendors.answers.json"))};
            // Illustrative benchmark results of the fourth scenario's one candidate, to show the
            // Evidence page at work.
            QList<wb::Document::RunsFile> runs;
            for (const char *file : {"vllm-h200-12.5rps.json", "guidellm-h200.json", "llmperf-h200_2000_300_summary.json"})
                runs.append({samples.filePath(QStringLiteral("evidence/") + QString::fromLatin1(file)), 3, 0});
            if (auto error = document.openBriefs(briefs, answers, runs))
                QMessageBox::warning(&window, QObject::tr("Cannot open the sample"), *error);
        }
    }
    return QApplication::exec();
}
