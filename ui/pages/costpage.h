// Cost: the all-in monthly cost per accepted output for each candidate and dated price and for
// the model API; the chart shows the line items, or the break-even lines of one candidate; the
// engine's recommendation below.
#pragma once

#include "pages/resultpage.h"

namespace wb {

class CostTableModel;

class CostPage : public ResultPage
{
    Q_OBJECT

public:
    explicit CostPage(Document *document, QWidget *parent = nullptr);
    QLabel *recommendation() const { return m_recommendation; }

private:
    void showResults();
    void showChart();

    CostTableModel *m_model = nullptr;
    QLabel *m_recommendation = nullptr;
};

} // namespace wb
