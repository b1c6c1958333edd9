#include "evaluate/compare.h"

#include "brief/fields.h"

#include <nlohmann/json.hpp>

#include <map>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// A key as a JSON pointer token (RFC 6901: "~" is "~0", "/" is "~1").
std::string pointerToken(const std::string &key)
{
    std::string out;
    for (char c : key)
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
}

// Leaves of a JSON value by pointer, in document order. Empty objects and arrays are leaves.
void flatten(const Json &value, const std::string &pointer, std::vector<std::pair<std::string, std::string>> &out)
{
    if (value.is_object() && !value.empty()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            flatten(it.value(), pointer + "/" + pointerToken(it.key()), out);
    } else if (value.is_array() && !value.empty()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            flatten(value[i], pointer + "/" + std::to_string(i), out);
    } else {
        out.emplace_back(pointer, value.dump());
    }
}

// A candidate's layout, without the count entered: the deployment is sized from the layout
// (issue 39), so "1 x H200 TP1" in one scenario and "8 x H200 TP1" in the other are the same
// candidate.
std::string candidateKey(const Candidate &c)
{
    std::string key = c.gpu + " TP" + std::to_string(c.tensorParallel) + " PP" + std::to_string(c.pipelineParallel) + " "
        + std::string(enumName(c.servingStack));
    if (c.weightsPrecision)
        key += " " + std::string(enumName(*c.weightsPrecision));
    return key;
}

// Each candidate of a result by its key, in order; a layout listed again (two counts of the same
// layout) is told apart by its place among its kind: "h100-sxm-80gb TP2 PP1 vllm (2)".
std::vector<std::pair<std::string, const CandidateResult *>> keyed(const Results &results)
{
    std::vector<std::pair<std::string, const CandidateResult *>> out;
    std::map<std::string, int> seen;
    for (const CandidateResult &r : results.results) {
        const std::string key = candidateKey(r.candidate);
        const int n = ++seen[key];
        out.emplace_back(n == 1 ? key : key + " (" + std::to_string(n) + ")", &r);
    }
    return out;
}

struct Figure
{
    const char *name;
    bool lowerIsBetter;
    std::optional<double> (*get)(const CandidateResult &);
};

const Figure kFigures[] = {
    {"memory headroom", false,
     [](const CandidateResult &r) { return r.fit.computed ? std::optional<double>(r.fit.headroomFraction) : std::nullopt; }},
    {"output tokens/s per GPU", false,
     [](const CandidateResult &r) {
         return r.performance.computed ? std::optional<double>(r.performance.outputTokensPerSPerGpu) : std::nullopt;
     }},
    {"highest rate within the SLO (requests/s)", false,
     [](const CandidateResult &r) {
         return r.performance.computed ? r.performance.maxRequestRateWithinSloPerS : std::nullopt;
     }},
    {"TTFT p99", true,
     [](const CandidateResult &r) {
         return r.performance.computed ? std::optional<double>(r.performance.ttft.p99) : std::nullopt;
     }},
    {"TPOT p99", true,
     [](const CandidateResult &r) {
         return r.performance.computed ? std::optional<double>(r.performance.tpot.p99) : std::nullopt;
     }},
    {"GPUs deployed", true,
     [](const CandidateResult &r) {
         const CostOption *o = r.cost.cheapest();
         return o ? std::optional<double>(o->gpus) : std::nullopt;
     }},
    {"cost per accepted output", true,
     [](const CandidateResult &r) {
         const CostOption *o = r.cost.cheapest();
         return o ? std::optional<double>(o->costPerAcceptedOutput) : std::nullopt;
     }},
};

} // namespace

std::vector<FieldChange> diffBriefs(const std::string &beforeJson, const std::string &afterJson)
{
    const Json before = Json::parse(beforeJson, nullptr, false);
    const Json after = Json::parse(afterJson, nullptr, false);
    if (before.is_discarded() || after.is_discarded())
        return {{"", beforeJson, afterJson}};
    std::vector<std::pair<std::string, std::string>> a, b;
    flatten(before, "", a);
    flatten(after, "", b);
    std::map<std::string, std::string> inAfter(b.begin(), b.end());
    std::map<std::string, std::string> inBefore(a.begin(), a.end());
    // A field given in one brief at the value the other takes by default is no change (a count
    // edited on the Candidates page writes "pipeline_parallel": 1 beside it).
    const auto kindOf = [](const Json &brief) {
        const Json kind = brief.is_object() ? brief.value(Json::json_pointer("/workload/kind"), Json()) : Json();
        return kind.is_string() ? enumFromString<WorkloadKind>(kind.get<std::string>()) : std::nullopt;
    };
    const auto isDefault = [](const std::string &pointer, const std::string &value, std::optional<WorkloadKind> kind) {
        const FieldRow *row = kind ? briefFields().find(pointer, *kind) : briefFields().find(pointer);
        if (!row || row->defaultJson.empty())
            return false;
        const Json given = Json::parse(value, nullptr, false), taken = Json::parse(row->defaultJson, nullptr, false);
        return !given.is_discarded() && given == taken;
    };
    std::vector<FieldChange> out;
    for (const auto &[pointer, value] : a) {
        const auto it = inAfter.find(pointer);
        if (it == inAfter.end()) {
            if (!isDefault(pointer, value, kindOf(after)))
                out.push_back({pointer, value, ""});
        } else if (it->second != value) {
            out.push_back({pointer, value, it->second});
        }
    }
    for (const auto &[pointer, value] : b)
        if (!inBefore.count(pointer) && !isDefault(pointer, value, kindOf(before)))
            out.push_back({pointer, "", value});
    return out;
}

std::vector<FigureChange> compareResults(const Results &before, const Results &after)
{
    std::vector<std::string> order;
    std::map<std::string, const CandidateResult *> a, b;
    for (const auto &[key, r] : keyed(before))
        if (a.emplace(key, r).second)
            order.push_back(key);
    for (const auto &[key, r] : keyed(after))
        if (b.emplace(key, r).second && !a.count(key))
            order.push_back(key);
    std::vector<FigureChange> out;
    for (const std::string &key : order) {
        const auto ra = a.find(key), rb = b.find(key);
        for (const Figure &f : kFigures)
            out.push_back({key, f.name, ra != a.end() ? f.get(deployment(*ra->second)) : std::nullopt,
                           rb != b.end() ? f.get(deployment(*rb->second)) : std::nullopt, f.lowerIsBetter});
    }
    return out;
}

} // namespace wb
