// One row per field of a JSON file the engine reads (a brief, a price entry): its pointer, type,
// range, the workload kinds it applies to, whether it is required, its default and unit. The
// parsers take their ranges, defaults and known keys from the rows, the window's forms their
// ranges, and `gpuwb schema brief` prints a JSON Schema made from them, so the three cannot
// drift apart. Rules between fields (a p95 at least its mean, a burst shorter than its period)
// stay in the parsers' code.
#pragma once

#include "core/jsonfields.h"
#include "core/types.h"

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

enum class FieldType : std::uint8_t {
    Integer, Number, Boolean, String, Enum, Object, Array,
    Model,  // a catalog id or an inline object
    Any,    // read by a parser the table does not describe further
};
// What the parser does with a field given for a kind it does not apply to.
enum class Outside : std::uint8_t { Ignored, Refused };

// A set of workload kinds, one bit per WorkloadKind.
struct KindSet
{
    std::uint32_t bits = ~std::uint32_t(0);
    constexpr bool has(WorkloadKind k) const { return (bits >> unsigned(k)) & 1u; }
    constexpr bool all() const { return bits == ~std::uint32_t(0); }
};
constexpr KindSet kinds(std::initializer_list<WorkloadKind> list)
{
    std::uint32_t bits = 0;
    for (WorkloadKind k : list)
        bits |= 1u << unsigned(k);
    return {bits};
}
inline constexpr KindSet kAnyKind{};

struct FieldRow
{
    // RFC 6901 pointer from the file's root; "*" stands for every item of an array.
    std::string pointer;
    FieldType type = FieldType::Number;
    KindSet kinds = kAnyKind;  // the kinds this row applies to (rows of one pointer may differ by kind)
    bool required = false;     // of its parent object, for those kinds
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
    std::vector<std::string> choices = {};  // Enum: the accepted names
    std::string unit = {};                  // of the JSON value ("s", "tokens", "USD/GPU-hour")
    std::string defaultJson = {};           // the value taken when it is not given, as JSON; empty: none
    std::string defaultReason = {};         // why that default, or what not giving it means
    Outside outside = Outside::Ignored;
    bool closed = false;  // an object whose unknown keys are refused (elsewhere: a warning)

    detail::Range range() const { return {min, max, minExclusive}; }
    double defaultNumber() const;       // defaultJson as a number (the row must have one)
    bool defaultBoolean() const;
    std::string defaultString() const;  // an Enum's or String's default, unquoted
};

// The names of an enum's values, for FieldRow::choices.
template<typename E>
std::vector<std::string> enumNames()
{
    std::vector<std::string> out;
    for (const auto &[value, name] : EnumNames<E>::items)
        out.emplace_back(name);
    return out;
}

// "/candidates/2/gpu" as the table writes it: "/candidates/*/gpu".
std::string genericPointer(std::string_view pointer);

// A table: rows in order, looked up by pointer and kind.
class FieldTable
{
public:
    explicit FieldTable(std::vector<FieldRow> rows) : m_rows(std::move(rows)) {}
    const std::vector<FieldRow> &rows() const { return m_rows; }
    // The row of pointer (generic or not) for kind; null when none applies to it.
    const FieldRow *find(std::string_view pointer, WorkloadKind kind) const;
    // The first row of pointer, whatever its kinds; null when it is not a field of the table.
    const FieldRow *find(std::string_view pointer) const;
    // find(pointer, kind), or else find(pointer); aborts when the pointer is not in the table (a
    // parser asking for a row nobody wrote: a programming error every test run reaches).
    const FieldRow &at(std::string_view pointer, WorkloadKind kind) const;
    const FieldRow &at(std::string_view pointer) const;
    // The keys of the object at pointer that the table knows, for any kind.
    std::set<std::string> childKeys(std::string_view pointer) const;
    // The rows of prefix + each row's pointer (a price entry's rows inside a brief).
    static std::vector<FieldRow> rebased(const std::vector<FieldRow> &rows, const std::string &prefix);

private:
    std::vector<FieldRow> m_rows;
};

} // namespace wb
