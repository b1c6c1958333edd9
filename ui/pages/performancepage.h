// Performance: throughput, latency percentiles and the SLO verdict per candidate at the brief's
// traffic; the chart shows a latency or throughput figure against the request rate, or the
// highest rate within the targets. For training kinds the page shows the training table (time to
// train, interruptions, checkpoints) and its charts instead.
#pragma once

#include "pages/resultpage.h"

namespace wb {

struct Brief;
class PerformanceTableModel;
class TrainingTableModel;

class PerformancePage : public ResultPage
{
    Q_OBJECT

public:
    explicit PerformancePage(Document *document, QWidget *parent = nullptr);

private:
    void showResults();
    void showChart();
    QString trafficSubtitle(const Brief &brief) const;
    // Shows the inference or the training table and chart menu (on a change of kind only, so that
    // the chosen chart stays while the brief is edited).
    void showKind(bool training);

    PerformanceTableModel *m_model = nullptr;
    TrainingTableModel *m_training = nullptr;
    QStringList m_loadCharts;
    bool m_showsTraining = false;
};

} // namespace wb
