#include "pages/trainingtablemodel.h"

#include "parts/figures.h"
#include "parts/words.h"

#include <QBrush>
#include <cmath>
#include <QLocale>

namespace wb {

TrainingTableModel::TrainingTableModel(QObject *parent) : ResultsTableModel(ColumnCount, parent) {}

QString TrainingTableModel::duration(double seconds)
{
    const QLocale l;
    if (!std::isfinite(seconds))
        return tr("never");
    if (seconds < 120)
        return tr("%1 s").arg(l.toString(seconds, 'f', seconds < 10 ? 1 : 0));
    if (seconds < 2 * 3600)
        return tr("%1 min").arg(l.toString(seconds / 60, 'f', 1));
    if (seconds < 2 * 86400)
        return tr("%1 h").arg(l.toString(seconds / 3600, 'f', 1));
    return tr("%1 days").arg(l.toString(seconds / 86400, 'f', 1));
}

QVariant TrainingTableModel::data(const QModelIndex &index, int role) const
{
    const CandidateResult *row = candidateAt(index);
    if (!row)
        return {};
    const CandidateResult &r = deployment(*row);
    const std::optional<TrainingPerformance> &t = r.performance.training;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Candidate ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && !t)
        return QBrush(QColor(128, 128, 128));
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (column == Candidate)
            lines << QString::fromStdString(r.gpuName);
        if (!t)
            lines << figures::whyMissingDetail(r);
        else if (column == StepTime) {
            const TrainingStepParts &p = t->parts;
            const QLocale l;
            lines << tr("Where a step's %1 s go: math %2 s, pipeline fill and drain %3 s, tensor-parallel traffic %4 s, "
                        "context-parallel traffic %5 s, data-parallel traffic %6 s, optimizer %7 s, dequantization %8 s")
                         .arg(l.toString(t->stepTimeS, 'g', 3), l.toString(p.compute, 'g', 3), l.toString(p.bubble, 'g', 3),
                              l.toString(p.tensorParallel, 'g', 3), l.toString(p.contextParallel, 'g', 3),
                              l.toString(p.dataParallel, 'g', 3), l.toString(p.optimizer, 'g', 3),
                              l.toString(p.dequantization, 'g', 3));
        } else if (column == TokensPerS) {
            lines << figures::bandLine(r, "performance.training.tokens_per_s", t->tokensPerS, 0);
        } else if (column == TokensPerSPerGpu) {
            lines << figures::bandLine(r, "performance.training.tokens_per_s_per_gpu", t->tokensPerSPerGpu, 0);
        } else if (column == Interruptions) {
            lines << tr("One interruption every %1 for %n GPU(s) (%2 per GPU-hour; source: %3)", nullptr, r.candidate.gpus)
                         .arg(duration(t->jobMtbfS), QLocale().toString(t->interruptionsPerGpuHour, 'g', 3),
                              QString::fromStdString(t->interruptionsSource));
        } else if (column == CheckpointInterval) {
            lines << tr("Checkpoints of %1 GB, written in %2 and read back in %3; a restart takes %4. The interval that "
                        "wastes least is %5 (Daly).")
                         .arg(QLocale().toString(t->checkpoint.sizeBytes / 1e9, 'f', 1), duration(t->checkpoint.writeS),
                              duration(t->checkpoint.readS), duration(t->checkpoint.restartS),
                              duration(t->checkpoint.optimalIntervalS));
        }
        lines.removeAll(QString());
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    if (column == Candidate)
        return deploymentLabel(*row);
    if (!results().performanceEvaluated)
        return QStringLiteral("…");
    if (!t)
        return column == TokensPerS ? figures::whyMissing(r) : QStringLiteral("–");
    const QLocale l;
    const auto optionalDuration = [](const std::optional<double> &s) { return s ? duration(*s) : QStringLiteral("–"); };
    switch (column) {
    case TokensPerS: return l.toString(t->tokensPerS, 'f', 0);
    case TokensPerSPerGpu: return l.toString(t->tokensPerSPerGpu, 'f', 0);
    case StepTime: return l.toString(t->stepTimeS, 'g', 3);
    case Mfu: return tr("%1%").arg(l.toString(100 * t->mfu, 'f', 1));
    case TimeToTrain: return optionalDuration(t->timeToTrainS);
    case ExpectedTime: return optionalDuration(t->expectedTimeToTrainS);
    case GpuHours: return t->gpuHours ? l.toString(*t->gpuHours, 'f', 0) : QStringLiteral("–");
    case Interruptions: return t->expectedInterruptions ? l.toString(*t->expectedInterruptions, 'f', 1) : QStringLiteral("–");
    case CheckpointInterval:
        return t->checkpoint.intervalS > 0 ? duration(t->checkpoint.intervalS) + (t->checkpoint.intervalFromBrief ? QString() : tr(" (best)"))
                                           : tr("at the end");
    case Waste: return t->expectedTimeToTrainS ? tr("%1%").arg(l.toString(100 * t->checkpoint.wastedFraction, 'f', 1)) : QStringLiteral("–");
    default: return {};
    }
}

QVariant TrainingTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TokensPerS: return tr("Training tokens per second, all GPUs of the candidate");
        case StepTime: return tr("Seconds per optimizer step (hover a cell for where they go)");
        case Mfu: return tr("Model FLOPs utilization: 6N + 12·L·h·s FLOPs per token (adapters 4N + 6N_a + 12·L·h·s) at "
                            "the achieved rate, over the dense peak at the training precision");
        case TimeToTrain: return tr("The brief's tokens at this rate, with no interruption");
        case ExpectedTime: return tr("With checkpoint writes, interruptions, the work redone since the last checkpoint "
                                     "and restarts (Daly's expected wall time)");
        case GpuHours: return tr("GPUs × the expected time: what is paid for");
        case Interruptions: return tr("Job interruptions expected over the run");
        case CheckpointInterval: return tr("Time between checkpoints: the brief's, or the one that wastes least (best)");
        case Waste: return tr("Share of the expected time spent writing checkpoints, redoing lost work and restarting");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Candidate: return tr("Candidate");
    case TokensPerS: return tr("Tokens/s");
    case TokensPerSPerGpu: return tr("Per GPU");
    case StepTime: return tr("Step (s)");
    case Mfu: return tr("MFU");
    case TimeToTrain: return tr("Time to train");
    case ExpectedTime: return tr("Expected");
    case GpuHours: return tr("GPU-hours");
    case Interruptions: return tr("Interruptions");
    case CheckpointInterval: return tr("Checkpoint every");
    case Waste: return tr("Wasted");
    default: return {};
    }
}

} // namespace wb
