// The one owner of evaluation work in the window: runs a scenario's evaluation (the use case,
// usecase/scenario.h: calibrated from its runs, compared with them after the full pass) off the
// UI thread, one run at a time. A new start() stops the run under way (the engine checks the stop
// between simulation steps, so it ends within milliseconds) and its figures are never reported.
// Whatever happens in the engine, busy() ends: an exception is caught and reported through
// failed() and results whose engineError names it. The destructor stops the run and waits for
// it, so nothing the worker reads (the catalog) can vanish under it.
#pragma once

#include <usecase/scenario.h>

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include <memory>
#include <stop_token>

namespace wb {

class Evaluator : public QObject
{
    Q_OBJECT

public:
    // What a run reports: a quick first answer and then the full evaluation, or the full one only.
    enum class Passes { QuickThenFull, FullOnly };

    // catalog must outlive the evaluator.
    explicit Evaluator(const Catalog &catalog, QObject *parent = nullptr);
    ~Evaluator() override;

    // Evaluates a copy of brief; stops the run under way.
    // fits: the brief's candidates' fits when already made (EvaluateOptions::fits); gate: the
    // project's checklist, which gates each pass before it is reported.
    void start(const Brief &brief, Passes passes = Passes::QuickThenFull,
               ScenarioEvidence evidence = ScenarioEvidence(),
               std::shared_ptr<const std::vector<FitResult>> fits = nullptr,
               std::shared_ptr<const ScenarioGate> gate = nullptr);
    // Stops the run under way; nothing more is reported for it.
    void stop();
    // From start() until the last pass is reported, the run fails or it is stopped.
    bool busy() const { return m_busy; }

signals:
    // Each pass's results, in order (Results::preview marks the quick one), shared, not copied.
    void resultsReady(std::shared_ptr<const wb::Results> results);
    // The engine failed: what failed, for the status bar (the results also carry it).
    void failed(const QString &message);
    void busyChanged(bool busy);
    // Reported after the full pass of a run with measured runs.
    void evidenceReady(std::shared_ptr<const wb::EvidenceAnalysis> analysis);

private:
    void setBusy(bool busy);

    const Catalog &m_catalog;
    QThreadPool m_pool;  // one worker: a stopped run ends before the next begins
    QFutureWatcher<std::shared_ptr<const Results>> m_watcher;
    std::stop_source m_stop;
    Passes m_passes = Passes::QuickThenFull;
    bool m_busy = false;
    // The last calibration fitted (read and written by the worker).
    std::shared_ptr<CalibrationCache> m_cache = std::make_shared<CalibrationCache>();
};

} // namespace wb
