#include "pages/costpage.h"

#include "document/document.h"
#include "pages/costtablemodel.h"
#include "parts/messagetext.h"
#include "parts/pageparts.h"
#include "parts/recommendation.h"
#include "parts/resultcharts.h"

#include <widgets/chartview.h>

#include <QComboBox>
#include <QLabel>
#include <QTableView>

namespace wb {

CostPage::CostPage(Document *document, QWidget *parent)
    : ResultPage(document, tr("Cost"), new CostTableModel, tr("Cost per candidate and pricing"),
                 {tr("Cost by line item"), tr("Break-even against the API (the selected candidate)")},
                 parent)
{
    showVendorNotesOn("cost");
    m_model = static_cast<CostTableModel *>(table()->model());
    chartChoice()->setAccessibleName(tr("Cost chart"));
    m_recommendation = pageparts::richLabel(tr("Recommendation"), this);
    pageLayout()->addWidget(m_recommendation);
    connect(chartChoice(), &QComboBox::currentIndexChanged, this, &CostPage::showChart);
    connect(table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CostPage::showChart);
    connect(document, &Document::resultsChanged, this, &CostPage::showResults);
    showResults();
}

void CostPage::showResults()
{
    const Brief *brief = document()->brief();
    m_model->setResults(document()->sharedResults());
    const bool inference = brief && isInference(brief->workload.kind);
    const bool training = brief && (isTraining(brief->workload.kind) || isAdapter(brief->workload.kind));
    const bool media = brief && brief->workload.media;
    title()->setText(!brief      ? tr("What does an accepted output cost? Open a brief to see.")
                     : brief->workload.kind == WorkloadKind::Evaluation ? tr("What does an evaluated record cost?")
                     : inference ? tr("What does an accepted output cost?")
                     : training  ? tr("What does a completed training run cost?")
                     : media     ? tr("What does an accepted image or clip cost?")
                                 : tr("What does an accepted output cost? Complete the brief to see."));
    subtitle()->setText(training ? tr("All-in cost of one completed run (GPU-hours of training, checkpoint writes, work "
                                      "lost to interruptions and restarts, checkpoint storage, network, platform labour) "
                                      "for each candidate and dated price; $/accepted divides it by the share of runs "
                                      "whose model passes evaluation. Hover a row for its cost lines.")
                        : media ? tr("All-in monthly cost (GPU time busy and idle, failed renders and rejected outputs, "
                                     "storage of weights and kept outputs, the job queue, delivery, moderation and quality "
                                     "filtering, operator review, observability, platform labour) per accepted image or "
                                     "clip, for each candidate and dated price. Hover a row for its cost lines.")
                                : tr("All-in monthly cost (GPU time busy and idle, retries, storage, serving stack, "
                                     "network, observability, platform labour) per %1, for each candidate and dated "
                                     "price, and for the model API. Hover a row for its cost lines and the price's source.")
                                      .arg(wordText(document()->results().cost.unit)));
    m_recommendation->setText(brief ? recommendationHtml(document()->results()) : QString());
    // Images and clips have no tokens to price by the million, and no model-API route to break even with.
    table()->setColumnHidden(CostTableModel::PerMillionTokens, media);
    table()->setColumnHidden(CostTableModel::ApiBreakEven, media);
    // A training run has no monthly volume to break even over: only its lines are charted.
    if (training)
        chartChoice()->setCurrentIndex(0);
    chartChoice()->setEnabled(!training);
    chartChoice()->setToolTip(training ? tr("A training run is priced per run: there is no monthly volume to break even "
                                            "against the API")
                                       : QString());
    showChart();
}

// Cost per accepted output by line item, or the break-even lines of the candidate selected in
// the table (the recommended or cheapest one when none is).
void CostPage::showChart()
{
    const Results &results = document()->results();
    if (chartChoice()->currentIndex() == 0 || !chartChoice()->isEnabled()) {
        showCostChart(chart(), results);
        return;
    }
    std::optional<std::size_t> candidate = m_model->candidateAt(table()->currentIndex().row());
    if (!candidate && results.cost.recommendation)
        candidate = results.cost.recommendation->candidate;
    // Else the candidate with the lowest cost per accepted output.
    const bool chosen = candidate.has_value();
    for (std::size_t i = 0; !chosen && i < results.results.size(); ++i) {
        const CostOption *mine = results.results[i].cost.cheapest();
        const CostOption *best = candidate ? results.results[*candidate].cost.cheapest() : nullptr;
        if (mine && (!best || mine->costPerAcceptedOutput < best->costPerAcceptedOutput))
            candidate = i;
    }
    showBreakEvenChart(chart(), results, candidate.value_or(results.results.size()));
}

} // namespace wb
