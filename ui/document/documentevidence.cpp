// The document's measured runs: import, removal and the calibration switch as undoable steps,
// and the evaluation that calibrates from them.
#include "document/commands.h"
#include "document/document.h"

#include <QFileInfo>

namespace wb {

std::vector<EvidenceRun> Document::evidence() const
{
    return m_project && !m_scenario.isEmpty() ? m_project->evidence(m_scenario.toStdString()) : std::vector<EvidenceRun>{};
}

bool Document::evidenceCalibration() const
{
    if (!m_project || m_scenario.isEmpty())
        return true;
    const auto s = m_project->scenario(m_scenario.toStdString());
    return !s || s->evidenceCalibration;
}

void Document::startEvaluation()
{
    if (!m_brief)
        return;
    if (m_evidenceCurrent) {
        m_evidenceCurrent = false;  // the last comparison stays shown, marked as being updated
        emit evidenceAnalysisChanged();
    }
    EvaluationEvidence evidence;
    evidence.runs = this->evidence();
    evidence.calibrate = evidenceCalibration();
    if (!evidence.runs.empty())
        evidence.key = calibrationKey(briefJson().toStdString(), evidence.runs);
    m_evaluator.start(*m_brief, Evaluator::Passes::QuickThenFull, std::move(evidence));
}

std::optional<QString> Document::importEvidence(const QString &path, std::size_t candidate, const RunMapping &mapping,
                                                const QString &importedBy)
{
    if (!m_project || !m_brief)
        return tr("Open a project with a scenario first.");
    if (m_project->readOnly())
        return tr("This project is read-only (%1).").arg(readOnlyReason());
    auto runs = prepareEvidence(*m_project, path.toStdString(), m_scenario.toStdString(), candidate, mapping,
                                importedBy.toStdString(), m_catalog);
    if (!runs)
        return QString::fromStdString(runs.error().toString());
    // Ids are given when first stored, so that undo and redo keep them.
    std::vector<EvidenceRun> added = std::move(runs).value();
    for (EvidenceRun &r : added) {
        auto id = m_project->putEvidence(r);
        if (!id) {
            for (const EvidenceRun &done : added)
                if (done.id > 0)
                    m_project->removeEvidence(done.id);
            return QString::fromStdString(id.error().toString());
        }
        r.id = *id;
    }
    for (const EvidenceRun &r : added)
        m_project->removeEvidence(r.id);  // the command stores them, so that undo and redo are one path
    const QString label = added.size() == 1
                              ? tr("Import 1 measured run from %1").arg(QFileInfo(path).fileName())
                              : tr("Import %1 measured runs from %2").arg(added.size()).arg(QFileInfo(path).fileName());
    m_undo.push(new EvidenceCommand(this, label, std::move(added), {}));
    return std::nullopt;
}

std::optional<QString> Document::removeEvidence(long long id)
{
    if (!m_project)
        return tr("Open a project first.");
    if (m_project->readOnly())
        return tr("This project is read-only (%1).").arg(readOnlyReason());
    for (const EvidenceRun &r : evidence())
        if (r.id == id) {
            m_undo.push(new EvidenceCommand(this, tr("Remove measured run %1").arg(id), {}, {r}));
            return std::nullopt;
        }
    return tr("There is no measured run %1 in this scenario.").arg(id);
}

std::optional<QString> Document::setEvidenceCalibration(bool on)
{
    if (!m_project || m_scenario.isEmpty())
        return tr("Open a project with a scenario first.");
    if (m_project->readOnly())
        return tr("This project is read-only (%1).").arg(readOnlyReason());
    if (on == evidenceCalibration())
        return std::nullopt;
    m_undo.push(new CalibrationSwitchCommand(this, on ? tr("Calibrate from measured runs") : tr("Switch calibration off"),
                                             m_scenario, on));
    return std::nullopt;
}

void Document::applyEvidence(const std::vector<EvidenceRun> &store, const std::vector<long long> &remove)
{
    for (long long id : remove)
        m_project->removeEvidence(id);
    for (const EvidenceRun &r : store)
        m_project->putEvidence(r);
    emit evidenceChanged();
    startEvaluation();
    emit stateChanged();
}

void Document::applyCalibrationSwitch(const QString &scenario, bool on)
{
    m_project->setEvidenceCalibration(scenario.toStdString(), on);
    if (scenario == m_scenario) {
        emit evidenceChanged();
        startEvaluation();
        emit stateChanged();
    }
}

} // namespace wb
