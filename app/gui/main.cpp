// gpu-workbench [PROJECT.gpuwb | BRIEF.json]: offers to recover work a crash left behind, then
// opens the given file, or the bundled sample project (three scenarios: a real-time chat
// assistant on a 70B model, a nightly batch summarization job, a LoRA fine-tune).
//
// gpu-workbench --benchmark-startup [FILE]: opens the file or the sample as usual (no recovery
// offered), prints when the window was first painted and when the full results were painted
// (milliseconds since main() began) and the process's peak resident memory, then quits. The
// bench_window benchmark runs it and times the whole process from its start.

#include <catalog/catalog.h>
#include <evaluate/evaluate.h>
#include <document/document.h>
#include <mainwindow.h>
#include <settings.h>
#include <widgets/readablestyle.h>

#include <store/project.h>

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMessageBox>
#include <QTimer>

#include <sys/resource.h>

#include <cstdio>

namespace {

// Watches the window's paints for --benchmark-startup: the first one, then the first after the
// full results are in; prints the times and the peak RSS and quits.
class StartupProbe : public QObject
{
public:
    StartupProbe(QWidget *window, wb::Document *document, const QElapsedTimer &clock)
        : m_window(window), m_document(document), m_clock(clock)
    {
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched != m_window || event->type() != QEvent::Paint)
            return false;
        if (m_firstPaintMs < 0) {
            m_firstPaintMs = m_clock.nsecsElapsed() / 1e6;
            std::printf("first_paint_ms=%.1f\n", m_firstPaintMs);
            std::fflush(stdout);
        } else if (!m_done && m_document->hasBrief() && m_document->results().performanceEvaluated
                   && !m_document->results().preview && !m_document->evaluating()) {
            m_done = true;
            struct rusage usage {};
            getrusage(RUSAGE_SELF, &usage);
            std::printf("full_results_ms=%.1f peak_rss_mb=%.1f\n", m_clock.nsecsElapsed() / 1e6,
                        double(usage.ru_maxrss) / 1024.0);
            std::fflush(stdout);
            QTimer::singleShot(0, qApp, &QApplication::quit);
        }
        return false;
    }

private:
    QWidget *m_window;
    wb::Document *m_document;
    const QElapsedTimer &m_clock;
    double m_firstPaintMs = -1;
    bool m_done = false;
};

} // namespace

int main(int argc, char *argv[])
{
    QElapsedTimer clock;
    clock.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("GPU Workbench"));
    QApplication::setOrganizationName(QStringLiteral("gpu-workbench"));
    QApplication::setApplicationVersion(QString::fromLatin1(wb::engineVersion()));
    wb::useInterfaceLocale();
    QApplication::setStyle(new wb::ReadableStyle);  // the platform's style, readable on a dark palette

    auto catalog = wb::Catalog::loadDefault();
    if (!catalog) {
        QMessageBox::critical(nullptr, QObject::tr("GPU Workbench"),
                              QObject::tr("The catalog cannot be loaded:\n%1").arg(QString::fromStdString(catalog.error().toString())));
        return 2;
    }
    wb::Document document(std::move(catalog).value());
    document.setAutosaveIntervalS(wb::Settings().autosaveIntervalS());
    wb::MainWindow window(&document);
    QStringList args = QApplication::arguments();
    const bool benchmark = args.size() > 1 && args.at(1) == QLatin1String("--benchmark-startup");
    std::optional<StartupProbe> startup;
    if (benchmark) {
        args.removeAt(1);
        startup.emplace(&window, &document, clock);
        // Each evaluation's results repaint the window; the probe looks at every paint.
        QObject::connect(&document, &wb::Document::resultsChanged, &window, [&window] { window.update(); });
    }
    window.show();

    // Work a crash left behind: offer the newest; declining deletes it.
    bool recovered = false;
    for (const std::string &file : benchmark ? std::vector<std::string>{} : wb::pendingRecoveryFiles()) {
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
