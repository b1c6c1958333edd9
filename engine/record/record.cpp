#include "record/record.h"

#include "core/jsonfields.h"
#include "procurement/gate.h"
#include "procurement/plan.h"
#include "procurement/vendors.h"
#include "report/labels.h"
#include "report/report.h"
#include "core/hash.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>

namespace wb {

namespace {

using Json = nlohmann::json;   // std::map keys: sorted, so dump() is canonical

constexpr const char *kFormat = "gpu-workbench-decision-record";

Json parsed(const std::string &text)
{
    return Json::parse(text, nullptr, false);
}

Json priceJson(const GpuPrice &p)
{
    return {{"gpu", p.gpu},
            {"provider", p.provider},
            {"term", std::string(enumName(p.term))},
            {"usd_per_gpu_hour", p.usdPerGpuHour},
            {"usd_per_gpu", p.usdPerGpu},
            {"observed", p.observed},
            {"source", p.source},
            {"note", p.note},
            {"terms", commercialTermsWords(p)}};
}

Json apiPriceJson(const ApiPrice &p)
{
    Json j = {{"model", p.model},
              {"provider", p.provider},
              {"failure_rate", p.failureRate},
              {"observed", p.observed},
              {"source", p.source},
              {"note", p.note}};
    for (const auto &[field, usd] : apiRateFields(p))
        j[field] = usd;
    if (p.unit == ApiUnit::TrainingTokens)
        j["fine_tuning"] = enumName(p.fineTuning);
    if (p.weightsPrecision)
        j["weights_precision"] = enumName(*p.weightsPrecision);
    return j;
}

// The catalog entries a brief's figures rest on, keyed by what identifies them (so that a change
// to one entry shows as that entry, not as a shift of a list): its candidates' GPUs, its model,
// the catalog's prices of those GPUs and the model's API prices. The brief's own prices are in
// the brief.
Json catalogSection(const Brief &brief, const Catalog &catalog)
{
    std::set<std::string> gpus;
    for (const Candidate &c : brief.candidates)
        gpus.insert(c.gpu);
    Json section = {{"gpus", Json::object()}, {"prices", Json::object()}, {"api_prices", Json::object()}};
    const Json allGpus = parsed(catalogGpusJson(catalog));
    for (const Json &g : allGpus["gpus"])
        if (gpus.count(g["id"].get<std::string>())) {
            Json entry = g;
            entry.erase("catalog_file");   // where this machine keeps it, not what it says
            section["gpus"][g["id"].get<std::string>()] = entry;
        }
    section["model"] = nullptr;
    const Json allModels = parsed(catalogModelsJson(catalog));
    if (brief.workload.modelFromCatalog)
        for (const Json &m : allModels["models"])
            if (m["id"] == brief.workload.model.id) {
                section["model"] = m;
                section["model"].erase("catalog_file");
            }
    for (const GpuPrice &p : catalog.prices())
        if (gpus.count(p.gpu))
            section["prices"][p.gpu + " | " + p.provider + " | " + std::string(enumName(p.term))] = priceJson(p);
    const std::string &model = brief.workload.media ? brief.workload.media->model.id : brief.workload.model.id;
    for (const ApiPrice &p : catalog.apiPrices())
        if (p.model == model)
            section["api_prices"][p.model + " | " + p.provider
                                  + (p.unit == ApiUnit::TrainingTokens ? " | " + std::string(enumName(p.fineTuning)) : "")] =
                apiPriceJson(p);
    return section;
}

// The step-model factors fitted to the scenario's runs, at full precision, with what the figures
// said of them: enough to apply them again unchanged.
Json calibrationSection(const std::vector<EvidenceCalibration> &calibrations)
{
    Json list = Json::array();
    for (const CandidateEfficiency &e : candidateEfficiencies(calibrations)) {
        Json factors = Json::object();
        for (const EfficiencyFactor &f : e.table->factors())
            factors[f.key] = {{"value", f.value}, {"cases", f.cases}};
        const Json warnings = detail::messagesJson(e.warnings);
        list.push_back({{"gpu", e.gpu},
                        {"serving_stack", std::string(enumName(e.stack))},
                        {"provenance", e.provenance},
                        {"runs", e.runs},
                        {"warnings", warnings},
                        {"factors", factors}});
    }
    return list;
}

std::string routeOf(const RecordDecision &d)
{
    if (!d.candidate)
        return "api";
    if (d.hybrid)
        return "hybrid";
    switch (d.term.value_or(PricingTerm::OnDemand)) {
    case PricingTerm::OnDemand:
    case PricingTerm::Spot:
        return "rent";
    case PricingTerm::Reserved1y:
    case PricingTerm::Reserved3y:
        return "reserve";
    case PricingTerm::Purchase:
        return "buy";
    }
    return "rent";
}

// The decision, checked against the results; the option it names, for its figures.
Result<Json> decisionSection(const RecordDecision &d, const Results &results)
{
    const auto refuse = [](const std::string &field, const std::string &why) { return Error{"", "/decision/" + field, why}; };
    const CostOption *option = nullptr;
    std::string label;
    if (!d.candidate) {
        if (d.term || d.hybrid)
            return refuse("route", "the model API has no pricing term or hybrid; name a candidate for those");
        if (!results.cost.api)
            return refuse("route", "the brief prices no model API, so it cannot be the decision");
        option = &*results.cost.api;
        label = "the model API";
    } else {
        if (*d.candidate >= results.results.size())
            return refuse("candidate", fmt::format("there is no candidate {} (the scenario has {})", *d.candidate + 1,
                                                   results.results.size()));
        const CandidateResult &r = deployment(results.results[*d.candidate]);
        label = deploymentLabel(results.results[*d.candidate]);
        if (d.hybrid) {
            if (!results.cost.hybrid || results.cost.hybridCandidate != *d.candidate)
                return refuse("route", "the engine found no hybrid for candidate " + std::to_string(*d.candidate + 1));
            option = &*results.cost.hybrid;
        } else {
            std::string terms;
            for (const CostOption &o : r.cost.options) {
                terms += (terms.empty() ? "" : ", ") + std::string(o.term ? enumName(*o.term) : "none");
                if (o.term == d.term && !option)
                    option = &o;
            }
            if (!option)
                return refuse("term", "candidate " + std::to_string(*d.candidate + 1) + " has no "
                                          + (d.term ? std::string(enumName(*d.term)) : std::string("pricing term")) + " price"
                                          + (terms.empty() ? std::string(" (it has no price at all)") : " (it has " + terms + ")"));
        }
    }
    const auto blank = [](const std::string &s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; };
    if (blank(d.rationale))
        return refuse("rationale", "a decision record needs its rationale: why this option, in the team's words");
    if (d.signOff.empty() || std::any_of(d.signOff.begin(), d.signOff.end(), blank))
        return refuse("sign_off", "a decision record needs the name of each person who signs it");
    if (!isIsoDate(d.date))
        return refuse("date", "\"" + d.date + "\" is not a date (YYYY-MM-DD)");

    const std::optional<Recommendation> &rec = results.cost.recommendation;
    Json engine = nullptr;
    bool follows = false;
    if (rec) {
        engine = {{"route", std::string(enumName(rec->route))},
                  {"candidate_index", rec->candidate ? Json(*rec->candidate) : Json(nullptr)},
                  {"term", rec->term ? Json(std::string(enumName(*rec->term))) : Json(nullptr)},
                  {"headline", recommendationHeadline(results)}};
        const bool api = rec->route == Route::Api;
        const bool hybrid = rec->route == Route::Hybrid;
        follows = api ? !d.candidate : d.candidate == rec->candidate && d.hybrid == hybrid && (hybrid || d.term == rec->term);
    }
    return Json{{"candidate_index", d.candidate ? Json(*d.candidate) : Json(nullptr)},
                {"option", label},
                {"route", routeOf(d)},
                {"term", d.term ? Json(std::string(enumName(*d.term))) : Json(nullptr)},
                {"provider", option->provider},
                {"cost_per_accepted_output_usd", option->costPerAcceptedOutput},
                {option->perRun ? "usd_per_run" : "usd_per_month", option->totalUsdPerMonth},
                {"rationale", d.rationale},
                {"sign_off", d.signOff},
                {"date", d.date},
                {"engine_recommendation", engine},
                {"follows_engine_recommendation", follows}};
}

// Each vendor's answers against what the commitment requires (vendorGaps, the gate's rule).
Json checklistStatus(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, Commitment commitment)
{
    const auto items = [&tmpl](const std::vector<std::string> &ids) {
        Json list = Json::array();
        for (const std::string &id : ids) {
            const ChecklistItem *item = tmpl.item(id);
            list.push_back({{"id", id}, {"question", item ? item->question : std::string()}});
        }
        return list;
    };
    Json vendors = Json::array();
    for (const Vendor &v : checklist.vendors) {
        const ChecklistProgress progress = vendorProgress(tmpl, v);
        const VendorGaps gaps = vendorGaps(tmpl, v, commitment);
        vendors.push_back({{"name", v.name},
                           {"answered", progress.answered},
                           {"items", progress.items},
                           {"missing", items(gaps.missing)},
                           {"unbacked", items(gaps.unbacked)}});
    }
    return {{"commitment", std::string(enumName(commitment))}, {"vendors", vendors}};
}

std::string hashOf(Json content)
{
    content.erase("sha256");
    return sha256Hex(content.dump());
}

// Every scalar of a JSON document by its JSON pointer.
void flatten(const Json &j, const std::string &pointer, std::map<std::string, Json> &out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            std::string key = it.key();
            std::string escaped;
            for (char c : key)
                escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
            flatten(it.value(), pointer + "/" + escaped, out);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            flatten(j[i], pointer + "/" + std::to_string(i), out);
        if (j.empty())
            out[pointer] = Json::array();
    } else {
        out[pointer] = j;
    }
}

bool same(const Json &a, const Json &b)
{
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        return x == y || std::abs(x - y) <= 1e-12 * std::max(std::abs(x), std::abs(y));
    }
    return a == b;
}

void compare(const Json &before, const Json &after, const std::string &root, bool input, std::vector<RecordChange> &changes)
{
    std::map<std::string, Json> a, b;
    flatten(before, root, a);
    flatten(after, root, b);
    std::set<std::string> pointers;
    for (const auto &[p, v] : a)
        pointers.insert(p);
    for (const auto &[p, v] : b)
        pointers.insert(p);
    for (const std::string &p : pointers) {
        const auto x = a.find(p), y = b.find(p);
        if (x != a.end() && y != b.end() && same(x->second, y->second))
            continue;
        changes.push_back({input, p, x == a.end() ? "(none)" : x->second.dump(), y == b.end() ? "(none)" : y->second.dump()});
    }
}

std::string decisionText(const Json &d)
{
    if (d.is_null())
        return "draft: no decision recorded";
    return fmt::format("{} ({}): {}", d.value("option", ""), d.value("route", ""), d.value("rationale", ""));
}

} // namespace

Result<std::string> makeDecisionRecord(const RecordInputs &in, const std::optional<RecordDecision> &decision)
{
    if (!in.brief || !in.results || !in.catalog)
        return Error{"", "", "a decision record needs the brief, its results and the catalog"};
    const Json brief = parsed(in.briefJson);
    if (!brief.is_object())
        return Error{"", "/brief", "the scenario's brief is not a JSON object"};
    Json content;
    content["format"] = kFormat;
    content["version"] = 1;
    content["scenario"] = in.scenario;
    content["created"] = in.created;
    content["engine_version"] = engineVersion();
    content["supersedes"] = in.supersedes ? Json(*in.supersedes) : Json(nullptr);
    content["brief"] = brief;
    const Json results = parsed(resultsToJson(*in.brief, *in.results));
    content["results"] = results;
    content["today"] = results["cost"].value("prices_aged_against", "");
    content["catalog"] = catalogSection(*in.brief, *in.catalog);
    content["calibration"] = calibrationSection(in.calibrations);
    content["evidence"] = parsed(evidenceListJson(in.runs));
    content["checklist"] = nullptr;
    content["checklist_status"] = nullptr;
    if (in.checklistTemplate && in.checklist) {
        content["checklist"] = parsed(answersToJson(*in.checklistTemplate, *in.checklist));
        Commitment commitment = Commitment::OnDemand;
        if (decision && decision->term && !decision->hybrid)
            commitment = *decision->term == PricingTerm::Purchase ? Commitment::Purchase
                : *decision->term == PricingTerm::Reserved1y || *decision->term == PricingTerm::Reserved3y ? Commitment::Reserved
                                                                                                            : Commitment::OnDemand;
        content["checklist_status"] = checklistStatus(*in.checklistTemplate, *in.checklist, commitment);
    }
    content["plan"] = parsed(planToJson(makeBenchmarkPlan(*in.brief, *in.results, *in.catalog)));
    content["evidence_comparison"] = nullptr;
    if (!in.runs.empty())
        content["evidence_comparison"] = parsed(evidenceComparisonJson(
            in.runs, predictRuns(*in.brief, in.runs, *in.catalog, in.catalog->efficiency(), in.calibrations), in.calibrations));
    content["draft"] = !decision;
    content["decision"] = nullptr;
    if (decision) {
        auto d = decisionSection(*decision, *in.results);
        if (!d)
            return d.error();
        content["decision"] = *d;
    }
    content["sha256"] = hashOf(content);
    return content.dump();
}

Result<RecordView> readDecisionRecord(const std::string &contentJson, const std::string &name)
{
    const Json j = parsed(contentJson);
    if (!j.is_object() || j.value("format", "") != kFormat)
        return Error{name, "", "is not a decision record"};
    if (j.value("version", 0) != 1)
        return Error{name, "/version", "is a decision record of another version (" + j["version"].dump() + ")"};
    RecordView v;
    try {
        v.scenario = j.at("scenario").get<std::string>();
        v.created = j.at("created").get<std::string>();
        v.engineVersion = j.at("engine_version").get<std::string>();
        v.sha256 = j.at("sha256").get<std::string>();
        v.draft = j.at("draft").get<bool>();
        if (j.at("supersedes").is_number_integer())
            v.supersedes = j.at("supersedes").get<long long>();
        v.briefJson = j.at("brief").dump(2);
        v.resultsJson = j.at("results").dump(2);
        v.today = j.at("today").get<std::string>();
        const Json &d = j.at("decision");
        v.decisionText = decisionText(d);
        if (!d.is_null()) {
            v.choice = fmt::format("{} ({})", d.value("option", ""), d.value("route", ""));
            RecordDecision dec;
            if (d.at("candidate_index").is_number_unsigned())
                dec.candidate = d.at("candidate_index").get<std::size_t>();
            if (d.at("term").is_string())
                dec.term = enumFromString<PricingTerm>(d.at("term").get<std::string>());
            dec.hybrid = d.at("route") == "hybrid";
            dec.rationale = d.at("rationale").get<std::string>();
            dec.signOff = d.at("sign_off").get<std::vector<std::string>>();
            dec.date = d.at("date").get<std::string>();
            v.decision = dec;
        }
    } catch (const std::exception &e) {
        return Error{name, "", std::string("is a damaged decision record: ") + e.what()};
    }
    v.contentJson = contentJson;
    v.intact = hashOf(j) == v.sha256;
    return v;
}

namespace {
Result<Recomputation> recompute(const RecordView &record, const RecomputeWith &with);
}

Result<Recomputation> recomputeDecisionRecord(const RecordView &record, const RecomputeWith &with)
{
    // A record changed by hand (its hash no longer matches) may lack what ours hold or hold it
    // with other types: that is a damaged record, said as such, never a crash.
    try {
        return recompute(record, with);
    } catch (const std::exception &e) {
        return Error{"", "", "the record of \"" + record.scenario + "\" cannot be recomputed: it is damaged (" + e.what() + ")"};
    }
}

namespace {

Result<Recomputation> recompute(const RecordView &record, const RecomputeWith &with)
{
    if (!with.catalog)
        return Error{"", "", "a recomputation needs the catalog"};
    const Catalog &catalog = *with.catalog;
    Json j = parsed(record.contentJson);  // not const: a member it lacks reads as null
    auto brief = parseBrief(record.briefJson, "decision record of \"" + record.scenario + "\"", catalog);
    if (!brief)
        return Error{brief.error().file, brief.error().path,
                     brief.error().message + " (the record's brief no longer reads with this catalog)"};
    Recomputation out;
    EvaluateOptions options;
    options.today = record.today;
    // The calibration from runs as recorded: its factors applied again by key over this
    // version's table (a factor this version no longer has is noted, not guessed).
    std::vector<EfficiencyTable> tables;
    const Json &calibrations = j["calibration"];
    tables.reserve(calibrations.size());
    for (const Json &c : calibrations) {
        EfficiencyTable table = catalog.efficiency();
        for (auto it = c["factors"].begin(); it != c["factors"].end(); ++it) {
            EfficiencyFactor *f = table.factor(it.key());
            if (!f) {
                out.notes.push_back("the recorded calibration's factor " + it.key() + " is not in this version; left out");
                continue;
            }
            f->value = it.value()["value"].get<double>();
            f->cases = it.value()["cases"].get<std::vector<std::string>>();
        }
        tables.push_back(std::move(table));
    }
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const Json &c = calibrations[i];
        CandidateEfficiency e;
        e.gpu = c["gpu"].get<std::string>();
        e.stack = enumFromString<ServingStack>(c["serving_stack"].get<std::string>()).value_or(ServingStack::Generic);
        e.table = &tables[i];
        e.provenance = c["provenance"].get<std::string>();
        e.runs = c["runs"].get<int>();
        for (const Json &w : c["warnings"])
            e.warnings.push_back(detail::messageFromJson(w));
        options.candidateEfficiency.push_back(std::move(e));
    }
    Results results = evaluate(*brief, catalog, options);
    if (with.gate)
        with.gate(results);
    const Json now = parsed(resultsToJson(*brief, results));
    out.resultsJson = now.dump(2);
    if (record.engineVersion != engineVersion())
        out.changes.push_back({true, "/engine_version", Json(record.engineVersion).dump(), Json(engineVersion()).dump()});
    compare(j["catalog"], catalogSection(*brief, catalog), "/catalog", true, out.changes);
    compare(j["checklist"], with.checklistJson.empty() ? Json(nullptr) : parsed(with.checklistJson), "/checklist", true,
            out.changes);
    Json before = j["results"];
    Json after = now;
    // The version stamp is listed once, above, not again inside the figures.
    before.erase("engine_version");
    after.erase("engine_version");
    compare(before, after, "/results", false, out.changes);
    return out;
}

} // namespace

std::string recomputationMarkdown(const RecordView &record, const Recomputation &r)
{
    std::string out = fmt::format("# Decision record of \"{}\", {}, recomputed with engine {}\n\n", record.scenario, record.created,
                                  engineVersion());
    if (!record.intact)
        out += "**The record's content does not match its SHA-256: it was changed after it was recorded.**\n\n";
    for (const std::string &n : r.notes)
        out += "- " + n + "\n";
    if (r.changes.empty())
        return out + "No differences: every input and figure is as recorded.\n";
    int inputs = 0;
    for (const RecordChange &c : r.changes)
        inputs += c.input ? 1 : 0;
    out += fmt::format("{} input(s) and {} figure(s) changed.\n\n| | where | recorded | now |\n|---|---|---|---|\n", inputs,
                       r.changes.size() - std::size_t(inputs));
    const auto cell = [](std::string s) {
        std::string e;
        for (char c : s)
            e += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
        return e;
    };
    for (const RecordChange &c : r.changes)
        out += fmt::format("| {} | `{}` | {} | {} |\n", c.input ? "input" : "figure", cell(c.pointer), cell(c.before), cell(c.after));
    return out;
}

std::string recomputationJson(const RecordView &record, const Recomputation &r)
{
    Json changes = Json::array();
    for (const RecordChange &c : r.changes)
        changes.push_back({{"kind", c.input ? "input" : "figure"},
                           {"pointer", c.pointer},
                           {"recorded", parsed(c.before == "(none)" ? "null" : c.before)},
                           {"now", parsed(c.after == "(none)" ? "null" : c.after)}});
    return Json{{"scenario", record.scenario},
                {"created", record.created},
                {"recorded_with", record.engineVersion},
                {"recomputed_with", engineVersion()},
                {"intact", record.intact},
                {"notes", r.notes},
                {"changes", changes}}
               .dump(2)
        + "\n";
}

} // namespace wb
