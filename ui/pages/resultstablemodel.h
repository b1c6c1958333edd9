// Base of the table models over a document's results: one row per candidate, the columns the
// subclass names. Holds the results and the candidate label every such table starts with.
#pragma once

#include <evaluate/evaluate.h>

#include <memory>

#include <QAbstractTableModel>

namespace wb {

class ResultsTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // The results shown, shared with the document (not copied).
    void setResults(std::shared_ptr<const Results> results);
    // A copy of results (tests that build their own).
    void setResults(const Results &results) { setResults(std::make_shared<const Results>(results)); }
    const Results &results() const { return *m_results; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;

    // "8 × NVIDIA H100 SXM 80GB, TP2" (and " PP2" when pipelined): the candidate as entered.
    static QString candidateLabel(const CandidateResult &r);
    // The deployment its figures stand for: the label, or for a candidate sized to hold the
    // brief "2 × NVIDIA L40S 48GB, TP1 (sized from 1)".
    static QString deploymentLabel(const CandidateResult &r);
    // A priced option of a candidate, with the GPUs its cost is for: "2 × NVIDIA L40S 48GB, TP1
    // (1 entered)" when the replicas for the peak differ from the count entered.
    static QString optionLabel(const CandidateResult &entered, const CostOption &option);

protected:
    ResultsTableModel(int columns, QObject *parent);
    // The candidate at a valid index of this model, or nullptr.
    const CandidateResult *candidateAt(const QModelIndex &index) const;

private:
    std::shared_ptr<const Results> m_results = std::make_shared<const Results>();
    int m_columns;
};

} // namespace wb
