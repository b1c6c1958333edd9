#include "pages/planpage.h"
#include "settings.h"

#include "document/document.h"
#include "pages/resultstablemodel.h"
#include "parts/pageparts.h"

#include <core/fileio.h>
#include <procurement/plan.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>

namespace wb {

using namespace pageparts;

PlanPage::PlanPage(Document *document, QWidget *parent) : Page(document, parent)
{
    QVBoxLayout *layout = headedPage(
        this, tr("How do we test before committing?"),
        tr("The method's benchmark plan: memory fit, performance and latency, failures and operations, financial "
           "normalization. Each criterion is the brief's target beside the engine's prediction; for LLM serving the "
           "commands run vLLM's and GuideLLM's benchmarks with the brief's lengths and rates, and other kinds are run "
           "with the team's own job. Keep the plan and its results with the decision."));
    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("C&andidate:"), this);
    m_candidate = new QComboBox(this);
    label->setBuddy(m_candidate);
    bar->addWidget(label);
    bar->addWidget(m_candidate, 1);
    auto *exportButton = new QPushButton(tr("E&xport Markdown…"), this);
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    m_view = new QTextBrowser(this);
    m_view->setAccessibleName(tr("Benchmark plan"));
    m_view->setOpenExternalLinks(false);
    layout->addWidget(m_view, 1);
    connect(exportButton, &QPushButton::clicked, this, &PlanPage::exportMarkdown);
    connect(m_candidate, &QComboBox::currentIndexChanged, this, &PlanPage::showPlan);
    connect(document, &Document::briefChanged, this, &PlanPage::listCandidates);
    connect(document, &Document::resultsChanged, this, &PlanPage::listCandidates);  // labels as deployed
    listCandidates();
}

void PlanPage::listCandidates()
{
    const int keep = m_candidate->currentIndex();
    const QSignalBlocker blocker(m_candidate);
    m_candidate->clear();
    if (const Brief *brief = document()->brief()) {
        m_candidate->addItem(tr("Every candidate"), -1);
        // Each candidate as deployed, in the pages' words, once evaluated (the entered count is not
        // what the plan tests).
        const Results &results = document()->results();
        const bool evaluated = results.results.size() == brief->candidates.size();
        for (std::size_t i = 0; i < brief->candidates.size(); ++i)
            m_candidate->addItem(tr("%1: %2").arg(i + 1).arg(evaluated ? ResultsTableModel::deploymentLabel(results.results[i])
                                                                       : QString::fromStdString(candidateLabel(brief->candidates[i]))),
                                 int(i));
        m_candidate->setCurrentIndex(keep >= 0 && keep < m_candidate->count() ? keep : (brief->candidates.empty() ? 0 : 1));
    }
    showPlan();
}

void PlanPage::showPlan()
{
    const Brief *brief = document()->brief();
    if (!brief || brief->candidates.empty()) {
        m_markdown.clear();
        m_stale = false;
        m_view->setPlainText(tr("Open a brief with candidates to plan their benchmarks."));
        return;
    }
    const int chosen = m_candidate->currentData().toInt();
    const Results &results = document()->results();
    if (results.results.size() != brief->candidates.size())
        return;  // results of another brief are still on their way
    const BenchmarkPlan plan =
        makeBenchmarkPlan(*brief, results, document()->catalog(), chosen >= 0 ? std::optional<std::size_t>(std::size_t(chosen)) : std::nullopt);
    m_markdown = QString::fromStdString(planToMarkdown(plan));
    m_stale = true;
    if (isVisible())
        render();
}

void PlanPage::render()
{
    m_stale = false;
    const int scroll = m_view->verticalScrollBar() ? m_view->verticalScrollBar()->value() : 0;
    m_view->setMarkdown(m_markdown);
    m_view->verticalScrollBar()->setValue(scroll);
}

void PlanPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    if (m_stale)
        render();
}

void PlanPage::exportMarkdown()
{
    if (m_markdown.isEmpty())
        return;
    const QString path = saveFileName(this, tr("Export the benchmark plan"), tr("benchmark-plan.md"),
                                                      tr("Markdown (*.md)"));
    if (path.isEmpty())
        return;
    if (Status s = writeFileAtomically(path.toStdString(), m_markdown.toStdString()); !s)
        QMessageBox::warning(this, tr("Export the benchmark plan"), QString::fromStdString(s.error().toString()));
}

} // namespace wb
