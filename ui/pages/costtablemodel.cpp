#include "pages/costtablemodel.h"

#include <core/format.h>
#include <report/labels.h>

#include "pages/resultstablemodel.h"
#include "parts/figures.h"
#include "parts/messagetext.h"
#include "parts/words.h"

#include <QBrush>
#include <algorithm>
#include <QLocale>

namespace wb {

namespace {

QString money(double usd, int decimals)
{
    return QLocale().toString(usd, 'f', decimals);
}

} // namespace

CostTableModel::CostTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void CostTableModel::setResults(std::shared_ptr<const Results> results)
{
    beginResetModel();
    m_results = results ? std::move(results) : std::make_shared<const Results>();
    m_rows.clear();
    for (std::size_t i = 0; i < m_results->results.size(); ++i) {
        // The deployment's options (a candidate sized to hold the brief is costed as sized); a
        // candidate without any keeps its row, which says why.
        const CandidateResult &r = deployment(m_results->results[i]);
        const QString label = ResultsTableModel::deploymentLabel(m_results->results[i]);
        if (r.cost.options.empty() && m_results->performanceEvaluated)
            m_rows.push_back({label, nullptr, i, figures::whyMissing(r), figures::whyMissingDetail(r)});
        for (const CostOption &o : r.cost.options)
            m_rows.push_back({ResultsTableModel::optionLabel(m_results->results[i], o), &o, i, {}, {}});
    }
    if (m_results->cost.api)
        m_rows.push_back({apiOptionName(*m_results->cost.api), &*m_results->cost.api, std::nullopt, {}, {}});
    // The hybrid of the GPU option the recommendation weighs and the API (cost.h).
    if (const auto &at = m_results->cost.hybridCandidate; m_results->cost.hybrid && at && *at < m_results->results.size())
        m_rows.push_back({ResultsTableModel::optionLabel(m_results->results[*at], *m_results->cost.hybrid),
                          &*m_results->cost.hybrid, at, {}, {}});
    endResetModel();
}

std::optional<std::size_t> CostTableModel::candidateAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? m_rows[std::size_t(row)].candidate : std::nullopt;
}

int CostTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

bool CostTableModel::perRun() const
{
    return std::any_of(m_rows.begin(), m_rows.end(), [](const Row &r) { return r.option && r.option->perRun; });
}

int CostTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CostTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Candidate || column == Term || column >= Observed ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                           : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (!row.option) {
        if (role == Qt::ForegroundRole)
            return QBrush(QColor(128, 128, 128));
        if (role == Qt::ToolTipRole)
            return row.whyMissingDetail;
        if (role == Qt::DisplayRole)
            return column == Candidate ? row.label : column == Term ? row.whyMissing : QStringLiteral("–");
        return {};
    }
    const CostOption &o = *row.option;
    // An API the decision rules out is priced for reference only.
    if (m_results->cost.ruledOut(o) && role == Qt::ForegroundRole)
        return QBrush(QColor(128, 128, 128));
    if (column != Candidate && role == Qt::FontRole)
        return figures::provisional(*m_results, role);
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (m_results->preview)
            lines << figures::provisionalNote();
        for (const CostLine &l : o.lines)
            lines << tr("%1: $%2 — %3").arg(QString::fromStdString(costLineTitle(l.name)), money(l.usdPerMonth, 2),
                                             QString::fromStdString(l.basis));
        if (o.hybrid)
            lines << tr("%1 base replicas; %2 requests a month (%3 input and %4 output tokens) go to the API")
                         .arg(o.hybrid->baseReplicas)
                         .arg(QString::fromStdString(readableCount(o.hybrid->overflowRequestsPerMonth)),
                              QString::fromStdString(readableCount(o.hybrid->overflowInputTokensPerMonth)),
                              QString::fromStdString(readableCount(o.hybrid->overflowOutputTokensPerMonth)));
        lines << tr("Price: %1, observed %2 (%3)")
                     .arg(QString::fromStdString(o.provider), QString::fromStdString(o.observed),
                          QString::fromStdString(o.source));
        if (!o.terms.empty())
            lines << tr("Terms: %1").arg(QString::fromStdString(o.terms));
        if (o.stale)
            lines << tr("This price is older than the staleness limit: check it.");
        // The cost per accepted output's band, carried from the throughput's.
        if (row.candidate && column == PerAccepted) {
            const CandidateResult &r = deployment(m_results->results[*row.candidate]);
            if (const auto i = figures::optionIndex(r, &o))
                lines << figures::bandLine(r, figures::optionCostPath(*i), o.costPerAcceptedOutput, o.perRun ? 2 : 6);
        }
        lines.removeAll(QString());
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Candidate: return row.label;
    case Term: return o.api ? tr("API") : o.hybrid ? tr("%1 + API for bursts").arg(words(*o.term)) : words(*o.term);
    case Provider: return QString::fromStdString(o.provider);
    case Observed: return QString::fromStdString(o.observed) + (o.stale ? tr(" (stale)") : QString());
    case PricePerGpuHour: return o.api ? QStringLiteral("–") : money(o.usdPerGpuHour, 2);
    case Gpus: return o.api ? QStringLiteral("–") : QLocale().toString(o.gpus);
    case Utilization: return o.api ? QStringLiteral("–") : QLocale().toString(100 * o.utilization, 'f', 0) + QLatin1Char('%');
    case PerMonth: return money(o.totalUsdPerMonth, 2);
    case PerAccepted: return money(o.costPerAcceptedOutput, o.perRun ? 2 : 6);
    case PerMillionTokens: return o.acceptedTokensPerMonth > 0 ? money(o.costPerMillionAcceptedTokens, 3) : QStringLiteral("–");
    case ApiBreakEven:
        if (o.api || o.hybrid)
            return QStringLiteral("–");
        if (!m_results->cost.apiAllowed)
            return QStringLiteral("–");  // the decision rules the API out: nothing to beat
        // A run costs what it costs however many are made: it beats the service's run or not.
        if (o.perRun && m_results->cost.api)
            return o.costPerAcceptedOutput <= m_results->cost.api->costPerAcceptedOutput ? tr("any volume") : tr("never");
        return o.breakEvenRequestsPerMonthVsApi ? QString::fromStdString(readableCount(*o.breakEvenRequestsPerMonthVsApi))
               : m_results->cost.api             ? tr("never")
                                                : QStringLiteral("–");
    default: return {};
    }
}

QVariant CostTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Gpus: return tr("GPUs provisioned for the peak request rate within the latency targets");
        case Utilization: return tr("Busy share of the billed GPU time (rented GPUs are billed as the brief's billing says, "
                                    "committed ones every hour); the rest is paid idle time") + figures::glossaryHint(tr("Utilization"));
        case PerAccepted:
            return tr("All-in cost divided by what passes failures and quality filters: US dollars per %1")
                       .arg(wordText(m_results->cost.unit))
                + figures::glossaryHint(tr("Accepted output"));
        case ApiBreakEven: return tr("Monthly requests from which this option costs less than the model API ("
                                     "\"never\": not at any volume)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Candidate: return tr("Candidate");
    case Term: return tr("Term");
    case Provider: return tr("Provider");
    case Observed: return tr("Price date");
    case PricePerGpuHour: return tr("$/GPU-h");
    case Gpus: return tr("GPUs");
    case Utilization: return tr("Util.");
    case PerMonth: return perRun() ? tr("$/run") : tr("$/month");
    case PerAccepted: return tr("$/%1").arg(wordText(m_results->cost.unit));
    case PerMillionTokens: return tr("$/M tokens");
    case ApiBreakEven: return tr("Beats API from");
    default: return {};
    }
}

} // namespace wb
