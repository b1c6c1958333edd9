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

void Evaluator::start(const Brief &brief, Passes passes, EvaluationEvidence evidence)
{
    m_stop.request_stop();
    m_stop = std::stop_source();
    m_passes = passes;
    const Catalog *catalog = &m_catalog;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [this, brief, catalog, passes, evidence, stop = m_stop.get_token(),
                                                    cacheMutex = m_cacheMutex, cache = m_cache](QPromise<Results> &promise) {
        const bool calibrating = evidence.calibrate && !evidence.runs.empty();
        std::shared_ptr<const std::vector<EvidenceCalibration>> calibrations;
        bool current = false;  // the kept calibration is this run's
        if (calibrating) {
            const std::lock_guard lock(*cacheMutex);
            calibrations = cache->calibrations;
            current = cache->key == evidence.key;
        }
        const auto run = [&](bool preview) {
            EvaluateOptions options;
            options.stop = stop;
            options.preview = preview;
            if (calibrating && !preview && !current) {
                // A calibration fits the factors through many evaluations of the runs: seconds
                // once, then kept while the runs and the brief's model side stay the same. If
                // it fails, the figures are the uncalibrated ones (they do not claim otherwise).
                try {
                    calibrations = std::make_shared<const std::vector<EvidenceCalibration>>(
                        calibrateFromEvidence(brief, evidence.runs, *catalog, catalog->efficiency(), stop));
                } catch (const std::exception &) {
                    calibrations = std::make_shared<const std::vector<EvidenceCalibration>>();
                }
                if (stop.stop_requested())
                    return false;
                const std::lock_guard lock(*cacheMutex);
                *cache = {evidence.key, calibrations};
                current = true;
            }
            // The kept calibration only when it is this brief's and runs' (the preview of another
            // scenario, or of changed runs, is uncalibrated until its own calibration is done).
            if (calibrating && calibrations && current)
                options.candidateEfficiency = candidateEfficiencies(*calibrations);
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
        if (!run(false) || evidence.runs.empty())
            return;
        try {
            auto analysis = std::make_shared<const EvidenceAnalysis>(
                analyzeEvidence(brief, evidence.runs, *catalog, catalog->efficiency(),
                                calibrating && calibrations ? *calibrations : std::vector<EvidenceCalibration>{}, stop));
            // Delivered on the evaluator's thread, unless this run was stopped meanwhile (the
            // destructor waits for the worker, so `this` outlives the call).
            QMetaObject::invokeMethod(this, [this, analysis, stop] {
                if (!stop.stop_requested())
                    emit evidenceReady(analysis);
            }, Qt::QueuedConnection);
        } catch (const std::exception &) {
            // The figures already reported stand; the comparison is simply not shown.
        }
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
