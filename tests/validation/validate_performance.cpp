// Predicted against measured: every case of tests/validation/data/calibration-cases.csv (the
// public inference cases the engine can express, the mixture-of-experts runs of moe-cases.csv,
// the training and media runs of wave2-cases.csv and the TensorRT-LLM maxima of
// wave3-cases.csv), run through the same evaluate() the CLI uses. Each figure is predicted on the
// literature priors, on the shipped calibration (resources/calibration/default.json, made by
// `gpuwb calibrate tests/validation/data/calibration-cases.csv`), leave-one-out (by a calibration
// that never saw the case) and leave-one-group-out (by one that saw none of its GPU family, model
// size class, serving stack or source: the headline). What a case assumes where its source is
// silent is printed beside it.
//
//   validate-performance            prints the table (Markdown), the median errors and the bands' coverage
//   validate-performance --check    also exits 1 when a group-out median exceeds its bound, when the
//                                   80% bands' nested coverage leaves 70-90%, or when the shipped
//                                   bands (resources/calibration/bands.json) are not this calibration's
//
// Every measured value in the cases file is checked against its source row first (public-cases.csv
// value or notes, moe-cases.csv columns): the cases file cannot drift from the sources.
#include "testsupport.h"

#include <evaluate/calibration.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace {

// The value `source` names for a case: "value" (public-cases.csv's or wave2-cases.csv's value,
// in its units; TFLOP/s become FLOP/s), "batch_per_latency" (an encoder_latency row of
// wave3-cases.csv: the batch its workload states over its latency in ms, sequences/s),
// "note:LABEL" (the number after LABEL in its notes), or a moe-cases.csv column.
std::optional<double> sourceValue(const std::string &id, const std::string &source, bool seconds)
{
    static const auto pub = wbtest::validationRows("public-cases.csv");
    static const auto moe = wbtest::validationRows("moe-cases.csv");
    static const auto wave2 = wbtest::validationRows("wave2-cases.csv");
    static const auto wave3 = wbtest::validationRows("wave3-cases.csv");
    if (const auto w = wave3.find(id); w != wave3.end() && source == "batch_per_latency") {
        static const std::regex batch("batch ([0-9]+)");
        std::smatch match;
        if (w->second.at("units") != "ms" || !std::regex_search(w->second.at("workload"), match, batch))
            return std::nullopt;
        return std::stod(match[1]) / (std::stod(w->second.at("value")) / 1000);
    }
    for (const auto *later : {&wave2, &wave3})
        if (const auto w = later->find(id); w != later->end() && source == "value") {
            const double v = std::stod(w->second.at("value"));
            return w->second.at("units").starts_with("TFLOP/s") ? v * 1e12 : v;
        }
    if (const auto m = moe.find(id); m != moe.end()) {
        const auto cell = m->second.find(source);
        return cell == m->second.end() ? std::nullopt : std::optional<double>(std::stod(cell->second));
    }
    const auto p = pub.find(id);
    if (p == pub.end())
        return std::nullopt;
    const std::map<std::string, std::string> &row = p->second;
    if (source == "value") {
        const double v = std::stod(row.at("value"));
        return seconds && row.at("units") == "ms" ? v / 1000 : v;
    }
    if (!source.starts_with("note:"))
        return std::nullopt;
    const std::regex number("(^|[^A-Za-z])" + source.substr(5) + " ([0-9.]+) *(ms)?");
    std::smatch match;
    if (!std::regex_search(row.at("notes"), match, number))
        return std::nullopt;
    const double v = std::stod(match[2]);
    return match[3].matched ? v / 1000 : v;
}

} // namespace

int main(int argc, char **argv)
{
    const bool check = argc > 1 && std::string(argv[1]) == "--check";
    const wb::Catalog &catalog = wbtest::shippedCatalog();
    const std::string path = WB_SOURCE_DIR "/tests/validation/data/calibration-cases.csv";
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        return 2;
    }
    const std::string text = file.readAll().toStdString();
    auto cases = wb::readCalibrationCases(text, path, catalog);
    if (!cases) {
        std::fprintf(stderr, "%s\n", cases.error().toString().c_str());
        return 2;
    }
    // The measured values against their sources.
    auto table = wb::parseCsv(text, path);
    for (const std::vector<std::string> &row : table->rows) {
        const std::string id = row[*table->column("case_id")];
        const std::string figure = row[*table->column("figure")];
        const bool seconds = figure.ends_with("_s");
        const auto expected = sourceValue(id, row[*table->column("source")], seconds);
        const double measured = std::stod(row[*table->column("measured")]);
        if (!expected || std::fabs(measured / *expected - 1) > 1e-6) {
            std::fprintf(stderr, "%s %s: the cases file says %g, its source %s\n", id.c_str(), figure.c_str(), measured,
                         expected ? std::to_string(*expected).c_str() : "has no such value");
            return 2;
        }
    }
    if (catalog.efficiency().file().empty()) {
        std::fprintf(stderr, "no calibration was loaded (resources/calibration/default.json)\n");
        return 2;
    }

    const wb::CalibrationReport report =
        wb::calibrate(*cases, catalog.efficiency(), wb::enginePredictor(catalog), {}, false);
    std::printf("%s", wb::calibrationMarkdown(report).c_str());
    std::printf("\nAssumed where the source is silent:\n");
    for (const wb::CalibrationCase &c : *cases)
        if (c.assumed != "-")
            std::printf("- %s: %s\n", c.id.c_str(), c.assumed.c_str());

    // The bands: their nested coverage, and the shipped file against this calibration's.
    const wb::BandTable bands = wb::residualBands(report, *cases);
    std::printf("\n80%% bands' nested coverage (each figure's band from the other groups' residuals): %.1f%% of %d "
                "group-out predictions inside\n\n| set.family | inside | predictions | coverage |\n|---|---:|---:|---:|\n",
                100 * bands.coverage, bands.coverageFigures);
    for (const auto &[key, c] : wb::bandCoverage(report))
        std::printf("| %s | %d | %d | %.0f%% |\n", key.c_str(), c.first, c.second, c.second ? 100.0 * c.first / c.second : 0.0);
    bool ok = true;
    if (bands.coverage < 0.70 || bands.coverage > 0.90) {
        std::fprintf(stderr, "the 80%% bands hold %.1f%% of the held-out figures, outside 70-90%%\n", 100 * bands.coverage);
        ok = false;
    }
    const wb::BandTable &shipped = catalog.bands();
    for (const auto &[key, q] : bands.residuals) {
        const auto it = shipped.residuals.find(key);
        if (it == shipped.residuals.end() || it->second.cases != q.cases || std::fabs(it->second.p10 - q.p10) > 0.01
            || std::fabs(it->second.p90 - q.p90) > 0.01) {
            std::fprintf(stderr, "resources/calibration/bands.json is stale at %s: run gpuwb calibrate ... --bands again\n", key.c_str());
            ok = false;
            break;
        }
    }

    // Group-out bounds (the headline: how the model carries to a GPU family, model size, stack
    // or source it was not fitted on). Issue 35 asks, on held-out measurements, for throughput
    // within 12% and latency within 15%; where the model does not reach that on this set the
    // bound is what it reaches (rounded up to the next percent), so that a change that makes it
    // worse fails (the README says where each stands and why). MoE mean TTFT has no bound: the
    // model misses it by 2-6x (README). MoE TPOT was 15.6% until the encoder cases (issue 36)
    // joined the fit of the GEMM factors they share (compute.hopper.fp8 with MLPerf BERT on
    // H200): 16.1% since, while dense throughput went from 14.6% to 13.2%; its bound is 17%.
    const std::map<std::pair<std::string, std::string>, double> bounds = {
        {{"public", "throughput"}, 0.15}, {{"public", "ttft"}, 0.23}, {{"public", "tpot"}, 0.35},
        {{"moe", "throughput"}, 0.21}, {{"moe", "tpot"}, 0.17},
        {{"training", "throughput"}, 0.17},
        {{"media", "throughput"}, 0.20},
        {{"embedding", "throughput"}, 0.17},
    };
    const auto groupOut = wb::groupOutErrors(report.rows);
    for (const auto &[key, bound] : bounds) {
        const auto it = groupOut.find(key);
        if (it == groupOut.end() || it->second.second > bound) {
            std::fprintf(stderr, "%s %s: group-out median %s above %.0f%%\n", key.first.c_str(), key.second.c_str(),
                         it == groupOut.end() ? "missing" : std::to_string(100 * it->second.second).c_str(), 100 * bound);
            ok = false;
        }
    }
    // Media: throughput and seconds per output are one model's two readings, bounded together.
    std::vector<double> media;
    for (const wb::CalibrationRow &r : report.rows)
        for (const auto &entry : r.groupOut)
            if (r.set == "media" && entry.second)
                media.push_back(std::fabs(*entry.second / r.measured - 1));
    std::sort(media.begin(), media.end());
    const double mediaMedian = media.empty() ? 1 : media[media.size() / 2];
    std::printf("\nmedia, all figures: group-out median %.1f%% over %zu predictions\n", 100 * mediaMedian, media.size());
    if (mediaMedian > 0.20) {
        std::fprintf(stderr, "media: group-out median %.1f%% above 20%%\n", 100 * mediaMedian);
        ok = false;
    }
    return check && !ok ? 1 : 0;
}
