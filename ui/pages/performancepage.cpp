#include "pages/performancepage.h"

#include "document/document.h"
#include "pages/performancetablemodel.h"
#include "pages/mediatablemodel.h"
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
                  tr("Highest rate within the targets"), tr("Throughput per GPU against tokens/s per user")},
                 parent)
{
    showVendorNotesOn("performance");
    m_model = static_cast<PerformanceTableModel *>(table()->model());
    m_training = new TrainingTableModel(this);
    m_media = new MediaTableModel(this);
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
    m_model->setCountsRecords(brief && brief->workload.kind == WorkloadKind::Evaluation);
    m_model->setResults(document()->sharedResults());
    m_training->setResults(document()->sharedResults());
    m_media->setResults(document()->sharedResults());
    const bool inference = brief && isInference(brief->workload.kind);
    const bool training = brief && (isTraining(brief->workload.kind) || isAdapter(brief->workload.kind));
    const bool media = brief && brief->workload.media;
    showKind(training ? Kind::Training : media ? Kind::Media : Kind::Serving);
    title()->setText(!brief      ? tr("How fast is it? Open a brief to see.")
                     : inference ? tr("How fast is it, and does it meet the latency targets?")
                     : training  ? tr("How long does the run take, and what do failures cost it?")
                     : media     ? tr("How many images or clips an hour, and how long does each wait?")
                                 : tr("How fast is it? Complete the brief to see."));
    subtitle()->setText(!brief      ? QString()
                        : inference ? trafficSubtitle(*brief)
                        : training  ? tr("Time per optimizer step from the layout's math and communication, the time to "
                                         "train the brief's tokens, and the expected time once checkpoints, interruptions "
                                         "and restarts are counted. Hover a step time for where it goes.")
                        : media     ? mediaSubtitle(*brief)
                                    : tr("A %1 brief without its media set-up has nothing to time.")
                                          .arg(words(brief->workload.kind)));
    showChart();
}

void PerformancePage::showKind(Kind kind)
{
    if (kind == m_kind)
        return;
    m_kind = kind;
    QSignalBlocker block(chartChoice());
    chartChoice()->clear();
    switch (kind) {
    case Kind::Training:
        table()->setModel(m_training);
        table()->setAccessibleName(tr("Training time per candidate"));
        chartChoice()->addItems({tr("Tokens/s against GPU count"), tr("Waste against checkpoint interval"),
                                 tr("Where a step's time goes")});
        chartChoice()->setAccessibleName(tr("Training chart figure"));
        break;
    case Kind::Media:
        table()->setModel(m_media);
        table()->setAccessibleName(tr("Media generation per candidate"));
        chartChoice()->addItems({tr("Outputs per hour against batch"), tr("Where an output's time goes")});
        chartChoice()->setAccessibleName(tr("Media chart figure"));
        break;
    case Kind::Serving:
        table()->setModel(m_model);
        table()->setAccessibleName(tr("Performance per candidate"));
        chartChoice()->addItems(m_loadCharts);
        chartChoice()->setAccessibleName(tr("Load chart figure"));
        break;
    }
}

QString PerformancePage::mediaSubtitle(const Brief &brief) const
{
    const MediaSpec &m = *brief.workload.media;
    const Traffic &t = brief.workload.traffic;
    const QString traffic = t.mode == TrafficMode::OpenLoop
        ? tr("%1 outputs/s arriving").arg(QLocale().toString(t.requestRatePerS.value_or(0), 'g', 4))
        : t.mode == TrafficMode::ClosedLoop ? tr("%1 requests in flight").arg(t.concurrency.value_or(1))
                                            : tr("everything queued at once");
    return tr("%1 at %2×%3%4, %5 steps of %6 pass(es); %7. The queue runs up to the batch shown; throughput at it; end-to-end "
              "seconds through that batching queue%8. Hover a time per output for where it goes.")
        .arg(QString::fromStdString(m.model.name))
        .arg(m.width)
        .arg(m.height)
        .arg(m.model.video ? tr(", %1 frames").arg(m.frames) : QString())
        .arg(m.steps)
        .arg(m.passesPerStep())
        .arg(traffic,
             brief.workload.slo.e2eP99S
                 ? tr("; target E2E p99 ≤ %1 s").arg(QLocale().toString(*brief.workload.slo.e2eP99S, 'g', 4))
                 : QString());
}

void PerformancePage::showChart()
{
    if (m_kind == Kind::Training) {
        showTrainingChart(chart(), document()->results(), TrainingChart(std::max(0, chartChoice()->currentIndex())));
        return;
    }
    if (m_kind == Kind::Media) {
        showMediaChart(chart(), document()->results(), MediaChart(std::max(0, chartChoice()->currentIndex())));
        return;
    }
    showLoadChart(chart(), document()->brief(), document()->results(), LoadMetric(chartChoice()->currentIndex()));
}

QString PerformancePage::trafficSubtitle(const Brief &brief) const
{
    const Workload &w = brief.workload;
    const Traffic &t = w.traffic;
    QString traffic;
    const bool records = w.kind == WorkloadKind::Evaluation;
    switch (t.mode) {
    case TrafficMode::Offline: traffic = records ? tr("the whole dataset queued at once") : tr("every request queued at once"); break;
    case TrafficMode::ClosedLoop:
        traffic = (records ? tr("%1 records in flight") : tr("%1 requests in flight")).arg(t.concurrency.value_or(1));
        break;
    case TrafficMode::OpenLoop:
        traffic = records ? tr("%1 records an hour arriving (burstiness %2)")
                                .arg(QLocale().toString(t.requestRatePerS.value_or(0) * 3600, 'f', 0))
                                .arg(QLocale().toString(t.burstiness, 'g', 3))
                          : tr("%1 requests/s arriving (burstiness %2)")
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
    return (records ? tr("Simulated evaluation at the brief's traffic: %1. Latencies in milliseconds; targets: %2. Max "
                         "records/h is the highest Poisson rate within the targets; capacity is records an hour with "
                         "everything queued.")
                    : tr("Simulated serving at the brief's traffic: %1. Latencies in milliseconds; targets: %2. Max req/s is "
                         "the highest Poisson rate within the targets; capacity is output tokens/s with everything queued."))
        .arg(traffic, targets.isEmpty() ? tr("none set") : targets.join(QStringLiteral(", ")));
}

} // namespace wb
