// The document's decision records: made away from the window (recordScenario on a worker, from
// recordSnapshot()), then stored as one undoable step.
#include "document/commands.h"
#include "document/document.h"

namespace wb {

std::vector<StoredRecord> Document::records() const
{
    return m_project && !m_scenario.isEmpty() ? m_project->records(m_scenario.toStdString()) : std::vector<StoredRecord>{};
}

Result<ScenarioSnapshot> Document::recordSnapshot() const
{
    if (!m_project || m_scenario.isEmpty())
        return Error{"", "", tr("Open a project with a scenario first.").toStdString()};
    if (!m_template)
        return Error{"", "", m_templateError.toStdString()};
    auto snapshot = scenarioSnapshot(*m_project, m_scenario.toStdString());
    if (snapshot)
        snapshot->checklistTemplate = checklistTemplate();  // the one the Checklist page shows
    return snapshot;
}

std::optional<QString> Document::addRecord(const QString &scenario, const std::string &created, const std::string &contentJson)
{
    if (!m_project)
        return tr("Open a project first.");
    if (m_project->readOnly())
        return tr("This project is read-only (%1).").arg(readOnlyReason());
    if (!m_project->scenario(scenario.toStdString()))
        return tr("The scenario \"%1\" is gone; the record was not stored.").arg(scenario);
    return pushStep(new RecordCommand(this, tr("Record the decision on %1").arg(scenario),
                                      StoredRecord{0, scenario.toStdString(), created, contentJson}));
}

void Document::applyRecord(QUndoCommand *step, StoredRecord &record, bool store)
{
    if (store) {
        auto stored = m_project->putRecord(record.scenario, record.created, record.contentJson, record.id);
        if (stored)
            record.id = *stored;
        else
            stepFailed(step, stored.error());
    } else if (Status removed = m_project->removeRecord(record.id); !removed) {
        stepFailed(step, removed);
    }
    emit recordsChanged();
}

} // namespace wb
