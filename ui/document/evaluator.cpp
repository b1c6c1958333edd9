#include "document/evaluator.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace wb {

Evaluator::Evaluator(const Catalog &catalog, QObject *parent) : QObject(parent), m_catalog(catalog)
{
    m_pool.setMaxThreadCount(1);
    // Setting a new future on the watcher drops the old one's pending signals; a stopped run's
    // results are also checked against the stop, for a result that was already queued.
    connect(&m_watcher, &QFutureWatcher<Results>::resultsReadyAt, this, [this](int, int end) {
        if (m_stop.stop_requested())
            return;
        const Results results = m_watcher.resultAt(end - 1);
        emit resultsReady(results);
        if (results.engineError)
            emit failed(QString::fromStdString(*results.engineError));
        if (results.engineError || !results.preview || m_passes == Passes::FullOnly)
            setBusy(false);
    });
    // However the run ended (done, failed, stopped), it is no longer busy.
    connect(&m_watcher, &QFutureWatcher<Results>::finished, this, [this] { setBusy(false); });
}

Evaluator::~Evaluator()
{
    m_stop.request_stop();
    m_watcher.waitForFinished();
    m_pool.waitForDone();
}

void Evaluator::start(const Brief &brief, Passes passes)
{
    m_stop.request_stop();
    m_stop = std::stop_source();
    m_passes = passes;
    const Catalog *catalog = &m_catalog;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [brief, catalog, passes, stop = m_stop.get_token()](
                                                         QPromise<Results> &promise) {
        const auto run = [&](bool preview) {
            EvaluateOptions options;
            options.stop = stop;
            options.preview = preview;
            try {
                promise.addResult(evaluate(brief, *catalog, options));
            } catch (const std::exception &e) {
                // A failure outside the candidates' workers (they catch their own): the run
                // reports it and ends.
                Results failed;
                failed.briefName = brief.name;
                failed.engineError = std::string("the engine failed: ") + e.what();
                promise.addResult(failed);
                return false;
            } catch (...) {
                Results failed;
                failed.briefName = brief.name;
                failed.engineError = "the engine failed with an unknown exception";
                promise.addResult(failed);
                return false;
            }
            return !stop.stop_requested();
        };
        if (passes == Passes::QuickThenFull && !run(true))
            return;
        run(false);
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
