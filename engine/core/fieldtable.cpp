#include "core/fieldtable.h"

#include <cstdlib>
#include <iostream>

namespace wb {

namespace {

[[noreturn]] void badDefault(const FieldRow &row, const char *what)
{
    // A row read for a default it does not declare: a programming error the tests reach.
    std::cerr << "field table: " << row.pointer << " has no " << what << " default\n";
    std::abort();
}

} // namespace

double FieldRow::defaultNumber() const
{
    const detail::Json j = detail::Json::parse(defaultJson, nullptr, false);
    if (!j.is_number())
        badDefault(*this, "number");
    return j.get<double>();
}

bool FieldRow::defaultBoolean() const
{
    const detail::Json j = detail::Json::parse(defaultJson, nullptr, false);
    if (!j.is_boolean())
        badDefault(*this, "boolean");
    return j.get<bool>();
}

std::string FieldRow::defaultString() const
{
    const detail::Json j = detail::Json::parse(defaultJson, nullptr, false);
    if (!j.is_string())
        badDefault(*this, "string");
    return j.get<std::string>();
}

std::string genericPointer(std::string_view pointer)
{
    std::string out;
    std::size_t i = 0;
    while (i < pointer.size()) {
        // pointer[i] is '/': copy the token after it, or "*" for an array index.
        std::size_t end = pointer.find('/', i + 1);
        if (end == std::string_view::npos)
            end = pointer.size();
        const std::string_view token = pointer.substr(i + 1, end - i - 1);
        const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string_view::npos;
        out += '/';
        out += index ? std::string_view("*") : token;
        i = end;
    }
    return out;
}

const FieldRow *FieldTable::find(std::string_view pointer, WorkloadKind kind) const
{
    const std::string generic = genericPointer(pointer);
    for (const FieldRow &row : m_rows)
        if (row.pointer == generic && row.kinds.has(kind))
            return &row;
    return nullptr;
}

const FieldRow *FieldTable::find(std::string_view pointer) const
{
    const std::string generic = genericPointer(pointer);
    for (const FieldRow &row : m_rows)
        if (row.pointer == generic)
            return &row;
    return nullptr;
}

const FieldRow &FieldTable::at(std::string_view pointer, WorkloadKind kind) const
{
    if (const FieldRow *row = find(pointer, kind))
        return *row;
    return at(pointer);
}

const FieldRow &FieldTable::at(std::string_view pointer) const
{
    if (const FieldRow *row = find(pointer))
        return *row;
    std::cerr << "field table: no row for " << pointer << "\n";
    std::abort();
}

std::set<std::string> FieldTable::childKeys(std::string_view pointer) const
{
    const std::string prefix = genericPointer(pointer) + "/";
    std::set<std::string> out;
    for (const FieldRow &row : m_rows)
        if (row.pointer.size() > prefix.size() && row.pointer.compare(0, prefix.size(), prefix) == 0
            && row.pointer.find('/', prefix.size()) == std::string::npos)
            out.insert(row.pointer.substr(prefix.size()));
    return out;
}

std::vector<FieldRow> FieldTable::rebased(const std::vector<FieldRow> &rows, const std::string &prefix)
{
    std::vector<FieldRow> out = rows;
    for (FieldRow &row : out)
        row.pointer = prefix + row.pointer;
    return out;
}

} // namespace wb
