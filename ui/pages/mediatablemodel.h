// Table model over the media-generation results of a document: one row per candidate, seconds
// for one output alone, the batch, outputs per hour (and per GPU), end-to-end percentiles through
// the queue, the SLO verdict, the highest rate within it and the replicas for the peak. Rows
// whose pipeline is not timed say why. Holds no logic beyond presentation.
#pragma once

#include "pages/resultstablemodel.h"

namespace wb {

class MediaTableModel : public ResultsTableModel
{
    Q_OBJECT

public:
    enum Column { Candidate, SecondsPerOutput, Batch, OutputsPerHour, OutputsPerHourPerGpu, E2eP50, E2eP95, E2eP99,
                  SloMet, MaxRateWithinSlo, Replicas, ColumnCount };

    explicit MediaTableModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
};

} // namespace wb
