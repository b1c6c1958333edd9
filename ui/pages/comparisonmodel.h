// The normalization table of the comparison page: its rows are the engine's (normalizationRows,
// the same as the CSV's and the workbook's), with fit, tail latency, throughput and cost side by side. Qt::UserRole holds the number each cell
// sorts by; the best value of each column is bold (lowest cost or latency, highest headroom or
// throughput). Holds no logic beyond presentation.
#pragma once

#include <evaluate/evaluate.h>

#include <memory>
#include <report/report.h>

#include <QAbstractTableModel>

namespace wb {

class ComparisonModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // The decision's figures first, so that they stay in view on a small screen.
    // Gpus: as deployed (the replicas the cost is for); SloMet: the verdict for that deployment;
    // Terms: the price's commercial terms (commitment, up-front share, support, ...).
    enum Column { Candidate, Term, Gpus, PerAccepted, PerMillionTokens, PerMonth, PricePerGpuHour, SloMet, TtftP99,
                  TpotP99, MaxRate, TokensPerGpu, Headroom, Terms, ColumnCount };

    explicit ComparisonModel(QObject *parent = nullptr);
    // The results shown, shared with the document (not copied).
    void setResults(std::shared_ptr<const Results> results);
    // A copy of results (tests that build their own).
    void setResults(const Results &results) { setResults(std::make_shared<const Results>(results)); }
    // An incomplete brief holds back the ranking: no best values are marked.
    void setRanked(bool ranked);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // Media generation: the TTFT column shows the end-to-end p99, the throughput column outputs an hour.
    bool media() const { return m_media; }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Whether a cell holds its column's best value.
    bool isBest(int row, int column) const;

private:
    // The rows of the normalization table, in the engine's one order (report/report.h).
    using Row = NormalizationRow;
    std::optional<double> value(const Row &row, int column) const;
    QString bandLine(const Row &row, int column, double shown) const;
    static QString label(const Row &row);  // the option: a deployment, or the model API
    bool ranked(const Row &row) const;     // takes part in "best in this column"
    bool ruledOut(const Row &row) const;   // an API the brief's decision rules out

    std::shared_ptr<const Results> m_results = std::make_shared<const Results>();
    std::vector<Row> m_rows;
    std::vector<std::optional<double>> m_best;  // per column
    bool m_ranked = true;
    bool m_media = false;  // media generation: E2E p99 and outputs an hour in the latency and throughput columns
    bool m_perRun = false; // training kinds: the cost columns are a run's, in dollars and cents
};

} // namespace wb
