// The document's undo commands: every user edit is one of these on the document's undo stack.
// Private to ui/document.
//
// Each step's store writes are one transaction (Project::transact). When they fail, the project
// is as it was before the step, the step is made obsolete (QUndoStack drops it: pushed, it is
// never added and the edit returns the error; undone or redone, it leaves the history, since it
// no longer says what the project holds) and Document::stepFailed reports it; the view is then
// shown again from the project. Every step applies a whole state (not a difference), so the
// steps around a dropped one still undo and redo to what they say.
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
    void undo() override { apply(m_before, m_rename ? std::optional(std::pair(m_rename->second, m_rename->first)) : std::nullopt); }
    void redo() override { apply(m_after, m_rename); }

private:
    void apply(const std::vector<Scenario> &state, const std::optional<std::pair<std::string, std::string>> &rename)
    {
        Project &p = *m_doc->m_project;
        const Status stored = p.transact([&]() -> Status {
            if (rename)
                if (Status s = p.renameScenario(rename->first, rename->second); !s)
                    return s;
            for (const Scenario &s : p.scenarios()) {
                const bool kept = std::any_of(state.begin(), state.end(), [&](const Scenario &t) { return t.name == s.name; });
                if (!kept)
                    if (Status r = p.removeScenario(s.name); !r)
                        return r;
            }
            std::vector<std::string> order;
            for (const Scenario &s : state) {
                const auto current = p.scenario(s.name);
                if (!current || current->briefJson != s.briefJson)
                    if (Status r = p.putScenario(s.name, s.briefJson); !r)
                        return r;
                if (!current || current->evidenceCalibration != s.evidenceCalibration)
                    if (Status r = p.setEvidenceCalibration(s.name, s.evidenceCalibration); !r)
                        return r;
                order.push_back(s.name);
            }
            return p.orderScenarios(order);
        });
        if (!stored)
            m_doc->stepFailed(this, stored);
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
        if (next->isObsolete() || next->m_scenario != m_scenario || next->m_pointer != m_pointer)
            return false;
        m_after = next->m_after;
        // Typed back to where the step started: nothing is left to undo (as Tiled's ChangeValue).
        setObsolete(m_after == m_before);
        return true;
    }
    void undo() override { apply(m_before); }
    void redo() override { apply(m_after); }
    // Nothing merges into this step any more.
    void seal() { m_mergeable = false; }

private:
    void apply(const std::string &json)
    {
        // The first redo shows the brief the edit parsed already; later ones parse it again.
        std::optional<Brief> parsed = std::exchange(m_parsed, std::nullopt);
        if (Status stored = m_doc->m_project->putScenario(m_scenario, json); !stored) {
            m_doc->stepFailed(this, stored);
            parsed.reset();  // the project holds the brief it had
        }
        (void)m_doc->show(QString::fromStdString(m_scenario), std::move(parsed));
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
    void undo() override { m_doc->applyChecklist(this, m_before); }
    void redo() override { m_doc->applyChecklist(this, m_after); }

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
    // The first redo gives the added runs their ids, which undo and later redos keep.
    void undo() override { m_doc->applyEvidence(this, m_removed, ids(m_added)); }
    void redo() override { m_doc->applyEvidence(this, m_added, ids(m_removed)); }

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
    void undo() override { m_doc->applyRecord(this, m_record, false); }
    void redo() override { m_doc->applyRecord(this, m_record, true); }

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
    void undo() override { m_doc->applyCalibrationSwitch(this, m_scenario, !m_on); }
    void redo() override { m_doc->applyCalibrationSwitch(this, m_scenario, m_on); }

private:
    Document *m_doc;
    QString m_scenario;
    bool m_on;
};

} // namespace wb
