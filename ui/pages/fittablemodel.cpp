#include "pages/fittablemodel.h"

#include "parts/messagetext.h"
#include <QBrush>
#include <QColor>

#include <QLocale>

namespace wb {

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

QString gib(std::uint64_t bytes)
{
    return QLocale().toString(double(bytes) / GiB, 'f', 1);
}

} // namespace

FitTableModel::FitTableModel(QObject *parent) : ResultsTableModel(ColumnCount, parent) {}

QVariant FitTableModel::data(const QModelIndex &index, int role) const
{
    const CandidateResult *row = candidateAt(index);
    if (!row)
        return {};
    // A candidate laid out anew to fit shows its own fit ("no; sized to N GPUs"); one sized for
    // the peak shows its deployment's, whose replicas share the brief's requests.
    const CandidateResult &r = resizedToFit(*row) ? *row : deployment(*row);
    const FitResult &f = r.fit;
    const int column = index.column();

    if (role == Qt::TextAlignmentRole)
        return column == Candidate ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole && column == Headroom && f.computed)
        return f.headroomFraction;
    // A candidate that does not fit, or could not be computed, is greyed; its tooltip says why.
    if (role == Qt::ForegroundRole && (!f.computed || !f.fits))
        return QBrush(QColor(128, 128, 128));
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (column == Candidate)
            lines << QString::fromStdString(r.gpuName);
        for (const Warning &w : r.warnings)
            lines << messageText(w);
        if (column == Need)
            lines.prepend(tr("Memory the busiest GPU needs (pipeline stage %1); usable: %2 GiB after the engine's cap")
                              .arg(f.busiestStage)
                              .arg(gib(f.usableBytes)));
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};

    if (column == Candidate)
        return resizedToFit(*row) ? candidateLabel(r) : deploymentLabel(*row);
    if (!f.computed)
        return column == Fits ? tr("not computed") : QStringLiteral("–");
    switch (column) {
    case Fits:
        if (resizedToFit(*row))
            return tr("no; sized to %n GPU(s)", nullptr, row->resized->candidate.gpus);
        return f.fits ? tr("yes") : tr("no");
    case Need: return gib(f.perGpuBytes);
    case Capacity: return gib(f.capacityBytes);
    case Headroom: return QLocale().toString(100.0 * f.headroomFraction, 'f', 1) + QLatin1Char('%');
    case Weights: return gib(f.breakdown.weights);
    case KvCache: return gib(f.breakdown.kvCache);
    case Activations: return gib(f.breakdown.activations);
    case Gradients: return gib(f.breakdown.gradients);
    case OptimizerStates: return gib(f.breakdown.optimizerStates);
    case Runtime: return gib(f.breakdown.runtimeOverhead);
    case MaxConcurrency: return f.maxConcurrency ? QLocale().toString(qlonglong(*f.maxConcurrency)) : QStringLiteral("–");
    case SmallestCount: return f.smallestGpuCount ? QLocale().toString(*f.smallestGpuCount) : tr("none");
    default: return {};
    }
}

QVariant FitTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Headroom: return tr("Share of the GPU's memory left after the busiest GPU's need");
        case MaxConcurrency: return tr("Sequences at the brief's context that fit in the KV cache, all replicas");
        case SmallestCount: return tr("Fewest GPUs of this model (one replica) that hold the workload");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Candidate: return tr("Candidate");
    case Fits: return tr("Fits");
    case Need: return tr("Need GiB");
    case Capacity: return tr("Capacity");
    case Headroom: return tr("Headroom");
    case Weights: return tr("Weights");
    case KvCache: return tr("KV cache");
    case Activations: return tr("Activations");
    case Gradients: return tr("Gradients");
    case OptimizerStates: return tr("Optimizer");
    case Runtime: return tr("Runtime");
    case MaxConcurrency: return tr("Max conc.");
    case SmallestCount: return tr("Fewest GPUs");
    default: return {};
    }
}

} // namespace wb
