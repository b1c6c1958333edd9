#include "dialogs/catalogbrowser.h"

#include "parts/gpuspecs.h"
#include "parts/pageparts.h"
#include "parts/words.h"

#include <core/assumptions.h>

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace wb {

namespace {

std::optional<GpuFigure> figureOf(int column)
{
    switch (column) {
    case GpuCatalogModel::Memory: return GpuFigure::Memory;
    case GpuCatalogModel::Bandwidth: return GpuFigure::Bandwidth;
    case GpuCatalogModel::Bf16: return GpuFigure::Bf16;
    case GpuCatalogModel::Fp8: return GpuFigure::Fp8;
    case GpuCatalogModel::Fp4: return GpuFigure::Fp4;
    case GpuCatalogModel::ScaleUp: return GpuFigure::ScaleUp;
    case GpuCatalogModel::Power: return GpuFigure::Power;
    default: return std::nullopt;
    }
}

// The number a numeric column sorts by.
std::optional<double> sortValue(const GpuSpec &g, int column)
{
    switch (column) {
    case GpuCatalogModel::Memory: return double(g.memoryBytes);
    case GpuCatalogModel::Bandwidth: return g.memoryBandwidthBytesPerS;
    case GpuCatalogModel::Bf16: return g.denseFlops.bf16.value_or(0);
    case GpuCatalogModel::Fp8: return g.denseFlops.fp8.value_or(0);
    case GpuCatalogModel::Fp4: return g.denseFlops.fp4.value_or(0);
    case GpuCatalogModel::ScaleUp: return g.scaleUp.bandwidthBytesPerS * g.scaleUp.domainGpus;
    case GpuCatalogModel::Power: return g.boardPowerW;
    case GpuCatalogModel::Year: return double(g.year);
    default: return std::nullopt;
    }
}

} // namespace

GpuCatalogModel::GpuCatalogModel(const Catalog &catalog, QObject *parent) : QAbstractTableModel(parent), m_catalog(catalog)
{
}

int GpuCatalogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_catalog.gpus().size());
}

int GpuCatalogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GpuCatalogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const GpuSpec &g = m_catalog.gpus()[std::size_t(index.row())];
    const int column = index.column();
    const auto figure = figureOf(column);
    switch (role) {
    case Qt::UserRole: return QString::fromStdString(g.id);
    case Qt::UserRole + 1: {
        if (const auto v = sortValue(g, column))
            return *v;
        return data(index, Qt::DisplayRole);
    }
    case Qt::TextAlignmentRole:
        return figure && *figure != GpuFigure::ScaleUp ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        if (column == Name) {
            QString tip = tr("%1 (catalog id %2, from %3)")
                              .arg(QString::fromStdString(g.name), QString::fromStdString(g.id),
                                   QString::fromStdString(g.catalogFile));
            for (const std::string &c : g.caveats)
                tip += QStringLiteral("\n• ") + QString::fromStdString(c);
            return tip;
        }
        if (column == Price)
            return priceDetails(gpuPrices(m_catalog, {}, g.id, assumptionInfo(Assumption::PriceStaleDays).defaultValue));
        if (figure == GpuFigure::Memory)  // the names' "GB" are the vendors' (binary-sized) words
            return tr("%1\n%2 GiB = %3 GB (10⁹ bytes). Vendors' \"GB\" in the names are binary-sized; where the "
                      "column differs from the name, the vendor sells more than a system can use.")
                .arg(gpuFigureSource(m_catalog, g, *figure),
                     QLocale().toString(double(g.memoryBytes) / (1024.0 * 1024 * 1024), 'f', 1),
                     QLocale().toString(double(g.memoryBytes) / 1e9, 'f', 1));
        return figure ? gpuFigureSource(m_catalog, g, *figure) : QVariant();
    }
    case Qt::DisplayRole:
        switch (column) {
        case Name: return QString::fromStdString(g.name) + (g.caveats.empty() ? QString() : QStringLiteral(" ⚠"));
        case Vendor: return words(g.vendor);
        case Architecture: return words(g.architecture);
        case Year: return g.year;
        case Price: return priceSummary(gpuPrices(m_catalog, {}, g.id, assumptionInfo(Assumption::PriceStaleDays).defaultValue));
        default: return figure ? gpuFigureText(g, *figure) : QVariant();
        }
    default: return {};
    }
}

QVariant GpuCatalogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    switch (section) {
    case Name: return tr("GPU");
    case Vendor: return tr("Vendor");
    case Architecture: return tr("Architecture");
    case Year: return tr("Year");
    case Price: return tr("Lowest price");
    default: return figureOf(section) ? gpuFigureHeader(*figureOf(section)) : QVariant();
    }
}

CatalogBrowser::CatalogBrowser(const Catalog &catalog, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("GPU catalog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Every GPU in the catalog. Hover a figure for its source and the date it was read, a "
                                "name for the catalog's caveats (⚠), a price for every dated offer. Dense peak "
                                "figures, without sparsity."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name, vendor or architecture"));
    m_filter->setAccessibleName(tr("Filter GPUs"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    auto *model = new GpuCatalogModel(catalog, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(Qt::UserRole + 1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_table = pageparts::resultTable(m_proxy, tr("GPU catalog"), this);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(GpuCatalogModel::Name, Qt::AscendingOrder);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    layout->addWidget(m_table, 1);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add as candidate"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!selectedGpu().isEmpty());
    });
    connect(m_table, &QTableView::doubleClicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(parent ? std::max(1180, parent->width() - 40) : 1180, parent ? std::max(620, parent->height() - 80) : 620);
}

QString CatalogBrowser::selectedGpu() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.front().data(Qt::UserRole).toString();
}

} // namespace wb
