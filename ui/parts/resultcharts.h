// Fill the results tabs' charts from engine results: memory by component per candidate, latency
// or throughput against request rate with the SLO drawn in, and cost per accepted output by line
// item. Presentation only: every figure comes from the engine's results.
#pragma once

#include <evaluate/evaluate.h>

namespace wb {

class ChartView;

void showFitChart(ChartView *chart, const Results &results);
// Headroom of one candidate across context lengths (rows) and concurrent sequences per replica
// (columns), or micro-batch sizes for training briefs; the brief's own point is named in the title.
void showHeadroomMap(ChartView *chart, const Brief &brief, const Candidate &candidate, const Catalog &catalog);

// The performance tab's figures, in the order of its chart menu: latency or throughput against
// request rate, or the highest rate within the targets per candidate (bars, the brief's rate
// drawn in), or output tokens/s per GPU against tokens/s per user (interactivity: 1 / TPOT p50) along
// each candidate's load curve, the way InferenceMAX compares hardware.
enum class LoadMetric { TtftP99, TtftP95, TtftP50, TpotP99, TpotP95, TpotP50, Throughput, ThroughputPerGpu, MaxRate,
                        Interactivity };
void showLoadChart(ChartView *chart, const Brief *brief, const Results &results, LoadMetric metric);

// Training kinds' figures, in the order of the performance tab's chart menu for them: tokens/s
// against the GPU count (log axes, each candidate's own count marked), the expected wasted share
// against the checkpoint interval (log interval axis, each candidate's best interval marked), and
// where a step's time goes per candidate (stacked bars, seconds).
enum class TrainingChart { Scaling, CheckpointWaste, StepParts };
void showTrainingChart(ChartView *chart, const Results &results, TrainingChart which);

// Media generation's figures, in the order of the performance tab's chart menu for them: outputs
// an hour per GPU against the batch (each candidate's chosen batch marked), and where one
// output's time goes per candidate (stacked bars, seconds: text encoders, denoising, VAE decode).
enum class MediaChart { ByBatch, OutputParts };
void showMediaChart(ChartView *chart, const Results &results, MediaChart which);

void showCostChart(ChartView *chart, const Results &results);
// Monthly cost against monthly volume (log axes) for one candidate's pricing routes and the model
// API, the brief's volume marked; the legend gives each route's break-even against the API.
void showBreakEvenChart(ChartView *chart, const Results &results, std::size_t candidate);

} // namespace wb
