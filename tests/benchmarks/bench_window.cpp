// The window's update time after an edit, measured through the real widgets on the offscreen
// platform: from the last keystroke in a brief field (the request rate, or the model) to the
// moment the window has repainted with the first answer (fit, performance, cost, charts and
// recommendation from the quick simulation budget), and to the full evaluation replacing it.
// The goal is 200 ms to the first answer on the sample project.
//
//   ./build/tests/benchmarks/bench_window --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <catalog/catalog.h>
#include <pages/briefform.h>
#include <document/document.h>
#include <mainwindow.h>

#include <benchmark/benchmark.h>

#include <widgets/numberedit.h>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QStandardPaths>

#include <cstdio>
#include <functional>

namespace {

wb::Catalog &catalog()
{
    static wb::Catalog c = [] {
        auto loaded = wb::Catalog::loadShipped(WB_SOURCE_DIR "/resources");
        if (!loaded)
            qFatal("catalog does not load");
        return std::move(loaded).value();
    }();
    return c;
}

const QString kSample = QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json");

enum class Until { FirstAnswer, FullEvaluation };

// Runs edit(i) and pumps the event loop until the document shows the wanted results, then
// renders the window (what a person would see). Returns the seconds that took.
double timeUpdate(wb::Document &doc, wb::MainWindow &w, const std::function<void()> &edit, Until until,
                  bool settle = true)
{
    QElapsedTimer clock;
    clock.start();
    edit();
    const auto shown = [&] {
        const wb::Results &r = doc.results();
        return until == Until::FirstAnswer ? r.performanceEvaluated : (r.performanceEvaluated && !doc.evaluating());
    };
    while (!shown()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
        if (clock.elapsed() > 120000)
            qFatal("no results after two minutes");
    }
    w.grab();  // paint every widget of the window with the new figures
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    // Let a still-running full evaluation finish so that the next edit starts from rest (or not:
    // the next keystroke then cancels it, as when a person keeps typing).
    while (settle && doc.evaluating())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    return seconds;
}

// The window at 1280x800 on the sample brief, its evaluation finished.
void openSample(wb::Document &doc, wb::MainWindow &w)
{
    w.resize(1280, 800);
    w.show();
    if (auto error = doc.openFile(kSample))
        qFatal("%s", qPrintable(*error));
    while (doc.evaluating())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
}

void editRate(benchmark::State &state, Until until, bool settle = true)
{
    wb::Document doc(catalog());
    wb::MainWindow w(&doc);
    openSample(doc, w);
    int i = 0;
    for (auto _ : state) {
        const double rate = (i++ % 2) ? 12.5 : 9.5;
        state.SetIterationTime(timeUpdate(doc, w, [&] { w.briefForm()->rateBox()->setValue(rate); }, until, settle));
    }
}

void editModel(benchmark::State &state, Until until)
{
    wb::Document doc(catalog());
    wb::MainWindow w(&doc);
    openSample(doc, w);
    QComboBox *model = w.briefForm()->modelBox();
    int i = 0;
    for (auto _ : state) {
        const QString id = (i++ % 2) ? QStringLiteral("\"llama-3.1-70b\"") : QStringLiteral("\"llama-3.1-8b\"");
        state.SetIterationTime(timeUpdate(doc, w, [&] { model->setCurrentIndex(model->findData(id)); }, until));
    }
}

void BM_EditRate_FirstAnswer(benchmark::State &state) { editRate(state, Until::FirstAnswer); }
// Each edit arrives while the previous full evaluation is still running, and cancels it.
void BM_EditRate_FirstAnswer_WhileBusy(benchmark::State &state) { editRate(state, Until::FirstAnswer, false); }
void BM_EditRate_Full(benchmark::State &state) { editRate(state, Until::FullEvaluation); }
void BM_EditModel_FirstAnswer(benchmark::State &state) { editModel(state, Until::FirstAnswer); }
void BM_EditModel_Full(benchmark::State &state) { editModel(state, Until::FullEvaluation); }

BENCHMARK(BM_EditRate_FirstAnswer)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_EditRate_FirstAnswer_WhileBusy)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_EditModel_FirstAnswer)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_EditRate_Full)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_EditModel_Full)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

int main(int argc, char **argv)
{
    // The offscreen platform warns on every window it cannot resize natively; not a result.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
        if (!message.contains(QLatin1String("propagateSizeHints")))
            fprintf(stderr, "%s%s\n", type >= QtWarningMsg ? "warning: " : "", qPrintable(message));
    });
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);  // leave the user's settings alone
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
