// How far a predicted figure can be trusted: P10-P90 bands from the calibration's held-out
// errors (resources/calibration/bands.json, written by `gpuwb calibrate --bands`).
//
// Every case of the calibration data belongs to one group in each of four groupings: its GPU
// family, its model's size class, its serving stack and its source (the publisher and method of
// the measurement). Each case is predicted by a calibration fitted without its whole group, once
// per grouping (evaluate/calibration.h). The logs of measured / predicted, per set of cases
// (dense serving, mixture-of-experts serving, training, media) and family of figures
// (throughput, TTFT, TPOT, end to end), give the quantiles a band is made of:
//
//   P10, P50, P90 = figure x exp(q10), figure x exp(q50), figure x exp(q90)
//
// pooled over the four groupings, so that the band describes predicting work like none the
// calibration saw in at least one respect (a brief inside the data gets it too: conservative).
// Where the brief lies outside the data (a GPU family, model size or stack version without
// cases) the band takes the widest grouping the brief is outside of, and widens by sqrt(1 + k)
// for k such respects (each adds an error of like size; independent log errors add in
// quadrature); few cases widen it by sqrt(1 + 1/n) (the spread of a new draw about a mean from
// n), both about the median. The figure stays the engine's one answer; the band says where held-out
// measurements fell around such answers, so it need not hold the figure: a model that is
// consistently slow for a family gets a band above its figure, not one stretched to reach it.
#pragma once

#include "core/result.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wb {

// The groupings a case is held out by, in the order reports list them.
inline const std::vector<std::string> &bandGroupings()
{
    static const std::vector<std::string> g = {"gpu-family", "model-size", "stack", "source"};
    return g;
}

// A model's size class by its total parameters: "small" (under 15B), "mid" (15B to 150B),
// "large" (above 150B). The boundaries sit between the 7-8B, 70B and 405B-671B classes the
// published measurements come in.
std::string modelSizeClass(double parameters);

// Compares dotted version numbers ("0.5.10" > "0.5.9"); text after the numbers is ignored.
// Negative, zero or positive as a < b, a == b, a > b. nullopt when either has no leading number.
std::optional<int> compareVersions(const std::string &a, const std::string &b);

// Quantiles of log(measured / predicted) over held-out predictions.
struct ResidualQuantiles
{
    int cases = 0;      // distinct cases
    int figures = 0;    // held-out predictions (a case counts once per grouping and figure)
    double p10 = 0, p50 = 0, p90 = 0;
};

// What the calibration's measurements of one serving stack cover.
struct StackData
{
    int cases = 0;
    std::vector<std::string> versions;     // stated versions, sorted, distinct
    std::string firstDate, lastDate;       // of the runs that state a date (YYYY-MM or YYYY-MM-DD)
};

// Where a brief's candidate lies against the data.
struct BandContext
{
    std::string set;           // "public" (dense serving), "moe", "training", "media", "embedding"
    std::string family;        // "throughput", "ttft", "tpot", "e2e"
    std::string gpuFamily;     // GpuSpec::architecture
    std::string sizeClass;     // modelSizeClass, or "media:<id>" for a media pipeline
    std::string stack;         // serving stack name ("" for training and media)
    std::string stackVersion;  // the candidate's serving_stack_version, if given
};

struct Band
{
    double figure = 0;                  // the engine's figure the band qualifies
    double p10 = 0, p50 = 0, p90 = 0;   // of the true value, given the figure
    std::string basis;         // where it comes from, for a person
    std::vector<std::string> outside;  // the respects the brief lies outside the data in
};

class BandTable
{
public:
    // Held-out residual quantiles, keyed "<set>.<family>" (pooled over the groupings) and
    // "<set>.<family>@<grouping>" (one grouping).
    std::map<std::string, ResidualQuantiles> residuals;
    std::set<std::string> gpuFamilies, sizeClasses;   // seen in the data
    std::map<std::string, StackData> stacks;
    // The 80% bands' coverage on the calibration data itself, each case's band made from the
    // other groups' residuals only (nested held-out): the share inside, and over how many.
    double coverage = 0;
    int coverageFigures = 0;

    bool empty() const { return residuals.empty(); }
    std::string file() const { return m_file; }

    // Reads a bands file; a failed load changes nothing. Errors name the field.
    Status loadJson(const std::string &text, const std::string &fileName);
    std::string toJson(const std::string &generatedBy) const;

    // The band of `value` (a figure of ctx.family), or nullopt when no held-out residuals exist
    // for the set at all.
    std::optional<Band> band(double value, const BandContext &ctx) const;
    // The version warning's facts: the stated versions and dates of a stack in the data, and
    // whether `version` lies outside them (nullopt: no stated version to compare with).
    std::optional<bool> versionOutside(const std::string &stack, const std::string &version) const;

private:
    const ResidualQuantiles *find(const std::string &key, int minimum) const;
    std::string m_file;
};

} // namespace wb
