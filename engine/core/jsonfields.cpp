#include "core/jsonfields.h"

#include "core/limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb::detail {

std::string Fields::pathOf(const std::string &key) const
{
    std::string escaped;
    for (char c : key)
        escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return m_path + "/" + escaped;
}

std::string jsonTypeName(const Json &j)
{
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "an unsupported value";
    }
}

Json messageJson(const Message &m)
{
    Json args = Json::object();
    for (const auto &arg : m.args)  // not a structured binding: clang 14 cannot capture one
        std::visit([&args, &arg](const auto &v) { args[arg.first] = v; }, arg.second);
    return {{"code", m.code}, {"field", m.field.empty() ? Json(nullptr) : Json(m.field)}, {"args", args}, {"message", m.message}};
}

Json messagesJson(const std::vector<Message> &messages)
{
    Json list = Json::array();
    for (const Message &m : messages)
        list.push_back(messageJson(m));
    return list;
}

Message messageFromJson(const Json &j)
{
    Message m;
    m.code = j.at("code").get<std::string>();
    m.message = j.at("message").get<std::string>();
    if (const auto f = j.find("field"); f != j.end() && f->is_string())
        m.field = f->get<std::string>();
    if (const auto a = j.find("args"); a != j.end() && a->is_object())
        for (const auto &[name, v] : a->items()) {
            if (v.is_number_integer())
                m.args.emplace_back(name, v.get<std::int64_t>());
            else if (v.is_number())
                m.args.emplace_back(name, v.get<double>());
            else if (v.is_string())
                m.args.emplace_back(name, v.get<std::string>());
        }
    return m;
}

std::string formatNumber(double v)
{
    // Whole numbers in full ("1000000000001", which "{:.10g}" wrote as 1e+12, the same as the limit).
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e18)
        return fmt::format("{:.0f}", v);
    return fmt::format("{:.10g}", v);
}

Fields::Fields(const Json &object, std::string path) : m_object(object), m_path(std::move(path))
{
    if (!m_object.is_object())
        throw FieldError{m_path.empty() ? "/" : m_path, "must be an object, not " + jsonTypeName(m_object)};
}

bool Fields::has(const std::string &key) const
{
    return m_object.contains(key);
}

const Json *Fields::find(const std::string &key) const
{
    auto it = m_object.find(key);
    return it == m_object.end() ? nullptr : &*it;
}

void Fields::fail(const std::string &key, const std::string &message) const
{
    throw FieldError{pathOf(key), message};
}

std::string Fields::string(const std::string &key) const
{
    auto v = optString(key);
    if (!v)
        fail(key, "is missing (a string is required)");
    return *v;
}

std::optional<std::string> Fields::optString(const std::string &key) const
{
    const Json *j = find(key);
    if (!j || j->is_null())
        return std::nullopt;
    if (!j->is_string())
        fail(key, "must be a string, not " + jsonTypeName(*j));
    return j->get<std::string>();
}

double Fields::checkRange(const std::string &key, double v, Range range) const
{
    if (!std::isfinite(v))
        fail(key, "must be a finite number");
    const bool belowMin = range.minExclusive ? v <= range.min : v < range.min;
    if (belowMin) {
        if (range.min == 0.0)
            fail(key, "must be " + std::string(range.minExclusive ? "greater than 0" : "0 or more") + ", not "
                          + formatNumber(v));
        fail(key, "must be " + std::string(range.minExclusive ? "greater than " : "at least ") + formatNumber(range.min)
                      + ", not " + formatNumber(v));
    }
    if (v > range.max)
        fail(key, "must be at most " + formatNumber(range.max) + ", not " + formatNumber(v));
    return v;
}

double Fields::number(const std::string &key, Range range) const
{
    auto v = optNumber(key, range);
    if (!v)
        fail(key, "is missing (a number is required)");
    return *v;
}

std::optional<double> Fields::optNumber(const std::string &key, Range range) const
{
    const Json *j = find(key);
    if (!j)
        return std::nullopt;
    if (!j->is_number())
        fail(key, "must be a number, not " + jsonTypeName(*j));
    return checkRange(key, j->get<double>(), range);
}

std::optional<double> Fields::nullableNumber(const std::string &key, Range range) const
{
    const Json *j = find(key);
    if (!j || j->is_null())
        return std::nullopt;
    return optNumber(key, range);
}

long long Fields::integer(const std::string &key, Range range) const
{
    auto v = optInteger(key, range);
    if (!v)
        fail(key, "is missing (a whole number is required)");
    return *v;
}

std::optional<long long> Fields::optInteger(const std::string &key, Range range) const
{
    auto v = optNumber(key, range);
    if (!v)
        return std::nullopt;
    if (std::fabs(*v) > 9.0e15)
        fail(key, "is too large: " + formatNumber(*v) + " (a count here is at most 9e15)");
    if (std::floor(*v) != *v)
        fail(key, "must be a whole number, not " + formatNumber(*v));
    return static_cast<long long>(*v);
}

bool Fields::boolean(const std::string &key) const
{
    auto v = optBoolean(key);
    if (!v)
        fail(key, "is missing (true or false is required)");
    return *v;
}

std::optional<bool> Fields::optBoolean(const std::string &key) const
{
    const Json *j = find(key);
    if (!j || j->is_null())
        return std::nullopt;
    if (!j->is_boolean())
        fail(key, "must be true or false, not " + jsonTypeName(*j));
    return j->get<bool>();
}

Fields Fields::object(const std::string &key) const
{
    const Json *j = find(key);
    if (!j)
        fail(key, "is missing (an object is required)");
    return Fields(*j, pathOf(key));
}

std::optional<Fields> Fields::optObject(const std::string &key) const
{
    const Json *j = find(key);
    if (!j || j->is_null())
        return std::nullopt;
    return Fields(*j, pathOf(key));
}

const Json &Fields::array(const std::string &key) const
{
    const Json *j = find(key);
    if (!j)
        fail(key, "is missing (an array is required)");
    if (!j->is_array())
        fail(key, "must be an array, not " + jsonTypeName(*j));
    return *j;
}

std::vector<std::string> Fields::unknownKeys(const std::set<std::string> &known) const
{
    std::vector<std::string> unknown;
    for (auto it = m_object.begin(); it != m_object.end(); ++it)
        if (!known.count(it.key()))
            unknown.push_back(pathOf(it.key()));
    return unknown;
}

Result<Json> parseFormatted(const std::string &text, const std::string &fileName, const std::string &format,
                            const std::string &what)
{
    if (auto bad = limits::checkJsonText(text))
        return Error{fileName, "", *bad};
    if (text.find('\0') != std::string::npos)
        return Error{fileName, "", "holds a NUL byte at byte " + std::to_string(text.find('\0')) + "; JSON text never does"};
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error &e) {
        // Where, as an editor shows it: the line and column of the byte the parser stopped at.
        const std::size_t at = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const std::size_t line = 1 + std::size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
        const std::size_t lineStart = text.rfind('\n', at == 0 ? 0 : at - 1);
        const std::size_t column = at - (lineStart == std::string::npos || at == 0 ? 0 : lineStart + 1) + 1;
        return Error{fileName, "", fmt::format("is not valid JSON: a syntax error (or a number out of range) at line {}, "
                                               "column {}",
                                               line, column)};
    } catch (const Json::exception &) {
        return Error{fileName, "", "is not valid JSON (a number out of range)"};
    }
    if (!root.is_object())
        return Error{fileName, "", "is not a GPU Workbench " + what + " (a JSON object is expected)"};
    try {
        const Fields top(root, "");
        if (top.string("format") != format)
            top.fail("format", "must be \"" + format + "\"");
        if (top.integer("version", Range{1, 1e9}) != 1)
            top.fail("version", "this build reads version 1");
    } catch (const FieldError &e) {
        return Error{fileName, e.path, e.message};
    }
    return root;
}

} // namespace wb::detail
