// The GPU catalog browser: every GPU with its key specifications side by side, each figure's
// source and read date in its tooltip, the lowest dated price, and the catalog's caveats; a
// filter over names, vendors and architectures. Opened from the candidates page, where the
// chosen GPU becomes a new candidate.
#pragma once

#include <catalog/catalog.h>

#include <QAbstractTableModel>
#include <QDialog>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace wb {

class GpuCatalogModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Name, Vendor, Architecture, Memory, Bandwidth, Bf16, Fp8, Fp4, ScaleUp, Power, Year, Price,
                  ColumnCount };

    explicit GpuCatalogModel(const Catalog &catalog, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // Qt::UserRole: the GPU's catalog id (every column); the number behind numeric cells sorts.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const Catalog &m_catalog;
};

class CatalogBrowser : public QDialog
{
    Q_OBJECT

public:
    explicit CatalogBrowser(const Catalog &catalog, QWidget *parent = nullptr);

    // The catalog id of the selected GPU, or empty.
    QString selectedGpu() const;
    QLineEdit *filter() const { return m_filter; }
    QTableView *table() const { return m_table; }

private:
    QLineEdit *m_filter = nullptr;
    QTableView *m_table = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
};

} // namespace wb
