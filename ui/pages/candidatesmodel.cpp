#include "pages/candidatesmodel.h"

#include "parts/gpuspecs.h"
#include "parts/words.h"

#include <brief/brief.h>
#include <catalog/catalog.h>

#include <QLocale>

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
            return priceDetails(gpuPrices(m_catalog, m_prices, c.gpu, m_staleDays));
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
    case Stack: return words(c.servingStack);
    case Price: return priceSummary(gpuPrices(m_catalog, m_prices, c.gpu, m_staleDays));
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
    case Gpus: whole(withGpuCount(c, value.toInt()), tr("GPU count")); return true;
    case Tensor: whole(withLayout(c, value.toInt(), c.pipelineParallel), tr("tensor parallelism")); return true;
    case Pipeline: whole(withLayout(c, c.tensorParallel, value.toInt()), tr("pipeline parallelism")); return true;
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
    case Stack: return tr("Serving stack");
    case Price: return tr("Price used");
    default:
        if (const auto figure = figureOf(section))
            return gpuFigureHeader(*figure);
        return {};
    }
}

} // namespace wb
