#include "pages/resultstablemodel.h"

#include "parts/words.h"

namespace wb {

ResultsTableModel::ResultsTableModel(int columns, QObject *parent) : QAbstractTableModel(parent), m_columns(columns) {}

void ResultsTableModel::setResults(std::shared_ptr<const Results> results)
{
    beginResetModel();
    m_results = results ? std::move(results) : std::make_shared<const Results>();
    endResetModel();
}

int ResultsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_results->results.size());
}

int ResultsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

const CandidateResult *ResultsTableModel::candidateAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= m_columns)
        return nullptr;
    return &m_results->results[std::size_t(index.row())];
}

QString ResultsTableModel::candidateLabel(const CandidateResult &r)
{
    const Candidate &c = r.candidate;
    const std::string &name = r.gpuName.empty() ? c.gpu : r.gpuName;
    QString label = tr("%1 × %2, TP%3").arg(c.gpus).arg(QString::fromStdString(name)).arg(c.tensorParallel);
    if (c.pipelineParallel > 1)
        label += tr(" PP%1").arg(c.pipelineParallel);
    if (c.weightsPrecision)
        label += QStringLiteral(" ") + QString::fromStdString(std::string(enumName(*c.weightsPrecision)));
    return label;
}

QString ResultsTableModel::deploymentLabel(const CandidateResult &r)
{
    // A training run keeps its GPUs and changes its layout: "laid out to fit", not "sized from".
    QString label = r.resized && r.resized->candidate.gpus == r.candidate.gpus
        ? tr("%1 (laid out to fit)").arg(candidateLabel(*r.resized))
        : r.resized ? tr("%1 (sized from %2)").arg(candidateLabel(*r.resized)).arg(r.candidate.gpus)
                              : candidateLabel(r);
    // A figure from the project's own measured runs says so wherever the candidate is named.
    if (r.calibrationRuns > 0)
        label += QStringLiteral(" [%1]").arg(calibratedFrom(r.calibrationRuns));
    return label;
}

QString ResultsTableModel::optionLabel(const CandidateResult &entered, const CostOption &option)
{
    const CandidateResult &d = deployment(entered);
    // Priced as deployed (the usual case): the deployment's own words.
    if (option.gpus <= 0 || option.gpus == d.candidate.gpus)
        return deploymentLabel(entered);
    CandidateResult priced;
    priced.candidate = d.candidate;
    priced.candidate.gpus = option.gpus > 0 ? option.gpus : d.candidate.gpus;
    priced.gpuName = d.gpuName;
    QString label = candidateLabel(priced);
    if (priced.candidate.gpus != entered.candidate.gpus)
        label = tr("%1 (sized from %2)").arg(label).arg(entered.candidate.gpus);
    if (entered.calibrationRuns > 0)
        label += QStringLiteral(" [%1]").arg(calibratedFrom(entered.calibrationRuns));
    return label;
}

} // namespace wb
