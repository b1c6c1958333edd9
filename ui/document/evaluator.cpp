#include "document/evaluator.h"

#include <QtConcurrent/QtConcurrentRun>

namespace wb {

Evaluator::Evaluator(const Catalog &catalog, QObject *parent) : QObject(parent), m_catalog(catalog)
{
    m_pool.setMaxThreadCount(1);
    // Setting a new future on the watcher drops the old one's pending signals; a stopped run's
    // results are also checked against the stop, for a result that was already queued.
    using Watcher = QFutureWatcher<std::shared_ptr<const Results>>;
    connect(&m_watcher, &Watcher::resultsReadyAt, this, [this](int, int end) {
        if (m_stop.stop_requested())
            return;
        const std::shared_ptr<const Results> results = m_watcher.resultAt(end - 1);
        emit resultsReady(results);
        if (results->engineError)
            emit failed(QString::fromStdString(*results->engineError));
        if (results->engineError || !results->preview || m_passes == Passes::FullOnly)
            setBusy(false);
    });
    // However the run ended (done, failed, stopped), it is no longer busy.
    connect(&m_watcher, &Watcher::finished, this, [this] { setBusy(false); });
}

Evaluator::~Evaluator()
{
    m_stop.request_stop();
    m_watcher.waitForFinished();
    m_pool.waitForDone();
}

void Evaluator::start(const Brief &brief, Passes passes, ScenarioEvidence evidence,
                      std::shared_ptr<const std::vector<FitResult>> fits, std::shared_ptr<const ScenarioGate> gate)
{
    m_stop.request_stop();
    m_stop = std::stop_source();
    m_passes = passes;
    const Catalog *catalog = &m_catalog;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [this, brief, catalog, passes, evidence = std::move(evidence), fits = std::move(fits), gate = std::move(gate),
                                                    stop = m_stop.get_token(), cache = m_cache](QPromise<std::shared_ptr<const Results>> &promise) {
        ScenarioRunOptions options;
        options.quickFirst = passes == Passes::QuickThenFull;
        options.analyse = true;
        options.stop = stop;
        options.cache = cache.get();
        options.fits = fits;
        options.gate = gate;
        options.onPass = [&promise](std::shared_ptr<const Results> results) { promise.addResult(std::move(results)); };
        // The use case never throws (an engine failure comes back as the results' engineError).
        const ScenarioEvaluation done = evaluateScenario(brief, *catalog, evidence, options);
        // Delivered on the evaluator's thread, unless this run was stopped meanwhile (the
        // destructor waits for the worker, so `this` outlives the call).
        if (done.analysis)
            QMetaObject::invokeMethod(this, [this, analysis = done.analysis, stop] {
                if (!stop.stop_requested())
                    emit evidenceReady(analysis);
            }, Qt::QueuedConnection);
    }));
    setBusy(true);
}

void Evaluator::stop()
{
    m_stop.request_stop();
    setBusy(false);
}

void Evaluator::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace wb
