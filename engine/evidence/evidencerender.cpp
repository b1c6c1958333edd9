// Renderings of a project's measured runs for the command line (gpuwb evidence list / compare).
#include "evidence/evidence.h"

#include "core/limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Text cut to `width` characters for a fixed-width column: plain ASCII dots, so that the
// columns after it stay aligned (fmt pads by bytes).
std::string fitted(const std::string &text, std::size_t width)
{
    std::string s = limits::printable(text, 100000);
    if (s.size() > width)
        s = s.substr(0, width - 3) + "...";
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80)  // no half UTF-8 sequence
        s.pop_back();
    return s;
}

std::string cell(const std::string &text)
{
    // One line, no pipe: a Markdown table cell.
    std::string s = limits::printable(text, 200);
    for (char &c : s)
        if (c == '|' || c == '\n')
            c = ' ';
    return s;
}

std::string figure(const std::string &metric, std::optional<double> v)
{
    if (!v)
        return "-";
    return isLatencyMetric(metric) ? fmt::format("{:.1f} ms", *v * 1e3) : fmt::format("{:.4g}", *v);
}

std::string error(std::optional<double> predicted, double measured)
{
    if (!predicted || measured <= 0)
        return "-";
    return fmt::format("{:+.0f}%", (*predicted / measured - 1) * 100);
}

Json optionalJson(std::optional<double> v)
{
    return v ? Json(*v) : Json(nullptr);
}

const EvidenceRun *runWithId(const std::vector<EvidenceRun> &runs, long long id)
{
    for (const EvidenceRun &r : runs)
        if (r.id == id)
            return &r;
    return nullptr;
}

} // namespace

std::string runLoadText(const MeasuredRun &run)
{
    if (run.requestRatePerS)
        return fmt::format("{:.3g} requests/s", *run.requestRatePerS);
    if (run.concurrency)
        return fmt::format("{} concurrent", *run.concurrency);
    return "offline (all queued)";
}

std::string evidenceListTable(const std::vector<EvidenceRun> &runs)
{
    std::ostringstream out;
    out << fmt::format("{:>4}  {:<17} {:<40} {:<20} {:>9} {:>5}  {:<22} {:<10} {}\n", "id", "tool", "file", "scenario",
                       "candidate", "GPUs", "load", "date", "imported");
    for (const EvidenceRun &r : runs) {
        const std::string file = r.file.name + (r.index > 0 || r.run.tool == RunTool::GuideLlm
                                                    ? fmt::format(" (run {})", r.index + 1) : std::string());
        out << fmt::format("{:>4}  {:<17} {:<40} {:<20} {:>9} {:>5}  {:<22} {:<10} {}{}\n", r.id, runToolName(r.run.tool),
                           fitted(file, 40), fitted(r.scenario, 20), r.candidate + 1, r.run.gpus.value_or(0),
                           runLoadText(r.run), r.run.date.empty() ? "not stated" : r.run.date, r.importedAt,
                           r.importedBy.empty() ? "" : " by " + fitted(r.importedBy, 60));
    }
    if (runs.empty())
        out << "(no measured runs)\n";
    return out.str();
}

std::string evidenceListJson(const std::vector<EvidenceRun> &runs)
{
    Json list = Json::array();
    for (const EvidenceRun &r : runs) {
        Json load = Json::object();
        if (r.run.requestRatePerS)
            load["request_rate_per_s"] = *r.run.requestRatePerS;
        else if (r.run.concurrency)
            load["concurrency"] = *r.run.concurrency;
        else
            load["offline"] = true;
        list.push_back({{"id", r.id},
                        {"tool", runToolName(r.run.tool)},
                        {"tool_version", r.run.toolVersion},
                        {"file", {{"name", r.file.name}, {"sha256", r.file.sha256}, {"bytes", r.file.bytes}}},
                        {"run_of_file", r.index + 1},
                        {"scenario", r.scenario},
                        {"candidate", r.candidate + 1},
                        {"gpu", r.run.gpu},
                        {"gpus", r.run.gpus.value_or(0)},
                        {"load", load},
                        {"date", r.run.date},
                        {"imported_at", r.importedAt},
                        {"imported_by", r.importedBy},
                        {"from_candidate", r.fromCandidate}});
    }
    return Json{{"format", "gpu-workbench-evidence"}, {"version", 1}, {"runs", list}}.dump(2) + "\n";
}

std::string evidenceComparisonMarkdown(const std::vector<EvidenceRun> &runs, const std::vector<RunPrediction> &predictions,
                                       const std::vector<EvidenceCalibration> &calibrations)
{
    std::ostringstream out;
    for (const EvidenceCalibration &c : calibrations)
        out << fmt::format("Candidates of {} with {}: {} (runs", c.gpu, enumName(c.stack), c.provenance())
            << [&] {
                   std::string ids;
                   for (long long id : c.runs)
                       ids += fmt::format(" {}", id);
                   return ids;
               }()
            << ").\n";
    for (const EvidenceCalibration &c : calibrations)
        if (!c.stable)
            out << "  Warning: " << c.why.message << ".\n";
    if (calibrations.empty())
        out << (runs.empty() ? "The scenario has no measured runs.\n"
                             : "No calibration: switched off for the scenario, or no run could be predicted.\n");
    for (const RunPrediction &p : predictions) {
        const EvidenceRun *r = runWithId(runs, p.run);
        if (!r)
            continue;
        out << fmt::format("\n## Run {}: {} ({}), candidate {}, {}\n\n", r->id, cell(r->file.name), runToolName(r->run.tool),
                           r->candidate + 1, runLoadText(r->run));
        if (!p.why.empty())
            out << "Not predicted: " << cell(p.why) << "\n\n";
        out << "| metric | measured | predicted | error | calibrated | error | left out | error |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|\n";
        for (const MetricComparison &m : p.metrics)
            out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", metricLabel(m), figure(m.metric, m.measured),
                               figure(m.metric, m.predicted), error(m.predicted, m.measured),
                               figure(m.metric, m.calibrated), error(m.calibrated, m.measured),
                               figure(m.metric, m.leftOut), error(m.leftOut, m.measured));
    }
    return out.str();
}

std::string evidenceComparisonJson(const std::vector<EvidenceRun> &runs, const std::vector<RunPrediction> &predictions,
                                   const std::vector<EvidenceCalibration> &calibrations)
{
    Json cals = Json::array();
    for (const EvidenceCalibration &c : calibrations) {
        Json factors = Json::object();
        for (const EfficiencyFactor &f : c.table.factors())
            if (!f.cases.empty() && f.cases.front().starts_with("run "))  // fitted to this project's runs
                factors[f.key] = {{"value", f.value}, {"prior", f.prior}};
        cals.push_back({{"gpu", c.gpu}, {"serving_stack", enumName(c.stack)}, {"runs", c.runs},
                        {"provenance", c.provenance()}, {"factors", factors}});
    }
    Json list = Json::array();
    for (const RunPrediction &p : predictions) {
        const EvidenceRun *r = runWithId(runs, p.run);
        Json metrics = Json::array();
        for (const MetricComparison &m : p.metrics)
            metrics.push_back({{"metric", m.metric}, {"stat", m.stat}, {"measured", m.measured},
                               {"predicted", optionalJson(m.predicted)}, {"calibrated", optionalJson(m.calibrated)},
                               {"left_out", optionalJson(m.leftOut)}});
        list.push_back({{"run", p.run}, {"candidate", r ? Json(r->candidate + 1) : Json(nullptr)},
                        {"not_predicted", p.why.empty() ? Json(nullptr) : Json(p.why)}, {"metrics", metrics}});
    }
    return Json{{"format", "gpu-workbench-evidence-comparison"}, {"version", 1}, {"calibrations", cals}, {"runs", list}}
               .dump(2) +
           "\n";
}

} // namespace wb
