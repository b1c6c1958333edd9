// Calibrating the step model's efficiency factors (catalog/efficiency.h) on measured runs.
//
// A case is a brief that reproduces a published run and the figures measured on it. The fit
// minimises, over the natural logs of the factors the cases use,
//
//   sum over figures ((log predicted - log measured) / measurementSigma)^2
//     + sum over factors ((log factor - log prior) / priorWidth)^2
//
// by Gauss-Newton with forward-difference derivatives through the whole engine (evaluate(), the
// simulator included): weighted least squares on log error with the literature values as priors
// of stated width, so a factor with few cases stays near its prior and one with many follows
// them. The figures' term is robust (Cauchy: each squared error r^2 counts as
// c^2 log(1 + r^2/c^2), iteratively reweighted), so a figure the model's mechanisms cannot
// explain (a 5x miss) does not drag the factors to unphysical values to hide it; factors stay
// under their physical ceilings (a fraction of a peak below 1).
//
// Held-out predictions, each one Gauss-Newton step from the full fit with the held-out rows
// removed (for the factors only those rows inform, that step lands on the prior, as far as a
// step's limit of a factor e either way allows), then the case evaluated in full:
// - leave-one-out: each case at the factors of a fit without it. It measures how well the
//   factors fit this set, not how the model carries to what the set barely holds;
// - leave-one-group-out: for each grouping (catalog/bands.h: GPU family, model size class,
//   serving stack, source) each case at the factors of a fit without its whole group. This is
//   the figure the README's headline and the validation bounds use, and what the bands are made
//   of (residualBands).
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "core/result.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// What a measurement is, in SI units (tokens/s or seconds).
enum class MeasuredFigure {
    OfflineTokensPerS,      // max output tokens/s with everything queued
    SloTokensPerS,          // output tokens/s at the highest Poisson rate within the SLO (MLPerf Server)
    LoadTokensPerS,         // output tokens/s at the brief's own load
    LoadTokensPerSPerGpu,   // the same, divided by the candidate's GPUs
    DecodeTokensPerS,       // one stream: 1 / mean TPOT
    TtftMeanS, TtftP50S, TpotMeanS, TpotP50S, ItlMeanS, ItlP50S, E2eMeanS, E2eP50S,
    SloTtftMeanS, SloTpotMeanS,  // means at the highest rate within the SLO
    TrainingTokensPerS,          // a training run's tokens/s, whole candidate
    TrainingTokensPerSPerGpu,
    TrainingModelFlopsPerSPerGpu,  // achieved model FLOP/s per GPU (PaLM's MFU numerator)
    MediaOutputsPerS,              // images or clips a second, whole candidate, at the best (or the brief's) batch
    MediaSecondsPerOutput,         // one output alone on a replica
    SequencesPerS,                 // an embedding run's sequences a second at the brief's load, whole candidate
};

std::optional<MeasuredFigure> measuredFigureFromName(const std::string &name);
std::string measuredFigureName(MeasuredFigure f);
// "throughput" (training figures too), "ttft", "tpot" (TPOT and ITL) or "e2e": the families
// errors are summarised by.
std::string measuredFamily(MeasuredFigure f);

struct Measurement
{
    MeasuredFigure figure;
    double value = 0;
};

struct CalibrationCase
{
    std::string id;                  // the published case's id (public-cases.csv, moe-cases.csv)
    std::string set;                 // which table it belongs to ("public", "moe", "training", "media", "embedding")
    std::string assumed;             // what the source leaves out and the brief assumes
    Brief brief;
    std::vector<Measurement> measured;
    std::vector<std::string> factorKeys;  // the efficiency factors its step model uses
    std::string briefText;                // as the file gives it (one case, one brief)
    std::string origin;                   // who published it and how it was measured ("mlperf-inference")
    std::string measuredOn;               // when, where the source says (YYYY-MM or YYYY-MM-DD)
    // Its group in each grouping (bandGroupings()); a grouping it has no group in (the serving
    // stack of a training run) is absent, and does not hold it out.
    std::map<std::string, std::string> groups;
};

// A case's groups: its GPU's family, its model's size class (or "media:<pipeline>"), its serving
// stack (inference only) and its origin (else its id's prefix).
std::map<std::string, std::string> caseGroups(const CalibrationCase &c, const Catalog &catalog);

// Reads a cases file: CSV with columns case_id, set, figure, measured, assumed and brief (the
// whole brief JSON of an inference run with one candidate; its serving_stack_version where the
// source states one), and optionally origin and measured_on; rows of one case_id give the same
// brief and different figures. Errors name the file, line and column.
Result<std::vector<CalibrationCase>> readCalibrationCases(const std::string &csvText, const std::string &fileName,
                                                          const Catalog &catalog);

struct CalibrationOptions
{
    double measurementSigma = 0.10;   // spread of log error a measurement is trusted to (10%)
    double robustScale = 0.25;        // log error beyond which a figure's pull fades (Cauchy c; about 28%)
    int iterations = 4;               // Gauss-Newton steps
    double derivativeStep = 0.05;     // in log factor
    bool leaveOneOut = true;
    bool groupOut = true;             // leave-one-group-out, per grouping
};

// One figure of one case: measured, and predicted on the priors, on the calibration, and by the
// calibration that left the case out.
struct CalibrationRow
{
    std::string id, set, assumed, hardware;
    MeasuredFigure figure;
    double measured = 0;
    std::optional<double> prior, calibrated, leftOut;
    std::map<std::string, std::string> groups;                  // the case's groups
    std::map<std::string, std::optional<double>> groupOut;     // per grouping: its group held out
};

struct CalibrationReport
{
    EfficiencyTable table;               // the calibrated factors, each with its cases
    std::vector<CalibrationRow> rows;
    double objectiveBefore = 0, objectiveAfter = 0;
    int evaluations = 0;                 // engine evaluations the fit took
    std::vector<std::string> unpredicted;  // figures the engine gives none for, and why that matters
};

// Predicted figures of one case at a table; nullopt where the engine gives none. The default
// runs evaluate() (with the capacity search's rate for SLO figures).
// The efficiency factors a case's step model uses (none when its GPU is not in the catalog).
std::vector<std::string> caseFactorKeys(const CalibrationCase &c, const Catalog &catalog);

using CasePredictor = std::function<std::vector<std::optional<double>>(const CalibrationCase &, const EfficiencyTable &)>;
CasePredictor enginePredictor(const Catalog &catalog);

// Fits `start`'s factors (its priors and widths) to the cases. With `fit` false, only
// predicts: the rows get prior (at the priors) and calibrated (at `start` as given) and, with
// options.leaveOneOut, leftOut around `start` (the validation table of a shipped calibration).
CalibrationReport calibrate(const std::vector<CalibrationCase> &cases, const EfficiencyTable &start,
                            const CasePredictor &predict, const CalibrationOptions &options = {}, bool fit = true);

// The per-case table (Markdown): measured, prior, calibrated and leave-one-out predictions with
// their errors, then the median absolute errors by set and family.
std::string calibrationMarkdown(const CalibrationReport &report);

// Median absolute relative error of a column, by (set, family); rows without the figure skip.
std::map<std::pair<std::string, std::string>, std::pair<int, double>>
medianErrors(const std::vector<CalibrationRow> &rows, std::optional<double> CalibrationRow::*column);
// The same over the group-out predictions of one grouping, or of all of them pooled (empty):
// the count is of predictions (a case once per grouping and figure).
std::map<std::pair<std::string, std::string>, std::pair<int, double>>
groupOutErrors(const std::vector<CalibrationRow> &rows, const std::string &grouping = {});

// The bands (catalog/bands.h) from a report's group-out predictions, with what its cases cover
// (GPU families, size classes, stacks with their stated versions and dates) and the bands'
// nested coverage: each figure's 80% band made from the residuals of the other groups only,
// pooled over the groupings.
BandTable residualBands(const CalibrationReport &report, const std::vector<CalibrationCase> &cases);
// That nested coverage per "<set>.<family>" and over all ("all"): (inside the 80% band, counted).
std::map<std::string, std::pair<int, int>> bandCoverage(const CalibrationReport &report);

} // namespace wb
