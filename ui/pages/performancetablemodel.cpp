#include "pages/performancetablemodel.h"

#include "parts/messagetext.h"
#include "parts/figures.h"
#include "parts/words.h"

#include <QBrush>
#include <QLocale>

namespace wb {

namespace {

// Milliseconds, as the column heads say; an overloaded queue's minutes in minutes, so that
// "2,136,093" reads "35.6 min".
QString milliseconds(const Distribution &d, double Distribution::*field)
{
    if (d.empty)
        return QStringLiteral("–");
    const double ms = d.*field * 1000.0;
    if (ms >= 60000)
        return PerformanceTableModel::tr("%1 min").arg(QLocale().toString(ms / 60000, 'f', 1));
    return QLocale().toString(ms, 'f', 0);
}

QString number(double v, int decimals = 0)
{
    return QLocale().toString(v, 'f', decimals);
}

} // namespace

PerformanceTableModel::PerformanceTableModel(QObject *parent) : ResultsTableModel(ColumnCount, parent) {}

void PerformanceTableModel::setCountsRecords(bool records)
{
    if (records == m_records)
        return;
    m_records = records;
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

QVariant PerformanceTableModel::data(const QModelIndex &index, int role) const
{
    const CandidateResult *row = candidateAt(index);
    if (!row)
        return {};
    // A candidate sized to hold the brief shows its deployment's figures (labelled so).
    const CandidateResult &r = deployment(*row);
    const PerformanceResult &p = r.performance;
    const int column = index.column();

    if (role == Qt::TextAlignmentRole)
        return column == Candidate ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (column != Candidate && role == Qt::FontRole)
        return figures::provisional(results(), role);
    if (role == Qt::ForegroundRole && !p.computed)
        return QBrush(QColor(128, 128, 128));
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (results().preview && column != Candidate)
            lines << figures::provisionalNote();
        if (column == Candidate)
            lines << QString::fromStdString(r.gpuName) << QString::fromStdString(p.efficiency.basis);
        if (!p.computed)
            lines << figures::whyMissingDetail(r);
        // The column's figures with their P10-P90 bands, in the cell's units.
        const auto band = [&](const char *path, double shown, int decimals, const QString &what = {}) {
            lines << figures::bandLine(r, path, shown, decimals, what);
        };
        // Records an hour are requests a second times 3,600; the bands' ratios carry over.
        switch (column) {
        case Throughput:
            if (m_records)
                band("performance.requests_per_s", p.requestsPerS * 3600, 0);
            else
                band("performance.output_tokens_per_s", p.outputTokensPerS, 0);
            break;
        case ThroughputPerGpu: band("performance.output_tokens_per_s_per_gpu", p.outputTokensPerSPerGpu, 0); break;
        case Ttft:
            band("performance.ttft_s.p50", p.ttft.p50 * 1000, 0, tr("median"));
            band("performance.ttft_s.p99", p.ttft.p99 * 1000, 0, tr("p99"));
            break;
        case Tpot:
            band("performance.tpot_s.p50", p.tpot.p50 * 1000, 0, tr("median"));
            band("performance.tpot_s.p99", p.tpot.p99 * 1000, 0, tr("p99"));
            break;
        case E2eP99: band("performance.e2e_s.p99", p.e2e.p99 * 1000, 0); break;
        case MaxRateWithinSlo:
            if (p.maxRequestRateWithinSloPerS)
                band("performance.max_request_rate_within_slo_per_s", *p.maxRequestRateWithinSloPerS * (m_records ? 3600 : 1),
                     m_records ? 0 : 2);
            break;
        case Capacity:
            band("performance.max_output_tokens_per_s", m_records ? p.maxRequestsPerS * 3600 : p.maxOutputTokensPerS, 0);
            break;
        default: break;
        }
        for (const Warning &w : p.warnings)
            lines << messageText(w);
        lines.removeAll(QString());
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};

    if (column == Candidate)
        return deploymentLabel(*row) + QLatin1Char(' ') + words(r.candidate.servingStack);
    if (!results().performanceEvaluated)
        return QStringLiteral("…");
    if (!p.computed)
        return column == Throughput ? figures::whyMissing(r) : QStringLiteral("–");
    const bool generates = !p.tpot.empty || p.outputTokensPerS > 0;
    switch (column) {
    case Throughput:
        return m_records ? number(p.requestsPerS * 3600) : generates ? number(p.outputTokensPerS) : QStringLiteral("–");
    case ThroughputPerGpu: return generates ? number(p.outputTokensPerSPerGpu) : QStringLiteral("–");
    case Ttft: return milliseconds(p.ttft, &Distribution::p50) + QStringLiteral(" / ") + milliseconds(p.ttft, &Distribution::p99);
    case Tpot: return milliseconds(p.tpot, &Distribution::p50) + QStringLiteral(" / ") + milliseconds(p.tpot, &Distribution::p99);
    case E2eP99: return milliseconds(p.e2e, &Distribution::p99);
    case SloMet: {
        // At the candidate's count, and (when it differs) with the replicas deployed for the
        // peak, which the cost is for.
        const QString atCount = p.overloaded ? tr("overloaded") : p.sloMet ? (*p.sloMet ? tr("yes") : tr("no")) : tr("no SLO");
        if (p.sloMetAsDeployed && p.replicasForPeak && *p.replicasForPeak != r.candidate.replicas())
            return *p.sloMetAsDeployed ? tr("%1; yes with %n replica(s)", nullptr, *p.replicasForPeak).arg(atCount)
                                       : tr("%1; still no with %n replica(s)", nullptr, *p.replicasForPeak).arg(atCount);
        return atCount;
    }
    case MaxRateWithinSlo:
        return !p.maxRequestRateWithinSloPerS ? QStringLiteral("–")
               : m_records                    ? number(*p.maxRequestRateWithinSloPerS * 3600)
                                              : number(*p.maxRequestRateWithinSloPerS, 2);
    case ReplicasForPeak: return p.replicasForPeak ? QLocale().toString(*p.replicasForPeak) : QStringLiteral("–");
    case Capacity:
        return m_records ? number(p.maxRequestsPerS * 3600) : generates ? number(p.maxOutputTokensPerS) : QStringLiteral("–");
    default: return {};
    }
}

QVariant PerformanceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Throughput:
            return m_records ? tr("Records evaluated an hour at the brief's traffic, all replicas")
                             : tr("Output tokens per second at the brief's traffic, all replicas");
        case Ttft: return tr("Time to first token, milliseconds: median / 99th percentile") + figures::glossaryHint(tr("TTFT"));
        case Tpot: return tr("Time per output token after the first, milliseconds: median / 99th percentile") + figures::glossaryHint(tr("TPOT"));
        case E2eP99: return tr("End-to-end request latency, milliseconds") + figures::glossaryHint(tr("E2E"));
        case SloMet: return tr("Whether the simulated percentiles meet every latency target of the brief at the "
                                  "candidate's count and, where it differs, with the replicas deployed for the peak");
        case MaxRateWithinSlo:
            return (m_records ? tr("Highest Poisson rate of records (an hour) whose percentiles meet the SLO")
                              : tr("Highest Poisson request rate (per second) whose percentiles meet the SLO"))
                + figures::glossaryHint(tr("SLO"));
        case ReplicasForPeak: return tr("Replicas needed to carry the brief's peak request rate within the SLO") + figures::glossaryHint(tr("Replica"));
        case Capacity:
            return m_records ? tr("Records evaluated an hour with every record queued at once (no latency limit)")
                             : tr("Output tokens per second with every request queued at once (no latency limit)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Candidate: return tr("Candidate");
    case Throughput: return m_records ? tr("Records/h") : tr("Tokens/s");
    case ThroughputPerGpu: return m_records ? tr("Tokens/s per GPU") : tr("Per GPU");
    case Ttft: return tr("TTFT p50 / p99");
    case Tpot: return tr("TPOT p50 / p99");
    case E2eP99: return tr("E2E p99");
    case SloMet: return tr("SLO met");
    case MaxRateWithinSlo: return m_records ? tr("Max records/h") : tr("Max req/s");
    case ReplicasForPeak: return tr("Replicas");
    case Capacity: return m_records ? tr("Capacity (records/h)") : tr("Capacity");
    default: return {};
    }
}

} // namespace wb
