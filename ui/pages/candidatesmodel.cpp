#include "pages/candidatesmodel.h"

#include "parts/gpuspecs.h"
#include "parts/words.h"

#include <brief/brief.h>
#include <core/assumptions.h>
#include <catalog/catalog.h>

#include <QLocale>

#include <algorithm>

namespace wb {

namespace {

std::optional<GpuFigure> figureOf(int column)
{
    switch (column) {
    case CandidatesModel::Memory: return GpuFigure::Memory;
    case CandidatesModel::Bandwidth: return GpuFigure::Bandwidth;
    case CandidatesModel::Bf16: return GpuFigure::Bf16;
    case CandidatesModel::Fp8: return GpuFigure::Fp8;
    case CandidatesModel::ScaleUp: return GpuFigure::ScaleUp;
    default: return std::nullopt;
    }
}

} // namespace

CandidatesModel::CandidatesModel(const Catalog &catalog, QObject *parent) : QAbstractTableModel(parent), m_catalog(catalog)
{
}

void CandidatesModel::setBrief(const Brief *brief)
{
    beginResetModel();
    m_candidates = brief ? brief->candidates : std::vector<Candidate>{};
    m_prices = brief ? brief->cost.prices : std::vector<GpuPrice>{};
    m_region = brief ? brief->cost.decision.dataRegion : std::nullopt;
    m_staleDays = brief ? brief->assumptions.value(Assumption::PriceStaleDays)
                        : assumptionInfo(Assumption::PriceStaleDays).defaultValue;
    endResetModel();
}

int CandidatesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_candidates.size());
}

int CandidatesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

Qt::ItemFlags CandidatesModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() <= Stack)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant CandidatesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Candidate &c = m_candidates[std::size_t(index.row())];
    const GpuSpec *g = m_catalog.gpu(c.gpu);
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Gpu || column == Stack || column == ScaleUp || column == Price
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && g) {
        if (column == Gpu)
            return tr("%1 (catalog id %2)").arg(QString::fromStdString(g->name), QString::fromStdString(g->id));
        if (column == Price)
            return priceDetails(gpuPrices(m_catalog, m_prices, c.gpu, m_staleDays, m_region));
        if (const auto figure = figureOf(column))
            return gpuFigureSource(m_catalog, *g, *figure);
        return {};
    }
    const QLocale l;
    if (role == Qt::EditRole) {
        switch (column) {
        case Gpu: return QString::fromStdString(c.gpu);
        case Gpus: return c.gpus;
        case Tensor: return c.tensorParallel;
        case Pipeline: return c.pipelineParallel;
        case Context: return c.contextParallel;
        case Interleave: return c.virtualPipeline;
        // Text, so that the editor is a line edit that can be emptied (the default network).
        case Network: return c.network ? QLocale().toString(c.network->bytesPerSPerGpu * 8 / 1e9, 'g', 6) : QString();
        case Stack: return QString::fromLatin1(enumName(c.servingStack).data());
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Gpu: return QString::fromStdString(g ? g->name : c.gpu);
    case Gpus: return l.toString(c.gpus);
    case Tensor: return l.toString(c.tensorParallel);
    case Pipeline: return l.toString(c.pipelineParallel);
    case Context: return l.toString(c.contextParallel);
    case Interleave: return l.toString(c.virtualPipeline);
    case Network:
        // Gb/s per GPU, as network cards are sold; the default when the brief names none.
        return c.network ? tr("%1 Gb/s %2").arg(l.toString(c.network->bytesPerSPerGpu * 8 / 1e9, 'f', 0),
                                                QString::fromStdString(c.network->kind))
                         : tr("default (%1 Gb/s)")
                               .arg(l.toString(assumptionInfo(Assumption::ScaleOutBandwidthBytesPerS).defaultValue * 8 / 1e9, 'f', 0));
    case Stack: return words(c.servingStack);
    case Price: return priceSummary(gpuPrices(m_catalog, m_prices, c.gpu, m_staleDays, m_region));
    default:
        if (const auto figure = figureOf(column); figure && g)
            return gpuFigureText(*g, *figure);
        return {};
    }
}

bool CandidatesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.column() > Stack)
        return false;
    const QString base = QStringLiteral("/candidates/%1/").arg(index.row());
    const Candidate &c = m_candidates[std::size_t(index.row())];
    // Count and layout change together, in one undo step, so that neither is refused for the
    // other: 1 GPU at TP 2 lowers TP; TP 2 on 1 GPU raises the count.
    const auto whole = [&](const Candidate &changed, const QString &label) {
        emit editRequested(QStringLiteral("/candidates/%1").arg(index.row()),
                           QString::fromStdString(candidateJson(changed)), label);
    };
    switch (index.column()) {
    case Gpu:
        emit editRequested(base + QStringLiteral("gpu"), QStringLiteral("\"%1\"").arg(value.toString()), tr("candidate GPU"));
        return true;
    case Gpus: {
        // A copy: the edit below resets the model, and with it the candidate `c` refers to.
        const Candidate before = c;
        const Candidate changed = withGpuCount(before, value.toInt());
        whole(changed, tr("GPU count"));
        if (changed.tensorParallel != before.tensorParallel || changed.pipelineParallel != before.pipelineParallel
            || changed.contextParallel != before.contextParallel || changed.virtualPipeline != before.virtualPipeline)
            emit editNote(tr("%1 not a whole number of TP %2 × PP %3%4 groups, so the layout became TP %5, PP %6%7. "
                                   "Edit TP and PP for another layout, or undo (Ctrl+Z).")
                                    .arg(changed.gpus == 1 ? tr("One GPU is") : tr("%1 GPUs are").arg(QLocale().toString(changed.gpus)))
                                    .arg(before.tensorParallel)
                                    .arg(before.pipelineParallel)
                                    .arg(before.contextParallel > 1 ? tr(" × CP %1").arg(before.contextParallel) : QString())
                                    .arg(changed.tensorParallel)
                                    .arg(changed.pipelineParallel)
                                    .arg(changed.contextParallel > 1 ? tr(", CP %1").arg(changed.contextParallel) : QString()));
        return true;
    }
    case Tensor: whole(withLayout(c, value.toInt(), c.pipelineParallel), tr("tensor parallelism")); return true;
    case Pipeline: whole(withLayout(c, c.tensorParallel, value.toInt()), tr("pipeline parallelism")); return true;
    case Context: {
        // The count rises to a whole number of data-parallel ranks, as for TP and PP.
        Candidate changed = c;
        changed.contextParallel = std::max(1, value.toInt());
        whole(withLayout(changed, c.tensorParallel, c.pipelineParallel), tr("context parallelism"));
        return true;
    }
    case Interleave:
        emit editRequested(base + QStringLiteral("virtual_pipeline"), QString::number(std::max(1, value.toInt())),
                           tr("pipeline interleaving"));
        return true;
    case Network: {
        // Gb/s typed in the interface's locale; empty: the default network again; anything else
        // is refused, not taken for empty.
        const QString typed = value.toString().trimmed();
        bool ok = false;
        const double gbps = QLocale().toDouble(typed, &ok);
        if (!typed.isEmpty() && (!ok || !(gbps > 0))) {
            emit editNote(tr("Network per GPU: \"%1\" is not a bandwidth in Gb/s (a number above 0, or empty for the default); "
                             "the network is unchanged.").arg(typed));
            return false;
        }
        emit editRequested(base + QStringLiteral("network"),
                           typed.isEmpty()
                               ? QStringLiteral("null")
                               : QStringLiteral("{\"kind\": \"%1\", \"bytes_per_s_per_gpu\": %2}")
                                     .arg(c.network ? QString::fromStdString(c.network->kind) : QStringLiteral("infiniband"))
                                     .arg(QString::number(gbps * 1e9 / 8, 'g', 12)),
                           tr("network"));
        return true;
    }
    case Stack:
        emit editRequested(base + QStringLiteral("serving_stack"), QStringLiteral("\"%1\"").arg(value.toString()),
                           tr("serving stack"));
        return true;
    default: return false;
    }
}

QVariant CandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    // The on-demand price is what compares GPUs; every term's is in the cell's tooltip.
    if (role == Qt::ToolTipRole && section == Context)
        return tr("Context parallelism: GPUs that share each training sequence (ring attention)");
    if (role == Qt::ToolTipRole && section == Interleave)
        return tr("Interleaved pipeline stages per GPU (virtual pipeline): a smaller fill-and-drain bubble");
    if (role == Qt::ToolTipRole && section == Network)
        return tr("Scale-out bandwidth each GPU has beyond its scale-up domain, in Gb/s; empty: the default (one "
                  "400 Gb/s NIC per GPU)");
    if (role == Qt::ToolTipRole && section == Price)
        return tr("The on-demand price the cost model uses (another term's where there is none); hover a cell for "
                  "every price of that GPU, the brief's quotes included");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Gpu: return tr("GPU");
    case Gpus: return tr("GPUs");
    case Tensor: return tr("TP");
    case Pipeline: return tr("PP");
    case Context: return tr("CP");
    case Interleave: return tr("Interleave");
    case Network: return tr("Network per GPU");
    case Stack: return tr("Serving stack");
    case Price: return tr("Price used");
    default:
        if (const auto figure = figureOf(section))
            return gpuFigureHeader(*figure);
        return {};
    }
}

} // namespace wb
