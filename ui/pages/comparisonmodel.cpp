#include "pages/comparisonmodel.h"

#include "pages/resultstablemodel.h"
#include "parts/figures.h"
#include "parts/messagetext.h"
#include "parts/words.h"

#include <QBrush>

#include <QFont>
#include <QLocale>

namespace wb {

namespace {

// Whether a higher value is better in a column (empty: the column is not ranked).
std::optional<bool> higherIsBetter(int column)
{
    switch (column) {
    case ComparisonModel::Headroom:
    case ComparisonModel::TokensPerGpu:
    case ComparisonModel::MaxRate: return true;
    case ComparisonModel::TtftP99:
    case ComparisonModel::TpotP99:
    case ComparisonModel::PricePerGpuHour:
    case ComparisonModel::PerMonth:
    case ComparisonModel::PerAccepted:
    case ComparisonModel::PerMillionTokens: return false;
    default: return std::nullopt;
    }
}

} // namespace

ComparisonModel::ComparisonModel(QObject *parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setResults(std::shared_ptr<const Results> results)
{
    beginResetModel();
    m_results = results ? std::move(results) : std::make_shared<const Results>();
    m_media = std::any_of(m_results->results.begin(), m_results->results.end(),
                          [](const CandidateResult &r) { return deployment(r).performance.media.has_value(); });
    m_perRun = std::any_of(m_results->results.begin(), m_results->results.end(),
                           [](const CandidateResult &r) { return deployment(r).performance.training.has_value(); });
    // The model API is an option like the others, ranked in the same columns; so is the hybrid
    // of the GPU option the recommendation weighs and the API (cost.h).
    m_rows = normalizationRows(*m_results);
    m_best.assign(ColumnCount, std::nullopt);
    for (int c = 0; c < ColumnCount && m_ranked; ++c) {
        const auto higher = higherIsBetter(c);
        if (!higher)
            continue;
        for (const Row &row : m_rows)
            if (const auto v = ranked(row) ? value(row, c) : std::nullopt)
                if (!m_best[std::size_t(c)] || (*higher ? *v > *m_best[std::size_t(c)] : *v < *m_best[std::size_t(c)]))
                    m_best[std::size_t(c)] = v;
    }
    endResetModel();
}

void ComparisonModel::setRanked(bool ranked)
{
    if (ranked == m_ranked)
        return;
    m_ranked = ranked;
    setResults(m_results);
}

int ComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ComparisonModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

std::optional<double> ComparisonModel::value(const Row &row, int column) const
{
    const CostOption *o = row.option;
    if (!row.result) {  // the model API: cost figures only
        switch (column) {
        case PerMonth: return o->totalUsdPerMonth;
        case PerAccepted: return o->costPerAcceptedOutput;
        case PerMillionTokens: return o->acceptedTokensPerMonth > 0 ? std::optional<double>(o->costPerMillionAcceptedTokens) : std::nullopt;
        default: return std::nullopt;
        }
    }
    const FitResult &f = row.result->fit;
    const PerformanceResult &p = row.result->performance;
    switch (column) {
    case Headroom: return f.computed ? std::optional<double>(f.headroomFraction) : std::nullopt;
    // Latency of the deployment the row's cost is for, at the brief's traffic: the figure the
    // Performance page, Find Layouts, the CSV, the workbook and the PDF give (issue 39: this
    // column once showed the sizing's run at the sustained peak, another p99 for the same GPUs).
    // Media generation: the end-to-end p99 (seconds) and outputs an hour per GPU in these columns.
    case TtftP99:
        if (p.media)
            return p.e2e.empty ? std::nullopt : std::optional<double>(p.e2e.p99);
        return p.computed && !p.ttft.empty ? std::optional<double>(p.ttft.p99 * 1000) : std::nullopt;
    case TpotP99:
        if (p.media)
            return std::nullopt;
        return p.computed && !p.tpot.empty ? std::optional<double>(p.tpot.p99 * 1000) : std::nullopt;
    case TokensPerGpu:
        if (p.media)
            return p.media->outputsPerHourPerGpu;
        if (p.training)  // training tokens a second per GPU
            return p.training->tokensPerSPerGpu;
        return p.computed ? std::optional<double>(p.outputTokensPerSPerGpu) : std::nullopt;
    case MaxRate: return p.maxRequestRateWithinSloPerS;
    case Gpus: return o ? std::optional<double>(o->gpus) : std::nullopt;
    case PricePerGpuHour: return o ? std::optional<double>(o->usdPerGpuHour) : std::nullopt;
    case PerMonth: return o ? std::optional<double>(o->totalUsdPerMonth) : std::nullopt;
    case PerAccepted: return o ? std::optional<double>(o->costPerAcceptedOutput) : std::nullopt;
    case PerMillionTokens:
        return o && o->acceptedTokensPerMonth > 0 ? std::optional<double>(o->costPerMillionAcceptedTokens) : std::nullopt;
    default: return std::nullopt;
    }
}

// A sized candidate's row as entered is shown for reference, and an unpriced candidate is no
// option to choose (nor sized to the brief), nor is an API the decision rules out (the data
// boundary): none is ranked, so none has a best figure.
bool ComparisonModel::ranked(const Row &row) const
{
    return !row.asEntered && row.option && !ruledOut(row);
}

bool ComparisonModel::ruledOut(const Row &row) const
{
    return row.option && m_results->cost.ruledOut(*row.option);
}

bool ComparisonModel::isBest(int row, int column) const
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= ColumnCount || !m_best[std::size_t(column)])
        return false;
    const Row &r = m_rows[std::size_t(row)];
    const auto v = ranked(r) ? value(r, column) : std::nullopt;
    return v && *v == *m_best[std::size_t(column)];
}

QVariant ComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const int column = index.column();
    const auto v = value(row, column);
    if (role == Qt::UserRole) {
        if (column == Candidate)
            return label(row);
        if (column == Term)
            return row.option && row.option->term ? words(*row.option->term) : QString();
        if (column == SloMet)
            return row.option && row.option->coldStartOverSlo ? 0
                   : row.result && row.result->performance.sloMet ? int(*row.result->performance.sloMet)
                                                                  : -1;
        if (column == Terms)
            return row.option ? QString::fromStdString(row.option->terms) : QString();
        return v ? QVariant(*v) : QVariant(std::numeric_limits<double>::infinity());
    }
    if (role == Qt::FontRole && isBest(index.row(), column)) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ForegroundRole && (!row.option || ruledOut(row)))
        return QBrush(QColor(128, 128, 128));
    if (column != Candidate && role == Qt::FontRole && !isBest(index.row(), column))
        return figures::provisional(*m_results, role);
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (m_results->preview && column != Candidate)
            lines << figures::provisionalNote();
        if (isBest(index.row(), column))
            lines << tr("Best in this column");
        if (column == SloMet && row.option && row.option->coldStartOverSlo)
            lines << tr("Simulated with every replica running, it meets the targets; billed as the brief says, %1% of "
                        "requests wait up to %2 s for a replica to start, over the p99 time-to-first-token target")
                         .arg(QLocale().toString(100 * row.option->coldStartShare.value_or(0), 'f', 1))
                         .arg(QLocale().toString(row.option->coldStartS, 'f', 0));
        if (column == Terms && row.option && !row.option->terms.empty())
            lines << QString::fromStdString(row.option->terms);
        if (row.result && v)
            lines << bandLine(row, column, *v);
        // A target met by the estimate but not at the pessimistic end of its band says so here.
        if (row.result && column == SloMet)
            for (const Warning &w : row.result->warnings)
                if (w.code == "slo-at-band-edge")
                    lines << messageText(w);
        if (!row.option)
            lines << figures::whyMissingDetail(*row.result);
        if (ruledOut(row))
            lines << tr("The brief's decision rules out a third-party API (data boundary or hardware control): its price "
                        "is shown for reference, not ranked");
        if (!row.result && column != Candidate && !value(row, column))
            lines << tr("%1 is priced %2: its GPUs, memory and speed are the provider's, not simulated here")
                         .arg(apiOptionName(*row.option), apiBilling(*row.option));
        if (!row.result && column == Candidate)
            lines << tr("Priced %1 from %2 (%3), observed %4").arg(apiBilling(*row.option), QString::fromStdString(row.option->provider),
                                                                        QString::fromStdString(row.option->source),
                                                                        QString::fromStdString(row.option->observed));
        return lines.join(u'\n');
    }
    if (role == Qt::TextAlignmentRole)
        return column <= Term ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    const QLocale l;
    switch (column) {
    case Candidate: return label(row);
    case Term:
        if (row.option && row.option->api)
            return apiBilling(*row.option) + (row.option->stale ? tr(" (stale)") : QString());
        return row.option ? (row.option->hybrid ? tr("%1 + API for bursts").arg(words(*row.option->term)) : words(*row.option->term))
                                + (row.option->stale ? tr(" (stale)") : QString())
                          : figures::whyMissing(*row.result);
    case Gpus: return v ? l.toString(*v, 'f', 0) : QStringLiteral("–");
    case SloMet: {
        if (row.option && row.option->coldStartOverSlo)
            return tr("no: cold starts");
        // The deployment's verdict at the brief's traffic, as the Performance page, the CSV, the
        // workbook and the PDF give it (issue 39: this column once gave the sizing's verdict at
        // the sustained peak, "yes" beside a p99 over its target on the other pages).
        const auto met = row.result ? row.result->performance.sloMet : std::nullopt;
        return met ? (*met ? tr("yes") : tr("no")) : QStringLiteral("–");
    }
    case Headroom: return v ? l.toString(100 * *v, 'f', 1) + u'%' : QStringLiteral("–");
    case TtftP99: return v ? l.toString(*v, 'f', m_media ? 1 : 0) : QStringLiteral("–");
    case TpotP99:
    case TokensPerGpu: return v ? l.toString(*v, 'f', 0) : QStringLiteral("–");
    case MaxRate:
    case PricePerGpuHour:
    case PerMonth: return v ? l.toString(*v, 'f', 2) : QStringLiteral("–");
    case PerAccepted: return v ? l.toString(*v, 'f', m_perRun ? 2 : 6) : QStringLiteral("–");
    case PerMillionTokens: return v ? l.toString(*v, 'f', 3) : QStringLiteral("–");
    case Terms: {
        // Long terms are cut short here; the tooltip has them whole.
        const QString terms = row.option ? QString::fromStdString(row.option->terms) : QString();
        constexpr int kShown = 60;
        return terms.isEmpty() ? QStringLiteral("–") : terms.size() > kShown ? terms.left(kShown - 1) + u'…' : terms;
    }
    default: return {};
    }
}

// The band of a column's figure (figures::bandLine), in the cell's unit and decimals.
QString ComparisonModel::bandLine(const Row &row, int column, double shown) const
{
    const CandidateResult &r = *row.result;
    std::string path;
    int decimals = 0;
    switch (column) {
    case TtftP99:
        path = m_media ? "performance.e2e_s.p99" : "performance.ttft_s.p99";
        decimals = m_media ? 1 : 0;
        break;
    case TpotP99: path = "performance.tpot_s.p99"; break;
    case TokensPerGpu:
        path = m_media    ? "performance.media.outputs_per_hour_per_gpu"
               : m_perRun ? "performance.training.tokens_per_s_per_gpu"
                          : "performance.output_tokens_per_s_per_gpu";
        break;
    case MaxRate:
        path = "performance.max_request_rate_within_slo_per_s";
        decimals = 2;
        break;
    case PerAccepted:
        if (const auto i = figures::optionIndex(r, row.option))
            path = figures::optionCostPath(*i);
        decimals = m_perRun ? 2 : 6;
        break;
    default: return {};
    }
    return figures::bandLine(r, path, shown, decimals);
}

QString ComparisonModel::label(const Row &row)
{
    if (!row.entered)
        return row.option ? apiOptionName(*row.option) : tr("Model API");
    // A candidate sized to hold the brief: its own row as entered (figures, no price) first.
    if (row.asEntered)
        return tr("%1 (as entered)").arg(ResultsTableModel::candidateLabel(*row.entered));
    return row.option ? ResultsTableModel::optionLabel(*row.entered, *row.option) : ResultsTableModel::deploymentLabel(*row.entered);
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Rows are headed by their option, so that the name stays in view while the columns scroll.
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole && section >= 0 && section < rowCount())
            return label(m_rows[std::size_t(section)]);
        return {};
    }
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TokensPerGpu:
            if (m_media || m_perRun)
                return {};
            return tr("Output tokens a second per GPU at the brief's traffic; Find Layouts gives the most within the SLO "
                      "(the layout's capacity), and Max req/s the rate that is");
        case PricePerGpuHour:
            return tr("The rental price of a GPU-hour; for a purchase, the ownership cost of one (depreciation, colocation, "
                      "support, and power at this deployment's load) spread over every hour of the month, so it changes "
                      "with the load");
        case Gpus: return tr("GPUs as deployed: the replicas the brief's peak needs within the targets, which the cost is for");
        case SloMet: return tr("Whether that deployment meets every latency target at the brief's traffic, as the TTFT "
                               "and TPOT columns give it; the Performance page has its run at the peak")
                            + figures::glossaryHint(tr("SLO"));
        case PerAccepted: return (m_perRun ? tr("All-in cost of a run over the share of runs whose model passes its evaluation")
                                           : tr("All-in monthly cost per output that passes failures and quality filters"))
                                 + figures::glossaryHint(tr("Accepted output"));
        case Terms: return tr("The price's commercial terms: offer, minimum commitment, up-front share, cancellation, "
                              "support fee, egress and included storage; empty when the price states none");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Candidate: return tr("Candidate");
    case Term: return tr("Pricing");
    case Gpus: return tr("GPUs");
    case Headroom: return tr("Headroom");
    case Terms: return tr("Terms");
    // On two lines where the figures are narrower than the words: the table fits 1920 pixels
    // without scrolling sideways.
    case TtftP99: return m_media ? tr("E2E\np99 s") : tr("TTFT\np99 ms");
    case TpotP99: return tr("TPOT\np99 ms");
    case SloMet: return tr("SLO\nmet");
    case TokensPerGpu: return m_media ? tr("Out/h\nper GPU") : tr("Tok/s\nper GPU");
    case MaxRate: return m_media ? tr("Max\nout/s") : tr("Max\nreq/s");
    case PricePerGpuHour: return tr("$/GPU-h");
    case PerMonth: return m_perRun ? tr("$/run") : tr("$/month");
    case PerAccepted: return tr("$/accepted");
    case PerMillionTokens: return tr("$/M\ntokens");
    default: return {};
    }
}

} // namespace wb
