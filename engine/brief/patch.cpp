// Editing a stored brief field by field (the window's edits): JSON pointers set or removed,
// the defaults a new kind or traffic mode needs added, the result parsed before it is accepted.
#include "brief/brief.h"

#include "core/limits.h"

#include <nlohmann/json.hpp>

namespace wb {

Result<PatchedBrief> patchBrief(const std::string &briefJson, const std::string &pointer, const std::string &valueJson,
                                const Catalog &catalog)
{
    return patchBrief(briefJson, std::vector<BriefPatch>{{pointer, valueJson}}, catalog);
}

namespace {

// The one form a brief's JSON is kept in (canonicalBriefJson).
std::string canonicalText(const nlohmann::ordered_json &root)
{
    return root.dump();  // compact, keys as written: its size follows the text's, whatever the nesting
}

// A brief's text as a JSON object, its keys in the order written, or what is wrong with it.
Result<nlohmann::ordered_json> briefObject(const std::string &text)
{
    if (auto bad = limits::checkJsonText(text))
        return Error{"", "", *bad};
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Error{"", "", j.is_discarded() ? "is not valid JSON" : "is not a JSON object"};
    return j;
}

} // namespace

Result<std::string> canonicalBriefJson(const std::string &text)
{
    auto j = briefObject(text);
    if (!j)
        return j.error();
    return canonicalText(*j);
}

Result<std::string> readableBriefJson(const std::string &text)
{
    auto j = briefObject(text);
    if (!j)
        return j.error();
    return j->dump(2) + "\n";
}

namespace {

// What a brief needs once its kind or traffic mode changes, where it does not say already: a
// training block for training and adapter kinds, lengths for inference, an open-loop rate for
// real-time, a rate or a concurrency for the traffic mode, no bursts off open loop; media
// generation trades the language model and its token lengths for a media pipeline, and back. The
// values are starting points the user then edits; completeness still counts them as given (the
// user chose the kind).
void addKindDefaults(nlohmann::ordered_json &root, const Catalog &catalog)
{
    nlohmann::ordered_json &w = root["workload"];
    const auto kind = enumFromString<WorkloadKind>(w.value("kind", std::string()));
    if (!kind)
        return;
    if (*kind == WorkloadKind::MediaGeneration) {
        for (const char *key : {"model", "input_tokens", "output_tokens", "input_tokens_p95", "output_tokens_p95",
                                "kv_cache_precision", "training"})
            w.erase(key);
        if (!w.contains("media") && !catalog.mediaModels().empty())
            w["media"] = {{"model", catalog.mediaModels().front().id}};
        return;
    }
    w.erase("media");
    if (!w.contains("model") && !catalog.models().empty())
        w["model"] = catalog.models().front().id;
    const auto positive = [&](const char *key) { return w.contains(key) && w[key].is_number() && w[key].get<double>() > 0; };
    if ((isTraining(*kind) || isAdapter(*kind)) && !w.contains("training")) {
        const double input = positive("input_tokens") ? w["input_tokens"].get<double>() : 0;
        w["training"] = {{"sequence_length", std::max(2048, int(input))}};
    }
    if (isInference(*kind) && !positive("input_tokens"))
        w["input_tokens"] = 1000;
    if (isInference(*kind) && !positive("output_tokens"))
        w["output_tokens"] = 200;
    const bool offline = !w.contains("traffic") || !w["traffic"].is_object()
                         || w["traffic"].value("mode", std::string("offline")) == "offline";
    if (*kind == WorkloadKind::RealtimeInference && offline)
        w["traffic"] = {{"mode", "open-loop"}, {"request_rate_per_s", 1}};
}

void addTrafficModeDefaults(nlohmann::ordered_json &root)
{
    nlohmann::ordered_json &t = root["workload"]["traffic"];
    if (!t.is_object())
        return;
    const std::string mode = t.value("mode", std::string());
    if (mode == "open-loop" && !t.contains("request_rate_per_s"))
        t["request_rate_per_s"] = 1;
    if (mode == "closed-loop" && !t.contains("concurrency"))
        t["concurrency"] = 16;
    if (mode != "open-loop")
        t.erase("bursts");
}

} // namespace

Result<PatchedBrief> patchBrief(const std::string &briefJson, const std::vector<BriefPatch> &patches,
                                const Catalog &catalog)
{
    if (auto bad = limits::checkJsonText(briefJson))
        return Error{"", "", "the brief " + *bad};
    nlohmann::ordered_json root = nlohmann::ordered_json::parse(briefJson, nullptr, false);
    if (root.is_discarded() || !root.is_object())
        return Error{"", "", "the brief is not a JSON object"};
    for (const BriefPatch &patch : patches) {
        if (auto bad = limits::checkJsonText(patch.valueJson))
            return Error{"", patch.pointer, "the new value " + *bad};
        const nlohmann::ordered_json value = nlohmann::ordered_json::parse(patch.valueJson, nullptr, false);
        if (value.is_discarded())
            return Error{"", patch.pointer, "the new value is not valid JSON"};
        try {
            const nlohmann::ordered_json::json_pointer where(patch.pointer);
            if (value.is_null()) {
                if (root.contains(where)) {
                    auto &parent = root[where.parent_pointer()];
                    if (parent.is_array())
                        parent.erase(std::stoul(where.back()));
                    else
                        parent.erase(where.back());
                }
            } else {
                root[where] = value;
            }
        } catch (const nlohmann::ordered_json::exception &e) {
            return Error{"", patch.pointer, std::string("cannot be set: ") + e.what()};
        }
    }
    const auto touches = [&](const char *pointer) {
        return std::any_of(patches.begin(), patches.end(), [&](const BriefPatch &p) { return p.pointer == pointer; });
    };
    if (root.contains("workload") && root["workload"].is_object()) {
        if (touches("/workload/kind"))
            addKindDefaults(root, catalog);
        if (touches("/workload/traffic/mode") || touches("/workload/kind"))
            addTrafficModeDefaults(root);
    }
    std::string text = canonicalText(root);
    auto parsed = parseBrief(text, "", catalog);
    if (!parsed)
        return parsed.error();
    return PatchedBrief{std::move(text), std::move(parsed).value()};
}

} // namespace wb
