#include "pages/resultpage.h"

#include "document/document.h"
#include "parts/pageparts.h"

#include <widgets/chartview.h>

#include <QComboBox>
#include <QHeaderView>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>

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
    m_notes = richLabel(tr("Vendors' answers on these figures"), this);
    m_notes->setVisible(false);
    m_layout->addWidget(m_notes);
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
    // Neither is dragged out of sight, and the table keeps three rows in view at 1280x800 (issue
    // 39: the Cost table showed one row, and dragging the splitter hid the chart).
    split->setChildrenCollapsible(false);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + 3 * m_table->verticalHeader()->defaultSectionSize()
                              + m_table->horizontalScrollBar()->sizeHint().height() + 2 * m_table->frameWidth());
    m_chart->setMinimumHeight(160);
    m_layout->addWidget(split, 3);
}

void ResultPage::showVendorNotesOn(const std::string &figures)
{
    m_figures = figures;
    connect(document(), &Document::resultsChanged, this, &ResultPage::showVendorNotes);
    showVendorNotes();
}

void ResultPage::showVendorNotes()
{
    const Results &results = document()->results();
    QStringList lines;
    for (const VendorNote &n : results.vendorNotes) {
        if (n.figures != m_figures)
            continue;
        lines << tr("Candidate %1, <b>%2</b> on %3: %4%5")
                     .arg(n.candidate + 1)
                     .arg(QString::fromStdString(n.vendor).toHtmlEscaped(), QString::fromStdString(n.what).toHtmlEscaped(),
                          QString::fromStdString(n.answer).toHtmlEscaped(),
                          n.text.empty() ? QString() : QStringLiteral(" — ") + QString::fromStdString(n.text).toHtmlEscaped());
    }
    const int shown = 2;  // the rest on the Checklist page: the table and chart keep their room
    if (lines.size() > shown) {
        const qsizetype more = lines.size() - shown;
        lines = lines.mid(0, shown);
        lines << tr("and %1 more (the Checklist page has them all)").arg(more);
    }
    m_notes->setVisible(!lines.isEmpty());
    m_notes->setText(lines.isEmpty() ? QString()
                                     : tr("<i>What the vendors say about these figures:</i> %1")
                                           .arg(lines.join(QStringLiteral("; "))));
}

} // namespace wb
