// The first window: the open brief on the left; on the right, tabs with the memory fit, the
// simulated performance and the cost per accepted output of its candidates, and the warnings below. File: New, Open, Quit; Help: About.
#pragma once

#include <QMainWindow>

#include <optional>
#include <string>

class QComboBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QProgressBar;
class QMenu;
class QTabWidget;
class QTableView;

namespace wb {

class BriefForm;
class Document;
class ChartView;
class CandidatesModel;
class ComparisonModel;
class CostTableModel;
class FitTableModel;
class PerformanceTableModel;
class ScenarioCompareDialog;
struct Brief;
struct Completeness;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // The pages, in the method's order.
    enum Page { BriefPage, CandidatesPage, FitPage, PerformancePage, CostPage, ComparePage };

    explicit MainWindow(Document *document, QWidget *parent = nullptr);

    // Opens a project or a brief, reporting a bad file in a message box; returns whether it
    // opened.
    bool openFile(const QString &path);
    // Saves the project (asking where when it has no file yet, is read-only, or askForPath);
    // reports a failed save in a message box and returns whether it saved.
    bool saveDocument(bool askForPath);
    // With unsaved changes, asks Save / Discard / Cancel; returns whether to go on.
    bool maybeSave();
    QListWidget *scenarioList() const { return m_scenarios; }
    BriefForm *briefForm() const { return m_briefForm; }
    QTableView *fitTable() const { return m_fitTable; }
    QTableView *performanceTable() const { return m_perfTable; }
    QTableView *costTable() const { return m_costTable; }
    ChartView *fitChart() const { return m_fitChart; }
    QComboBox *fitChartChoice() const { return m_fitView; }
    QComboBox *loadChartChoice() const { return m_loadMetric; }
    QComboBox *costChartChoice() const { return m_costView; }
    ChartView *loadChart() const { return m_perfChart; }
    ChartView *costChart() const { return m_costChart; }
    QTableView *comparisonTable() const { return m_compareTable; }
    QTableView *candidatesTable() const { return m_candidatesTable; }
    // The presentation window while View > Present Chart shows one (for tests).
    QWidget *presentationWindow() const { return m_presenting; }
    void startPresentation() { presentChart(); }
    // Scenario > Compare Two: a window of its own, deleted when closed (nullptr: no scenarios).
    ScenarioCompareDialog *openComparison();
    // Adds a GPU from the catalog as a candidate (one GPU; one undo step).
    void addCandidate(const QString &gpu);
    // Adds a price quote (a JSON object, PriceQuoteDialog::json) to the brief's cost.prices as
    // one undo step; returns the error, which is also shown.
    std::optional<QString> addPriceQuote(const QString &json);
    QListWidget *quoteList() const { return m_quotes; }
    QTabWidget *resultTabs() const { return m_tabs; }
    QListWidget *warningList() const { return m_warnings; }
    // What the brief is missing (items carry their JSON pointer in Qt::UserRole).
    QListWidget *missingList() const { return m_missing; }
    QLabel *recommendationLabel() const { return m_compareRecommendation; }
    QProgressBar *progressBar() const { return m_progress; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void fillRecentMenu();
    QString selectedScenario() const;
    void addScenario();
    void duplicateScenario();
    void renameScenario();
    void removeScenario();
    void presentChart();
    void showFitView();
    void showCostView();
    void newDocument();
    void openWithDialog();
    void about();
    void refresh();
    QString performanceSubtitle(const Brief &brief) const;
    void showCompleteness(const std::optional<Completeness> &completeness);
    // Goes to what a list item names in Qt::UserRole: a brief field (JSON pointer) or a page ("#N").
    void goToBriefItem(QListWidgetItem *item);
    void showQuotes(const Brief *brief);
    QString fixFor(const std::string &code) const;

    Document *m_document;
    BriefForm *m_briefForm = nullptr;
    FitTableModel *m_fitModel = nullptr;
    QTableView *m_fitTable = nullptr;
    QListWidget *m_warnings = nullptr;
    QLabel *m_fitTitle = nullptr;
    QTabWidget *m_tabs = nullptr;
    PerformanceTableModel *m_perfModel = nullptr;
    QTableView *m_perfTable = nullptr;
    QLabel *m_perfTitle = nullptr;
    QLabel *m_perfSubtitle = nullptr;
    CostTableModel *m_costModel = nullptr;
    QTableView *m_costTable = nullptr;
    QLabel *m_costTitle = nullptr;
    QLabel *m_recommendation = nullptr;
    ChartView *m_fitChart = nullptr;
    ChartView *m_perfChart = nullptr;
    ChartView *m_costChart = nullptr;
    QComboBox *m_loadMetric = nullptr;
    QComboBox *m_fitView = nullptr;
    QComboBox *m_costView = nullptr;
    QListWidget *m_scenarios = nullptr;
    ComparisonModel *m_compareModel = nullptr;
    CandidatesModel *m_candidatesModel = nullptr;
    QTableView *m_candidatesTable = nullptr;
    QTableView *m_compareTable = nullptr;
    QLabel *m_compareTitle = nullptr;
    QLabel *m_compareRecommendation = nullptr;
    QLabel *m_mistakes = nullptr;
    QMenu *m_recentMenu = nullptr;
    QWidget *m_presenting = nullptr;  // the presentation window while one is shown
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_completeness = nullptr;
    QProgressBar *m_completenessBar = nullptr;
    QListWidget *m_missing = nullptr;
    QListWidget *m_quotes = nullptr;
};

} // namespace wb
