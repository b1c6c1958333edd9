#include "ui/document.h"

#include <QtConcurrent/QtConcurrentRun>

namespace wb {

Document::Document(Catalog catalog, QObject *parent) : QObject(parent), m_catalog(std::move(catalog))
{
    connect(&m_watcher, &QFutureWatcher<Results>::finished, this, [this] {
        // A cancelled run's results belong to a brief that is no longer open. (Setting a new
        // future on the watcher drops the old one's pending signals, so this is the current run.)
        if (m_cancel && m_cancel->load())
            return;
        m_results = m_watcher.result();
        m_evaluating = false;
        emit changed();
        emit evaluatingChanged(false);
    });
}

Document::~Document()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

std::optional<QString> Document::openBrief(const QString &path)
{
    auto brief = loadBrief(path.toStdString(), m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    cancelEvaluation();
    m_brief = std::move(brief).value();
    EvaluateOptions fitOnly;
    fitOnly.performance = false;
    m_results = evaluate(*m_brief, m_catalog, fitOnly);
    m_path = path;
    emit changed();
    startEvaluation();
    return std::nullopt;
}

void Document::clear()
{
    cancelEvaluation();
    m_brief.reset();
    m_results = Results();
    m_path.clear();
    emit changed();
}

void Document::startEvaluation()
{
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // The worker owns copies of what it reads, so nothing it uses can change or vanish under it.
    m_watcher.setFuture(QtConcurrent::run([brief = *m_brief, catalog = m_catalog, cancel = m_cancel] {
        EvaluateOptions options;
        options.cancel = cancel.get();
        return evaluate(brief, catalog, options);
    }));
    m_evaluating = true;
    emit evaluatingChanged(true);
}

void Document::cancelEvaluation()
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_evaluating) {
        m_evaluating = false;
        emit evaluatingChanged(false);
    }
}

} // namespace wb
