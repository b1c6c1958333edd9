// The document's undo commands: every user edit is one of these on the document's undo stack.
// Private to ui/document.
#pragma once

#include "document/document.h"

#include <QUndoCommand>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

// One undoable change to the project's scenarios. The project's scenario list before and after
// is recorded as (name, brief JSON) pairs, so undo and redo restore names, briefs and order
// exactly; a scenario's brief is small, so a snapshot is simpler and safer than inverse edits.
class ScenarioCommand final : public QUndoCommand
{
public:
    // A rename (from, to) is done by the project first, so that what belongs to the scenario by
    // name (its measured runs) follows it.
    ScenarioCommand(Document *doc, const QString &text, std::vector<Scenario> before, std::vector<Scenario> after,
                    std::optional<std::pair<std::string, std::string>> rename = std::nullopt)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after)), m_rename(std::move(rename))
    {
    }
    void undo() override
    {
        if (m_rename)
            m_doc->m_project->renameScenario(m_rename->second, m_rename->first);
        apply(m_before);
    }
    void redo() override
    {
        if (m_rename)
            m_doc->m_project->renameScenario(m_rename->first, m_rename->second);
        apply(m_after);
    }

private:
    void apply(const std::vector<Scenario> &state)
    {
        Project &p = *m_doc->m_project;
        for (const Scenario &s : p.scenarios()) {
            const bool kept = std::any_of(state.begin(), state.end(), [&](const Scenario &t) { return t.name == s.name; });
            if (!kept)
                p.removeScenario(s.name);
        }
        std::vector<std::string> order;
        for (const Scenario &s : state) {
            const auto current = p.scenario(s.name);
            if (!current || current->briefJson != s.briefJson)
                p.putScenario(s.name, s.briefJson);
            if (!current || current->evidenceCalibration != s.evidenceCalibration)
                p.setEvidenceCalibration(s.name, s.evidenceCalibration);
            order.push_back(s.name);
        }
        p.orderScenarios(order);
        m_doc->scenarioListChanged();
    }

    Document *m_doc;
    std::vector<Scenario> m_before, m_after;
    std::optional<std::pair<std::string, std::string>> m_rename;
};

// One change of one field of a scenario's brief; further changes of the same field merge into it.
class BriefEditCommand final : public QUndoCommand
{
public:
    BriefEditCommand(Document *doc, const QString &label, std::string scenario, std::string pointer, std::string before,
                     PatchedBrief after, bool mergeable)
        : QUndoCommand(label), m_doc(doc), m_scenario(std::move(scenario)), m_pointer(std::move(pointer)),
          m_before(std::move(before)), m_after(std::move(after.json)), m_parsed(std::move(after.brief)),
          m_mergeable(mergeable)
    {
    }
    int id() const override { return m_mergeable ? 1 : -1; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const BriefEditCommand *>(other);
        if (next->m_scenario != m_scenario || next->m_pointer != m_pointer)
            return false;
        m_after = next->m_after;
        return true;
    }
    void undo() override { apply(m_before); }
    void redo() override { apply(m_after); }
    // Nothing merges into this step any more.
    void seal() { m_mergeable = false; }

private:
    void apply(const std::string &json)
    {
        m_doc->m_project->putScenario(m_scenario, json);
        // The first redo shows the brief the edit parsed already; later ones parse it again.
        m_doc->show(QString::fromStdString(m_scenario), std::exchange(m_parsed, std::nullopt));
    }
    Document *m_doc;
    std::string m_scenario, m_pointer, m_before, m_after;
    std::optional<Brief> m_parsed;
    bool m_mergeable;
};

// One change of the vendor checklist (a vendor added or edited, an answer, an import): the
// checklist before and after, like the scenarios (a few vendors' answers are small).
class ChecklistCommand final : public QUndoCommand
{
public:
    ChecklistCommand(Document *doc, const QString &text, ProjectChecklist before, ProjectChecklist after)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void undo() override { m_doc->applyChecklist(m_before); }
    void redo() override { m_doc->applyChecklist(m_after); }

private:
    Document *m_doc;
    ProjectChecklist m_before, m_after;
};

// Measured runs stored (an import) or removed: the runs themselves, so that undo and redo store
// them again under the same ids.
class EvidenceCommand final : public QUndoCommand
{
public:
    EvidenceCommand(Document *doc, const QString &text, std::vector<EvidenceRun> added, std::vector<EvidenceRun> removed)
        : QUndoCommand(text), m_doc(doc), m_added(std::move(added)), m_removed(std::move(removed))
    {
    }
    void undo() override { m_doc->applyEvidence(m_removed, ids(m_added)); }
    void redo() override { m_doc->applyEvidence(m_added, ids(m_removed)); }

private:
    static std::vector<long long> ids(const std::vector<EvidenceRun> &runs)
    {
        std::vector<long long> out;
        for (const EvidenceRun &r : runs)
            out.push_back(r.id);
        return out;
    }
    Document *m_doc;
    std::vector<EvidenceRun> m_added, m_removed;
};

// A decision record made: undo takes it back, redo stores it again under the same id.
class RecordCommand final : public QUndoCommand
{
public:
    RecordCommand(Document *doc, const QString &text, StoredRecord record)
        : QUndoCommand(text), m_doc(doc), m_record(std::move(record))
    {
    }
    void undo() override { m_doc->applyRecord(m_record, false); }
    void redo() override { m_record.id = m_doc->applyRecord(m_record, true); }

private:
    Document *m_doc;
    StoredRecord m_record;
};

// A scenario's calibration switch turned on or off.
class CalibrationSwitchCommand final : public QUndoCommand
{
public:
    CalibrationSwitchCommand(Document *doc, const QString &text, QString scenario, bool on)
        : QUndoCommand(text), m_doc(doc), m_scenario(std::move(scenario)), m_on(on)
    {
    }
    void undo() override { m_doc->applyCalibrationSwitch(m_scenario, !m_on); }
    void redo() override { m_doc->applyCalibrationSwitch(m_scenario, m_on); }

private:
    Document *m_doc;
    QString m_scenario;
    bool m_on;
};

} // namespace wb
