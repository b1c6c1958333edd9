#include "pages/mediatablemodel.h"

#include "parts/figures.h"

#include <QBrush>
#include <QLocale>

namespace wb {

MediaTableModel::MediaTableModel(QObject *parent) : ResultsTableModel(ColumnCount, parent) {}

QVariant MediaTableModel::data(const QModelIndex &index, int role) const
{
    const CandidateResult *row = candidateAt(index);
    if (!row)
        return {};
    const CandidateResult &r = deployment(*row);
    const PerformanceResult &p = r.performance;
    const std::optional<MediaPerformance> &m = p.media;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Candidate ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && !m)
        return QBrush(QColor(128, 128, 128));
    const QLocale l;
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (column == Candidate)
            lines << QString::fromStdString(r.gpuName);
        if (!m) {
            lines << figures::whyMissingDetail(r);
        } else if (column == SecondsPerOutput) {
            lines << tr("One output alone: text encoders %1 s, denoising %2 s (%3 steps × %4 passes), VAE decode %5 s; "
                        "%6 TFLOP in all")
                         .arg(l.toString(m->single.text, 'g', 3), l.toString(m->single.denoise, 'g', 3))
                         .arg(m->work.steps)
                         .arg(m->work.passesPerStep)
                         .arg(l.toString(m->single.vae, 'g', 3), l.toString(m->flopsPerOutput / 1e12, 'f', 0));
        } else if (column == OutputsPerHour) {
            lines << figures::bandLine(r, "performance.media.outputs_per_hour", m->outputsPerHour, 0);
        } else if (column == OutputsPerHourPerGpu) {
            lines << figures::bandLine(r, "performance.media.outputs_per_hour_per_gpu", m->outputsPerHourPerGpu, 1);
        } else if (column == E2eP99) {
            lines << figures::bandLine(r, "performance.e2e_s.p99", p.e2e.p99, 2);
        } else if (column == Batch) {
            const QString largest = m->batchFromBrief ? tr("the brief's batch, %1").arg(m->batch)
                                                      : tr("the largest that fits in memory, %1").arg(m->batch);
            lines << (m->queueBatch < m->batch
                          ? tr("The queue takes up to %1 outputs together from the requests waiting: the smallest "
                               "batch within 1% of the outputs an hour of %2; a larger one only makes outputs wait "
                               "for each other")
                                .arg(m->queueBatch)
                                .arg(largest)
                          : tr("The queue takes up to %1 outputs together from the requests waiting: %2")
                                .arg(m->queueBatch)
                                .arg(largest));
        }
        lines.removeAll(QString());
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    if (column == Candidate)
        return deploymentLabel(*row);
    if (!results().performanceEvaluated)
        return QStringLiteral("…");
    if (!m)
        return column == SecondsPerOutput ? figures::whyMissing(r) : QStringLiteral("–");
    const auto seconds = [&](double v) { return p.e2e.empty ? QStringLiteral("–") : l.toString(v, 'f', v < 10 ? 2 : 1); };
    switch (column) {
    case SecondsPerOutput: return l.toString(m->secondsPerOutput, 'f', m->secondsPerOutput < 10 ? 2 : 1);
    case Batch: return m->queueBatch;  // what the queue runs, and the latency columns are at
    case OutputsPerHour: return l.toString(m->outputsPerHour, 'f', 0);
    case OutputsPerHourPerGpu: return l.toString(m->outputsPerHourPerGpu, 'f', m->outputsPerHourPerGpu < 10 ? 1 : 0);
    case E2eP50: return seconds(p.e2e.p50);
    case E2eP95: return seconds(p.e2e.p95);
    case E2eP99: return seconds(p.e2e.p99);
    case SloMet: return p.sloMet ? (*p.sloMet ? tr("yes") : tr("no")) : QStringLiteral("–");
    case MaxRateWithinSlo:
        return p.maxRequestRateWithinSloPerS ? l.toString(*p.maxRequestRateWithinSloPerS, 'g', 3) : QStringLiteral("–");
    case Replicas: return p.replicasForPeak ? QVariant(*p.replicasForPeak) : QVariant(QStringLiteral("–"));
    default: return {};
    }
}

QVariant MediaTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SecondsPerOutput: return tr("Seconds for one output alone on a replica (hover a cell for where they go)");
        case Batch: return tr("Outputs denoised together for the throughput");
        case OutputsPerHour: return tr("Images or clips an hour, all GPUs of the candidate, at that batch");
        case E2eP50:
        case E2eP95:
        case E2eP99: return tr("Seconds from a request's arrival to its output, through the queue at the brief's traffic");
        case SloMet: return tr("Whether the end-to-end percentiles meet the brief's targets");
        case MaxRateWithinSlo: return tr("The highest Poisson rate (outputs/s) whose end-to-end percentiles meet the targets");
        case Replicas: return tr("Replicas the peak rate needs within the targets: the deployment the cost is for");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Candidate: return tr("Candidate");
    case SecondsPerOutput: return tr("s/output");
    case Batch: return tr("Batch");
    case OutputsPerHour: return tr("Outputs/h");
    case OutputsPerHourPerGpu: return tr("Per GPU");
    case E2eP50: return tr("E2E p50 (s)");
    case E2eP95: return tr("E2E p95 (s)");
    case E2eP99: return tr("E2E p99 (s)");
    case SloMet: return tr("Meets SLO");
    case MaxRateWithinSlo: return tr("Out/s in SLO");
    case Replicas: return tr("Replicas");
    default: return {};
    }
}

} // namespace wb
