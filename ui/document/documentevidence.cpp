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

void Document::startEvaluation(Evaluator::Passes passes)
{
    if (!m_brief)
        return;
    if (m_evidenceCurrent) {
        m_evidenceCurrent = false;  // the last comparison stays shown, marked as being updated
        emit evidenceAnalysisChanged();
    }
    ScenarioEvidence evidence;
    evidence.runs = this->evidence();
    evidence.calibrate = evidenceCalibration();
    if (!evidence.runs.empty())
        evidence.key = calibrationKey(briefJson().toStdString(), evidence.runs);
    m_evaluator.start(*m_brief, passes, std::move(evidence), m_fits, scenarioGate());
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
    // The command's first redo stores them and gives them their ids, which undo and redo keep.
    std::vector<EvidenceRun> added = std::move(runs).value();
    const QString label = added.size() == 1
                              ? tr("Import 1 measured run from %1").arg(QFileInfo(path).fileName())
                              : tr("Import %1 measured runs from %2").arg(added.size()).arg(QFileInfo(path).fileName());
    return pushStep(new EvidenceCommand(this, label, std::move(added), {}));
}

std::optional<QString> Document::removeEvidence(long long id)
{
    if (!m_project)
        return tr("Open a project first.");
    if (m_project->readOnly())
        return tr("This project is read-only (%1).").arg(readOnlyReason());
    for (const EvidenceRun &r : evidence())
        if (r.id == id) {
            return pushStep(new EvidenceCommand(this, tr("Remove measured run %1").arg(id), {}, {r}));
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
    return pushStep(new CalibrationSwitchCommand(this, on ? tr("Calibrate from measured runs") : tr("Switch calibration off"),
                                                 m_scenario, on));
}

void Document::applyEvidence(QUndoCommand *step, std::vector<EvidenceRun> &store, const std::vector<long long> &remove)
{
    std::vector<EvidenceRun> stored = store;
    const Status done = m_project->transact([&]() -> Status {
        for (long long id : remove)
            if (Status s = m_project->removeEvidence(id); !s)
                return s;
        for (EvidenceRun &r : stored) {
            auto id = m_project->putEvidence(r);
            if (!id)
                return id.error();
            r.id = *id;
        }
        return Ok{};
    });
    if (done)
        store = std::move(stored);  // the ids given
    else
        stepFailed(step, done);
    emit evidenceChanged();
    startEvaluation();
    emit stateChanged();
}

void Document::applyCalibrationSwitch(QUndoCommand *step, const QString &scenario, bool on)
{
    if (Status stored = m_project->setEvidenceCalibration(scenario.toStdString(), on); !stored)
        stepFailed(step, stored);
    if (scenario == m_scenario) {
        emit evidenceChanged();
        startEvaluation();
        emit stateChanged();
    }
}

} // namespace wb
