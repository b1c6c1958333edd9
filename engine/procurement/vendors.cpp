#include "procurement/vendors.h"

#include "catalog/prices.h"
#include "core/format.h"
#include "core/jsonfields.h"
#include "core/limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <set>
#include <string_view>

namespace wb {

namespace {

using detail::FieldError;
using detail::Fields;
using detail::Json;
using OrderedJson = nlohmann::ordered_json;

constexpr std::size_t kMaxVendorName = 200;
constexpr std::size_t kMaxText = 20000;  // an answer's text, a vendor's notes

bool isHex64(const std::string &s)
{
    return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Free text: at most `max` bytes, valid UTF-8, no control characters (line breaks allowed where
// `multiline`), surrounding spaces dropped.
std::string boundedText(const Fields &f, const char *key, std::size_t max, bool multiline)
{
    const Json *j = f.find(key);
    std::string value = j && !j->is_null() ? f.string(key) : std::string();
    if (value.size() > max)
        f.fail(key, fmt::format("is {} bytes long; at most {} are kept", value.size(), max));
    if (auto bad = limits::textProblem(value, multiline))
        f.fail(key, *bad);
    const auto first = value.find_first_not_of(" \t\r\n"), last = value.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
}

std::string isoDate(const Fields &f, const char *key)
{
    std::string value = f.optString(key).value_or("");
    if (!value.empty() && !isIsoDate(value))
        f.fail(key, "must be a date as YYYY-MM-DD, not \"" + limits::printable(value) + "\"");
    return value;
}

Vendor readVendor(const Fields &f)
{
    Vendor v;
    v.name = f.string("name");
    if (auto bad = checkVendorName(v.name))
        f.fail("name", *bad);
    v.offer = f.enumValue<VendorOffer>("offer");
    if (f.has("providers")) {
        const Json &list = f.array("providers");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = f.pathOf("providers") + fmt::format("/{}", i);
            if (!list[i].is_string() || limits::isBlankText(list[i].get<std::string>()) ||
                list[i].get<std::string>().size() > kMaxVendorName)
                throw FieldError{at, "must be a provider's name as its price gives it (1 to 200 bytes)"};
            if (auto bad = limits::textProblem(list[i].get<std::string>(), false))
                throw FieldError{at, *bad};
            v.providers.push_back(list[i].get<std::string>());
        }
    }
    if (f.has("candidates")) {
        const Json &list = f.array("candidates");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = f.pathOf("candidates") + fmt::format("/{}", i);
            if (!list[i].is_object())
                throw FieldError{at, "must be an object {\"scenario\": NAME, \"candidate\": N}"};
            const Fields c(list[i], at);
            CandidateRef ref{c.string("scenario"), int(c.integer("candidate", detail::Range{1, 10000}))};
            if (limits::isBlankText(ref.scenario) || ref.scenario.size() > 1000)
                c.fail("scenario", "must name a scenario (1 to 1,000 bytes)");
            if (auto bad = limits::textProblem(ref.scenario, false))
                c.fail("scenario", *bad);
            v.candidates.push_back(std::move(ref));
        }
    }
    v.contact = boundedText(f, "contact", 1000, false);
    v.contacted = isoDate(f, "contacted");
    v.notes = boundedText(f, "notes", kMaxText, true);
    for (const std::string &key : f.unknownKeys({"name", "offer", "providers", "candidates", "contact", "contacted", "notes"}))
        throw FieldError{key, "is not a vendor field (name, offer, providers, candidates, contact, contacted, notes)"};
    return v;
}

OrderedJson vendorJson(const Vendor &v)
{
    OrderedJson j = {{"name", v.name}, {"offer", std::string(enumName(v.offer))}, {"providers", v.providers}};
    OrderedJson refs = OrderedJson::array();
    for (const CandidateRef &c : v.candidates)
        refs.push_back({{"scenario", c.scenario}, {"candidate", c.candidate}});
    j["candidates"] = refs;
    j["contact"] = v.contact;
    j["contacted"] = v.contacted;
    j["notes"] = v.notes;
    return j;
}

OrderedJson answerJson(const VendorAnswer &a)
{
    OrderedJson j = {{"answer", std::string(enumName(a.answer))}};
    if (!a.text.empty())
        j["text"] = a.text;
    if (!a.link.empty())
        j["evidence_link"] = a.link;
    if (a.file)
        j["attachment"] = {{"name", a.file->name}, {"sha256", a.file->sha256}, {"bytes", a.file->bytes}};
    if (!a.answeredOn.empty())
        j["answered_on"] = a.answeredOn;
    if (!a.answeredBy.empty())
        j["answered_by"] = a.answeredBy;
    return j;
}

std::vector<const Vendor *> chosen(const ProjectChecklist &checklist, const std::string &only)
{
    std::vector<const Vendor *> out;
    for (const Vendor &v : checklist.vendors)
        if (only.empty() || v.name == only)
            out.push_back(&v);
    return out;
}

} // namespace

bool VendorAnswer::hasEvidence() const
{
    return !limits::isBlankText(link) || file.has_value();
}

const VendorAnswer *Vendor::answer(const std::string &item) const
{
    for (const VendorAnswer &a : answers)
        if (a.item == item)
            return &a;
    return nullptr;
}

void Vendor::setAnswer(const ChecklistTemplate &tmpl, const std::string &item, std::optional<VendorAnswer> value)
{
    answers.erase(std::remove_if(answers.begin(), answers.end(), [&](const VendorAnswer &a) { return a.item == item; }),
                  answers.end());
    if (!value)
        return;
    value->item = item;
    answers.push_back(std::move(*value));
    // The template's order (answers to items it no longer has go last, in their order).
    auto rank = [&](const VendorAnswer &a) {
        for (std::size_t i = 0; i < tmpl.items.size(); ++i)
            if (tmpl.items[i].id == a.item)
                return i;
        return tmpl.items.size();
    };
    std::stable_sort(answers.begin(), answers.end(),
                     [&](const VendorAnswer &a, const VendorAnswer &b) { return rank(a) < rank(b); });
}

bool Vendor::quotes(const std::string &provider) const
{
    return std::find(providers.begin(), providers.end(), provider) != providers.end();
}

bool Vendor::offers(const CandidateRef &candidate) const
{
    return std::find(candidates.begin(), candidates.end(), candidate) != candidates.end();
}

const Vendor *ProjectChecklist::vendor(const std::string &name) const
{
    for (const Vendor &v : vendors)
        if (v.name == name)
            return &v;
    return nullptr;
}

Vendor *ProjectChecklist::vendor(const std::string &name)
{
    return const_cast<Vendor *>(std::as_const(*this).vendor(name));
}

namespace {
bool sameSection(const ChecklistSection &a, const ChecklistSection &b)
{
    return a.id == b.id && a.title == b.title && a.titleEs == b.titleEs;
}
bool sameItem(const ChecklistItem &a, const ChecklistItem &b)
{
    return a.id == b.id && a.section == b.section && a.question == b.question && a.questionEs == b.questionEs &&
           a.evidence == b.evidence && a.requiredFrom == b.requiredFrom;
}
bool sameAnswer(const VendorAnswer &a, const VendorAnswer &b)
{
    const bool files = a.file.has_value() == b.file.has_value() &&
                       (!a.file || (a.file->name == b.file->name && a.file->sha256 == b.file->sha256 &&
                                    a.file->bytes == b.file->bytes));
    return a.item == b.item && a.answer == b.answer && a.text == b.text && a.link == b.link && files &&
           a.answeredOn == b.answeredOn && a.answeredBy == b.answeredBy;
}
bool sameVendor(const Vendor &a, const Vendor &b)
{
    return a.name == b.name && a.offer == b.offer && a.providers == b.providers && a.candidates == b.candidates &&
           a.contact == b.contact && a.contacted == b.contacted && a.notes == b.notes &&
           std::equal(a.answers.begin(), a.answers.end(), b.answers.begin(), b.answers.end(), sameAnswer);
}
} // namespace

bool ProjectChecklist::operator==(const ProjectChecklist &o) const
{
    return templateVersion == o.templateVersion &&
           std::equal(extraSections.begin(), extraSections.end(), o.extraSections.begin(), o.extraSections.end(),
                      sameSection) &&
           std::equal(extraItems.begin(), extraItems.end(), o.extraItems.begin(), o.extraItems.end(), sameItem) &&
           std::equal(vendors.begin(), vendors.end(), o.vendors.begin(), o.vendors.end(), sameVendor);
}

ChecklistTemplate projectTemplate(const ChecklistTemplate &shipped, const ProjectChecklist &checklist)
{
    ChecklistTemplate t = shipped;
    for (const ChecklistSection &s : checklist.extraSections)
        if (!t.section(s.id))
            t.sections.push_back(s);
    for (const ChecklistItem &item : checklist.extraItems) {
        if (t.item(item.id) || !t.section(item.section))
            continue;
        auto last = std::find_if(t.items.rbegin(), t.items.rend(),
                                 [&](const ChecklistItem &i) { return i.section == item.section; });
        if (last != t.items.rend()) {
            t.items.insert(last.base(), item);
            continue;
        }
        // The first item of a section: after the items of the sections listed before it.
        auto sectionRank = [&](const std::string &id) {
            for (std::size_t i = 0; i < t.sections.size(); ++i)
                if (t.sections[i].id == id)
                    return i;
            return t.sections.size();
        };
        const std::size_t rank = sectionRank(item.section);
        auto at = std::find_if(t.items.begin(), t.items.end(),
                               [&](const ChecklistItem &i) { return sectionRank(i.section) > rank; });
        t.items.insert(at, item);
    }
    return t;
}

ChecklistProgress vendorProgress(const ChecklistTemplate &tmpl, const Vendor &vendor, const std::string &section)
{
    ChecklistProgress p;
    for (const ChecklistItem &item : tmpl.items) {
        if (!section.empty() && item.section != section)
            continue;
        ++p.items;
        const VendorAnswer *a = vendor.answer(item.id);
        if (a && a->answer != Answer::Unknown)
            ++p.answered;
    }
    return p;
}

Standing standing(const ChecklistItem &item, const VendorAnswer *a, Commitment commitment)
{
    if (!item.requiredFor(commitment))
        return Standing::NotRequired;
    if (!a || a->answer == Answer::Unknown)
        return Standing::Missing;
    if (commitment >= kEvidenceFrom && !a->hasEvidence() &&
        (a->answer != Answer::NotApplicable || limits::isBlankText(a->text)))
        return Standing::Unbacked;
    return Standing::Met;
}

VendorGaps vendorGaps(const ChecklistTemplate &tmpl, const Vendor &vendor, Commitment commitment)
{
    VendorGaps gaps;
    for (const ChecklistItem &item : tmpl.items) {
        const Standing s = standing(item, vendor.answer(item.id), commitment);
        if (s == Standing::Missing)
            gaps.missing.push_back(item.id);
        else if (s == Standing::Unbacked)
            gaps.unbacked.push_back(item.id);
    }
    return gaps;
}

std::optional<std::string> checkVendorName(const std::string &name)
{
    if (auto bad = limits::textProblem(name, false))
        return *bad + ": \"" + limits::printable(name) + "\"";
    if (limits::isBlankText(name))
        return "is empty (or only invisible characters); a vendor needs a name";
    if (name.size() > kMaxVendorName)
        return fmt::format("is {} bytes long; a vendor's name has at most {} bytes", name.size(), kMaxVendorName);
    if (name.front() == ' ' || name.back() == ' ')
        return "starts or ends with a space: \"" + name + "\"";
    return std::nullopt;
}

std::optional<std::string> checkChecklist(const ProjectChecklist &c)
{
    if (c.vendors.size() > kMaxVendors)
        return fmt::format("has {} vendors; a checklist holds at most {}", c.vendors.size(), kMaxVendors);
    for (std::size_t i = 0; i < c.vendors.size(); ++i) {
        const Vendor &v = c.vendors[i];
        const std::string who = "vendor \"" + limits::printable(v.name) + "\"";
        if (auto bad = checkVendorName(v.name))
            return "a vendor's name " + *bad;
        const auto lower = [](std::string s) {
            for (char &ch : s)
                ch = char(std::tolower(static_cast<unsigned char>(ch)));
            return s;
        };
        for (std::size_t j = 0; j < i; ++j)
            if (lower(c.vendors[j].name) == lower(v.name))
                return "two vendors are named \"" + limits::printable(v.name) + "\" (names differ by more than case)";
        if (!v.contacted.empty() && !isIsoDate(v.contacted))
            return who + " was contacted on \"" + limits::printable(v.contacted) + "\", not a date as YYYY-MM-DD";
        for (const std::string *text : {&v.contact})
            if (auto bad = limits::textProblem(*text, false))
                return who + "'s contact " + *bad;
        if (auto bad = limits::textProblem(v.notes, true))
            return who + "'s notes " + *bad;
        for (const std::string &p : v.providers)
            if (auto bad = limits::textProblem(p, false))
                return who + "'s provider name " + *bad;
        for (const CandidateRef &ref : v.candidates)
            if (auto bad = limits::textProblem(ref.scenario, false))
                return who + "'s scenario name " + *bad;
        for (const VendorAnswer &a : v.answers) {
            const std::string where = who + "'s answer to " + limits::printable(a.item);
            if (!limits::isPlainName(a.item))
                return where + ": the item is not a plain id";
            for (const std::string *text : {&a.link, &a.answeredBy})
                if (auto bad = limits::textProblem(*text, false))
                    return where + " " + *bad;
            if (auto bad = limits::textProblem(a.text, true))
                return where + " " + *bad;
            if (!a.answeredOn.empty() && !isIsoDate(a.answeredOn))
                return where + " is dated \"" + limits::printable(a.answeredOn) + "\", not YYYY-MM-DD";
            if (a.file && (!isHex64(a.file->sha256) || a.file->bytes > kAttachmentMaxBytes))
                return where + " names a file with a bad hash or size";
            if (a.file)
                if (auto bad = limits::textProblem(a.file->name, false))
                    return where + ": the file's name " + *bad;
        }
    }
    return std::nullopt;
}

Result<AnswersImport> parseAnswersFile(const std::string &jsonText, const std::string &fileName,
                                       const ChecklistTemplate &tmpl)
{
    const auto parsed = detail::parseFormatted(jsonText, fileName, "gpu-workbench-checklist-answers", "checklist answers file");
    if (!parsed)
        return parsed.error();
    const Json &root = *parsed;
    AnswersImport in;
    try {
        const Fields top(root, "");
        for (const std::string &key : top.unknownKeys({"format", "version", "template_version", "answers_accepted",
                                                       "evidence_from", "vendors", "items"}))
            throw FieldError{key, "is not a field of an answers file (format, version, template_version, vendors, items)"};
        in.templateVersion = top.optString("template_version").value_or("");
        const Json &vendors = top.array("vendors");
        if (vendors.empty())
            top.fail("vendors", "is empty; the file answers for no vendor");
        if (vendors.size() > kMaxVendors)
            top.fail("vendors", fmt::format("lists {} vendors; at most {}", vendors.size(), kMaxVendors));
        for (std::size_t i = 0; i < vendors.size(); ++i) {
            const std::string at = fmt::format("/vendors/{}", i);
            if (!vendors[i].is_object())
                throw FieldError{at, "each vendor is an object"};
            Vendor v = readVendor(Fields(vendors[i], at));
            for (const Vendor &earlier : in.vendors)
                if (earlier.name == v.name)
                    throw FieldError{at + "/name", "\"" + v.name + "\" appears twice"};
            in.vendors.push_back(std::move(v));
        }

        const Json &items = top.array("items");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string at = fmt::format("/items/{}", i);
            if (!items[i].is_object())
                throw FieldError{at, "each item is an object"};
            const Fields f(items[i], at);
            for (const std::string &key : f.unknownKeys({"id", "section", "question", "evidence", "required_from", "answers"}))
                throw FieldError{key, "is not a field of an item (id, section, question, evidence, required_from, answers)"};
            const std::string id = f.string("id");
            if (!tmpl.item(id))
                f.fail("id", "\"" + limits::printable(id) +
                                 "\" is not a question of this project's checklist (template " + tmpl.templateVersion + ")");
            if (!seen.insert(id).second)
                f.fail("id", "\"" + id + "\" appears twice");
            // section, question, evidence and required_from are there for the reader; the
            // project's template says what they are.
            const auto answers = f.optObject("answers");
            if (!answers)
                continue;
            const Json &object = items[i].at("answers");
            for (auto it = object.begin(); it != object.end(); ++it) {
                const std::string vat = answers->pathOf(it.key());
                auto vendor = std::find_if(in.vendors.begin(), in.vendors.end(),
                                           [&](const Vendor &v) { return v.name == it.key(); });
                if (vendor == in.vendors.end())
                    throw FieldError{vat, "answers for \"" + limits::printable(it.key()) +
                                              "\", who is not one of the file's vendors"};
                if (it.value().is_null())
                    continue;  // left for the vendor to fill
                if (!it.value().is_object())
                    throw FieldError{vat, "must be an object with \"answer\" (or null)"};
                const Fields a(it.value(), vat);
                if (!a.has("answer") || a.find("answer")->is_null())
                    continue;  // not answered yet
                VendorAnswer answer;
                answer.item = id;
                answer.answer = a.enumValue<Answer>("answer");
                answer.text = boundedText(a, "text", kMaxText, true);
                answer.link = boundedText(a, "evidence_link", 2000, false);
                answer.answeredOn = isoDate(a, "answered_on");
                answer.answeredBy = boundedText(a, "answered_by", 200, false);
                const auto given = [&](const char *key) { return a.has(key) && !a.find(key)->is_null(); };
                if (given("evidence_file") && given("attachment"))
                    a.fail("evidence_file", "and \"attachment\" both given; one file per answer");
                if (given("evidence_file")) {
                    // A path relative to the answers file; the caller checks where it leads.
                    const std::string path = a.string("evidence_file");
                    if (path.empty() || path.size() > 4096 || path.find('\0') != std::string::npos)
                        a.fail("evidence_file", "must be a file's path relative to the answers file");
                    in.files.push_back({vendor->name, id, path});
                }
                if (given("attachment")) {
                    const Fields file = a.object("attachment");
                    Attachment att{file.string("name"), file.string("sha256"),
                                   std::uint64_t(file.integer("bytes", detail::Range{0, double(kAttachmentMaxBytes)}))};
                    if (!isHex64(att.sha256))
                        file.fail("sha256", "must be 64 lower-case hexadecimal digits");
                    answer.file = att;
                }
                for (const std::string &key : a.unknownKeys(
                         {"answer", "text", "evidence_link", "evidence_file", "attachment", "answered_on", "answered_by"}))
                    throw FieldError{key, "is not an answer field (answer, text, evidence_link, evidence_file, "
                                          "attachment, answered_on, answered_by)"};
                vendor->setAnswer(tmpl, id, std::move(answer));
            }
        }
    } catch (const FieldError &e) {
        // "/items/12/...": say which question that is, as the file gives it.
        std::string message = e.message;
        unsigned index = 0;
        if (std::sscanf(e.path.c_str(), "/items/%u", &index) == 1 && root.contains("items") && root["items"].is_array() &&
            index < root["items"].size() && root["items"][index].is_object() && root["items"][index].contains("id") &&
            root["items"][index]["id"].is_string())
            message += " (question " + limits::printable(root["items"][index]["id"].get<std::string>()) + ")";
        return Error{fileName, e.path, message};
    }
    return in;
}

void mergeAnswers(ProjectChecklist &checklist, const ChecklistTemplate &tmpl, const AnswersImport &import)
{
    for (const Vendor &given : import.vendors) {
        Vendor *v = checklist.vendor(given.name);
        if (!v) {
            checklist.vendors.push_back(given);
            continue;
        }
        std::vector<VendorAnswer> kept = std::move(v->answers);
        *v = given;
        v->answers = std::move(kept);
        for (const VendorAnswer &a : given.answers)
            v->setAnswer(tmpl, a.item, a);
    }
}

std::string answersToJson(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only)
{
    const std::vector<const Vendor *> vendors = chosen(checklist, only);
    OrderedJson root = {{"format", "gpu-workbench-checklist-answers"},
                        {"version", 1},
                        {"template_version", tmpl.templateVersion},
                        {"answers_accepted", enumChoices<Answer>()},
                        {"evidence_from", std::string(enumName(kEvidenceFrom))}};
    OrderedJson list = OrderedJson::array();
    for (const Vendor *v : vendors)
        list.push_back(vendorJson(*v));
    root["vendors"] = list;
    OrderedJson items = OrderedJson::array();
    for (const ChecklistItem &item : tmpl.items) {
        OrderedJson answers = OrderedJson::object();
        for (const Vendor *v : vendors) {
            const VendorAnswer *a = v->answer(item.id);
            answers[v->name] = a ? answerJson(*a) : OrderedJson(nullptr);
        }
        items.push_back({{"id", item.id},
                         {"section", item.section},
                         {"question", item.question},
                         {"evidence", item.evidence},
                         {"required_from", std::string(enumName(item.requiredFrom))},
                         {"answers", answers}});
    }
    root["items"] = items;
    return root.dump(2) + "\n";
}

Sheet checklistSheet(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only)
{
    const std::vector<const Vendor *> vendors = chosen(checklist, only);
    Sheet sheet{"Checklist",
                {{"section", CellFormat::Text, 24},
                 {"item", CellFormat::Text, 22},
                 {"question", CellFormat::Text, 60},
                 {"evidence_expected", CellFormat::Text, 40},
                 {"required_from", CellFormat::Text, 16}},
                {}};
    for (const Vendor *v : vendors)
        for (const char *what : {"answer", "text", "evidence", "answered_on", "answered_by"})
            sheet.columns.push_back({v->name + " " + what, CellFormat::Text, std::string_view(what) == "text" ? 40.0 : 16.0});
    const auto text = [](std::string s) { return Cell{std::move(s), std::nullopt}; };
    for (const ChecklistItem &item : tmpl.items) {
        const ChecklistSection *s = tmpl.section(item.section);
        std::vector<Cell> cells = {text(s ? s->title : item.section), text(item.id), text(item.question), text(item.evidence),
                                   text(std::string(enumName(item.requiredFrom)))};
        for (const Vendor *v : vendors) {
            const VendorAnswer *a = v->answer(item.id);
            std::string evidence = a ? a->link : "";
            if (a && a->file)
                evidence += (evidence.empty() ? "" : " ; ") + a->file->name + " (sha256 " + a->file->sha256 + ")";
            cells.push_back(text(a ? std::string(enumName(a->answer)) : ""));
            cells.push_back(text(a ? a->text : ""));
            cells.push_back(text(evidence));
            cells.push_back(text(a ? a->answeredOn : ""));
            cells.push_back(text(a ? a->answeredBy : ""));
        }
        sheet.rows.push_back(std::move(cells));
    }
    return sheet;
}

std::string checklistToCsv(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only)
{
    return sheetToCsv(checklistSheet(tmpl, checklist, only), "\r\n");
}


} // namespace wb
