// Fill the results tabs' charts from engine results: memory by component per candidate, latency
// or throughput against request rate with the SLO drawn in, and cost per accepted output by line
// item. Presentation only: every figure comes from the engine's results.
#pragma once

#include <engine/evaluate.h>

namespace wb {

class ChartView;

void showFitChart(ChartView *chart, const Results &results);

enum class LoadMetric { TtftP99, TtftP50, TpotP99, TpotP50, Throughput };
void showLoadChart(ChartView *chart, const Brief *brief, const Results &results, LoadMetric metric);

void showCostChart(ChartView *chart, const Results &results);

} // namespace wb
