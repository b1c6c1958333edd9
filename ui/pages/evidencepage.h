// Evidence: the scenario's measured benchmark runs against the prediction at each run's own load
// and lengths, before and after calibrating from them (and with each run left out), the runs over
// the predicted load curve, and the scenario's calibration switch. Importing a results file asks
// which candidate it measured (dialogs/evidenceimport.h).
#pragma once

#include "pages/page.h"

#include <evidence/evidence.h>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace wb {

class EvidencePage : public Page
{
    Q_OBJECT

public:
    explicit EvidencePage(Document *document, QWidget *parent = nullptr);

    ChartView *chart() const override { return m_chart; }
    QComboBox *chartChoice() const override { return m_metric; }
    QTableView *runsTable() const { return m_runsView; }
    QTableView *metricsTable() const { return m_metricsView; }
    QCheckBox *calibrationSwitch() const { return m_calibrate; }
    QLabel *status() const { return m_status; }
    QPushButton *importButton() const { return m_import; }
    QPushButton *removeButton() const { return m_remove; }
    // Asks for a file and imports it (what the Import button does); a path skips the file dialog.
    void importFile(const QString &path = {});

private:
    void listRuns();
    void showRun();
    void showChart();
    void showStatus();
    long long selectedRun() const;
    const RunPrediction *predictionOf(long long run) const;

    QPushButton *m_import = nullptr;
    QPushButton *m_remove = nullptr;
    QCheckBox *m_calibrate = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_caption = nullptr;  // which run the metrics are of
    QStandardItemModel *m_runs = nullptr;
    QStandardItemModel *m_metrics = nullptr;
    QTableView *m_runsView = nullptr;
    QTableView *m_metricsView = nullptr;
    QComboBox *m_metric = nullptr;
    ChartView *m_chart = nullptr;
    std::vector<EvidenceRun> m_shownRuns;
    std::shared_ptr<const EvidenceAnalysis> m_analysis;
};

} // namespace wb
