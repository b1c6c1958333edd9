// What a calibration report says (evaluate/calibration.h): median errors by set and family,
// leave-one-out and group-out; the bands made of the group-out residuals and their nested
// coverage; the per-case Markdown table.
#include "evaluate/calibration.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

namespace {

double medianOf(std::vector<double> list)
{
    std::sort(list.begin(), list.end());
    const std::size_t n = list.size();
    return n == 0 ? 0 : n % 2 ? list[n / 2] : 0.5 * (list[n / 2 - 1] + list[n / 2]);
}

} // namespace

std::map<std::pair<std::string, std::string>, std::pair<int, double>>
medianErrors(const std::vector<CalibrationRow> &rows, std::optional<double> CalibrationRow::*column)
{
    std::map<std::pair<std::string, std::string>, std::vector<double>> errors;
    for (const CalibrationRow &r : rows)
        if ((r.*column))
            errors[{r.set, measuredFamily(r.figure)}].push_back(std::fabs(*(r.*column) / r.measured - 1));
    std::map<std::pair<std::string, std::string>, std::pair<int, double>> out;
    for (auto &[key, list] : errors)
        out[key] = {int(list.size()), medianOf(list)};
    return out;
}

namespace {

// The q-quantile of sorted values, interpolated between ranks.
double quantileOf(const std::vector<double> &sorted, double q)
{
    if (sorted.empty())
        return 0;
    const double at = q * double(sorted.size() - 1);
    const std::size_t lo = std::size_t(std::floor(at));
    const std::size_t hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (at - double(lo)) * (sorted[hi] - sorted[lo]);
}

// One held-out prediction's log error, with where it comes from.
struct Residual
{
    std::string bucket;     // "<set>.<family>"
    std::string set, grouping, id;
    double value = 0;       // log(measured / predicted)
    const CalibrationRow *row = nullptr;
};

std::vector<Residual> groupOutResiduals(const std::vector<CalibrationRow> &rows)
{
    std::vector<Residual> out;
    for (const CalibrationRow &r : rows)
        for (const auto &[grouping, predicted] : r.groupOut)
            if (predicted && *predicted > 0)
                out.push_back({r.set + "." + measuredFamily(r.figure), r.set, grouping, r.id,
                               std::log(r.measured / *predicted), &r});
    return out;
}

ResidualQuantiles quantilesOf(const std::vector<const Residual *> &list)
{
    ResidualQuantiles q;
    std::vector<double> values;
    std::set<std::string> ids;
    for (const Residual *r : list) {
        values.push_back(r->value);
        ids.insert(r->id);
    }
    std::sort(values.begin(), values.end());
    q.cases = int(ids.size());
    q.figures = int(values.size());
    q.p10 = quantileOf(values, 0.1);
    q.p50 = quantileOf(values, 0.5);
    q.p90 = quantileOf(values, 0.9);
    return q;
}

} // namespace

std::map<std::pair<std::string, std::string>, std::pair<int, double>>
groupOutErrors(const std::vector<CalibrationRow> &rows, const std::string &grouping)
{
    std::map<std::pair<std::string, std::string>, std::vector<double>> errors;
    for (const CalibrationRow &r : rows)
        for (const auto &[g, predicted] : r.groupOut)
            if (predicted && (grouping.empty() || g == grouping))
                errors[{r.set, measuredFamily(r.figure)}].push_back(std::fabs(*predicted / r.measured - 1));
    std::map<std::pair<std::string, std::string>, std::pair<int, double>> out;
    for (auto &[key, list] : errors)
        out[key] = {int(list.size()), medianOf(list)};
    return out;
}

namespace {

// The residuals by "<set>.<family>" and "<set>.all", pooled and per grouping ("...@<grouping>").
std::map<std::string, std::vector<const Residual *>> residualBuckets(const std::vector<Residual> &all)
{
    std::map<std::string, std::vector<const Residual *>> buckets;
    for (const Residual &r : all) {
        for (const std::string &b : {r.bucket, r.set + ".all"}) {
            buckets[b].push_back(&r);
            buckets[b + "@" + r.grouping].push_back(&r);
        }
    }
    return buckets;
}

} // namespace

std::map<std::string, std::pair<int, int>> bandCoverage(const CalibrationReport &report)
{
    const std::vector<Residual> all = groupOutResiduals(report.rows);
    std::map<std::string, std::vector<const Residual *>> buckets = residualBuckets(all);
    std::map<std::string, std::pair<int, int>> coverage;
    // Nested coverage: a figure's band from the residuals of cases outside its group (in the
    // grouping it was held out by), as band() makes it (at least 5 cases, else the set's pooled
    // figures; sqrt(1 + 1/n) wider about the median).
    for (const Residual &r : all) {
        const std::string &group = r.row->groups.at(r.grouping);
        const auto others = [&](const std::string &bucket) {
            std::vector<const Residual *> list;
            for (const Residual *o : buckets[bucket]) {
                const auto g = o->row->groups.find(r.grouping);
                if (o->id != r.id && (g == o->row->groups.end() || g->second != group))
                    list.push_back(o);
            }
            return quantilesOf(list);
        };
        ResidualQuantiles q = others(r.bucket);
        if (q.cases < 5)
            q = others(r.set + ".all");
        if (q.cases < 5)
            continue;
        const double spread = std::sqrt(1.0 + 1.0 / q.cases);
        const double lo = q.p50 + (q.p10 - q.p50) * spread, hi = q.p50 + (q.p90 - q.p50) * spread;
        const int in = r.value >= lo && r.value <= hi ? 1 : 0;
        for (const std::string &key : {r.bucket, std::string("all")}) {
            coverage[key].first += in;
            ++coverage[key].second;
        }
    }
    return coverage;
}

BandTable residualBands(const CalibrationReport &report, const std::vector<CalibrationCase> &cases)
{
    BandTable bands;
    const std::vector<Residual> all = groupOutResiduals(report.rows);
    for (const auto &[key, list] : residualBuckets(all))
        bands.residuals[key] = quantilesOf(list);
    const auto coverage = bandCoverage(report);
    if (const auto it = coverage.find("all"); it != coverage.end()) {
        bands.coverage = it->second.second ? double(it->second.first) / it->second.second : 0;
        bands.coverageFigures = it->second.second;
    }

    for (const CalibrationCase &c : cases) {
        if (const auto g = c.groups.find("gpu-family"); g != c.groups.end())
            bands.gpuFamilies.insert(g->second);
        if (const auto g = c.groups.find("model-size"); g != c.groups.end())
            bands.sizeClasses.insert(g->second);
        const auto s = c.groups.find("stack");
        if (s == c.groups.end())
            continue;
        StackData &d = bands.stacks[s->second];
        ++d.cases;
        const std::string &version = c.brief.candidates.front().servingStackVersion;
        if (!version.empty() && std::find(d.versions.begin(), d.versions.end(), version) == d.versions.end())
            d.versions.push_back(version);
        if (!c.measuredOn.empty()) {
            d.firstDate = d.firstDate.empty() ? c.measuredOn : std::min(d.firstDate, c.measuredOn);
            d.lastDate = std::max(d.lastDate, c.measuredOn);
        }
    }
    for (auto &entry : bands.stacks)
        std::sort(entry.second.versions.begin(), entry.second.versions.end(),
                  [](const std::string &a, const std::string &b) { return compareVersions(a, b).value_or(0) < 0; });
    return bands;
}

std::string calibrationMarkdown(const CalibrationReport &report)
{
    MeasuredFigure figure = MeasuredFigure::OfflineTokensPerS;  // the row being printed
    const auto number = [&figure](std::optional<double> v, bool seconds) {
        if (!v)
            return std::string("null");
        if (figure == MeasuredFigure::TrainingModelFlopsPerSPerGpu)
            return fmt::format("{:.0f} TFLOP/s", *v / 1e12);
        if (seconds)
            return *v >= 10 ? fmt::format("{:.1f} s", *v) : fmt::format("{:.1f} ms", *v * 1000);
        return *v < 100 ? fmt::format("{:.3g}", *v) : fmt::format("{:.0f}", *v);
    };
    const auto error = [](std::optional<double> v, double measured) {
        return v ? fmt::format("{:+.1f}%", 100 * (*v / measured - 1)) : std::string("n/a");
    };
    const std::vector<std::string> &groupings = bandGroupings();
    std::string out = "| case | hardware | figure | measured | prior | error | calibrated | error | left out | error "
                      "| group out: GPU family / model size / stack / source |\n"
                      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
    for (const CalibrationRow &r : report.rows) {
        const bool seconds = measuredFamily(r.figure) != "throughput";
        figure = r.figure;
        std::string held;
        for (const std::string &g : groupings) {
            const auto it = r.groupOut.find(g);
            held += (held.empty() ? "" : " / ") + (it == r.groupOut.end() ? std::string("-") : error(it->second, r.measured));
        }
        out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.id, r.hardware,
                           measuredFigureName(r.figure), number(r.measured, seconds), number(r.prior, seconds),
                           error(r.prior, r.measured), number(r.calibrated, seconds), error(r.calibrated, r.measured),
                           number(r.leftOut, seconds), error(r.leftOut, r.measured), held);
    }
    out += "\nMedian absolute error. Group out: each case predicted by a calibration that saw none of its group, "
           "pooled over the four groupings (then each grouping alone); the headline figure.\n\n"
           "| set | family | figures | prior | calibrated | left out | group out | GPU family | model size | stack | source |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    const auto prior = medianErrors(report.rows, &CalibrationRow::prior);
    const auto calibrated = medianErrors(report.rows, &CalibrationRow::calibrated);
    const auto leftOut = medianErrors(report.rows, &CalibrationRow::leftOut);
    std::vector<std::map<std::pair<std::string, std::string>, std::pair<int, double>>> byGrouping = {groupOutErrors(report.rows)};
    for (const std::string &g : groupings)
        byGrouping.push_back(groupOutErrors(report.rows, g));
    for (const auto &entry : prior) {
        const auto &key = entry.first;
        const auto &value = entry.second;
        const auto cell = [&](const auto &m) {
            const auto it = m.find(key);
            return it == m.end() ? std::string("-") : fmt::format("{:.1f}%", 100 * it->second.second);
        };
        out += fmt::format("| {} | {} | {} | {} | {} | {} |", key.first, key.second, value.first, cell(prior),
                           cell(calibrated), cell(leftOut));
        for (const auto &m : byGrouping)
            out += " " + cell(m) + " |";
        out += "\n";
    }
    return out;
}

} // namespace wb
