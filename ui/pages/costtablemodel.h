// Table model over the cost results of a document: one row per candidate and pricing option, then
// the model-API route. Money in US dollars. Each row's tooltip lists its cost lines and where its
// price came from. Holds no logic beyond presentation.
#pragma once

#include <evaluate/evaluate.h>

#include <memory>

#include <QAbstractTableModel>

namespace wb {

class CostTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // The figures first, so that they stay in view on a small screen; the price's date and
    // provider last.
    enum Column { Candidate, Term, PricePerGpuHour, Gpus, Utilization, PerMonth, PerAccepted, PerMillionTokens,
                  ApiBreakEven, Observed, Provider, ColumnCount };

    explicit CostTableModel(QObject *parent = nullptr);

    // The results shown, shared with the document (not copied).
    void setResults(std::shared_ptr<const Results> results);
    // A copy of results (tests that build their own).
    void setResults(const Results &results) { setResults(std::make_shared<const Results>(results)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The candidate (index into the results) a row prices; none for the API row.
    std::optional<std::size_t> candidateAt(int row) const;

private:
    // Training results: every option is priced per completed run, not per month.
    bool perRun() const;
    struct Row
    {
        QString label;
        const CostOption *option = nullptr;  // points into m_results; null: not costed
        std::optional<std::size_t> candidate;
        QString whyMissing, whyMissingDetail;  // when not costed
    };
    std::shared_ptr<const Results> m_results = std::make_shared<const Results>();
    std::vector<Row> m_rows;
};

} // namespace wb
