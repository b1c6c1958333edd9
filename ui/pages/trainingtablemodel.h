// Table model over the training results of a document: one row per candidate, tokens per
// second, step time, MFU, the time to train with and without failures, GPU-hours, expected
// interruptions, the checkpoint interval and the share of the run it wastes. Rows whose training
// is not timed say why. Holds no logic beyond presentation.
#pragma once

#include "pages/resultstablemodel.h"

namespace wb {

class TrainingTableModel : public ResultsTableModel
{
    Q_OBJECT

public:
    enum Column { Candidate, TokensPerS, TokensPerSPerGpu, StepTime, Mfu, TimeToTrain, ExpectedTime, GpuHours,
                  Interruptions, CheckpointInterval, Waste, ColumnCount };

    explicit TrainingTableModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "45 s", "25 min", "3.1 h", "4.6 days": a duration in the unit that reads best.
    static QString duration(double seconds);
};

} // namespace wb
