// Fill the results tabs' charts from engine results: memory by component per candidate, latency
// or throughput against request rate with the SLO drawn in, and cost per accepted output by line
// item. Presentation only: every figure comes from the engine's results.
#pragma once

#include <engine/evaluate.h>

namespace wb {

class ChartView;

void showFitChart(ChartView *chart, const Results &results);
// Headroom of one candidate across context lengths (rows) and concurrent sequences per replica
// (columns), or micro-batch sizes for training briefs; the brief's own point is named in the title.
void showHeadroomMap(ChartView *chart, const Brief &brief, const Candidate &candidate, const Catalog &catalog);

enum class LoadMetric { TtftP99, TtftP50, TpotP99, TpotP50, Throughput };
void showLoadChart(ChartView *chart, const Brief *brief, const Results &results, LoadMetric metric);

void showCostChart(ChartView *chart, const Results &results);

} // namespace wb
