#include "ui/candidatesmodel.h"

#include <engine/brief.h>
#include <engine/catalog.h>

#include <QLocale>

namespace wb {

CandidatesModel::CandidatesModel(const Catalog &catalog, QObject *parent) : QAbstractTableModel(parent), m_catalog(catalog)
{
}

void CandidatesModel::setBrief(const Brief *brief)
{
    beginResetModel();
    m_candidates = brief ? brief->candidates : std::vector<Candidate>{};
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
        return column == Gpu || column == Stack || column == ScaleUp ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && g) {
        const char *figure = column == Memory ? "memory" : column == Bandwidth ? "bandwidth"
                             : column == Bf16 || column == Fp8                  ? "flops"
                             : column == ScaleUp                                ? "scale_up"
                                                                                : nullptr;
        if (!figure)
            return column == Gpu ? QString::fromStdString(g->name) : QVariant();
        const auto id = g->figureSources.find(figure);
        const Source *s = id == g->figureSources.end() ? nullptr : m_catalog.source(id->second);
        return s ? tr("Source: %1 (%2), read %3").arg(QString::fromStdString(s->title), QString::fromStdString(s->url),
                                                      QString::fromStdString(s->readDate))
                 : QVariant();
    }
    const QLocale l;
    if (role == Qt::EditRole) {
        switch (column) {
        case Gpu: return QString::fromStdString(c.gpu);
        case Gpus: return c.gpus;
        case Tensor: return c.tensorParallel;
        case Pipeline: return c.pipelineParallel;
        case Stack: return QString::fromLatin1(enumName(c.servingStack).data());
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Gpu: return QString::fromStdString(c.gpu);
    case Gpus: return l.toString(c.gpus);
    case Tensor: return l.toString(c.tensorParallel);
    case Pipeline: return l.toString(c.pipelineParallel);
    case Stack: return QString::fromLatin1(enumName(c.servingStack).data());
    case Memory: return g ? l.toString(double(g->memoryBytes) / (1024.0 * 1024 * 1024), 'f', 0) : QVariant();
    case Bandwidth: return g ? l.toString(g->memoryBandwidthBytesPerS / 1e12, 'f', 2) : QVariant();
    case Bf16: return g && g->denseFlops.bf16 ? l.toString(*g->denseFlops.bf16 / 1e12, 'f', 0) : QStringLiteral("–");
    case Fp8: return g && g->denseFlops.fp8 ? l.toString(*g->denseFlops.fp8 / 1e12, 'f', 0) : QStringLiteral("–");
    case ScaleUp:
        return g ? tr("%1 %2 GB/s × %3")
                       .arg(QString::fromStdString(g->scaleUp.kind))
                       .arg(l.toString(g->scaleUp.bandwidthBytesPerS / 1e9, 'f', 0))
                       .arg(g->scaleUp.domainGpus)
                 : QVariant();
    default: return {};
    }
}

bool CandidatesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.column() > Stack)
        return false;
    const QString base = QStringLiteral("/candidates/%1/").arg(index.row());
    switch (index.column()) {
    case Gpu:
        emit editRequested(base + QStringLiteral("gpu"), QStringLiteral("\"%1\"").arg(value.toString()), tr("candidate GPU"));
        return true;
    case Gpus:
        emit editRequested(base + QStringLiteral("gpus"), QString::number(value.toInt()), tr("GPU count"));
        return true;
    case Tensor:
        emit editRequested(base + QStringLiteral("tensor_parallel"), QString::number(value.toInt()), tr("tensor parallelism"));
        return true;
    case Pipeline:
        emit editRequested(base + QStringLiteral("pipeline_parallel"), QString::number(value.toInt()),
                           tr("pipeline parallelism"));
        return true;
    case Stack:
        emit editRequested(base + QStringLiteral("serving_stack"), QStringLiteral("\"%1\"").arg(value.toString()),
                           tr("serving stack"));
        return true;
    default: return false;
    }
}

QVariant CandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    switch (section) {
    case Gpu: return tr("GPU");
    case Gpus: return tr("GPUs");
    case Tensor: return tr("TP");
    case Pipeline: return tr("PP");
    case Stack: return tr("Serving stack");
    case Memory: return tr("Memory GiB");
    case Bandwidth: return tr("HBM TB/s");
    case Bf16: return tr("bf16 TFLOP/s");
    case Fp8: return tr("fp8 TFLOP/s");
    case ScaleUp: return tr("Scale-up");
    default: return {};
    }
}

} // namespace wb
