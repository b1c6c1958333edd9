// The left side of the window: the project's scenarios (add from a brief, duplicate, rename,
// delete, compare two) above how complete the current brief is and what it still lacks (a click
// asks to go to the field that gives it). Its actions are also the Scenario menu's.
#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QProgressBar;

namespace wb {

class Document;
class ScenarioCompareDialog;

class ScenariosPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ScenariosPanel(Document *document, QWidget *parent = nullptr);

    QListWidget *list() const { return m_list; }
    QListWidget *missing() const { return m_missing; }
    // Add from Brief…, Duplicate, Rename…, Delete, Compare Two…: for the Scenario menu.
    QList<QAction *> scenarioActions() const { return m_actions; }
    // Scenario > Compare Two: a window of its own, deleted when closed (nullptr: no scenarios).
    ScenarioCompareDialog *openComparison();

signals:
    // A brief field (JSON pointer) or a page ("#N") to show.
    void goTo(const QString &target);

private:
    QString selected() const;
    void showScenarios();
    void showCompleteness();
    void addScenario();
    void duplicateScenario();
    void renameScenario();
    void removeScenario();

    Document *m_document;
    QListWidget *m_list = nullptr;
    QLabel *m_completeness = nullptr;
    QProgressBar *m_completenessBar = nullptr;
    QListWidget *m_missing = nullptr;
    QList<QAction *> m_actions;
};

} // namespace wb
