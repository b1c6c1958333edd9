// Table model over the performance results of a document: one row per candidate, latencies in
// milliseconds, throughput in tokens per second (an evaluation's in records an hour). Rows whose performance is not computed say why
// in their tooltip; while the simulations run the figures read "…". Holds no logic beyond
// presentation.
#pragma once

#include "pages/resultstablemodel.h"

namespace wb {

class PerformanceTableModel : public ResultsTableModel
{
    Q_OBJECT

public:
    // TTFT and TPOT columns show "p50 / p99".
    enum Column { Candidate, Throughput, ThroughputPerGpu, Ttft, Tpot, E2eP99, SloMet, MaxRateWithinSlo,
                  ReplicasForPeak, Capacity, ColumnCount };

    explicit PerformanceTableModel(QObject *parent = nullptr);

    // An evaluation counts records: its rates are shown as records an hour (the throughput at the
    // brief's traffic, the highest rate within the SLO and the capacity), not tokens or requests
    // a second. Set before the results.
    void setCountsRecords(bool records);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    bool m_records = false;
};

} // namespace wb
