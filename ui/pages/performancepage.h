// Performance: throughput, latency percentiles and the SLO verdict per candidate at the brief's
// traffic; the chart shows a latency or throughput figure against the request rate, or the
// highest rate within the targets. For training kinds the page shows the training table (time to
// train, interruptions, checkpoints) and its charts instead, and for media generation the media
// table (seconds per output, outputs per hour, end-to-end latency) and its charts.
#pragma once

#include "pages/resultpage.h"

namespace wb {

struct Brief;
class PerformanceTableModel;
class TrainingTableModel;
class MediaTableModel;

class PerformancePage : public ResultPage
{
    Q_OBJECT

public:
    explicit PerformancePage(Document *document, QWidget *parent = nullptr);

private:
    void showResults();
    void showChart();
    QString trafficSubtitle(const Brief &brief) const;
    QString mediaSubtitle(const Brief &brief) const;
    // What the page shows: serving (the load table and charts), a training run, or media generation.
    enum class Kind { Serving, Training, Media };
    // Shows the kind's table and chart menu (on a change of kind only, so that the chosen chart
    // stays while the brief is edited).
    void showKind(Kind kind);

    PerformanceTableModel *m_model = nullptr;
    TrainingTableModel *m_training = nullptr;
    MediaTableModel *m_media = nullptr;
    QStringList m_loadCharts;
    Kind m_kind = Kind::Serving;
};

} // namespace wb
