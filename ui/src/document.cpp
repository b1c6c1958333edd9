#include "ui/document.h"

#include <engine/fileio.h>

#include <QDateTime>
#include <QFileInfo>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

namespace wb {

Document::Document(Catalog catalog, QObject *parent)
    : QObject(parent), m_catalog(std::move(catalog)),
      m_untitledKey(QStringLiteral("untitled-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
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
    m_autosave.setInterval(m_autosaveIntervalS * 1000);
    connect(&m_autosave, &QTimer::timeout, this, [this] { autosaveNow(); });
    m_autosave.start();
}

Document::~Document()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
    // A clean close: nothing to recover.
    discardRecovery(recoveryKey().toStdString());
}

QString Document::recoveryKey() const
{
    return m_path.isEmpty() ? m_untitledKey : m_path;
}

std::optional<QString> Document::openFile(const QString &path)
{
    const bool project = path.endsWith(QLatin1String(".gpuwb"), Qt::CaseInsensitive);
    if (project) {
        auto opened = Project::open(path.toStdString());
        if (!opened)
            return QString::fromStdString(opened.error().toString());
        return adopt(std::move(opened).value(), QFileInfo(path).absoluteFilePath(), QFileInfo(path).absoluteFilePath(),
                     false);
    }
    // A brief: check it, then hold it as the one scenario of a new project.
    auto brief = loadBrief(path.toStdString(), m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    Project fresh = Project::create();
    Status put = fresh.putScenario(brief->name, readTextFile(path.toStdString()).value());
    if (!put)
        return QString::fromStdString(put.error().toString());
    return adopt(std::move(fresh), QString(), QFileInfo(path).absoluteFilePath(), true);
}

std::optional<QString> Document::openRecovery(const QString &recoveryFile)
{
    auto opened = Project::open(recoveryFile.toStdString(), OpenAccess::ReadOnly);
    if (!opened)
        return QString::fromStdString(opened.error().toString());
    const QString key = QString::fromStdString(opened->recoveryKey());
    // Reopen as a fresh in-memory copy so that it can be saved anywhere.
    Project copy = Project::create();
    for (const Scenario &s : opened->scenarios())
        copy.putScenario(s.name, s.briefJson);
    for (const GpuPrice &p : opened->priceOverrides())
        copy.addPriceOverride(p);
    const bool hadPath = key.endsWith(QLatin1String(".gpuwb"));
    auto result = adopt(std::move(copy), hadPath ? key : QString(), hadPath ? key : tr("recovered work"), true);
    if (!result)
        discardRecovery(opened->recoveryKey());  // now held (and autosaved) under this document's key
    return result;
}

std::optional<QString> Document::adopt(Project project, const QString &path, const QString &source, bool modified)
{
    const std::vector<Scenario> scenarios = project.scenarios();
    if (scenarios.empty())
        return tr("%1: has no scenarios to show").arg(source);
    const Scenario &first = scenarios.front();
    auto brief = parseBrief(first.briefJson, source.toStdString() + " (scenario \"" + first.name + "\")", m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    for (const GpuPrice &p : project.priceOverrides())
        brief.value().cost.prices.push_back(p);
    cancelEvaluation();
    discardRecovery(recoveryKey().toStdString());  // the previous document is closed cleanly
    m_project = std::move(project);
    m_brief = std::move(brief).value();
    m_path = path;
    m_source = source;
    m_scenario = QString::fromStdString(first.name);
    m_modified = modified;
    EvaluateOptions fitOnly;
    fitOnly.performance = false;
    m_results = evaluate(*m_brief, m_catalog, fitOnly);
    emit changed();
    startEvaluation();
    return std::nullopt;
}

void Document::clear()
{
    cancelEvaluation();
    discardRecovery(recoveryKey().toStdString());
    m_project.reset();
    m_brief.reset();
    m_results = Results();
    m_path.clear();
    m_source.clear();
    m_scenario.clear();
    m_modified = false;
    emit changed();
}

std::optional<QString> Document::saveAs(const QString &path)
{
    if (!m_project)
        return tr("There is nothing to save.");
    if (path.isEmpty())
        return tr("Choose where to save the project.");
    const QString oldKey = recoveryKey();
    Status saved = m_project->save(path.toStdString());
    if (!saved) {
        // Read-only projects (another instance, a newer version) can still be saved elsewhere
        // as a copy.
        if (!m_project->readOnly() || QFileInfo(path).absoluteFilePath() == m_path)
            return QString::fromStdString(saved.error().toString());
        Status copied = m_project->saveCopy(path.toStdString());
        if (!copied)
            return QString::fromStdString(copied.error().toString());
        auto reopened = Project::open(path.toStdString());
        if (!reopened)
            return QString::fromStdString(reopened.error().toString());
        m_project = std::move(reopened).value();
    }
    discardRecovery(oldKey.toStdString());
    m_path = QFileInfo(path).absoluteFilePath();
    m_source = m_path;
    m_modified = false;
    emit changed();
    return std::nullopt;
}

QString Document::readOnlyReason() const
{
    if (!m_project || !m_project->readOnly())
        return {};
    if (m_project->lockedByOther())
        return tr("open in another instance");
    if (m_project->fileSchemaVersion() > kProjectSchemaVersion)
        return tr("written by GPU Workbench %1, a newer version").arg(QString::fromStdString(m_project->writer()));
    return tr("read-only");
}

void Document::setAutosaveIntervalS(int seconds)
{
    m_autosaveIntervalS = std::max(5, seconds);
    m_autosave.setInterval(m_autosaveIntervalS * 1000);
}

bool Document::autosaveNow()
{
    if (!m_project || !m_modified)
        return false;
    return bool(m_project->saveRecovery(recoveryKey().toStdString()));
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
