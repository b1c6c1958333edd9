// Scenario > Compare: two scenarios of the project side by side. What changed in the brief
// (every differing field by JSON pointer) and what changed in the results (the decision's
// figures per candidate, with the change marked better or worse). Both scenarios are evaluated
// on a worker thread with the full budget; the window stays responsive and a newer choice
// cancels the older run.
#pragma once

#include <evaluate/evaluate.h>

#include "document/evaluator.h"

#include <QDialog>

#include <optional>


class QComboBox;
class QLabel;
class QProgressBar;
class QStandardItemModel;
class QTableView;

namespace wb {

class Document;

class ScenarioCompareDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ScenarioCompareDialog(Document *document, QWidget *parent = nullptr);
    ~ScenarioCompareDialog() override;

    // Compares scenario a (before) with b (after); errors show in the dialog.
    void compare(const QString &a, const QString &b);
    // True from the start of an evaluation until its results are shown (a finished future's
    // results arrive by a queued signal, so the future's state alone is not enough).
    bool busy() const { return m_busy; }
    QTableView *briefTable() const { return m_briefTable; }
    QTableView *resultsTable() const { return m_resultsTable; }
    QComboBox *firstChoice() const { return m_first; }
    QComboBox *secondChoice() const { return m_second; }

private:
    void showResults(const Results &a, const Results &b);

    Document *m_document;
    QComboBox *m_first = nullptr;
    QComboBox *m_second = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QStandardItemModel *m_briefModel = nullptr;
    QStandardItemModel *m_resultsModel = nullptr;
    QTableView *m_briefTable = nullptr;
    QTableView *m_resultsTable = nullptr;
    void resultArrived();

    // One evaluator per scenario, full evaluations only; the results shown once both are in.
    Evaluator m_firstEvaluator;
    Evaluator m_secondEvaluator;
    std::shared_ptr<const Results> m_firstResults, m_secondResults;
    int m_briefChanges = 0;
    bool m_busy = false;
};

} // namespace wb
