#include "pages/performancepage.h"

#include "document/document.h"
#include "pages/performancetablemodel.h"
#include "pages/trainingtablemodel.h"
#include "parts/resultcharts.h"
#include "parts/words.h"

#include <widgets/chartview.h>

#include <QComboBox>
#include <QSignalBlocker>
#include <QLabel>
#include <QLocale>
#include <QTableView>

namespace wb {

PerformancePage::PerformancePage(Document *document, QWidget *parent)
    : ResultPage(document, tr("Performance"), new PerformanceTableModel, tr("Performance per candidate"),
                 {tr("TTFT p99 against rate"), tr("TTFT p95 against rate"), tr("TTFT p50 against rate"),
                  tr("TPOT p99 against rate"), tr("TPOT p95 against rate"), tr("TPOT p50 against rate"),
                  tr("Throughput against rate"), tr("Throughput per GPU against rate"),
                  tr("Highest rate within the targets")},
                 parent)
{
    showVendorNotesOn("performance");
    m_model = static_cast<PerformanceTableModel *>(table()->model());
    m_training = new TrainingTableModel(this);
    for (int i = 0; i < chartChoice()->count(); ++i)
        m_loadCharts << chartChoice()->itemText(i);
    chartChoice()->setAccessibleName(tr("Load chart figure"));
    connect(chartChoice(), &QComboBox::currentIndexChanged, this, &PerformancePage::showChart);
    connect(document, &Document::resultsChanged, this, &PerformancePage::showResults);
    showResults();
}

void PerformancePage::showResults()
{
    const Brief *brief = document()->brief();
    m_model->setResults(document()->results());
    m_training->setResults(document()->results());
    const bool inference = brief && isInference(brief->workload.kind);
    const bool training = brief && (isTraining(brief->workload.kind) || isAdapter(brief->workload.kind));
    showKind(training);
    title()->setText(!brief      ? tr("How fast is it? Open a brief to see.")
                     : inference ? tr("How fast is it, and does it meet the latency targets?")
                     : training  ? tr("How long does the run take, and what do failures cost it?")
                                 : tr("How fast is it? Media generation arrives in a later version."));
    subtitle()->setText(!brief      ? QString()
                        : inference ? trafficSubtitle(*brief)
                        : training  ? tr("Time per optimizer step from the layout's math and communication, the time to "
                                         "train the brief's tokens, and the expected time once checkpoints, interruptions "
                                         "and restarts are counted. Hover a step time for where it goes.")
                                    : tr("A %1 is not simulated yet: its time per output and throughput are left empty.")
                                          .arg(words(brief->workload.kind)));
    showChart();
}

void PerformancePage::showKind(bool training)
{
    if (training == m_showsTraining)
        return;
    m_showsTraining = training;
    table()->setModel(training ? static_cast<QAbstractItemModel *>(m_training) : m_model);
    table()->setAccessibleName(training ? tr("Training time per candidate") : tr("Performance per candidate"));
    QSignalBlocker block(chartChoice());
    chartChoice()->clear();
    chartChoice()->addItems(training ? QStringList{tr("Tokens/s against GPU count"), tr("Waste against checkpoint interval"),
                                                   tr("Where a step's time goes")}
                                     : m_loadCharts);
    chartChoice()->setAccessibleName(training ? tr("Training chart figure") : tr("Load chart figure"));
}

void PerformancePage::showChart()
{
    if (m_showsTraining) {
        showTrainingChart(chart(), document()->results(), TrainingChart(std::max(0, chartChoice()->currentIndex())));
        return;
    }
    showLoadChart(chart(), document()->brief(), document()->results(), LoadMetric(chartChoice()->currentIndex()));
}

QString PerformancePage::trafficSubtitle(const Brief &brief) const
{
    const Workload &w = brief.workload;
    const Traffic &t = w.traffic;
    QString traffic;
    switch (t.mode) {
    case TrafficMode::Offline: traffic = tr("every request queued at once"); break;
    case TrafficMode::ClosedLoop: traffic = tr("%1 requests in flight").arg(t.concurrency.value_or(1)); break;
    case TrafficMode::OpenLoop:
        traffic = tr("%1 requests/s arriving (burstiness %2)")
                      .arg(QLocale().toString(t.requestRatePerS.value_or(0), 'g', 4))
                      .arg(QLocale().toString(t.burstiness, 'g', 3));
        break;
    }
    QStringList targets;
    const auto target = [&](const QString &name, const std::optional<double> &v) {
        if (v)
            targets << tr("%1 ≤ %2 ms").arg(name).arg(QLocale().toString(*v * 1000, 'f', 0));
    };
    target(tr("TTFT p99"), w.slo.ttftP99S);
    target(tr("TPOT p99"), w.slo.tpotP99S);
    target(tr("E2E p99"), w.slo.e2eP99S);
    target(tr("TTFT p95"), w.slo.ttftP95S);
    target(tr("TPOT p95"), w.slo.tpotP95S);
    target(tr("E2E p95"), w.slo.e2eP95S);
    return tr("Simulated serving at the brief's traffic: %1. Latencies in milliseconds; targets: %2. Max req/s is "
              "the highest Poisson rate within the targets; capacity is output tokens/s with everything queued.")
        .arg(traffic, targets.isEmpty() ? tr("none set") : targets.join(QStringLiteral(", ")));
}

} // namespace wb
