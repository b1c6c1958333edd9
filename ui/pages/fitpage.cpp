#include "pages/fitpage.h"

#include "document/document.h"
#include "pages/fittablemodel.h"
#include "parts/resultcharts.h"

#include <widgets/chartview.h>
#include <widgets/fractionbardelegate.h>

#include <QComboBox>
#include <QLabel>
#include <QTableView>

namespace wb {

FitPage::FitPage(Document *document, QWidget *parent)
    : ResultPage(document, tr("Memory fit"), new FitTableModel, tr("Memory fit per candidate"),
                 {tr("Memory by component"), tr("Headroom map of the selected candidate")}, parent)
{
    showVendorNotesOn("fit");
    m_model = static_cast<FitTableModel *>(table()->model());
    chartChoice()->setAccessibleName(tr("Memory chart"));
    subtitle()->setText(tr("Memory per GPU by component, for the busiest GPU of each candidate. Headroom is the share "
                           "of the GPU left free; the engine's memory cap keeps the last 10% for fragmentation."));
    auto *bar = new FractionBarDelegate(table());
    bar->setWarnBelow(0.1);
    table()->setItemDelegateForColumn(FitTableModel::Headroom, bar);
    connect(chartChoice(), &QComboBox::currentIndexChanged, this, &FitPage::showChart);
    connect(table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &FitPage::showChart);
    connect(document, &Document::resultsChanged, this, &FitPage::showResults);
    showResults();
}

void FitPage::showResults()
{
    const Brief *brief = document()->brief();
    m_model->setResults(document()->sharedResults());
    // Columns that are always zero for this kind of workload are hidden, not shown empty.
    const bool inference = !brief || isInference(brief->workload.kind);
    table()->setColumnHidden(FitTableModel::KvCache, !inference);
    table()->setColumnHidden(FitTableModel::MaxConcurrency, !inference);
    table()->setColumnHidden(FitTableModel::Gradients, inference);
    table()->setColumnHidden(FitTableModel::OptimizerStates, inference);
    title()->setText(brief && brief->candidates.empty() ? tr("Does it fit? Add a candidate to compare.")
                     : brief                             ? tr("Does it fit?")
                                                         : tr("Does it fit? Open a brief to see."));
    showChart();
}

// Memory by component for every candidate, or the headroom map of the one selected in the table
// (the first computed one when none is).
void FitPage::showChart()
{
    const Brief *brief = document()->brief();
    const Results &results = document()->results();
    if (chartChoice()->currentIndex() == 0 || !brief || results.results.empty()) {
        showFitChart(chart(), results);
        return;
    }
    int row = table()->currentIndex().isValid() ? table()->currentIndex().row() : -1;
    if (row < 0 || row >= int(results.results.size()) || !results.results[std::size_t(row)].fit.computed) {
        row = 0;
        while (row < int(results.results.size()) && !results.results[std::size_t(row)].fit.computed)
            ++row;
    }
    if (row >= int(results.results.size())) {
        showFitChart(chart(), results);
        return;
    }
    showHeadroomMap(chart(), *brief, results.results[std::size_t(row)].candidate, document()->catalog());
}

} // namespace wb
