// Base of the table models over a document's results: one row per candidate, the columns the
// subclass names. Holds the results and the candidate label every such table starts with.
#pragma once

#include <evaluate/evaluate.h>

#include <QAbstractTableModel>

namespace wb {

class ResultsTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    void setResults(const Results &results);
    const Results &results() const { return m_results; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;

    // "8 × h100-sxm-80gb, TP2" (and " PP2" when pipelined).
    static QString candidateLabel(const CandidateResult &r);

protected:
    ResultsTableModel(int columns, QObject *parent);
    // The candidate at a valid index of this model, or nullptr.
    const CandidateResult *candidateAt(const QModelIndex &index) const;

private:
    Results m_results;
    int m_columns;
};

} // namespace wb
