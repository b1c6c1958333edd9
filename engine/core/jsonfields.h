// Private to the engine: typed, path-aware reading of JSON objects. Every accessor throws
// FieldError naming the JSON pointer of the bad field; the public parse functions catch it
// and return an Error, so no exception leaves the engine.
#pragma once

#include "core/message.h"
#include "core/result.h"
#include "core/types.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wb::detail {

using Json = nlohmann::json;

struct FieldError
{
    std::string path;
    std::string message;
};

std::string jsonTypeName(const Json &j);

// A warning or reason as the results write it: {code, field (null when none), args, message}.
Json messageJson(const Message &m);
Json messagesJson(const std::vector<Message> &messages);
// Read back (a record's stored results): code and message must be strings; field and args are
// optional (records written before they existed), and an argument that is neither a number nor a
// string is dropped. Throws nlohmann's type_error where code or message is not a string.
Message messageFromJson(const Json &j);
std::string formatNumber(double v);

struct Range
{
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
};
inline constexpr Range kPositive{0.0, std::numeric_limits<double>::infinity(), true};
inline constexpr Range kNonNegative{0.0, std::numeric_limits<double>::infinity(), false};
inline constexpr Range kFraction{0.0, 1.0, false};

class Fields
{
public:
    Fields(const Json &object, std::string path);

    const std::string &path() const { return m_path; }
    // The key escaped as RFC 6901 says (~ as ~0, / as ~1).
    std::string pathOf(const std::string &key) const;
    bool has(const std::string &key) const;
    const Json *find(const std::string &key) const;

    std::string string(const std::string &key) const;
    std::optional<std::string> optString(const std::string &key) const;
    double number(const std::string &key, Range range = {}) const;
    std::optional<double> optNumber(const std::string &key, Range range = {}) const;
    // A number that may be written as null: empty when null or absent.
    std::optional<double> nullableNumber(const std::string &key, Range range = {}) const;
    long long integer(const std::string &key, Range range = {}) const;
    std::optional<long long> optInteger(const std::string &key, Range range = {}) const;
    bool boolean(const std::string &key) const;
    std::optional<bool> optBoolean(const std::string &key) const;
    Fields object(const std::string &key) const;
    std::optional<Fields> optObject(const std::string &key) const;
    const Json &array(const std::string &key) const;

    template<typename E>
    std::optional<E> optEnum(const std::string &key) const
    {
        auto text = optString(key);
        if (!text)
            return std::nullopt;
        auto value = enumFromString<E>(*text);
        if (!value)
            throw FieldError{pathOf(key), "unknown value \"" + *text + "\"; expected " + enumChoices<E>()};
        return value;
    }
    template<typename E>
    E enumValue(const std::string &key) const
    {
        auto value = optEnum<E>(key);
        if (!value)
            throw FieldError{pathOf(key), "is missing; expected " + enumChoices<E>()};
        return *value;
    }

    // Keys of the object that are not in known: typos a user should hear about.
    std::vector<std::string> unknownKeys(const std::set<std::string> &known) const;

    [[noreturn]] void fail(const std::string &key, const std::string &message) const;

private:
    double checkRange(const std::string &key, double v, Range range) const;

    const Json &m_object;
    std::string m_path;
};

// A file's JSON text as an object of `format` ("gpu-workbench-checklist"), version 1: size and
// nesting checked before parsing, then the format and version fields. `what` names the kind of
// file in messages ("checklist"). Errors name the file and the field.
Result<Json> parseFormatted(const std::string &text, const std::string &fileName, const std::string &format,
                            const std::string &what);

} // namespace wb::detail
