#include "report/report.h"

#include "core/jsonfields.h"
#include "core/limits.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace wb {

namespace {

std::string flags(const LayoutResult &l)
{
    std::string f;
    if (l.cheapestOfGpu)
        f += "cheapest-of-gpu ";
    if (l.costFront)
        f += "cost-front ";
    if (l.throughputFront)
        f += "throughput-front ";
    if (!f.empty())
        f.pop_back();
    return f;
}

// The layouts a reader wants first: costed ones by cost per accepted output, then the rest.
std::vector<const LayoutResult *> ordered(const SearchResult &result, bool all)
{
    std::vector<const LayoutResult *> out;
    for (const LayoutResult &l : result.layouts)
        if (all || l.costed)
            out.push_back(&l);
    std::stable_sort(out.begin(), out.end(), [](const LayoutResult *a, const LayoutResult *b) {
        if (a->costed != b->costed)
            return a->costed;
        if (a->costed && a->withinGpuLimit != b->withinGpuLimit)
            return a->withinGpuLimit;
        return a->costed && a->costPerAcceptedOutput < b->costPerAcceptedOutput;
    });
    return out;
}

} // namespace

Sheet searchSheet(const Brief &brief, const SearchResult &result)
{
    const bool media = brief.workload.kind == WorkloadKind::MediaGeneration;
    Sheet s;
    s.name = "Layouts";
    s.columns = {{"layout", CellFormat::Text},
                 {"gpu", CellFormat::Text},
                 {"tensor_parallel", CellFormat::Integer},
                 {"pipeline_parallel", CellFormat::Integer},
                 {"weights_precision", CellFormat::Text},
                 {"serving_stack", CellFormat::Text},
                 {"replicas", CellFormat::Integer},
                 {"gpus", CellFormat::Integer},
                 {"within_gpu_limit", CellFormat::Boolean},
                 {"meets_slo", CellFormat::Boolean},
                 {"cost_per_accepted_output_usd", CellFormat::UsdFine},
                 {"pricing_term", CellFormat::Text},
                 {media ? "e2e_p99_s" : "ttft_p99_s", CellFormat::Seconds},
                 {media ? "outputs_per_hour_per_gpu" : "output_tokens_per_s_per_gpu", CellFormat::Decimal},
                 {"tokens_per_s_per_user", CellFormat::Decimal},
                 {"budget", CellFormat::Text},
                 {"chosen", CellFormat::Text},
                 {"why_not_costed", CellFormat::Text}};
    const auto text = [](std::string t) { return Cell{std::move(t), std::nullopt}; };
    const auto num = [](double v, const char *f) {
        return std::isfinite(v) ? Cell::number(v, fmt::format(fmt::runtime(f), v)) : Cell{};
    };
    for (const LayoutResult *l : ordered(result, true)) {
        const Candidate &c = l->candidate;
        std::vector<Cell> row{text(layoutLabel(*l, brief)),
                              text(c.gpu),
                              Cell::number(c.tensorParallel, std::to_string(c.tensorParallel)),
                              Cell::number(c.pipelineParallel, std::to_string(c.pipelineParallel)),
                              text(std::string(enumName(c.weightsPrecision.value_or(brief.workload.weightsPrecision)))),
                              text(std::string(enumName(c.servingStack)))};
        if (l->costed) {
            row.push_back(Cell::number(l->replicas, std::to_string(l->replicas)));
            row.push_back(Cell::number(c.gpus, std::to_string(c.gpus)));
            row.push_back(Cell::boolean(l->withinGpuLimit));
            row.push_back(Cell::boolean(l->meetsSlo));
            row.push_back(num(l->costPerAcceptedOutput, "{:.6g}"));
            row.push_back(text(l->pricingTerm));
            row.push_back(num(l->p99LatencyS, "{:.4g}"));
            row.push_back(num(l->outputTokensPerSPerGpu, "{:.4g}"));
            row.push_back(l->tokensPerSPerUser > 0 ? num(l->tokensPerSPerUser, "{:.4g}") : Cell{});
            row.push_back(text(l->full ? "full" : "quick"));
            row.push_back(text(flags(*l)));
            row.push_back({});
        } else {
            row.resize(s.columns.size() - 1);
            row.push_back(text(l->why));
        }
        s.rows.push_back(std::move(row));
    }
    return s;
}

std::string searchToCsv(const Brief &brief, const SearchResult &result)
{
    return sheetToCsv(searchSheet(brief, result));
}

std::string searchToJson(const Brief &brief, const SearchResult &result)
{
    using Json = nlohmann::ordered_json;
    const auto number = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
    Json layouts = Json::array();
    for (const LayoutResult *l : ordered(result, true)) {
        const Candidate &c = l->candidate;
        Json j = {{"layout", layoutLabel(*l, brief)},
                  {"gpu", c.gpu},
                  {"tensor_parallel", c.tensorParallel},
                  {"pipeline_parallel", c.pipelineParallel},
                  {"weights_precision", enumName(c.weightsPrecision.value_or(brief.workload.weightsPrecision))},
                  {"serving_stack", enumName(c.servingStack)},
                  {"fits", l->fits},
                  {"costed", l->costed}};
        if (l->costed) {
            j["replicas"] = l->replicas;
            j["gpus"] = c.gpus;
            j["within_gpu_limit"] = l->withinGpuLimit;
            j["meets_slo"] = l->meetsSlo;
            j["cost_per_accepted_output_usd"] = number(l->costPerAcceptedOutput);
            j["pricing_term"] = l->pricingTerm;
            j["p99_latency_s"] = number(l->p99LatencyS);
            j["output_per_s_per_gpu"] = number(l->outputTokensPerSPerGpu);
            j["tokens_per_s_per_user"] = l->tokensPerSPerUser > 0 ? number(l->tokensPerSPerUser) : Json(nullptr);
            j["budget"] = l->full ? "full" : "quick";
            j["cost_front"] = l->costFront;
            j["throughput_front"] = l->throughputFront;
            j["cheapest_of_gpu"] = l->cheapestOfGpu;
        } else {
            j["why_not_costed"] = l->why;
        }
        layouts.push_back(std::move(j));
    }
    const Json warnings = detail::messagesJson(result.warnings);
    Json root = {{"format", "gpu-workbench-search"},
                 {"version", 1},
                 {"brief", brief.name},
                 {"latency", result.latencyName},
                 {"slo_latency_s", result.sloLatencyS ? Json(*result.sloLatencyS) : Json(nullptr)},
                 {"output_per_s_per_gpu_unit", brief.workload.kind == WorkloadKind::MediaGeneration ? "outputs per hour"
                                               : brief.workload.kind == WorkloadKind::Embedding  ? "input tokens per second"
                                                                                                 : "output tokens per second"},
                 {"cancelled", result.cancelled},
                 {"layouts_tried", result.layouts.size()},
                 {"warnings", warnings},
                 {"layouts", layouts}};
    return root.dump(2) + "\n";
}

std::string searchToTable(const Brief &brief, const SearchResult &result)
{
    const bool media = brief.workload.kind == WorkloadKind::MediaGeneration;
    std::ostringstream out;
    std::size_t costed = 0, fits = 0;
    for (const LayoutResult &l : result.layouts) {
        costed += l.costed;
        fits += l.fits;
    }
    out << "Layout search: " << limits::printable(brief.name) << "\n"
        << fmt::format("{} layouts tried, {} fit, {} costed{}\n", result.layouts.size(), fits, costed,
                       result.cancelled ? " (cancelled: the figures cover what ran)" : "");
    if (result.sloLatencyS)
        out << fmt::format("SLO: {} <= {:g} s\n", result.latencyName, *result.sloLatencyS);
    out << "\n";
    const bool embedding = brief.workload.kind == WorkloadKind::Embedding;
    const std::vector<std::string> header{"Layout", "Replicas", "GPUs", "SLO", "$/accepted", result.latencyName + " s",
                                          media ? "Out/h/GPU" : embedding ? "Max in tok/s/GPU" : "Max tok/s/GPU",
                                          media || embedding ? "" : "Tok/s/user", "Figures", "Chosen"};
    std::vector<std::vector<std::string>> rows;
    for (const LayoutResult *l : ordered(result, false)) {
        if (!l->withinGpuLimit && !l->cheapestOfGpu)
            continue;
        rows.push_back({layoutLabel(*l, brief), std::to_string(l->replicas), std::to_string(l->candidate.gpus),
                        brief.workload.slo.empty() ? "-" : l->meetsSlo ? "met" : "missed", fmt::format("{:.6f}", l->costPerAcceptedOutput),
                        std::isfinite(l->p99LatencyS) ? fmt::format("{:.3f}", l->p99LatencyS) : "-",
                        fmt::format("{:.0f}", l->outputTokensPerSPerGpu),
                        l->tokensPerSPerUser > 0 ? fmt::format("{:.1f}", l->tokensPerSPerUser) : "",
                        l->full ? "full" : "quick", flags(*l)});
    }
    std::vector<std::size_t> widths(header.size());
    for (std::size_t i = 0; i < header.size(); ++i) {
        widths[i] = header[i].size();
        for (const auto &r : rows)
            widths[i] = std::max(widths[i], r[i].size());
    }
    const auto line = [&](const std::vector<std::string> &cells) {
        std::string text;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string padding(widths[i] - cells[i].size(), ' ');
            text += (i == 0 || i + 1 == cells.size() ? cells[i] + padding : padding + cells[i]) + (i + 1 < cells.size() ? "  " : "");
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << "\n";
    };
    line(header);
    for (const auto &r : rows)
        line(r);
    if (rows.empty()) {
        // Nothing to list: why, the commonest reasons first.
        std::map<std::string, int> why;
        for (const LayoutResult &l : result.layouts)
            if (!l.costed)
                ++why[l.why];
        std::vector<std::pair<int, std::string>> reasons;
        for (const auto &[text, count] : why)
            reasons.emplace_back(count, text);
        std::sort(reasons.rbegin(), reasons.rend());
        out << "\nNo layout is costed within the limit. Why, by number of layouts:\n";
        for (std::size_t i = 0; i < reasons.size() && i < 5; ++i)
            out << fmt::format("  {:>4}  {}\n", reasons[i].first, limits::printable(reasons[i].second));
    }
    if (!rows.empty())
        out << "\nFigures: full, evaluated in full as `gpuwb evaluate` and the window's pages do once the layout is a "
               "candidate; quick, from the short screening simulations: an estimate (its replicas, latency and cost may "
               "differ from the full evaluation's).\n";
    std::size_t beyond = 0;
    for (const LayoutResult &l : result.layouts)
        beyond += l.costed && !l.withinGpuLimit;
    if (beyond > 0)
        out << fmt::format("\n{} costed layouts need more GPUs than the limit and are left out above.\n", beyond);
    for (const Warning &w : result.warnings)
        out << "warning: " << w.message << "\n";
    return out.str();
}

} // namespace wb
