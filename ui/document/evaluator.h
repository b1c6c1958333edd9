// The one owner of evaluation work in the window: runs the engine's evaluate() off the UI
// thread, one run at a time. A new start() stops the run under way (the engine checks the stop
// between simulation steps, so it ends within milliseconds) and its figures are never reported.
// Whatever happens in the engine, busy() ends: an exception is caught and reported through
// failed() and results whose engineError names it. The destructor stops the run and waits for
// it, so nothing the worker reads (the catalog) can vanish under it.
#pragma once

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <evaluate/evaluate.h>
#include <evidence/evidence.h>

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include <memory>
#include <mutex>
#include <stop_token>

namespace wb {

// A scenario's measured runs for an evaluation: with `calibrate`, its candidates' step models are
// calibrated from them (evidence/evidence.h; the calibration is kept for the next run while
// `key`, calibrationKey(), is the same) and the quick pass uses the last one kept; after the full
// pass the runs are compared with the predictions (Evaluator::evidenceReady).
struct EvaluationEvidence
{
    std::vector<EvidenceRun> runs;
    bool calibrate = true;
    std::string key;
};

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
    void start(const Brief &brief, Passes passes = Passes::QuickThenFull,
               EvaluationEvidence evidence = EvaluationEvidence());
    // Stops the run under way; nothing more is reported for it.
    void stop();
    // From start() until the last pass is reported, the run fails or it is stopped.
    bool busy() const { return m_busy; }

signals:
    // Each pass's results, in order (Results::preview marks the quick one).
    void resultsReady(const wb::Results &results);
    // The engine failed: what failed, for the status bar (the results also carry it).
    void failed(const QString &message);
    void busyChanged(bool busy);
    // Reported after the full pass of a run with measured runs.
    void evidenceReady(std::shared_ptr<const wb::EvidenceAnalysis> analysis);

private:
    void setBusy(bool busy);

    const Catalog &m_catalog;
    QThreadPool m_pool;  // one worker: a stopped run ends before the next begins
    QFutureWatcher<Results> m_watcher;
    std::stop_source m_stop;
    Passes m_passes = Passes::QuickThenFull;
    bool m_busy = false;
    // The last calibration computed, and what it was computed from (read and written by the worker).
    struct Cached
    {
        std::string key;
        std::shared_ptr<const std::vector<EvidenceCalibration>> calibrations;
    };
    std::shared_ptr<std::mutex> m_cacheMutex = std::make_shared<std::mutex>();
    std::shared_ptr<Cached> m_cache = std::make_shared<Cached>();
};

} // namespace wb
