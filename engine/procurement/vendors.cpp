#include "procurement/vendors.h"

#include "catalog/prices.h"
#include "core/format.h"
#include "core/jsonfields.h"
#include "core/limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <algorithm>
#include <set>

namespace wb {

namespace {

using detail::FieldError;
using detail::Fields;
using detail::Json;
using OrderedJson = nlohmann::ordered_json;

constexpr std::size_t kMaxVendorName = 200;
constexpr std::size_t kMaxText = 20000;  // an answer's text, a vendor's notes
constexpr std::size_t kMaxVendors = 100;

bool isHex64(const std::string &s)
{
    return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string boundedText(const Fields &f, const char *key, std::size_t max = kMaxText)
{
    std::string value = f.optString(key).value_or("");
    if (value.size() > max)
        f.fail(key, fmt::format("is {} bytes long; at most {} are kept", value.size(), max));
    return value;
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
            if (!list[i].is_string() || list[i].get<std::string>().empty() || list[i].get<std::string>().size() > kMaxVendorName)
                throw FieldError{f.pathOf("providers") + fmt::format("/{}", i),
                                 "must be a provider's name as its price gives it (1 to 200 characters)"};
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
            if (ref.scenario.empty())
                c.fail("scenario", "is empty");
            v.candidates.push_back(std::move(ref));
        }
    }
    v.contact = boundedText(f, "contact", 1000);
    v.contacted = isoDate(f, "contacted");
    v.notes = boundedText(f, "notes");
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

bool Vendor::backs(const std::string &provider, const CandidateRef &candidate) const
{
    return std::find(providers.begin(), providers.end(), provider) != providers.end() ||
           std::find(candidates.begin(), candidates.end(), candidate) != candidates.end();
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

VendorGaps vendorGaps(const ChecklistTemplate &tmpl, const Vendor &vendor, Commitment commitment)
{
    VendorGaps gaps;
    for (const ChecklistItem &item : tmpl.items) {
        if (!item.requiredFor(commitment))
            continue;
        const VendorAnswer *a = vendor.answer(item.id);
        if (!a || a->answer == Answer::Unknown)
            gaps.missing.push_back(item.id);
        else if (commitment >= kEvidenceFrom && a->answer != Answer::NotApplicable && !a->hasEvidence())
            gaps.unbacked.push_back(item.id);
    }
    return gaps;
}

std::optional<std::string> checkVendorName(const std::string &name)
{
    if (name.find_first_not_of(" \t") == std::string::npos)
        return "is empty; a vendor needs a name";
    if (name.size() > kMaxVendorName)
        return fmt::format("is {} bytes long; a vendor's name has at most {}", name.size(), kMaxVendorName);
    if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
        return "holds a control character (a line break, a tab, an escape): \"" + limits::printable(name) + "\"";
    if (name.front() == ' ' || name.back() == ' ')
        return "starts or ends with a space: \"" + name + "\"";
    return std::nullopt;
}

Result<AnswersImport> parseAnswersFile(const std::string &jsonText, const std::string &fileName,
                                       const ChecklistTemplate &tmpl)
{
    if (auto bad = limits::checkJsonText(jsonText))
        return Error{fileName, "", *bad};
    const Json root = Json::parse(jsonText, nullptr, false);
    if (root.is_discarded())
        return Error{fileName, "", "is not valid JSON (a syntax error, or a number out of range)"};
    if (!root.is_object())
        return Error{fileName, "", "is not a GPU Workbench checklist answers file (a JSON object is expected)"};
    AnswersImport in;
    try {
        const Fields top(root, "");
        if (top.string("format") != "gpu-workbench-checklist-answers")
            top.fail("format", "must be \"gpu-workbench-checklist-answers\"");
        if (top.integer("version", detail::Range{1, 1e9}) != 1)
            top.fail("version", "this build reads version 1");
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
                answer.text = boundedText(a, "text");
                answer.link = boundedText(a, "evidence_link", 2000);
                answer.answeredOn = isoDate(a, "answered_on");
                answer.answeredBy = boundedText(a, "answered_by", 200);
                if (a.has("evidence_file") && a.has("attachment"))
                    a.fail("evidence_file", "and \"attachment\" both given; one file per answer");
                if (auto path = a.optString("evidence_file")) {
                    if (path->empty())
                        a.fail("evidence_file", "is empty");
                    in.files.push_back({vendor->name, id, *path});
                }
                if (auto file = a.optObject("attachment")) {
                    Attachment att{file->string("name"), file->string("sha256"),
                                   std::uint64_t(file->integer("bytes", detail::Range{0, double(kAttachmentMaxBytes)}))};
                    if (!isHex64(att.sha256))
                        file->fail("sha256", "must be 64 lower-case hexadecimal digits");
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
        return Error{fileName, e.path, e.message};
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

std::string checklistToCsv(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only)
{
    const std::vector<const Vendor *> vendors = chosen(checklist, only);
    std::vector<std::string> header = {"section", "item", "question", "evidence_expected", "required_from"};
    for (const Vendor *v : vendors)
        for (const char *what : {"answer", "text", "evidence", "answered_on", "answered_by"})
            header.push_back(v->name + " " + what);
    auto line = [](const std::vector<std::string> &cells) {
        std::string out;
        for (std::size_t i = 0; i < cells.size(); ++i)
            out += (i ? "," : "") + csvCell(cells[i]);
        return out + "\r\n";
    };
    std::string out = line(header);
    for (const ChecklistItem &item : tmpl.items) {
        const ChecklistSection *s = tmpl.section(item.section);
        std::vector<std::string> cells = {s ? s->title : item.section, item.id, item.question, item.evidence,
                                          std::string(enumName(item.requiredFrom))};
        for (const Vendor *v : vendors) {
            const VendorAnswer *a = v->answer(item.id);
            std::string evidence = a ? a->link : "";
            if (a && a->file)
                evidence += (evidence.empty() ? "" : " ; ") + a->file->name + " (sha256 " + a->file->sha256 + ")";
            cells.push_back(a ? std::string(enumName(a->answer)) : "");
            cells.push_back(a ? a->text : "");
            cells.push_back(evidence);
            cells.push_back(a ? a->answeredOn : "");
            cells.push_back(a ? a->answeredBy : "");
        }
        out += line(cells);
    }
    return out;
}

std::string sha256Hex(const std::string &bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
    std::string hex;
    for (unsigned int i = 0; i < length; ++i)
        hex += fmt::format("{:02x}", digest[i]);
    return hex;
}

} // namespace wb
