// The open document: a project (scenarios of briefs, result snapshots) with one current
// scenario, the catalog it is read against, and the engine's results for it.
//
// Showing a brief (opening, selecting a scenario, an edit, undo) parses it once and computes the
// memory fit at once (milliseconds); the Evaluator then reports a quick first answer (short
// simulations, about a tenth of a second; Results::preview) and the full evaluation (about a
// second); results() holds whichever arrived last. Showing another brief stops the evaluation
// under way, whose figures are then never shown.
//
// Signals say what changed, so that each page updates once per change: scenariosChanged (the
// list), briefChanged (another brief or an edit of it; results() then holds its fit),
// resultsChanged (results() was replaced), stateChanged (file, modified, read-only, evaluating).
//
// A brief JSON opens as a new, unsaved project holding that brief as its one scenario. While the
// document has unsaved work it is autosaved every autosaveIntervalS() seconds to a recovery file
// (store/project.h), deleted again on save and on a clean close; a crash leaves it for the next
// start to offer back.
#pragma once

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <evaluate/evaluate.h>
#include <procurement/vendors.h>
#include <store/project.h>

#include "document/evaluator.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUndoStack>

#include <memory>
#include <optional>

namespace wb {

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(Catalog catalog, QObject *parent = nullptr);
    ~Document() override;

    // Opens a brief (.json) or a project (.gpuwb, its first scenario). On error the current
    // document stays as it was and the returned message names the file and what is wrong.
    std::optional<QString> openFile(const QString &path);
    // Opens a recovery file left by a crash; the document takes the path it was recovering and
    // counts as modified.
    std::optional<QString> openRecovery(const QString &recoveryFile);
    // A new, unsaved project holding several briefs as scenarios and the vendors' answers of
    // checklist answers files (the bundled sample; it counts as unmodified until edited).
    // `runs`: benchmark results files imported as measured runs of a scenario (an index into
    // paths) and its candidate (from 0).
    struct RunsFile
    {
        QString path;
        int scenario = 0;
        std::size_t candidate = 0;
    };
    std::optional<QString> openBriefs(const QStringList &paths, const QStringList &answers = {},
                                      const QList<RunsFile> &runs = {});
    // A new, unsaved project whose one scenario is the brief given as JSON text (File > New); it
    // counts as modified, so that closing asks to save it. The error names the field.
    std::optional<QString> newFromBrief(const QString &json);
    void clear();
    // Saves the project to path (a .gpuwb file). On error nothing on disk changes and the
    // message names the path and the reason.
    std::optional<QString> saveAs(const QString &path);
    std::optional<QString> save() { return saveAs(m_path); }

    bool hasBrief() const { return m_brief.has_value(); }
    const Brief *brief() const { return m_brief ? &*m_brief : nullptr; }
    const Results &results() const { return *m_results; }
    // The same, shared: a page's model keeps them without copying (never null).
    std::shared_ptr<const Results> sharedResults() const { return m_results; }
    const Catalog &catalog() const { return m_catalog; }
    // The project file, or empty for a document never saved as one.
    QString filePath() const { return m_path; }
    // Where the current brief came from (a brief file or the project), for titles.
    QString sourcePath() const { return m_source; }
    QString scenarioName() const { return m_scenario; }
    // Unsaved: never saved as a project, or edited since the last save (the undo stack's clean
    // state).
    bool isModified() const { return m_neverSaved || !m_undo.isClean(); }
    bool readOnly() const { return m_project && m_project->readOnly(); }
    QString readOnlyReason() const;
    // True from the start of an evaluation until its full results are in results() (or it failed).
    bool evaluating() const { return m_evaluator.busy(); }
    // The last failure of the engine, for the status bar; empty when the last run went well.
    QString engineError() const { return m_engineError; }

    // Scenarios of the project, in order, and the one shown.
    QStringList scenarioNames() const;
    // Shows another scenario (not an edit: nothing to undo).
    std::optional<QString> selectScenario(const QString &name);
    // Edits, each one undoable step on undoStack(). Errors name the scenario and say why.
    std::optional<QString> addScenarioFromFile(const QString &briefPath, const QString &name = {});
    // The same from a brief's JSON text (File > New Comparison into the open project): named
    // name, or the brief's own name, made unique with " (2)", " (3)"… when uniqueName is set.
    // Nothing open: the brief starts a new project (newFromBrief).
    std::optional<QString> addScenarioFromJson(const QString &json, const QString &name = {}, bool uniqueName = false);
    std::optional<QString> duplicateScenario(const QString &name, const QString &copyName);
    std::optional<QString> renameScenario(const QString &from, const QString &to);
    std::optional<QString> removeScenario(const QString &name);
    // Sets one field of the current scenario's brief (a JSON pointer and a JSON value; "null"
    // removes it) as an undoable step; successive changes of the same field merge into one step
    // (typing a number is one edit). An invalid value changes nothing and is returned as the
    // error, naming the field.
    std::optional<QString> editBrief(const QString &pointer, const QString &valueJson, const QString &label,
                                     bool mergeable = true);
    // Several fields in one step (checked together; never merged with the next edit).
    std::optional<QString> editBrief(const std::vector<BriefPatch> &patches, const QString &label,
                                     bool mergeable = true);
    // Ends the merging of the last brief edit: the next edit of the same field is a new step
    // (typing 20, Tab, 30, Tab is two steps; the keystrokes of each are one).
    void endEditSession();
    // The current scenario's brief as stored (JSON text), or empty.
    QString briefJson() const;
    // Any scenario's brief as stored, or empty when there is no such scenario.
    QString scenarioJson(const QString &name) const;
    // Any scenario's brief, parsed (store/project.h scenarioBrief); the error names the scenario.
    Result<Brief> parsedScenario(const QString &name) const;
    QUndoStack *undoStack() { return &m_undo; }

    // The vendor checklist: the questions (the shipped template with the team's items), the
    // project's vendors and answers. results() carries its gate (procurement/gate.h).
    ChecklistTemplate checklistTemplate() const;
    ProjectChecklist checklist() const;
    // Why the shipped template could not be read (the checklist is then unavailable), or empty.
    QString checklistTemplateError() const { return m_templateError; }
    // Replaces the checklist as one undoable step; the error names the vendor or says why.
    std::optional<QString> editChecklist(ProjectChecklist after, const QString &label);
    // Reads an answers file (store/project.h importAnswers) as one undoable step; on error
    // nothing changes and the message names the file and the field.
    std::optional<QString> importChecklistAnswers(const QString &path);
    // Attaches a file as evidence (size-limited); the error names the file.
    Result<Attachment> attachEvidence(const QString &path);
    std::optional<std::string> evidenceBytes(const std::string &sha256) const;

    // Measured runs of the current scenario (evidence/evidence.h), in import order.
    std::vector<EvidenceRun> evidence() const;
    // Whether the current scenario's figures use the calibration from its runs.
    bool evidenceCalibration() const;
    // Reads a benchmark results file and stores its runs as runs of the current scenario's
    // candidate (from 0), one undoable step; on error nothing changes and the message names the
    // file, the run and the field.
    std::optional<QString> importEvidence(const QString &path, std::size_t candidate, const RunMapping &mapping,
                                          const QString &importedBy);
    std::optional<QString> removeEvidence(long long id);
    std::optional<QString> setEvidenceCalibration(bool on);
    // The runs against their predictions, computed after each full evaluation of a scenario with
    // runs (null before the first). After an edit, an import or the switch, the last one stays
    // until the new one arrives: evidenceAnalysisCurrent() says whether it is up to date.
    std::shared_ptr<const EvidenceAnalysis> evidenceAnalysis() const { return m_evidence; }
    bool evidenceAnalysisCurrent() const { return m_evidence && m_evidenceCurrent; }

    // Decision records of the current scenario, oldest first (record/record.h reads them).
    std::vector<StoredRecord> records() const;
    // The current scenario's inputs for a record, copied out of the project (so that the record
    // can be made on another thread: recordScenario); the error says why there is none.
    Result<ScenarioSnapshot> recordSnapshot() const;
    // Stores a record made from recordSnapshot() as one undoable step; the error says why not
    // (read-only project, its scenario gone).
    std::optional<QString> addRecord(const QString &scenario, const std::string &created, const std::string &contentJson);

    int autosaveIntervalS() const { return m_autosaveIntervalS; }
    void setAutosaveIntervalS(int seconds);
    // Writes the recovery file now (what the timer does); returns false with nothing to save.
    bool autosaveNow();

signals:
    void scenariosChanged();
    void briefChanged();
    void resultsChanged();
    void stateChanged();
    void checklistChanged();
    // The current scenario's runs or its calibration switch changed (results follow).
    void evidenceChanged();
    // evidenceAnalysis() was replaced or cleared.
    void evidenceAnalysisChanged();
    // A decision record was added or taken back (or another scenario is shown).
    void recordsChanged();
    // An undo or redo could not be stored: the project is as it was before that step, which has
    // left the history, and the view shows the project. The message names the step and why.
    // (An edit whose own store write fails is not added; the edit returns the message instead.)
    void storeFailed(const QString &message);

private:
    // Adds a parsed brief (its JSON text as stored) as a scenario, one undoable step, and shows it.
    std::optional<QString> addScenario(const Brief &brief, const std::string &json, const QString &name, bool uniqueName);
    std::optional<QString> adopt(Project project, const QString &path, const QString &source, bool modified,
                                 std::optional<Brief> firstBrief);
    // Shows a scenario of the project as the current brief: `parsed` when the caller has it
    // parsed already (an edit), else parsed from the project.
    std::optional<QString> show(const QString &scenario, std::optional<Brief> parsed = std::nullopt);
    // After an edit changed the scenarios: keep showing the current one, or the first.
    void scenarioListChanged();
    // Shows results already gated by the project's checklist (null: none).
    void setResults(std::shared_ptr<const Results> results);
    // Evaluates the brief shown with its scenario's runs, gated by its checklist (the quick pass
    // first unless passes says otherwise).
    void startEvaluation(Evaluator::Passes passes = Evaluator::Passes::QuickThenFull);
    // What gates the scenario's figures: a project's checklist; null without a project or template.
    std::shared_ptr<const ScenarioGate> scenarioGate() const;
    // Pushes an edit's step; returns why it could not be stored (it is then not added).
    std::optional<QString> pushStep(QUndoCommand *step);
    // A step's store write failed (commands.h): the step is made obsolete and reported.
    void stepFailed(QUndoCommand *step, const Status &status);
    // The undo commands' writes, each one transaction (a failure goes to stepFailed).
    void applyChecklist(QUndoCommand *step, const ProjectChecklist &state);
    // Stores and removes runs (a run with id 0 gets its id here), or sets the switch.
    void applyEvidence(QUndoCommand *step, std::vector<EvidenceRun> &store, const std::vector<long long> &remove);
    void applyCalibrationSwitch(QUndoCommand *step, const QString &scenario, bool on);
    // Stores (record.id > 0 keeps it, 0 gets one) or takes back a record, for RecordCommand.
    void applyRecord(QUndoCommand *step, StoredRecord &record, bool store);
    friend class RecordCommand;
    friend class EvidenceCommand;
    friend class CalibrationSwitchCommand;
    friend class ScenarioCommand;
    friend class BriefEditCommand;
    friend class ChecklistCommand;
    QString recoveryKey() const;

    Catalog m_catalog;  // before m_evaluator, which reads it until it is destroyed
    std::optional<Project> m_project;
    std::optional<Brief> m_brief;
    std::shared_ptr<const std::vector<FitResult>> m_fits;  // m_brief's candidates' fits, set with it
    // As shown: gated by a project's checklist as each pass was made (the use case gates them),
    // shared with the pages' models, never copied.
    std::shared_ptr<const Results> m_results = std::make_shared<const Results>();
    std::optional<ChecklistTemplate> m_template;
    QString m_templateError;
    QString m_path;
    QString m_source;
    QString m_scenario;
    QString m_untitledKey;
    bool m_neverSaved = false;
    QUndoStack m_undo;
    Evaluator m_evaluator{m_catalog};
    QString m_engineError;
    bool m_pushing = false;            // inside pushStep: a failure is the edit's error
    std::optional<QString> m_stepError;  // that error
    std::shared_ptr<const EvidenceAnalysis> m_evidence;
    bool m_evidenceCurrent = false;
    int m_autosaveIntervalS = 60;
    QTimer m_autosave;
};

} // namespace wb
