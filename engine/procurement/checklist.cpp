#include "procurement/checklist.h"

#include "catalog/catalog.h"
#include "core/fileio.h"
#include "core/jsonfields.h"
#include "core/limits.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

namespace wb {

namespace {

using detail::FieldError;
using detail::Fields;
using detail::Json;

// A field that must say something: an empty question or evidence is a gap, not an item.
std::string text(const Fields &f, const char *key)
{
    std::string value = f.string(key);
    if (value.find_first_not_of(" \t\r\n") == std::string::npos)
        f.fail(key, "is empty");
    return value;
}

std::string plainName(const Fields &f, const char *key)
{
    std::string value = f.string(key);
    if (!limits::isPlainName(value))
        f.fail(key, "must be 1 to 64 letters, digits, '-', '_' or '.', not \"" + limits::printable(value) + "\"");
    return value;
}

const Json &objectAt(const Json &list, std::size_t i, const std::string &at, const char *what)
{
    if (!list[i].is_object())
        throw FieldError{at, std::string("each ") + what + " is an object"};
    return list[i];
}

} // namespace

const ChecklistSection *ChecklistTemplate::section(const std::string &id) const
{
    for (const ChecklistSection &s : sections)
        if (s.id == id)
            return &s;
    return nullptr;
}

const ChecklistItem *ChecklistTemplate::item(const std::string &id) const
{
    for (const ChecklistItem &i : items)
        if (i.id == id)
            return &i;
    return nullptr;
}

Result<ChecklistTemplate> parseChecklistTemplate(const std::string &jsonText, const std::string &fileName)
{
    const auto parsed = detail::parseFormatted(jsonText, fileName, "gpu-workbench-checklist", "checklist");
    if (!parsed)
        return parsed.error();
    const Json &root = *parsed;
    ChecklistTemplate t;
    try {
        const Fields top(root, "");
        t.templateVersion = plainName(top, "template_version");
        t.source = text(top, "source");
        // The levels are the engine's; the file lists them so that a reader of it knows the order.
        const Json &levels = top.array("commitment_levels");
        if (levels.size() != EnumNames<Commitment>::items.size())
            top.fail("commitment_levels", "must list " + enumChoices<Commitment>() + " in that order");
        for (std::size_t i = 0; i < levels.size(); ++i)
            if (!levels[i].is_string() || levels[i].get<std::string>() != EnumNames<Commitment>::items[i].second)
                throw FieldError{fmt::format("/commitment_levels/{}", i),
                                 "must list " + enumChoices<Commitment>() + " in that order"};

        const Json &sections = top.array("sections");
        if (sections.empty())
            top.fail("sections", "is empty");
        for (std::size_t i = 0; i < sections.size(); ++i) {
            const std::string at = fmt::format("/sections/{}", i);
            const Fields f(objectAt(sections, i, at, "section"), at);
            ChecklistSection s{plainName(f, "id"), text(f, "title"), text(f, "title_es")};
            if (t.section(s.id))
                f.fail("id", "\"" + s.id + "\" appears twice");
            t.sections.push_back(std::move(s));
        }

        const Json &items = top.array("items");
        std::set<std::string> finished;  // sections whose items have all been listed
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string at = fmt::format("/items/{}", i);
            const Fields f(objectAt(items, i, at, "item"), at);
            ChecklistItem item;
            item.id = plainName(f, "id");
            if (t.item(item.id))
                f.fail("id", "\"" + item.id + "\" appears twice");
            item.section = f.string("section");
            if (!t.section(item.section))
                f.fail("section", "\"" + limits::printable(item.section) + "\" is not one of the template's sections");
            // Grouped: once a section's run of items ends, it does not start again.
            if (!t.items.empty() && t.items.back().section != item.section) {
                finished.insert(t.items.back().section);
                if (finished.count(item.section))
                    f.fail("section", "\"" + item.section + "\" items must be listed together");
            }
            item.question = text(f, "question");
            item.questionEs = text(f, "question_es");
            item.evidence = text(f, "evidence");
            item.requiredFrom = f.enumValue<Commitment>("required_from");
            if (const auto affects = f.optObject("affects")) {
                item.affects = affects->string("figures");
                if (item.affects != "fit" && item.affects != "performance" && item.affects != "cost")
                    affects->fail("figures", "must be fit, performance or cost");
                item.affectsWhat = text(*affects, "what");
            }
            t.items.push_back(std::move(item));
        }
        for (const ChecklistSection &s : t.sections)
            if (std::none_of(t.items.begin(), t.items.end(), [&](const ChecklistItem &i) { return i.section == s.id; }))
                top.fail("items", "section \"" + s.id + "\" has no item");
    } catch (const FieldError &e) {
        return Error{fileName, e.path, e.message};
    }
    return t;
}

Result<ChecklistTemplate> loadChecklistTemplate(const std::string &resources)
{
    const std::string path =
        (std::filesystem::path(resources.empty() ? resourceDir() : resources) / "checklist" / "procurement.json").string();
    const Result<std::string> text = readTextFile(path);
    if (!text)
        return text.error();
    return parseChecklistTemplate(*text, path);
}

} // namespace wb
