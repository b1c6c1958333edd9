// The window: the scenarios and the brief's completeness on the left; on the right the pages of
// the method (brief, candidates, memory fit, performance, cost, compare & decide) above the
// warnings. MainWindow holds the menus, the status bar and the wiring; every page is a class of
// its own (pages/), updated from the document's signals.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include <optional>

class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QMenu;
class QTabWidget;
class QTableView;

namespace wb {

class BriefForm;
class HelpGuide;
class BriefPage;
class CandidatesPage;
class ChartView;
class ComparePage;
class ChecklistPage;
class PlanPage;
class RecordPage;
class EvidencePage;
class CostPage;
class Document;
class FitPage;
class PerformancePage;
class LayoutSearchDialog;
class ScenarioCompareDialog;
class ScenariosPanel;
class WarningsPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // The pages, in the method's order.
    enum class Tab { Brief, Candidates, Fit, Performance, Cost, Checklist, Evidence, Plan, Compare, Record };

    explicit MainWindow(Document *document, QWidget *parent = nullptr);

    // Opens a project or a brief, reporting a bad file in a message box; returns whether it
    // opened.
    bool openFile(const QString &path);
    // Saves the project (asking where when it has no file yet, is read-only, or askForPath);
    // reports a failed save in a message box and returns whether it saved.
    bool saveDocument(bool askForPath);
    // With unsaved changes, asks Save / Discard / Cancel; returns whether to go on.
    bool maybeSave();

    // The parts of the window, for tests and the screenshot script.
    QListWidget *scenarioList() const;
    BriefForm *briefForm() const;
    QTableView *fitTable() const;
    QTableView *performanceTable() const;
    QTableView *costTable() const;
    ChartView *fitChart() const;
    QComboBox *fitChartChoice() const;
    QComboBox *loadChartChoice() const;
    QComboBox *costChartChoice() const;
    ChartView *loadChart() const;
    ChartView *costChart() const;
    QTableView *comparisonTable() const;
    QTableView *candidatesTable() const;
    QListWidget *quoteList() const;
    QTabWidget *resultTabs() const { return m_tabs; }
    QListWidget *warningList() const;
    // What the brief is missing (items carry their JSON pointer in Qt::UserRole).
    QListWidget *missingList() const;
    QLabel *recommendationLabel() const;
    ChecklistPage *checklistPage() const { return m_checklistPage; }
    PlanPage *planPage() const { return m_planPage; }
    RecordPage *recordPage() const { return m_recordPage; }
    EvidencePage *evidencePage() const { return m_evidencePage; }
    QProgressBar *progressBar() const { return m_progress; }
    // The presentation window while View > Present Chart shows one.
    QWidget *presentationWindow() const { return m_presenting; }
    void startPresentation() { presentChart(); }
    // Scenario > Compare Two: a window of its own, deleted when closed (nullptr: no scenarios).
    ScenarioCompareDialog *openComparison();
    // Scenario > Find Layouts: the layout search for the current brief, a window of its own
    // (kept while open; nullptr without a brief).
    LayoutSearchDialog *findLayouts();
    // Adds a GPU from the catalog as a candidate (one GPU; one undo step).
    void addCandidate(const QString &gpu);
    // Adds a price quote (a JSON object, PriceQuoteDialog::json) to the brief's cost.prices as
    // one undo step; returns the error, which is also shown.
    std::optional<QString> addPriceQuote(const QString &json);
    // File > Export Brief: the current scenario's brief, as stored, to a JSON file that
    // `gpuwb evaluate` and Scenario > Add from Brief read back; the error names the file.
    std::optional<QString> exportBrief(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void fillRecentMenu();
    void presentChart();
    void newDocument(bool asScenario);
    void openWithDialog();
    void about();
    void showGuide();
    // Title, Brief tab mark, status bar: what the document's state and results say.
    void showState();
    // Shows what a target names: a brief field (JSON pointer) or a page ("#N").
    void goTo(const QString &target);

    Document *m_document;
    HelpGuide *m_guide = nullptr;  // Help > Guide and Glossary, made on first use
    QTabWidget *m_tabs = nullptr;
    ScenariosPanel *m_scenarios = nullptr;
    WarningsPanel *m_warnings = nullptr;
    BriefPage *m_briefPage = nullptr;
    CandidatesPage *m_candidatesPage = nullptr;
    FitPage *m_fitPage = nullptr;
    PerformancePage *m_performancePage = nullptr;
    CostPage *m_costPage = nullptr;
    ComparePage *m_comparePage = nullptr;
    ChecklistPage *m_checklistPage = nullptr;
    PlanPage *m_planPage = nullptr;
    RecordPage *m_recordPage = nullptr;
    EvidencePage *m_evidencePage = nullptr;
    QMenu *m_recentMenu = nullptr;
    QWidget *m_presenting = nullptr;  // the presentation window while one is shown
    QPointer<LayoutSearchDialog> m_layoutSearch;  // Scenario > Find Layouts while open (nulled when closed)
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
};

} // namespace wb
