// Scenario > Find Layouts: the layout search (evaluate/search.h) for the current scenario's brief
// over the GPUs ticked in the list, up to a number of GPUs per deployment. It runs on a worker
// thread (the search itself on the process's pool) with a progress bar and a Cancel button; the
// layouts that are costed appear in a sortable table, with two charts: cost per accepted output
// against p99 latency (one colour per GPU, the Pareto front, the brief's SLO) and output tokens/s
// per GPU against tokens/s per user. The rows selected (each GPU's cheapest layout within the SLO
// at first) are added to the scenario as candidates in one undoable step.
#pragma once

#include <evaluate/search.h>

#include <QDialog>

#include <memory>
#include <stop_token>
#include <thread>

class QCheckBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QStandardItemModel;
class QTableView;
class QTabWidget;

namespace wb {

class ChartView;
class Document;

class LayoutSearchDialog : public QDialog
{
    Q_OBJECT

public:
    explicit LayoutSearchDialog(Document *document, QWidget *parent = nullptr);
    ~LayoutSearchDialog() override;

    // Starts a search with the GPUs and the limit as set (cancels one under way).
    void start();
    // Asks the search under way to stop; what it finished is shown.
    void cancel();
    bool busy() const { return m_busy; }
    // Adds the selected layouts to the scenario as candidates (one undo step); the error, if any,
    // is shown and returned.
    std::optional<QString> addSelected();
    const std::optional<SearchResult> &result() const { return m_result; }

    QListWidget *gpuList() const { return m_gpus; }
    // The weight precisions to try: the brief's acceptable_precisions, edited in place (one undo
    // step each).
    QList<QCheckBox *> precisionBoxes() const { return m_precisions; }
    QSpinBox *maxGpusBox() const { return m_maxGpus; }
    QPushButton *searchButton() const { return m_search; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *addButton() const { return m_add; }
    QProgressBar *progressBar() const { return m_progress; }
    QTableView *table() const { return m_table; }
    ChartView *costChart() const { return m_costChart; }
    ChartView *throughputChart() const { return m_throughputChart; }
    QLabel *statusLabel() const { return m_status; }

signals:
    void finished(bool cancelled);

private:
    void showProgress(int done, int total);
    void showResult(std::shared_ptr<SearchResult> result, const QString &error);
    void fillTable();
    void fillCharts();
    void updateAddButton();
    void stopWorker();
    void showBriefPrecisions();
    void setPrecisions();

    Document *m_document;
    QListWidget *m_gpus = nullptr;
    QList<QCheckBox *> m_precisions;
    QSpinBox *m_maxGpus = nullptr;
    QPushButton *m_search = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_add = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_intro = nullptr;
    QLabel *m_status = nullptr;
    QStandardItemModel *m_model = nullptr;
    QSortFilterProxyModel *m_sorted = nullptr;
    QTableView *m_table = nullptr;
    QTabWidget *m_tabs = nullptr;
    ChartView *m_costChart = nullptr;
    ChartView *m_throughputChart = nullptr;

    std::optional<Brief> m_brief;           // the brief searched (a copy: the worker reads it)
    QString m_scenario;                     // the scenario it is of
    std::optional<SearchResult> m_result;
    std::vector<const LayoutResult *> m_rows;  // the table's rows (model order)
    std::stop_source m_stop;
    std::thread m_worker;
    bool m_busy = false;
};

} // namespace wb
