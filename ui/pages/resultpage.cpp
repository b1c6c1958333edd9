#include "pages/resultpage.h"

#include "parts/pageparts.h"

#include <widgets/chartview.h>

#include <QComboBox>
#include <QSplitter>

namespace wb {

using namespace pageparts;

ResultPage::ResultPage(Document *document, const QString &tabName, QAbstractItemModel *model, const QString &tableName,
                       const QStringList &chartChoices, QWidget *parent)
    : Page(document, parent)
{
    m_layout = new QVBoxLayout(this);
    m_title = titleLabel(this);
    m_layout->addWidget(m_title);
    m_subtitle = subtitleLabel(QString(), this);
    m_layout->addWidget(m_subtitle);
    if (!chartChoices.isEmpty()) {
        m_choice = new QComboBox(this);
        m_choice->setAccessibleName(tr("%1 chart choice").arg(tabName));
        m_choice->addItems(chartChoices);
        m_layout->addWidget(m_choice, 0, Qt::AlignLeft);
    }
    auto *split = new QSplitter(Qt::Vertical, this);
    model->setParent(this);
    m_table = resultTable(model, tableName, split);
    m_chart = new ChartView(split);
    m_chart->setAccessibleName(tr("%1 chart").arg(tabName));
    split->addWidget(m_table);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    m_layout->addWidget(split, 3);
}

} // namespace wb
