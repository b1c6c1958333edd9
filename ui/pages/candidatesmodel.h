// Table model of the current brief's candidates: the editable choices (GPU, count, tensor and
// pipeline parallelism, serving stack) and the GPU's key specifications from the catalog, each
// specification's source in its tooltip, and its lowest dated on-demand price (every dated price
// in the tooltip). Edits are not applied here: setData emits
// editRequested(pointer, valueJson) for the document to apply as an undoable step.
#pragma once

#include <brief/brief.h>

#include <QAbstractTableModel>

#include <vector>

namespace wb {

class CandidatesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // Context, Interleave and Network apply to training briefs (the page hides them otherwise);
    // Stack to inference briefs.
    enum Column { Gpu, Gpus, Tensor, Pipeline, Context, Interleave, Network, Stack, Memory, Bandwidth, Bf16, Fp8, ScaleUp,
                  Price, ColumnCount };

    explicit CandidatesModel(const Catalog &catalog, QObject *parent = nullptr);
    void setBrief(const Brief *brief);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void editRequested(const QString &pointer, const QString &valueJson, const QString &label);
    // What became of an edit that was not taken as typed: a count the layout does not divide
    // changed the layout too, or a text that is not a number was refused.
    void editNote(const QString &message);

private:
    const Catalog &m_catalog;
    std::vector<Candidate> m_candidates;
    std::vector<GpuPrice> m_prices;
    double m_staleDays = 0;  // the brief's price_stale_days
    std::optional<DataRegion> m_region;  // the brief's data_region
};

} // namespace wb
