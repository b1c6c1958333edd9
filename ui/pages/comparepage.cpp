#include "pages/comparepage.h"

#include "parts/messagetext.h"
#include "document/document.h"
#include "pages/comparisonmodel.h"

#include <QHeaderView>
#include "parts/pageparts.h"
#include "parts/recommendation.h"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace wb {

using namespace pageparts;

ComparePage::ComparePage(Document *document, QWidget *parent) : Page(document, parent)
{
    QVBoxLayout *layout = headedPage(this, tr("Which one, and on what terms?"),
                                     tr("Every candidate and pricing side by side; click a heading to sort. The best "
                                        "value in each column is bold."));
    m_model = new ComparisonModel(this);
    auto *sorter = new QSortFilterProxyModel(this);
    sorter->setSourceModel(m_model);
    sorter->setSortRole(Qt::UserRole);
    m_table = resultTable(sorter, tr("Comparison of candidates and pricing"), this);
    m_table->setSortingEnabled(true);
    m_table->setWordWrap(false);  // a long Terms cell is cut short (its tooltip has it whole), not rows made tall
    // The commercial terms take the width the figures leave, not their whole text's: at its
    // contents' width the table scrolled sideways even at 1920 pixels.
    m_table->horizontalHeader()->setSectionResizeMode(ComparisonModel::Terms, QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("Terms")) + 16);
    m_table->sortByColumn(ComparisonModel::PerAccepted, Qt::AscendingOrder);
    // Each row's option is its header, which stays in view while the figures scroll sideways.
    m_table->setColumnHidden(ComparisonModel::Candidate, true);
    m_table->verticalHeader()->setVisible(true);
    m_table->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 3);
    m_recommendation = richLabel(tr("Recommendation"), this);
    layout->addWidget(m_recommendation);
    m_mistakes = richLabel(tr("Common mistakes"), this);
    layout->addWidget(m_mistakes);
    connect(document, &Document::resultsChanged, this, &ComparePage::showResults);
    showResults();
}

void ComparePage::showResults()
{
    const Brief *brief = document()->brief();
    const Results &results = document()->results();
    // The engine decides whether the results may be ranked (Results::rankingHeldBackBy).
    m_model->setRanked(brief && results.ranked());
    m_model->setResults(document()->sharedResults());
    // An image or a clip has no time per token, and no tokens to price by the million.
    m_table->setColumnHidden(ComparisonModel::TpotP99, m_model->media());
    m_table->setColumnHidden(ComparisonModel::PerMillionTokens, m_model->media());
    m_recommendation->setText(brief ? recommendationHtml(results) : QString());
    QStringList mistakes;
    for (const Warning &w : results.cost.warnings)
        if (w.code.rfind("mistake-", 0) == 0)
            mistakes << QStringLiteral("<li>%1</li>").arg(messageText(w).toHtmlEscaped());
    m_mistakes->setText(mistakes.isEmpty()
                            ? QString()
                            : tr("<b>Common mistakes this brief invites</b><ul style=\"margin-top:2px\">%1</ul>")
                                  .arg(mistakes.join(QString())));
}

} // namespace wb
