#include "parts/resultcharts.h"

#include "parts/figures.h"
#include "parts/messagetext.h"
#include "parts/words.h"

#include <core/format.h>
#include <report/labels.h>

#include <fit/fit.h>
#include <widgets/chartview.h>

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

namespace {

// The file's translation context, so that lupdate finds every string (Text::tr("...")).
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ResultCharts)
};

// "2×L40S 48GB TP1": the GPU's catalog name without the vendor, for legends and bars.
// The candidate with the GPUs an option prices (its load's replicas), as the cost table says.
CandidateResult asPriced(const CandidateResult &r, const CostOption &o)
{
    CandidateResult priced;
    priced.candidate = r.candidate;
    priced.gpuName = r.gpuName;
    if (o.gpus > 0)
        priced.candidate.gpus = o.gpus;
    return priced;
}

// A figure's band as ratios to the figure (P10 / figure, P90 / figure), to draw around values
// of the same kind (the load curve's other rates, a cost in other units); nullopt without one.
std::optional<std::pair<double, double>> bandRatios(const CandidateResult &r, const std::string &path)
{
    const auto it = r.uncertainty.find(path);
    if (it == r.uncertainty.end() || !(it->second.figure > 0))
        return std::nullopt;
    return std::pair{it->second.p10 / it->second.figure, it->second.p90 / it->second.figure};
}

// A line's band from its values and the ratios (none without them).
ChartView::LineBand bandOf(const ChartView::Line &line, const std::optional<std::pair<double, double>> &ratios)
{
    ChartView::LineBand band;
    for (double y : line.y)
        if (ratios) {
            band.low << y * ratios->first;
            band.high << y * ratios->second;
        }
    return band;
}

QString shortLabel(const CandidateResult &r)
{
    const Candidate &c = r.candidate;
    QString name = QString::fromStdString(r.gpuName.empty() ? c.gpu : r.gpuName);
    for (const char *vendor : {"NVIDIA ", "AMD ", "Intel "})
        if (name.startsWith(QLatin1String(vendor)))
            name = name.mid(int(qstrlen(vendor)));
    QString label = QStringLiteral("%1×%2 TP%3").arg(c.gpus).arg(name).arg(c.tensorParallel);
    if (c.pipelineParallel > 1)
        label += QStringLiteral(" PP%1").arg(c.pipelineParallel);
    if (c.weightsPrecision)
        label += QStringLiteral(" ") + QString::fromStdString(std::string(enumName(*c.weightsPrecision)));
    if (r.calibrationRuns > 0)
        label += QStringLiteral(" (%1)").arg(calibratedFrom(r.calibrationRuns));
    return label;
}

// Bar categories wrap at spaces to 14 characters: six bars never overlap at 1280x800.
QString barLabel(const CandidateResult &r, const QString &extra)
{
    QStringList lines;
    for (const QString &word : (shortLabel(r) + (extra.isEmpty() ? QString() : u' ' + extra)).split(u' ')) {
        if (!lines.isEmpty() && lines.back().size() + 1 + word.size() <= 14)
            lines.back() += u' ' + word;
        else
            lines << word;
    }
    return lines.join(u'\n');
}

} // namespace

void showFitChart(ChartView *chart, const Results &results)
{
    constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
    chart->setEmptyText(Text::tr("No memory fit yet: open a brief and add a candidate to compare"));
    chart->setTitle(Text::tr("Memory per GPU by component against the GPU's memory (GiB; the busiest GPU)"));
    chart->setAxisLabels(QString(), Text::tr("GiB"));
    QStringList categories;
    std::vector<const CandidateResult *> shown;
    // The candidate as entered, and beside it the deployment it was sized to when it does not
    // hold the brief; each bar with its GPU's capacity drawn across it.
    QVector<ChartView::Reference> capacities;
    const auto add = [&](const CandidateResult &r, const QString &extra) {
        categories << barLabel(r, extra);
        capacities << ChartView::Reference{Text::tr("GPU memory"), double(r.fit.capacityBytes) / GiB, int(shown.size())};
        shown.push_back(&r);
    };
    for (const CandidateResult &r : results.results)
        if (r.fit.computed && !resizedToFit(r)) {
            add(deployment(r), r.fit.fits ? QString() : Text::tr("does not fit"));
        } else if (r.fit.computed) {
            add(r, Text::tr("does not fit"));
            add(*r.resized, Text::tr("sized to hold it"));
        }
    const std::pair<const char *, std::uint64_t MemoryBreakdown::*> parts[] = {
        {QT_TRANSLATE_NOOP("ResultCharts", "Weights"), &MemoryBreakdown::weights},
        {QT_TRANSLATE_NOOP("ResultCharts", "KV cache"), &MemoryBreakdown::kvCache},
        {QT_TRANSLATE_NOOP("ResultCharts", "Activations"), &MemoryBreakdown::activations},
        {QT_TRANSLATE_NOOP("ResultCharts", "Gradients"), &MemoryBreakdown::gradients},
        {QT_TRANSLATE_NOOP("ResultCharts", "Optimizer"), &MemoryBreakdown::optimizerStates},
        {QT_TRANSLATE_NOOP("ResultCharts", "Runtime"), &MemoryBreakdown::runtimeOverhead}};
    QVector<ChartView::Stack> stacks;
    for (const auto &[name, member] : parts) {
        ChartView::Stack s{QCoreApplication::translate("ResultCharts", name), {}};
        bool any = false;
        for (const CandidateResult *r : shown) {
            s.values << double(r->fit.breakdown.*member) / GiB;
            any = any || r->fit.breakdown.*member > 0;
        }
        if (any)
            stacks << s;
    }
    chart->setStackedBars(categories, stacks, capacities);
}

void showHeadroomMap(ChartView *chart, const Brief &brief, const Candidate &candidate, const Catalog &catalog)
{
    const bool training = !isInference(brief.workload.kind);
    const bool media = brief.workload.media.has_value();
    const HeadroomGrid grid = headroomGrid(brief, candidate, catalog);
    const QString name = QStringLiteral("%1 × %2, TP%3")
                             .arg(candidate.gpus)
                             .arg(QString::fromStdString(catalog.gpu(candidate.gpu) ? catalog.gpu(candidate.gpu)->name : candidate.gpu))
                             .arg(candidate.tensorParallel);
    chart->setTitle((media ? Text::tr("Memory headroom, %1 (brief: %2 px, batch %3)")
                           : Text::tr("Memory headroom, %1 (the brief: %2 tokens × %3 sequences; blue fits, orange does not)"))
                        .arg(name)
                        .arg(grid.briefContext)
                        .arg(grid.briefConcurrency));
    chart->setAxisLabels(media      ? Text::tr("outputs denoised together (batch)")
                         : training ? Text::tr("micro-batch")
                                    : Text::tr("sequences per replica"),
                         media      ? Text::tr("long side (pixels)")
                         : training ? Text::tr("sequence length")
                                    : Text::tr("context tokens"));
    QStringList columns, rows;
    for (int c : grid.concurrencies)
        columns << QString::number(c);
    for (int r : grid.contexts)
        rows << QString::number(r);
    QVector<double> values;
    for (std::size_t r = 0; r < grid.contexts.size(); ++r)
        for (std::size_t c = 0; c < grid.concurrencies.size(); ++c)
            values << grid.at(r, c);
    // The brief's own point, between the grid's cells where it falls between them (the axes are
    // powers of two: placed on a log scale).
    const auto position = [](const std::vector<int> &axis, int value) {
        if (axis.empty() || value <= axis.front())
            return 0.0;
        for (std::size_t i = 1; i < axis.size(); ++i)
            if (value <= axis[i])
                return double(i - 1) + std::log(double(value) / axis[i - 1]) / std::log(double(axis[i]) / axis[i - 1]);
        return double(axis.size() - 1);
    };
    const QPointF briefPoint(position(grid.concurrencies, grid.briefConcurrency), position(grid.contexts, grid.briefContext));
    chart->setHeatmap(columns, rows, values, -0.5, 0.5, Text::tr("memory headroom"),
                      [](double v) { return QLocale().toString(100 * v, 'f', 0) + QStringLiteral(" %"); }, briefPoint,
                      Text::tr("the brief"));
}

namespace {

// An evaluation's rates are records an hour; a service's, requests a second.
double rateScale(const Brief *brief)
{
    return brief && brief->workload.kind == WorkloadKind::Evaluation ? 3600 : 1;
}

void showMaxRateChart(ChartView *chart, const Brief *brief, const Results &results)
{
    chart->setTitle(Text::tr("How much load does it carry within the latency targets?"));
    chart->setAxisLabels(QString(), rateScale(brief) > 1 ? Text::tr("records/h within the targets")
                                                         : Text::tr("requests/s within the targets"));
    QStringList categories;
    ChartView::Stack rates{Text::tr("highest rate within the targets"), {}};
    QVector<QPair<double, double>> bands;  // each bar's P10-P90
    for (const CandidateResult &entered : results.results)
        if (const CandidateResult &r = deployment(entered);
            r.performance.computed && r.performance.maxRequestRateWithinSloPerS) {
            const double rate = *r.performance.maxRequestRateWithinSloPerS * rateScale(brief);
            categories << barLabel(r, QString());
            rates.values << rate;
            const auto k = bandRatios(r, "performance.max_request_rate_within_slo_per_s");
            bands << (k ? QPair<double, double>(rate * k->first, rate * k->second) : QPair<double, double>(0, 0));
        }
    QVector<ChartView::Reference> references;
    if (brief && brief->workload.traffic.peakRate() > 0)
        references << ChartView::Reference{Text::tr("the brief's peak rate"),
                                                 brief->workload.traffic.peakRate() * rateScale(brief)};
    if (categories.isEmpty())
        chart->setLines({});  // shows the empty text
    else
        chart->setStackedBars(categories, {rates}, references, bands);
}

// Each candidate's load curve as throughput per GPU against the pace one user sees: the lighter
// the load, the faster each user's tokens and the fewer tokens each GPU turns out.
void showInteractivityChart(ChartView *chart, const Results &results)
{
    chart->setTitle(Text::tr("output tokens/s per GPU against tokens/s per user, along each candidate's load curve"));
    chart->setAxisLabels(Text::tr("tokens/s per user (1 / TPOT p50)"), Text::tr("tokens/s per GPU"));
    QVector<ChartView::Line> lines;
    QVector<ChartView::LineBand> bands;
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &r = deployment(results.results[i]);
        if (!r.performance.computed || r.performance.loadCurve.empty())
            continue;
        std::vector<std::pair<double, double>> points;
        for (const LoadPoint &p : r.performance.loadCurve)
            if (p.tpotP50S > 0 && p.outputTokensPerS > 0)
                points.emplace_back(1.0 / p.tpotP50S, p.outputTokensPerS / std::max(1, r.candidate.gpus));
        std::sort(points.begin(), points.end());
        ChartView::Line line{shortLabel(r), {}, {}, Qt::SolidLine, int(i)};
        for (const auto &[x, y] : points) {
            line.x << x;
            line.y << y;
        }
        if (!line.x.isEmpty()) {
            // Tokens per GPU along the curve follow the candidate's capacity: its band.
            bands << bandOf(line, bandRatios(r, "performance.max_output_tokens_per_s"));
            lines << line;
        }
    }
    chart->setLines(lines, {}, 0, bands);
}

} // namespace

void showLoadChart(ChartView *chart, const Brief *brief, const Results &results, LoadMetric metric)
{
    chart->setLogScale(false, false);
    chart->setEmptyText(brief && !isInference(brief->workload.kind)
                            ? Text::tr("No load figures: a %1 has no request traffic").arg(words(brief->workload.kind))
                            : Text::tr("No load figures: open an inference brief with latency targets and wait for the "
                                       "simulation"));
    if (metric == LoadMetric::MaxRate) {
        showMaxRateChart(chart, brief, results);
        return;
    }
    if (metric == LoadMetric::Interactivity) {
        showInteractivityChart(chart, results);
        return;
    }
    const bool throughput = metric == LoadMetric::Throughput || metric == LoadMetric::ThroughputPerGpu;
    const char *titles[] = {"p99 time to first token against the rate offered",
                            "p95 time to first token against the rate offered",
                            "median time to first token against the rate offered",
                            "p99 time per output token against the rate offered",
                            "p95 time per output token against the rate offered",
                            "median time per output token against the rate offered",
                            "output tokens per second against the rate offered",
                            "output tokens per second per GPU against the rate offered"};
    chart->setTitle(Text::tr(titles[int(metric)]));
    chart->setAxisLabels(rateScale(brief) > 1 ? Text::tr("records/h") : Text::tr("requests/s"),
                         metric == LoadMetric::ThroughputPerGpu ? Text::tr("tokens/s per GPU")
                         : throughput                          ? Text::tr("tokens/s")
                                                               : Text::tr("ms"));
    QVector<ChartView::Line> lines;
    QVector<ChartView::LineBand> bands;
    double highest = 0, lowest = INFINITY;
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &r = deployment(results.results[i]);
        if (!r.performance.computed || r.performance.loadCurve.empty())
            continue;
        // One colour per candidate, the same on every chart: its position in the brief.
        ChartView::Line line{shortLabel(r), {}, {}, Qt::SolidLine, int(i)};
        for (const LoadPoint &p : r.performance.loadCurve) {
            line.x << p.requestRatePerS * rateScale(brief);
            switch (metric) {
            case LoadMetric::TtftP99: line.y << p.ttftP99S * 1000; break;
            case LoadMetric::TtftP95: line.y << p.ttftP95S * 1000; break;
            case LoadMetric::TtftP50: line.y << p.ttftP50S * 1000; break;
            case LoadMetric::TpotP99: line.y << p.tpotP99S * 1000; break;
            case LoadMetric::TpotP95: line.y << p.tpotP95S * 1000; break;
            case LoadMetric::TpotP50: line.y << p.tpotP50S * 1000; break;
            case LoadMetric::Throughput: line.y << p.outputTokensPerS; break;
            case LoadMetric::ThroughputPerGpu: line.y << p.outputTokensPerS / std::max(1, r.candidate.gpus); break;
            case LoadMetric::MaxRate:
            case LoadMetric::Interactivity: break;
            }
            if (!line.y.isEmpty() && line.y.back() > 0) {
                highest = std::max(highest, line.y.back());
                lowest = std::min(lowest, line.y.back());
            }
        }
        // The band of the brief's own figure of this kind, carried along the curve. Throughput at
        // an offered rate is that rate's tokens, not a prediction: no band there.
        const char *path = metric == LoadMetric::TtftP50                               ? "performance.ttft_s.p50"
                           : metric == LoadMetric::TtftP95 || metric == LoadMetric::TtftP99 ? "performance.ttft_s.p99"
                           : metric == LoadMetric::TpotP50                               ? "performance.tpot_s.p50"
                           : metric == LoadMetric::TpotP95 || metric == LoadMetric::TpotP99 ? "performance.tpot_s.p99"
                                                                                         : "";
        bands << bandOf(line, bandRatios(r, path));
        lines << line;
    }
    // Each latency chart is drawn against the target of its own percentile only.
    QVector<ChartView::Reference> references;
    if (brief) {
        const Slo &slo = brief->workload.slo;
        const auto target = [&](const std::optional<double> &v, const QString &name) {
            if (v)
                references << ChartView::Reference{name, *v * 1000};
        };
        switch (metric) {
        case LoadMetric::TtftP99: target(slo.ttftP99S, Text::tr("TTFT p99 target")); break;
        case LoadMetric::TtftP95: target(slo.ttftP95S, Text::tr("TTFT p95 target")); break;
        case LoadMetric::TpotP99: target(slo.tpotP99S, Text::tr("TPOT p99 target")); break;
        case LoadMetric::TpotP95: target(slo.tpotP95S, Text::tr("TPOT p95 target")); break;
        default: break;
        }
    }
    // Overloaded points run to minutes: rather than clip them silently, a latency chart whose
    // values span more than a hundredfold is drawn on a logarithmic axis, and says so.
    const bool latency = !throughput;
    const bool logY = latency && lowest > 0 && highest / lowest > 100;
    if (logY)
        chart->setTitle(Text::tr(titles[int(metric)]) + Text::tr(" (log scale)"));
    chart->setLogScale(false, logY);
    chart->setLines(lines, references, 0, bands);
    chart->setLogScale(false, false);
    // The brief's own rate, where the table's figures are.
    if (brief && !lines.isEmpty() && brief->workload.traffic.mode == TrafficMode::OpenLoop
        && brief->workload.traffic.requestRatePerS)
        chart->setVerticalMarker(*brief->workload.traffic.requestRatePerS,
                                 Text::tr("the brief's rate (%1/s)").arg(QLocale().toString(*brief->workload.traffic.requestRatePerS)));
}

namespace {

// Stacked bars of where a kind's time goes per candidate (a training step's parts, one output's):
// one stack per part that any candidate spends time in, each part its colour by its place.
template<typename Figures, typename Parts, std::size_t N>
void showPartBars(ChartView *chart, const Results &results, std::optional<Figures> PerformanceResult::*kind,
                  Parts Figures::*partsOf, const std::pair<QString, double Parts::*> (&parts)[N])
{
    QStringList categories;
    std::vector<const Parts *> shown;
    for (const CandidateResult &entered : results.results)
        if (const CandidateResult &r = deployment(entered); r.performance.*kind) {
            categories << barLabel(r, QString());
            shown.push_back(&((*(r.performance.*kind)).*partsOf));
        }
    QVector<ChartView::Stack> stacks;
    for (int i = 0; i < int(N); ++i) {
        ChartView::Stack s{parts[i].first, {}, i, false};
        bool any = false;
        for (const Parts *p : shown) {
            s.values << p->*(parts[i].second);
            any = any || p->*(parts[i].second) > 0;
        }
        if (any)
            stacks << s;
    }
    chart->setStackedBars(shown.empty() ? QStringList() : categories, stacks);
}

} // namespace

void showTrainingChart(ChartView *chart, const Results &results, TrainingChart which)
{
    chart->setEmptyText(Text::tr("No training figures: open a training brief whose candidates fit, and wait for the "
                                 "evaluation"));
    if (which == TrainingChart::StepParts) {
        chart->setLogScale(false, false);
        chart->setTitle(Text::tr("Where a training step's time goes (seconds per step)"));
        chart->setAxisLabels(QString(), Text::tr("seconds per step"));
        const std::pair<QString, double TrainingStepParts::*> parts[] = {
            {Text::tr("Math"), &TrainingStepParts::compute},
            {Text::tr("Pipeline fill and drain"), &TrainingStepParts::bubble},
            {Text::tr("Tensor-parallel traffic"), &TrainingStepParts::tensorParallel},
            {Text::tr("Context-parallel traffic"), &TrainingStepParts::contextParallel},
            {Text::tr("Data-parallel traffic"), &TrainingStepParts::dataParallel},
            {Text::tr("Optimizer"), &TrainingStepParts::optimizer},
            {Text::tr("Dequantization"), &TrainingStepParts::dequantization}};
        showPartBars(chart, results, &PerformanceResult::training, &TrainingPerformance::parts, parts);
        return;
    }
    QVector<ChartView::Line> lines;
    ChartView::Line marks;
    marks.pointsOnly = true;
    const bool scaling = which == TrainingChart::Scaling;
    marks.name = scaling ? Text::tr("as entered") : Text::tr("least waste");
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &r = deployment(results.results[i]);
        if (!r.performance.training)
            continue;
        const TrainingPerformance &t = *r.performance.training;
        ChartView::Line line{shortLabel(r), {}, {}, Qt::SolidLine, int(i)};
        if (scaling) {
            for (const auto &[gpus, rate] : t.scaling) {
                line.x << gpus;
                line.y << rate;
            }
            marks.x << r.candidate.gpus;
            marks.y << t.tokensPerS;
        } else {
            for (const auto &[interval, waste] : t.wasteByInterval) {
                line.x << interval / 60;
                line.y << 100 * waste;
            }
            if (!t.wasteByInterval.empty()) {
                marks.x << t.checkpoint.optimalIntervalS / 60;
                marks.y << 100 * (1 - *t.timeToTrainS / wb::dalyExpectedWallS(*t.timeToTrainS, t.checkpoint.optimalIntervalS, t.checkpoint.writeS,
                                                                              t.checkpoint.restartS, t.jobMtbfS));
            }
        }
        if (!line.x.isEmpty())
            lines << line;
    }
    if (!marks.x.isEmpty() && !lines.isEmpty())
        lines << marks;
    chart->setLogScale(true, scaling);
    if (scaling) {
        chart->setTitle(Text::tr("Training tokens per second against GPU count (the same layout, more data-parallel ranks, "
                                 "the global batch kept)"));
        chart->setAxisLabels(Text::tr("GPUs"), Text::tr("tokens/s"));
    } else {
        chart->setTitle(Text::tr("Share of the run lost to checkpoints, interruptions and restarts against the checkpoint "
                                 "interval"));
        chart->setAxisLabels(Text::tr("minutes between checkpoints"), Text::tr("% of the expected time"));
    }
    chart->setLines(lines);
}

void showMediaChart(ChartView *chart, const Results &results, MediaChart which)
{
    chart->setEmptyText(Text::tr("No media figures: open a media-generation brief whose candidates fit, and wait for the "
                                 "evaluation"));
    if (which == MediaChart::OutputParts) {
        chart->setLogScale(false, false);
        chart->setTitle(Text::tr("Where one output's time goes (seconds, alone on a replica)"));
        chart->setAxisLabels(QString(), Text::tr("seconds per output"));
        const std::pair<QString, double MediaTimes::*> parts[] = {{Text::tr("Text encoders"), &MediaTimes::text},
                                                                  {Text::tr("Denoising"), &MediaTimes::denoise},
                                                                  {Text::tr("VAE decode"), &MediaTimes::vae}};
        showPartBars(chart, results, &PerformanceResult::media, &MediaPerformance::single, parts);
        return;
    }
    QVector<ChartView::Line> lines;
    ChartView::Line marks;
    marks.pointsOnly = true;
    marks.name = Text::tr("batch used");
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &r = deployment(results.results[i]);
        if (!r.performance.media)
            continue;
        const MediaPerformance &m = *r.performance.media;
        ChartView::Line line{shortLabel(r), {}, {}, Qt::SolidLine, int(i)};
        for (const auto &[batch, perHour] : m.outputsPerHourByBatch) {
            line.x << batch;
            line.y << perHour;
            if (int(batch) == m.queueBatch) {  // the batch the queue runs, on its line
                marks.x << batch;
                marks.y << perHour;
            }
        }
        if (!line.x.isEmpty())
            lines << line;
    }
    if (!marks.x.isEmpty() && !lines.isEmpty())
        lines << marks;
    chart->setLogScale(true, false);
    chart->setTitle(Text::tr("Outputs an hour per GPU against the batch denoised together (to the largest that fits)"));
    chart->setAxisLabels(Text::tr("batch"), Text::tr("outputs per hour per GPU"));
    chart->setLines(lines);
}

void showCostChart(ChartView *chart, const Results &results)
{
    chart->setEmptyText(Text::tr("No cost: open an inference brief with priced candidates"));
    chart->setTitle(Text::tr("Cost per 1,000 %1 by line item (USD; cheapest price of each candidate)")
                        .arg(wordText(results.cost.units)));
    chart->setAxisLabels(QString(), Text::tr("USD per 1,000 %1").arg(wordText(results.cost.units)));
    QStringList categories;
    std::vector<const CostOption *> options;
    // Each GPU bar's band, from its option's cost per accepted output (the API's price has none).
    std::vector<std::optional<std::pair<double, double>>> ratios;
    for (const CandidateResult &entered : results.results)
        if (const CandidateResult &r = deployment(entered); const CostOption *o = r.cost.cheapest()) {
            categories << barLabel(asPriced(r, *o), words(*o->term));
            options.push_back(o);
            const auto index = figures::optionIndex(r, o);
            ratios.push_back(index ? bandRatios(r, figures::optionCostPath(*index)) : std::nullopt);
        }
    if (results.cost.api) {
        categories << apiOptionName(*results.cost.api);
        options.push_back(&*results.cost.api);
    }
    // The hybrid of the GPU option the recommendation weighs and the API: its base GPU lines and
    // the API's overflow lines stacked in one bar.
    if (const auto &at = results.cost.hybridCandidate; results.cost.hybrid && at && *at < results.results.size()) {
        const CandidateResult &r = deployment(results.results[*at]);
        categories << Text::tr("%1 + API for bursts").arg(barLabel(asPriced(r, *results.cost.hybrid), words(*results.cost.hybrid->term)));
        options.push_back(&*results.cost.hybrid);
    }
    // Line items in the one order every chart uses, each with its own colour wherever it appears.
    std::vector<std::string> names;
    for (const CostOption *o : options)
        for (const CostLine &l : o->lines)
            if (std::find(names.begin(), names.end(), l.name) == names.end())
                names.push_back(l.name);
    std::stable_sort(names.begin(), names.end(),
                     [](const std::string &a, const std::string &b) { return costLineOrder(a) < costLineOrder(b); });
    // Training runs are priced per accepted run, not per thousand outputs.
    const bool perRun = std::any_of(options.begin(), options.end(), [](const CostOption *o) { return o->perRun; });
    const double per = perRun ? 1 : 1000;
    if (perRun) {
        chart->setTitle(Text::tr("Cost of an accepted training run by line item (USD; cheapest price of each candidate)"));
        chart->setAxisLabels(QString(), Text::tr("USD per accepted run"));
    }
    QVector<ChartView::Stack> stacks;
    for (const std::string &name : names) {
        // The API's own retries, observability and labour: the colour of the same line on the GPU
        // side, hatched (there are more line items than distinguishable colours).
        const bool apiSide = name.rfind("api_", 0) == 0 && name != "api_usage";
        ChartView::Stack s{QString::fromStdString(costLineTitle(name)), {}, costLineColour(name), apiSide};
        for (const CostOption *o : options) {
            double usd = 0;
            for (const CostLine &l : o->lines)
                if (l.name == name)
                    usd = l.usdPerMonth;
            s.values << (o->acceptedOutputsPerMonth > 0 ? usd / o->acceptedOutputsPerMonth * per : 0);
        }
        stacks << s;
    }
    QVector<QPair<double, double>> bands;
    for (std::size_t c = 0; c < options.size(); ++c) {
        const double total = options[c]->acceptedOutputsPerMonth > 0 ? options[c]->totalUsdPerMonth / options[c]->acceptedOutputsPerMonth * per : 0;
        const std::optional<std::pair<double, double>> k = c < ratios.size() ? ratios[c] : std::nullopt;
        bands << (k && total > 0 ? QPair<double, double>(total * k->first, total * k->second) : QPair<double, double>(0, 0));
    }
    chart->setStackedBars(categories, stacks, {}, bands);
}

void showBreakEvenChart(ChartView *chart, const Results &results, std::size_t candidate)
{
    chart->setEmptyText(Text::tr("No break-even: the candidate has no price, or the brief no monthly volume"));
    chart->setLogScale(true, true);
    chart->setAxisLabels(Text::tr("requests a month"), Text::tr("USD a month"));
    QVector<ChartView::Line> lines;
    const auto line = [&](const CostOption &o, const QString &name, Qt::PenStyle style, int colour) {
        ChartView::Line l{name, {}, {}, style, colour};
        for (const auto &[requests, usd] : o.monthlyCostByVolume) {
            l.x << requests;
            l.y << std::max(usd, 0.01);
        }
        lines << l;
    };
    QString title = Text::tr("Monthly cost against volume");
    if (candidate < results.results.size()) {
        const CandidateResult &r = deployment(results.results[candidate]);
        // The GPUs as priced, as the cost table's row says them (the volume may need fewer than entered).
        const CandidateResult priced = r.cost.options.empty() ? r : asPriced(r, r.cost.options.front());
        const int entered = results.results[candidate].candidate.gpus;
        title = Text::tr("Monthly cost against volume: %1").arg(shortLabel(priced))
                + (priced.candidate.gpus == entered ? QString() : Text::tr(" (sized from %1)").arg(entered));
        const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine, Qt::DashDotDotLine};
        int i = 0;
        for (const CostOption &o : r.cost.options) {
            QString name = o.term ? words(*o.term) : QStringLiteral("?");
            if (o.breakEvenRequestsPerMonthVsApi)
                name += Text::tr(" (≤ API from %1/mo)").arg(QString::fromStdString(readableCount(*o.breakEvenRequestsPerMonthVsApi)));
            line(o, name, styles[i % 5], int(candidate));
            ++i;
        }
    }
    if (results.cost.api && !lines.isEmpty())
        line(*results.cost.api, apiOptionName(*results.cost.api), Qt::SolidLine, 7);
    chart->setTitle(title);
    chart->setLines(lines);
    chart->setLogScale(false, false);
    if (results.cost.api && !lines.isEmpty())
        chart->setVerticalMarker(results.cost.api->requestsPerMonth, Text::tr("the brief's volume"));
}

} // namespace wb
