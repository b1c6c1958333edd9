// Performance: throughput, latency percentiles and the SLO verdict per candidate at the brief's
// traffic; the chart shows a latency or throughput figure against the request rate, or the
// highest rate within the targets.
#pragma once

#include "pages/resultpage.h"

namespace wb {

struct Brief;
class PerformanceTableModel;

class PerformancePage : public ResultPage
{
    Q_OBJECT

public:
    explicit PerformancePage(Document *document, QWidget *parent = nullptr);

private:
    void showResults();
    void showChart();
    QString trafficSubtitle(const Brief &brief) const;

    PerformanceTableModel *m_model = nullptr;
};

} // namespace wb
