#include "document/document.h"

#include "document/commands.h"

#include <core/fileio.h>
#include <usecase/scenario.h>
#include <report/report.h>

#include <QDateTime>
#include <QFileInfo>
#include <QUuid>

namespace wb {

Document::Document(Catalog catalog, QObject *parent)
    : QObject(parent), m_catalog(std::move(catalog)),
      m_untitledKey(QStringLiteral("untitled-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    if (auto shipped = loadChecklistTemplate())
        m_template = std::move(shipped).value();
    else
        m_templateError = QString::fromStdString(shipped.error().toString());
    connect(&m_evaluator, &Evaluator::resultsReady, this, [this](std::shared_ptr<const Results> results) {
        setResults(std::move(results));
        emit resultsChanged();
    });
    connect(&m_evaluator, &Evaluator::failed, this, [this](const QString &message) { m_engineError = message; });
    connect(&m_evaluator, &Evaluator::busyChanged, this, &Document::stateChanged);
    connect(&m_evaluator, &Evaluator::evidenceReady, this, [this](std::shared_ptr<const EvidenceAnalysis> analysis) {
        m_evidence = std::move(analysis);
        m_evidenceCurrent = true;
        emit evidenceAnalysisChanged();
    });
    m_autosave.setInterval(m_autosaveIntervalS * 1000);
    connect(&m_autosave, &QTimer::timeout, this, [this] { autosaveNow(); });
    connect(&m_undo, &QUndoStack::cleanChanged, this, &Document::stateChanged);
    m_autosave.start();
}

Document::~Document()
{
    m_evaluator.stop();
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
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (m_project && absolute == m_path && !m_project->readOnly()) {
            // Reopening the file this document holds: the lock is its own, and a second lock in
            // the same process would be refused (read-only, "another instance") while closing the
            // old project removed the lock file, leaving the file unguarded. Check that the file
            // opens, then let go of it and its lock, and open it again for writing.
            auto check = Project::open(path.toStdString(), OpenAccess::ReadOnly);
            if (!check)
                return QString::fromStdString(check.error().toString());
            m_evaluator.stop();
            m_project.reset();
            auto reopened = Project::open(path.toStdString());
            if (!reopened) {
                clear();
                return QString::fromStdString(reopened.error().toString());
            }
            auto shown = adopt(std::move(reopened).value(), absolute, absolute, false, std::nullopt);
            if (shown)
                clear();
            return shown;
        }
        auto opened = Project::open(path.toStdString());
        if (!opened)
            return QString::fromStdString(opened.error().toString());
        return adopt(std::move(opened).value(), absolute, absolute, false, std::nullopt);
    }
    // A brief: check it, then hold it as the one scenario of a new project.
    auto brief = loadBrief(path.toStdString(), m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    Project fresh = Project::create();
    Status put = fresh.putScenario(brief->name, readTextFile(path.toStdString()).value());
    if (!put)
        return QString::fromStdString(put.error().toString());
    return adopt(std::move(fresh), QString(), QFileInfo(path).absoluteFilePath(), true, std::move(brief).value());
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
        if (Status kept = copy.putScenario(s.name, s.briefJson); !kept)
            return QString::fromStdString(kept.error().toString());
    // The vendor checklist and the evidence files its answers name come along (the recovery file
    // passed the same checks on opening; a file that cannot be copied leaves its answer without it).
    ProjectChecklist checklist = opened->checklist();
    for (Vendor &v : checklist.vendors)
        for (VendorAnswer &a : v.answers)
            if (a.file) {
                const auto bytes = opened->attachment(a.file->sha256);
                if (!bytes || !copy.attach(a.file->name, *bytes))
                    a.file.reset();
            }
    if (Status kept = copy.putChecklist(checklist); !kept)
        return QString::fromStdString(kept.error().toString());
    const bool hadPath = key.endsWith(QLatin1String(".gpuwb"));
    auto result =
        adopt(std::move(copy), hadPath ? key : QString(), hadPath ? key : tr("recovered work"), true, std::nullopt);
    if (!result)
        discardRecovery(opened->recoveryKey());  // now held (and autosaved) under this document's key
    return result;
}

std::optional<QString> Document::openBriefs(const QStringList &paths, const QStringList &answers, const QList<RunsFile> &runs)
{
    Project fresh = Project::create();
    std::optional<Brief> first;
    std::vector<std::string> names;
    for (const QString &path : paths) {
        auto brief = loadBrief(path.toStdString(), m_catalog);
        if (!brief)
            return QString::fromStdString(brief.error().toString());
        Status put = fresh.putScenario(brief->name, readTextFile(path.toStdString()).value());
        if (!put)
            return QString::fromStdString(put.error().toString());
        names.push_back(brief->name);
        if (!first)
            first = std::move(brief).value();
    }
    for (const RunsFile &file : runs) {
        if (file.scenario < 0 || std::size_t(file.scenario) >= names.size())
            return tr("%1: no scenario %2 to import the runs into").arg(file.path).arg(file.scenario + 1);
        auto read = prepareEvidence(fresh, file.path.toStdString(), names[std::size_t(file.scenario)], file.candidate, {},
                                    "sample", m_catalog);
        if (!read)
            return QString::fromStdString(read.error().toString());
        for (const EvidenceRun &r : *read)
            if (auto stored = fresh.putEvidence(r); !stored)
                return QString::fromStdString(stored.error().toString());
    }
    for (const QString &path : answers) {
        if (!m_template)
            return m_templateError;
        auto merged = importAnswers(fresh, path.toStdString(), projectTemplate(*m_template, fresh.checklist()));
        if (!merged)
            return QString::fromStdString(merged.error().toString());
        if (Status put = fresh.putChecklist(*merged); !put)
            return QString::fromStdString(put.error().toString());
    }
    return adopt(std::move(fresh), QString(), tr("sample project"), false, std::move(first));
}

std::optional<QString> Document::newFromBrief(const QString &json)
{
    auto brief = parseBrief(json.toStdString(), "new brief", m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    Project fresh = Project::create();
    if (Status put = fresh.putScenario(brief->name, json.toStdString()); !put)
        return QString::fromStdString(put.error().toString());
    return adopt(std::move(fresh), QString(), tr("new project"), true, std::move(brief).value());
}

std::optional<QString> Document::adopt(Project project, const QString &path, const QString &source, bool modified,
                                       std::optional<Brief> firstBrief)
{
    const std::vector<Scenario> scenarios = project.scenarios();
    if (scenarios.empty())
        return tr("%1: has no scenarios to show").arg(source);
    // Check the first scenario before giving up the current document.
    if (!firstBrief) {
        auto brief = scenarioBrief(project, scenarios.front().name, m_catalog, source.toStdString());
        if (!brief)
            return QString::fromStdString(brief.error().toString());
        firstBrief = std::move(brief).value();
    }
    m_evaluator.stop();
    discardRecovery(recoveryKey().toStdString());  // the previous document is closed cleanly
    m_undo.clear();
    m_project = std::move(project);
    m_path = path;
    m_source = source;
    m_neverSaved = modified;
    emit scenariosChanged();
    emit checklistChanged();
    return show(QString::fromStdString(scenarios.front().name), std::move(firstBrief));
}

std::optional<QString> Document::show(const QString &scenario, std::optional<Brief> parsed)
{
    if (!parsed) {
        if (!m_project || !m_project->scenario(scenario.toStdString()))
            return tr("There is no scenario \"%1\".").arg(scenario);
        auto brief = scenarioBrief(*m_project, scenario.toStdString(), m_catalog, m_source.toStdString());
        if (!brief)
            return QString::fromStdString(brief.error().toString());
        parsed = std::move(brief).value();
    }
    m_brief = std::move(parsed);
    if (scenario != m_scenario && m_evidence) {
        m_evidence.reset();  // another scenario's runs
        emit evidenceAnalysisChanged();
    }
    m_scenario = scenario;
    m_engineError.clear();
    EvaluateOptions fitOnly;
    fitOnly.performance = false;
    auto fitted = std::make_shared<Results>(evaluate(*m_brief, m_catalog, fitOnly));
    // The brief's fits, made once per edit: the quick and the full pass take them.
    m_fits = fitted->engineError ? nullptr : fitsOf(*fitted);
    if (const auto gate = scenarioGate(); gate && !fitted->engineError)
        gateScenario(*fitted, *gate);
    setResults(std::move(fitted));
    // The simulations start before the pages show the brief and its fit, and run beside them:
    // the first answer comes sooner than when the pages went first (issue 20: 100 ms).
    startEvaluation();
    emit briefChanged();
    emit resultsChanged();
    emit stateChanged();
    return std::nullopt;
}

Result<Brief> Document::parsedScenario(const QString &name) const
{
    if (!m_project)
        return Error{"", "", "no project is open"};
    return scenarioBrief(*m_project, name.toStdString(), m_catalog, m_source.toStdString());
}

QStringList Document::scenarioNames() const
{
    QStringList names;
    if (m_project)
        for (const Scenario &s : m_project->scenarios())
            names << QString::fromStdString(s.name);
    return names;
}

std::optional<QString> Document::selectScenario(const QString &name)
{
    if (name == m_scenario)
        return std::nullopt;
    return show(name);
}

void Document::scenarioListChanged()
{
    emit scenariosChanged();
    const QStringList names = scenarioNames();
    if (names.isEmpty()) {
        m_evaluator.stop();
        m_brief.reset();
        m_fits.reset();
        m_scenario.clear();
        setResults(std::make_shared<const Results>());
        emit briefChanged();
        emit resultsChanged();
        emit stateChanged();
    } else if (!names.contains(m_scenario)) {
        show(names.front());
    } else {
        show(m_scenario);  // its brief may have changed (undo of an edit)
    }
}

std::optional<QString> Document::editBrief(const QString &pointer, const QString &valueJson, const QString &label,
                                           bool mergeable)
{
    return editBrief({{pointer.toStdString(), valueJson.toStdString()}}, label, mergeable);
}

std::optional<QString> Document::editBrief(const std::vector<BriefPatch> &patches, const QString &label, bool mergeable)
{
    const auto stored = m_project ? m_project->scenario(m_scenario.toStdString()) : std::nullopt;
    if (!stored || patches.empty())
        return tr("There is no brief to edit.");
    auto patched = patchBrief(stored->briefJson, patches, m_catalog);
    if (!patched) {
        const Error &e = patched.error();
        return tr("%1: %2").arg(QString::fromStdString(e.path.empty() ? patches.front().pointer : e.path),
                                QString::fromStdString(e.message));
    }
    if (patched->json == stored->briefJson)
        return std::nullopt;
    return pushStep(new BriefEditCommand(this, tr("Change %1").arg(label), stored->name, patches.front().pointer,
                                         stored->briefJson, std::move(patched).value(), mergeable && patches.size() == 1));
}

std::optional<QString> Document::pushStep(QUndoCommand *step)
{
    m_pushing = true;
    m_stepError.reset();
    m_undo.push(step);  // runs the step's redo, which may fail
    m_pushing = false;
    return std::exchange(m_stepError, std::nullopt);
}

void Document::stepFailed(QUndoCommand *step, const Status &status)
{
    step->setObsolete(true);
    const QString message = tr("%1 could not be stored: %2").arg(step->text(), QString::fromStdString(status.error().toString()));
    if (m_pushing)
        m_stepError = message;
    else
        emit storeFailed(message);
}

void Document::endEditSession()
{
    // Only the command on top can be merged into; a command undone is not on top.
    if (m_undo.index() == m_undo.count() && m_undo.count() > 0)
        if (auto *edit = dynamic_cast<BriefEditCommand *>(const_cast<QUndoCommand *>(m_undo.command(m_undo.count() - 1))))
            edit->seal();
}

std::optional<QString> Document::addScenarioFromFile(const QString &briefPath, const QString &name)
{
    if (!m_project)
        return openFile(briefPath);  // nothing open: the brief starts a new project
    auto brief = loadBrief(briefPath.toStdString(), m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    return addScenario(*brief, readTextFile(briefPath.toStdString()).value(), name, false);
}

std::optional<QString> Document::addScenarioFromJson(const QString &json, const QString &name, bool uniqueName)
{
    if (!m_project)
        return newFromBrief(json);
    auto brief = parseBrief(json.toStdString(), "new scenario", m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    return addScenario(*brief, json.toStdString(), name, uniqueName);
}

std::optional<QString> Document::addScenario(const Brief &brief, const std::string &json, const QString &name, bool uniqueName)
{
    const std::string base = name.isEmpty() ? brief.name : name.toStdString();
    std::string scenarioName = base;
    for (int n = 2; uniqueName && m_project->scenario(scenarioName); ++n)
        scenarioName = base + " (" + std::to_string(n) + ")";
    if (m_project->scenario(scenarioName))
        return tr("A scenario named \"%1\" already exists.").arg(QString::fromStdString(scenarioName));
    std::vector<Scenario> after = m_project->scenarios();
    after.push_back({scenarioName, json, {}});
    if (auto failed = pushStep(new ScenarioCommand(this, tr("Add scenario %1").arg(QString::fromStdString(scenarioName)),
                                                   m_project->scenarios(), after)))
        return failed;
    return selectScenario(QString::fromStdString(scenarioName));
}

std::optional<QString> Document::duplicateScenario(const QString &name, const QString &copyName)
{
    const auto source = m_project ? m_project->scenario(name.toStdString()) : std::nullopt;
    if (!source)
        return tr("There is no scenario \"%1\".").arg(name);
    if (copyName.trimmed().isEmpty() || m_project->scenario(copyName.toStdString()))
        return tr("Choose a new, unused name for the copy.");
    std::vector<Scenario> after = m_project->scenarios();
    after.push_back({copyName.toStdString(), source->briefJson, {}});
    if (auto failed = pushStep(new ScenarioCommand(this, tr("Duplicate scenario %1").arg(name), m_project->scenarios(), after)))
        return failed;
    return selectScenario(copyName);
}

std::optional<QString> Document::renameScenario(const QString &from, const QString &to)
{
    if (!m_project || !m_project->scenario(from.toStdString()))
        return tr("There is no scenario \"%1\".").arg(from);
    if (to.trimmed().isEmpty() || (to != from && m_project->scenario(to.toStdString())))
        return tr("Choose a new, unused name.");
    if (to == from)
        return std::nullopt;
    std::vector<Scenario> after = m_project->scenarios();
    for (Scenario &s : after)
        if (s.name == from.toStdString())
            s.name = to.toStdString();
    const bool current = m_scenario == from;
    if (auto failed = pushStep(new ScenarioCommand(this, tr("Rename scenario %1").arg(from), m_project->scenarios(), after,
                                                   std::pair(from.toStdString(), to.toStdString()))))
        return failed;
    return current ? selectScenario(to) : std::nullopt;
}

std::optional<QString> Document::removeScenario(const QString &name)
{
    if (!m_project || !m_project->scenario(name.toStdString()))
        return tr("There is no scenario \"%1\".").arg(name);
    std::vector<Scenario> after = m_project->scenarios();
    after.erase(std::remove_if(after.begin(), after.end(), [&](const Scenario &s) { return s.name == name.toStdString(); }),
                after.end());
    return pushStep(new ScenarioCommand(this, tr("Delete scenario %1").arg(name), m_project->scenarios(), after));
}

void Document::clear()
{
    m_evaluator.stop();
    discardRecovery(recoveryKey().toStdString());
    m_undo.clear();
    m_project.reset();
    m_brief.reset();
    m_fits.reset();
    setResults(std::make_shared<const Results>());
    m_path.clear();
    m_source.clear();
    m_scenario.clear();
    m_neverSaved = false;
    emit scenariosChanged();
    emit checklistChanged();
    emit briefChanged();
    emit resultsChanged();
    emit stateChanged();
}

std::optional<QString> Document::saveAs(const QString &path)
{
    if (!m_project)
        return tr("There is nothing to save.");
    if (path.isEmpty())
        return tr("Choose where to save the project.");
    const QString oldKey = recoveryKey();
    // The scenario on screen is saved with its full results, stamped with the engine version
    // (the decision record reads them; a later version can tell its own figures from these).
    if (m_brief && m_results->performanceEvaluated && !m_results->preview && !m_results->cancelled && !m_project->readOnly())
        if (Status kept = m_project->putSnapshot(m_scenario.toStdString(), engineVersion(), resultsToJson(*m_brief, *m_results));
            !kept)
            return QString::fromStdString(kept.error().toString());
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
    m_neverSaved = false;
    m_undo.setClean();
    emit stateChanged();
    return std::nullopt;
}

QString Document::briefJson() const
{
    return scenarioJson(m_scenario);
}

QString Document::scenarioJson(const QString &name) const
{
    const auto stored = m_project ? m_project->scenario(name.toStdString()) : std::nullopt;
    return stored ? QString::fromStdString(stored->briefJson) : QString();
}

QString Document::readOnlyReason() const
{
    if (!m_project || !m_project->readOnly())
        return {};
    if (m_project->lockedByOther())
        return tr("open in another instance");
    if (m_project->fileSchemaVersion() > kProjectSchemaVersion)
        return tr("written by GPU Workbench %1, a newer version").arg(QString::fromStdString(m_project->writer()));
    // A lock that cannot be created (a read-only folder) says why in the system's words.
    return QString::fromStdString(m_project->readOnlyReason());
}

void Document::setAutosaveIntervalS(int seconds)
{
    m_autosaveIntervalS = std::max(5, seconds);
    m_autosave.setInterval(m_autosaveIntervalS * 1000);
}

bool Document::autosaveNow()
{
    if (!m_project || !isModified())
        return false;
    return bool(m_project->saveRecovery(recoveryKey().toStdString()));
}

} // namespace wb

namespace wb {

void Document::setResults(std::shared_ptr<const Results> results)
{
    m_results = results ? std::move(results) : std::make_shared<const Results>();
}

std::shared_ptr<const ScenarioGate> Document::scenarioGate() const
{
    // A project's vendor checklist gates a commitment the results recommend (procurement/gate.h).
    if (!m_project || !m_template || m_scenario.isEmpty())
        return nullptr;
    return std::make_shared<const ScenarioGate>(ScenarioGate{m_scenario.toStdString(), checklistTemplate(), m_project->checklist()});
}

ChecklistTemplate Document::checklistTemplate() const
{
    if (!m_template)
        return {};
    return m_project ? projectTemplate(*m_template, m_project->checklist()) : *m_template;
}

ProjectChecklist Document::checklist() const
{
    return m_project ? m_project->checklist() : ProjectChecklist{};
}

std::optional<QString> Document::editChecklist(ProjectChecklist after, const QString &label)
{
    if (!m_project)
        return tr("Open or create a project first.");
    if (m_project->readOnly())
        return tr("This project is read-only (%1).").arg(readOnlyReason());
    if (!m_template)
        return m_templateError;
    ProjectChecklist before = m_project->checklist();
    if (after.templateVersion.empty())
        after.templateVersion = m_template->templateVersion;
    if (after == before)
        return std::nullopt;
    if (Status s = m_project->checkChecklist(after); !s)
        return QString::fromStdString(s.error().toString());
    return pushStep(new ChecklistCommand(this, label, std::move(before), std::move(after)));
}

void Document::applyChecklist(QUndoCommand *step, const ProjectChecklist &state)
{
    if (Status stored = m_project->putChecklist(state); !stored)
        stepFailed(step, stored);
    // The figures are gated as they are made: the full pass again, with the new answers (the
    // fit and the calibration are kept, so it takes a few tenths of a second).
    startEvaluation(Evaluator::Passes::FullOnly);
    emit checklistChanged();
}

std::optional<QString> Document::importChecklistAnswers(const QString &path)
{
    if (!m_project)
        return tr("Open or create a project first.");
    if (!m_template)
        return m_templateError;
    auto merged = importAnswers(*m_project, path.toStdString(), checklistTemplate());
    if (!merged)
        return QString::fromStdString(merged.error().toString());
    return editChecklist(std::move(merged).value(), tr("Import checklist answers from %1").arg(QFileInfo(path).fileName()));
}

Result<Attachment> Document::attachEvidence(const QString &path)
{
    if (!m_project)
        return Error{path.toStdString(), "", "no project is open"};
    const auto bytes = readTextFile(path.toStdString(), kAttachmentMaxBytes);
    if (!bytes)
        return bytes.error();
    return m_project->attach(QFileInfo(path).fileName().toStdString(), *bytes);
}

std::optional<std::string> Document::evidenceBytes(const std::string &sha256) const
{
    return m_project ? m_project->attachment(sha256) : std::nullopt;
}

} // namespace wb
