// Memory fit: per candidate, the memory per GPU by component and the headroom; the chart shows the
// components, or the headroom map of the selected candidate across context and concurrency.
#pragma once

#include "pages/resultpage.h"

namespace wb {

class FitTableModel;

class FitPage : public ResultPage
{
    Q_OBJECT

public:
    explicit FitPage(Document *document, QWidget *parent = nullptr);

private:
    void showResults();
    void showChart();

    FitTableModel *m_model = nullptr;
};

} // namespace wb
