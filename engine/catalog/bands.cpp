#include "catalog/bands.h"

#include "core/jsonfields.h"
#include "core/limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace wb {

std::string modelSizeClass(double parameters)
{
    if (parameters < 15e9)
        return "small";
    return parameters <= 150e9 ? "mid" : "large";
}

std::optional<int> compareVersions(const std::string &a, const std::string &b)
{
    // The leading dotted numbers of a version ("v0.5.10rc1" -> 0, 5, 10).
    const auto parts = [](const std::string &s) {
        std::vector<long> out;
        std::size_t i = s.find_first_of("0123456789");
        if (i == std::string::npos || (i > 0 && s.substr(0, i) != "v"))
            return out;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
            long n = 0;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && n < 1000000000)
                n = n * 10 + (s[i++] - '0');
            out.push_back(n);
            if (i + 1 < s.size() && s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i + 1])))
                ++i;
            else
                break;
        }
        return out;
    };
    const std::vector<long> x = parts(a), y = parts(b);
    if (x.empty() || y.empty())
        return std::nullopt;
    for (std::size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
        const long u = i < x.size() ? x[i] : 0, v = i < y.size() ? y[i] : 0;
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

const ResidualQuantiles *BandTable::find(const std::string &key, int minimum) const
{
    const auto it = residuals.find(key);
    return it != residuals.end() && it->second.cases >= minimum ? &it->second : nullptr;
}

std::optional<bool> BandTable::versionOutside(const std::string &stack, const std::string &version) const
{
    const auto it = stacks.find(stack);
    if (it == stacks.end() || it->second.versions.empty() || !compareVersions(version, version))
        return std::nullopt;
    const std::vector<std::string> &v = it->second.versions;
    const auto below = compareVersions(version, v.front()), above = compareVersions(version, v.back());
    return (below && *below < 0) || (above && *above > 0);
}

std::optional<Band> BandTable::band(double value, const BandContext &ctx) const
{
    // A quantile from fewer cases than this says little about the tails.
    constexpr int kMinimumCases = 5;
    const std::string family = ctx.set + "." + ctx.family;
    std::string familyKey = family;
    const ResidualQuantiles *base = find(family, kMinimumCases);
    if (!base) {
        familyKey = ctx.set + ".all";
        base = find(familyKey, kMinimumCases);
    }
    if (!base || !(value > 0) || !std::isfinite(value))
        return std::nullopt;
    double lo = base->p10, hi = base->p90;

    Band b;
    std::vector<std::string> groupings;
    if (!ctx.gpuFamily.empty() && !gpuFamilies.count(ctx.gpuFamily)) {
        groupings.push_back("gpu-family");
        b.outside.push_back(fmt::format("no case on the {} GPU family", ctx.gpuFamily));
    }
    if (!ctx.sizeClass.empty() && !sizeClasses.count(ctx.sizeClass)) {
        groupings.push_back("model-size");
        b.outside.push_back(fmt::format("no case of the model's size class ({})", ctx.sizeClass));
    }
    if (!ctx.stack.empty() && !stacks.count(ctx.stack)) {
        groupings.push_back("stack");
        b.outside.push_back(fmt::format("no case on {}", ctx.stack));
    } else if (!ctx.stack.empty() && !ctx.stackVersion.empty() && versionOutside(ctx.stack, ctx.stackVersion).value_or(false)) {
        // Another release of the engine differs from the data as another publisher's method
        // does: the source grouping's spread.
        groupings.push_back("source");
        const StackData &d = stacks.at(ctx.stack);
        b.outside.push_back(fmt::format("{} {} is outside the data's {} to {}", ctx.stack, ctx.stackVersion,
                                        d.versions.front(), d.versions.back()));
    }
    for (const std::string &g : groupings)
        if (const ResidualQuantiles *q = find(familyKey + "@" + g, kMinimumCases)) {
            lo = std::min(lo, q->p10);
            hi = std::max(hi, q->p90);
        }
    // The pooled residuals are the error with one respect unseen (conservatively, a brief inside
    // the data gets them too); each respect the brief lies outside adds an error of like size.
    const double spread = std::sqrt(1.0 + double(groupings.size())) * std::sqrt(1.0 + 1.0 / base->cases);
    const double mid = base->p50;
    b.figure = value;
    b.p10 = value * std::exp(mid + (lo - mid) * spread);
    b.p50 = value * std::exp(mid);
    b.p90 = value * std::exp(mid + (hi - mid) * spread);
    // In words: "dense serving TTFT", "mixture-of-experts serving throughput", "training figures".
    static const std::map<std::string, std::string> setWords = {
        {"public", "dense serving"}, {"moe", "mixture-of-experts serving"}, {"training", "training"},
        {"media", "media generation"}, {"embedding", "embeddings"}};
    static const std::map<std::string, std::string> familyWords = {
        {"throughput", "throughput"}, {"ttft", "TTFT"}, {"tpot", "TPOT"}, {"e2e", "end-to-end latency"}};
    const auto word = [](const std::map<std::string, std::string> &m, const std::string &k) {
        const auto it = m.find(k);
        return it == m.end() ? k : it->second;
    };
    b.basis = fmt::format("held-out error of {} predictions ({} cases{}) of {} {}, each case predicted without its GPU family, "
                          "model size, stack or source",
                          base->figures, base->cases, base->cases < 10 ? ": few, a rough band" : "", word(setWords, ctx.set),
                          familyKey == family ? word(familyWords, ctx.family) : "figures");
    if (!b.outside.empty()) {
        b.basis += "; wider: ";
        for (std::size_t i = 0; i < b.outside.size(); ++i)
            b.basis += (i ? ", " : "") + b.outside[i];
    }
    return b;
}

Status BandTable::loadJson(const std::string &text, const std::string &fileName)
{
    using detail::Fields;
    using detail::Json;
    const Result<Json> root = detail::parseFormatted(text, fileName, "gpu-workbench-bands", "bands file");
    if (!root)
        return root.error();
    BandTable next;
    try {
        const Fields top(*root, "");
        const Fields share = top.object("coverage");
        next.coverage = share.number("share", detail::Range{0, 1});
        next.coverageFigures = int(share.integer("figures", detail::Range{0, 1e9}));
        const Json &list = top.array("residuals");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = fmt::format("/residuals/{}", i);
            if (!list[i].is_object())
                throw detail::FieldError{at, "each entry is an object with key, cases, figures, p10, p50 and p90"};
            const Fields item(list[i], at);
            const std::string key = item.string("key");
            if (key.find('.') == std::string::npos || !limits::isPlainName(key.substr(0, key.find('.'))))
                item.fail("key", "\"" + key + "\" is not <set>.<family>[@<grouping>]");
            ResidualQuantiles q;
            q.cases = int(item.integer("cases", detail::Range{1, 1e9}));
            q.figures = int(item.integer("figures", detail::Range{1, 1e9}));
            // Log ratios: within a factor of e^5 (about 150) either way.
            const detail::Range logRange{-5, 5};
            q.p10 = item.number("p10", logRange);
            q.p50 = item.number("p50", logRange);
            q.p90 = item.number("p90", logRange);
            if (!(q.p10 <= q.p50 && q.p50 <= q.p90))
                item.fail("p50", "the quantiles must be in order (p10 <= p50 <= p90)");
            if (!next.residuals.emplace(key, q).second)
                item.fail("key", "\"" + key + "\" appears twice");
        }
        const Fields data = top.object("data");
        const auto names = [&](const std::string &key, std::set<std::string> &into) {
            const Json &a = data.array(key);
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (!a[i].is_string())
                    throw detail::FieldError{fmt::format("/data/{}/{}", key, i), "must be a name (text)"};
                into.insert(a[i].get<std::string>());
            }
        };
        names("gpu_families", next.gpuFamilies);
        names("size_classes", next.sizeClasses);
        const Json &stackList = data.array("stacks");
        for (std::size_t i = 0; i < stackList.size(); ++i) {
            const std::string at = fmt::format("/data/stacks/{}", i);
            if (!stackList[i].is_object())
                throw detail::FieldError{at, "each stack is an object with stack, cases, versions, first_date and last_date"};
            const Fields item(stackList[i], at);
            StackData d;
            d.cases = int(item.integer("cases", detail::Range{1, 1e9}));
            const Json &versions = item.array("versions");
            for (std::size_t v = 0; v < versions.size(); ++v) {
                if (!versions[v].is_string() || !compareVersions(versions[v].get<std::string>(), "0"))
                    throw detail::FieldError{fmt::format("{}/versions/{}", at, v), "must be a version such as \"0.5.9\""};
                d.versions.push_back(versions[v].get<std::string>());
            }
            std::sort(d.versions.begin(), d.versions.end(),
                      [](const std::string &a, const std::string &b) { return *compareVersions(a, b) < 0; });
            d.firstDate = item.optString("first_date").value_or("");
            d.lastDate = item.optString("last_date").value_or("");
            next.stacks[item.string("stack")] = d;
        }
    } catch (const detail::FieldError &e) {
        return Error{fileName, e.path, e.message};
    }
    next.m_file = fileName;
    *this = std::move(next);
    return Ok{};
}

std::string BandTable::toJson(const std::string &generatedBy) const
{
    using J = nlohmann::ordered_json;
    const auto round = [](double v) { return std::stod(fmt::format("{:.4g}", v)); };
    J root;
    root["format"] = "gpu-workbench-bands";
    root["version"] = 1;
    root["generated_by"] = generatedBy;
    root["coverage"] = {{"share", round(coverage)}, {"figures", coverageFigures}};
    J list = J::array();
    for (const auto &[key, q] : residuals)
        list.push_back({{"key", key}, {"cases", q.cases}, {"figures", q.figures}, {"p10", round(q.p10)},
                        {"p50", round(q.p50)}, {"p90", round(q.p90)}});
    root["residuals"] = list;
    J stackList = J::array();
    for (const auto &[name, d] : stacks)
        stackList.push_back({{"stack", name}, {"cases", d.cases}, {"versions", d.versions},
                             {"first_date", d.firstDate}, {"last_date", d.lastDate}});
    root["data"] = {{"gpu_families", gpuFamilies}, {"size_classes", sizeClasses}, {"stacks", stackList}};
    return root.dump(2, ' ', false, J::error_handler_t::replace) + "\n";
}

} // namespace wb
