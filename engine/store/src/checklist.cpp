// The vendor checklist's tables (schema 4): vendors, checklist_answers, attachments,
// checklist_sections and checklist_items, and the meta entry checklist_template_version.
#include "checklist.h"

#include "catalog/prices.h"
#include "core/fileio.h"
#include "core/hash.h"
#include "core/limits.h"
#include "sqlite.h"
#include "store/project.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace wb::store {

namespace {

Error bad(const std::string &what)
{
    return Error{"", "", "is damaged: " + what};
}

std::string inQuotes(const std::string &s)
{
    return "\"" + limits::printable(s) + "\"";
}

} // namespace

Result<ProjectChecklist> readChecklist(sqlite3 *db)
{
    // Evidence files: each as stored (its size and SHA-256 match its bytes, its name is text).
    {
        Statement s(db, "SELECT sha256, name, bytes, length(content), typeof(content), content FROM attachments");
        while (s.step() == SQLITE_ROW) {
            const std::string sha = s.text(0), name = s.text(1);
            if (s.integer(2) != s.integer(3) || s.integer(2) < 0 || std::uint64_t(s.integer(2)) > kAttachmentMaxBytes ||
                s.text(4) != "blob")
                return bad("the evidence file " + inQuotes(name) + " does not have the size it records");
            if (limits::textProblem(name, false) || sha256Hex(s.blob(5)) != sha)
                return bad("the evidence file " + inQuotes(name) + " does not match its SHA-256 (" + sha.substr(0, 16) + "…)");
        }
    }
    ProjectChecklist c;
    c.templateVersion = metaValue(db, "checklist_template_version");
    {
        Statement s(db, "SELECT section, title, title_es FROM checklist_sections ORDER BY id");
        while (s.step() == SQLITE_ROW) {
            ChecklistSection section{s.text(0), s.text(1), s.text(2)};
            if (!limits::isPlainName(section.id) || limits::isBlankText(section.title) ||
                limits::textProblem(section.title, false) || limits::textProblem(section.titleEs, false))
                return bad("a checklist section added by the team has the id " + inQuotes(section.id) + " or no title");
            c.extraSections.push_back(std::move(section));
        }
    }
    {
        Statement s(db, "SELECT item, section, question, question_es, evidence, required_from FROM checklist_items ORDER BY id");
        while (s.step() == SQLITE_ROW) {
            ChecklistItem item;
            item.id = s.text(0);
            item.section = s.text(1);
            item.question = s.text(2);
            item.questionEs = s.text(3);
            item.evidence = s.text(4);
            const auto from = enumFromString<Commitment>(s.text(5));
            const bool clean = !limits::textProblem(item.question, false) && !limits::textProblem(item.questionEs, false) &&
                               !limits::textProblem(item.evidence, false);
            if (!limits::isPlainName(item.id) || !limits::isPlainName(item.section) || limits::isBlankText(item.question) ||
                !from || !clean)
                return bad("the checklist item " + inQuotes(item.id) + " added by the team has no question, or a bad id, "
                           "section or required_from");
            item.requiredFrom = *from;
            c.extraItems.push_back(std::move(item));
        }
    }
    std::map<long long, std::size_t> vendorAt;
    {
        Statement s(db, "SELECT id, name, offer, providers_json, candidates_json, contact, contacted, notes FROM vendors "
                        "ORDER BY position, id");
        while (s.step() == SQLITE_ROW) {
            Vendor v;
            v.name = s.text(1);
            if (auto why = checkVendorName(v.name))
                return bad("a vendor's name " + *why);
            const auto offer = enumFromString<VendorOffer>(s.text(2));
            if (!offer)
                return bad("vendor " + inQuotes(v.name) + " has the unknown offer " + inQuotes(s.text(2)));
            v.offer = *offer;
            const auto providers = nlohmann::json::parse(s.text(3), nullptr, false);
            const auto candidates = nlohmann::json::parse(s.text(4), nullptr, false);
            if (!providers.is_array() || !candidates.is_array())
                return bad("vendor " + inQuotes(v.name) + " has unreadable providers or candidates");
            for (const auto &p : providers) {
                if (!p.is_string())
                    return bad("vendor " + inQuotes(v.name) + " lists a provider that is not a name");
                v.providers.push_back(p.get<std::string>());
            }
            for (const auto &ref : candidates) {
                if (!ref.is_object() || !ref.contains("scenario") || !ref["scenario"].is_string() ||
                    !ref.contains("candidate") || !ref["candidate"].is_number_integer() || ref["candidate"].get<long long>() < 1 ||
                    ref["candidate"].get<long long>() > 10000)
                    return bad("vendor " + inQuotes(v.name) + " lists a candidate that is not {scenario, candidate}");
                v.candidates.push_back({ref["scenario"].get<std::string>(), int(ref["candidate"].get<long long>())});
            }
            v.contact = s.text(5);
            v.contacted = s.text(6);
            if (!v.contacted.empty() && !isIsoDate(v.contacted))
                return bad("vendor " + inQuotes(v.name) + " was contacted on " + inQuotes(v.contacted) + ", not a date");
            v.notes = s.text(7);
            vendorAt[s.integer(0)] = c.vendors.size();
            c.vendors.push_back(std::move(v));
        }
    }
    Statement s(db, "SELECT a.vendor, a.item, a.answer, a.text, a.evidence_link, a.attachment, f.name, f.bytes, "
                    "a.answered_on, a.answered_by, a.attachment IS NOT NULL AND f.sha256 IS NULL "
                    "FROM checklist_answers a LEFT JOIN attachments f ON f.sha256 = a.attachment ORDER BY a.id");
    while (s.step() == SQLITE_ROW) {
        const auto at = vendorAt.find(s.integer(0));
        if (at == vendorAt.end())
            return bad("an answer belongs to no vendor");
        Vendor &v = c.vendors[at->second];
        VendorAnswer a;
        a.item = s.text(1);
        const auto answer = enumFromString<Answer>(s.text(2));
        if (!limits::isPlainName(a.item) || !answer)
            return bad("vendor " + inQuotes(v.name) + " has an answer " + inQuotes(s.text(2)) + " to item " + inQuotes(a.item));
        a.answer = *answer;
        a.text = s.text(3);
        a.link = s.text(4);
        if (s.integer(10))
            return bad("vendor " + inQuotes(v.name) + "'s answer to " + a.item + " names an evidence file the project lacks");
        if (!s.isNull(5))
            a.file = Attachment{s.text(6), s.text(5), std::uint64_t(s.integer(7))};
        a.answeredOn = s.text(8);
        if (!a.answeredOn.empty() && !isIsoDate(a.answeredOn))
            return bad("vendor " + inQuotes(v.name) + "'s answer to " + a.item + " is dated " + inQuotes(a.answeredOn));
        a.answeredBy = s.text(9);
        if (v.answer(a.item))
            return bad("vendor " + inQuotes(v.name) + " answers " + a.item + " twice");
        v.answers.push_back(std::move(a));
    }
    if (auto why = checkChecklist(c))
        return bad(*why);
    return c;
}

Status checkStorable(sqlite3 *db, const ProjectChecklist &c)
{
    if (auto why = checkChecklist(c))
        return Error{"", "", "the checklist cannot be stored: " + *why};
    for (const Vendor &v : c.vendors)
        for (const VendorAnswer &a : v.answers)
            if (a.file && !attachmentBytes(db, a.file->sha256))
                return Error{"", "", "vendor " + inQuotes(v.name) + "'s answer to " + a.item + " names the file " +
                                         inQuotes(a.file->name) + ", which is not attached to the project"};
    return Ok{};
}

Status writeChecklist(sqlite3 *db, const ProjectChecklist &c)
{
    if (Status s = checkStorable(db, c); !s)
        return s;
    Transaction t(db);
    if (!t.begun())
        return t.begun();
    const std::string what = "the checklist could not be stored";
    for (const char *table : {"checklist_answers", "vendors", "checklist_items", "checklist_sections"}) {
        Statement clear(db, (std::string("DELETE FROM ") + table).c_str());
        if (Status s = clear.run(what); !s)
            return s;
    }
    if (Status s = setMeta(db, "checklist_template_version", c.templateVersion); !s)
        return s;
    for (const ChecklistSection &section : c.extraSections) {
        Statement s(db, "INSERT INTO checklist_sections(section, title, title_es) VALUES(?1, ?2, ?3)");
        if (Status r = s.bind(1, section.id).bind(2, section.title).bind(3, section.titleEs).run(what); !r)
            return r;
    }
    for (const ChecklistItem &item : c.extraItems) {
        Statement s(db, "INSERT INTO checklist_items(item, section, question, question_es, evidence, required_from) "
                        "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
        s.bind(1, item.id).bind(2, item.section).bind(3, item.question).bind(4, item.questionEs).bind(5, item.evidence);
        if (Status r = s.bind(6, std::string(enumName(item.requiredFrom))).run(what); !r)
            return r;
    }
    for (std::size_t i = 0; i < c.vendors.size(); ++i) {
        const Vendor &v = c.vendors[i];
        nlohmann::json candidates = nlohmann::json::array();
        for (const CandidateRef &ref : v.candidates)
            candidates.push_back({{"scenario", ref.scenario}, {"candidate", ref.candidate}});
        Statement s(db, "INSERT INTO vendors(position, name, offer, providers_json, candidates_json, contact, contacted, notes) "
                        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
        s.bind(1, static_cast<long long>(i)).bind(2, v.name).bind(3, std::string(enumName(v.offer)));
        s.bind(4, nlohmann::json(v.providers).dump()).bind(5, candidates.dump()).bind(6, v.contact);
        if (Status r = s.bind(7, v.contacted).bind(8, v.notes).run(what); !r)
            return r;
        const long long id = sqlite3_last_insert_rowid(db);
        for (const VendorAnswer &a : v.answers) {
            Statement ins(db, "INSERT INTO checklist_answers(vendor, item, answer, text, evidence_link, attachment, "
                              "answered_on, answered_by) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
            ins.bind(1, id).bind(2, a.item).bind(3, std::string(enumName(a.answer))).bind(4, a.text).bind(5, a.link);
            if (a.file)
                ins.bind(6, a.file->sha256);
            else
                ins.bindNull(6);
            if (Status r = ins.bind(7, a.answeredOn).bind(8, a.answeredBy).run("vendor " + inQuotes(v.name) + "'s answers could not be stored"); !r)
                return r;
        }
    }
    return t.commit();
}

Result<Attachment> storeAttachment(sqlite3 *db, const std::string &fileName, const std::string &bytes)
{
    if (fileName.empty() || fileName.size() > 255 || fileName.find('/') != std::string::npos ||
        std::any_of(fileName.begin(), fileName.end(), [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; }) ||
        limits::textProblem(fileName, false))
        return Error{limits::printable(fileName), "", "is not a plain file name (1 to 255 characters, no folder, no control character)"};
    if (bytes.size() > kAttachmentMaxBytes)
        return Error{fileName, "", "is " + std::to_string(bytes.size() >> 20) + " MiB; evidence files are limited to " +
                                        std::to_string(kAttachmentMaxBytes >> 20) + " MiB each (attach a link instead)"};
    Attachment a{fileName, sha256Hex(bytes), bytes.size()};
    Statement s(db, "INSERT INTO attachments(sha256, name, bytes, content) VALUES(?1, ?2, ?3, ?4) "
                    "ON CONFLICT(sha256) DO NOTHING");
    s.bind(1, a.sha256).bind(2, a.name).bind(3, static_cast<long long>(a.bytes)).bindBlob(4, bytes);
    if (Status r = s.run("the file could not be attached"); !r)
        return Error{fileName, "", r.error().message};
    // The name it was first attached under is the one stored.
    Statement name(db, "SELECT name FROM attachments WHERE sha256 = ?1");
    if (name.bind(1, a.sha256).step() == SQLITE_ROW)
        a.name = name.text(0);
    return a;
}

std::optional<std::string> attachmentBytes(sqlite3 *db, const std::string &sha256)
{
    Statement s(db, "SELECT content FROM attachments WHERE sha256 = ?1");
    if (s.bind(1, sha256).step() != SQLITE_ROW)
        return std::nullopt;
    return s.blob(0);
}

} // namespace wb::store

namespace wb {

Result<ChecklistTemplate> checklistTemplateOf(const Project &project, const std::string &resources)
{
    auto shipped = loadChecklistTemplate(resources);
    if (!shipped)
        return shipped.error();
    ChecklistTemplate t = projectTemplate(*shipped, project.checklist());
    return t;
}

Result<ProjectChecklist> importAnswers(Project &project, const std::string &path, const ChecklistTemplate &tmpl)
{
    const auto text = readTextFile(path);
    if (!text)
        return text.error();
    auto parsed = parseAnswersFile(*text, path, tmpl);
    if (!parsed)
        return parsed.error();
    AnswersImport in = std::move(parsed).value();
    // Attachments named by hash must be here already, as they were stored (their size).
    for (std::size_t v = 0; v < in.vendors.size(); ++v)
        for (const VendorAnswer &a : in.vendors[v].answers) {
            if (!a.file)
                continue;
            const std::string where = "vendor \"" + limits::printable(in.vendors[v].name) + "\"'s answer to " + a.item;
            const auto held = project.attachment(a.file->sha256);
            if (!held)
                return Error{path, "", where + " names the file \"" + limits::printable(a.file->name) + "\" (sha256 " +
                                           a.file->sha256 + "), which this project does not hold; give it as "
                                           "\"evidence_file\" instead"};
            if (held->size() != a.file->bytes)
                return Error{path, "", where + " says its file is " + std::to_string(a.file->bytes) +
                                           " bytes; the project's file of that SHA-256 is " + std::to_string(held->size())};
        }
    // Evidence files: inside the answers file's folder (the file comes from a vendor: it must not
    // reach the importer's other files), each read once, all read and checked before any is
    // attached, so that a refusal stores nothing.
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::canonical(std::filesystem::absolute(path).parent_path(), ec);
    std::map<std::string, std::pair<std::string, std::string>> files;  // canonical path -> name, bytes
    std::vector<std::string> resolved;                                   // per pending file
    std::uint64_t total = 0;
    for (const AnswersImport::PendingFile &f : in.files) {
        const std::string where = "vendor \"" + limits::printable(f.vendor) + "\", item " + f.item +
                                  ": the evidence file \"" + limits::printable(f.path) + "\"";
        const std::filesystem::path given(f.path);
        if (given.is_absolute() || ec)
            return Error{path, "", where + " must be a path relative to the answers file's folder"};
        const std::filesystem::path p = std::filesystem::weakly_canonical(folder / given, ec);
        const auto end = std::mismatch(folder.begin(), folder.end(), p.begin(), p.end()).first;
        if (ec || end != folder.end())
            return Error{path, "", where + " is outside the answers file's folder " + folder.string() +
                                       " (only files beside it, or below it, are attached)"};
        resolved.push_back(p.string());
        if (files.count(p.string()))
            continue;
        auto bytes = readTextFile(p.string(), kAttachmentMaxBytes);
        if (!bytes)
            return Error{path, "", where + ": " + bytes.error().message};
        total += bytes->size();
        if (total > kImportEvidenceMaxBytes)
            return Error{path, "", "its evidence files come to more than " + std::to_string(kImportEvidenceMaxBytes >> 20) +
                                       " MiB, the most one import reads; import the answers in parts"};
        if (auto bad = limits::textProblem(p.filename().string(), false))
            return Error{path, "", where + ": its name " + *bad};
        files[p.string()] = {p.filename().string(), std::move(bytes).value()};
    }
    std::map<std::string, Attachment> stored;
    for (const auto &[key, file] : files) {
        auto kept = project.attach(file.first, file.second);
        if (!kept)
            return Error{path, "", kept.error().toString()};
        stored.emplace(key, *kept);
    }
    for (std::size_t i = 0; i < in.files.size(); ++i)
        for (Vendor &v : in.vendors)
            if (v.name == in.files[i].vendor)
                for (VendorAnswer &a : v.answers)
                    if (a.item == in.files[i].item)
                        a.file = stored.at(resolved[i]);
    ProjectChecklist merged = project.checklist();
    if (merged.templateVersion.empty())
        merged.templateVersion = tmpl.templateVersion;
    mergeAnswers(merged, tmpl, in);
    return merged;
}

} // namespace wb
