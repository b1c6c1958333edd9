// Table model over the fit results of a document: one row per candidate, memory in GiB.
// Qt::UserRole of the headroom column carries the fraction for FractionBarDelegate; every
// cell's Qt::ToolTipRole explains the figure. Holds no logic beyond presentation.
#pragma once

#include "pages/resultstablemodel.h"

namespace wb {

class FitTableModel : public ResultsTableModel
{
    Q_OBJECT

public:
    enum Column { Candidate, Fits, Need, Capacity, Headroom, Weights, KvCache, Activations, Gradients,
                  OptimizerStates, Runtime, MaxConcurrency, SmallestCount, ColumnCount };

    explicit FitTableModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
};

} // namespace wb
