#include "ui/resultcharts.h"

#include <engine/fit.h>
#include <widgets/chartview.h>

#include <QCoreApplication>

#include <map>

namespace wb {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ResultCharts", text);
}

QString shortLabel(const Candidate &c)
{
    return QStringLiteral("%1×%2 TP%3").arg(c.gpus).arg(QString::fromStdString(c.gpu)).arg(c.tensorParallel);
}

// Bar categories wrap onto lines so that neighbours never overlap.
QString barLabel(const Candidate &c, const QString &extra)
{
    return QStringLiteral("%1× %2\nTP%3 %4").arg(c.gpus).arg(QString::fromStdString(c.gpu)).arg(c.tensorParallel).arg(extra);
}

} // namespace

void showFitChart(ChartView *chart, const Results &results)
{
    constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
    chart->setTitle(tr("Memory per GPU by component (GiB; the busiest GPU)"));
    chart->setAxisLabels(QString(), tr("GiB"));
    QStringList categories;
    std::vector<const CandidateResult *> shown;
    for (const CandidateResult &r : results.results)
        if (r.fit.computed) {
            categories << barLabel(r.candidate, tr("(%1 GiB)").arg(double(r.fit.capacityBytes) / GiB, 0, 'f', 0));
            shown.push_back(&r);
        }
    const std::pair<const char *, std::uint64_t MemoryBreakdown::*> parts[] = {
        {"Weights", &MemoryBreakdown::weights},         {"KV cache", &MemoryBreakdown::kvCache},
        {"Activations", &MemoryBreakdown::activations}, {"Gradients", &MemoryBreakdown::gradients},
        {"Optimizer", &MemoryBreakdown::optimizerStates}, {"Runtime", &MemoryBreakdown::runtimeOverhead}};
    QVector<ChartView::Stack> stacks;
    for (const auto &[name, member] : parts) {
        ChartView::Stack s{tr(name), {}};
        bool any = false;
        for (const CandidateResult *r : shown) {
            s.values << double(r->fit.breakdown.*member) / GiB;
            any = any || r->fit.breakdown.*member > 0;
        }
        if (any)
            stacks << s;
    }
    chart->setStackedBars(categories, stacks);
}

void showHeadroomMap(ChartView *chart, const Brief &brief, const Candidate &candidate, const Catalog &catalog)
{
    const bool training = !isInference(brief.workload.kind);
    const HeadroomGrid grid = headroomGrid(brief, candidate, catalog);
    chart->setTitle(tr("Headroom, %1 (brief: %2 × %3; blue fits, orange does not)")
                        .arg(shortLabel(candidate))
                        .arg(grid.briefContext)
                        .arg(grid.briefConcurrency));
    chart->setAxisLabels(training ? tr("micro-batch") : tr("sequences per replica"),
                         training ? tr("sequence length") : tr("context tokens"));
    QStringList columns, rows;
    for (int c : grid.concurrencies)
        columns << QString::number(c);
    for (int r : grid.contexts)
        rows << QString::number(r);
    QVector<double> values;
    for (std::size_t r = 0; r < grid.contexts.size(); ++r)
        for (std::size_t c = 0; c < grid.concurrencies.size(); ++c)
            values << grid.at(r, c);
    chart->setHeatmap(columns, rows, values, -0.5, 0.5, tr("headroom"));
}

void showLoadChart(ChartView *chart, const Brief *brief, const Results &results, LoadMetric metric)
{
    const bool throughput = metric == LoadMetric::Throughput;
    const char *titles[] = {"p99 time to first token against request rate", "median time to first token against request rate",
                            "p99 time per output token against request rate", "median time per output token against request rate",
                            "output tokens per second against request rate"};
    chart->setTitle(tr(titles[int(metric)]));
    chart->setAxisLabels(tr("requests/s"), throughput ? tr("tokens/s") : tr("ms"));
    chart->setEmptyText(tr("No load curve: open an inference brief and wait for the simulation"));
    QVector<ChartView::Line> lines;
    for (const CandidateResult &r : results.results) {
        if (!r.performance.computed || r.performance.loadCurve.empty())
            continue;
        ChartView::Line line{shortLabel(r.candidate), {}, {}};
        for (const LoadPoint &p : r.performance.loadCurve) {
            line.x << p.requestRatePerS;
            switch (metric) {
            case LoadMetric::TtftP99: line.y << p.ttftP99S * 1000; break;
            case LoadMetric::TtftP50: line.y << p.ttftP50S * 1000; break;
            case LoadMetric::TpotP99: line.y << p.tpotP99S * 1000; break;
            case LoadMetric::TpotP50: line.y << p.tpotP50S * 1000; break;
            case LoadMetric::Throughput: line.y << p.outputTokensPerS; break;
            }
        }
        lines << line;
    }
    QVector<ChartView::Reference> references;
    if (brief) {
        const Slo &slo = brief->workload.slo;
        if ((metric == LoadMetric::TtftP99 || metric == LoadMetric::TtftP50) && slo.ttftP99S)
            references << ChartView::Reference{tr("TTFT p99 target"), *slo.ttftP99S * 1000};
        if ((metric == LoadMetric::TpotP99 || metric == LoadMetric::TpotP50) && slo.tpotP99S)
            references << ChartView::Reference{tr("TPOT p99 target"), *slo.tpotP99S * 1000};
    }
    // Latency beyond a few times the target is overload: cap the axis there.
    const double cap = references.isEmpty() ? 0 : 3 * references.front().y;
    chart->setLines(lines, references, cap);
}

void showCostChart(ChartView *chart, const Results &results)
{
    chart->setTitle(tr("Cost per 1,000 accepted outputs by line item (USD; cheapest price of each candidate)"));
    chart->setAxisLabels(QString(), tr("USD per 1,000 accepted outputs"));
    QStringList categories;
    std::vector<const CostOption *> options;
    for (const CandidateResult &r : results.results)
        if (const CostOption *o = r.cost.cheapest()) {
            categories << barLabel(r.candidate, QString::fromLatin1(enumName(*o->term).data()));
            options.push_back(o);
        }
    if (results.cost.api) {
        categories << tr("model API");
        options.push_back(&*results.cost.api);
    }
    std::vector<std::string> names;  // line items in first-seen order
    for (const CostOption *o : options)
        for (const CostLine &l : o->lines)
            if (std::find(names.begin(), names.end(), l.name) == names.end())
                names.push_back(l.name);
    QVector<ChartView::Stack> stacks;
    for (const std::string &name : names) {
        ChartView::Stack s{QString::fromStdString(name).replace(u'_', u' '), {}};
        for (const CostOption *o : options) {
            double usd = 0;
            for (const CostLine &l : o->lines)
                if (l.name == name)
                    usd = l.usdPerMonth;
            s.values << (o->acceptedOutputsPerMonth > 0 ? usd / o->acceptedOutputsPerMonth * 1000 : 0);
        }
        stacks << s;
    }
    chart->setStackedBars(categories, stacks);
}

} // namespace wb
