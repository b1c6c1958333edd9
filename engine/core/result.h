// Errors as values. The engine never lets an exception cross its boundary: every operation
// that can fail on user input returns a Result<T>, whose Error names the file, the JSON path
// of the offending field (RFC 6901, e.g. "/workload/input_tokens") and what is wrong.
// A Result must be looked at ([[nodiscard]]): an ignored failure is a compile error. Reading the
// value of a failed Result (or the error of a good one) is a bug, not bad input: it stops the
// process with the error's text on stderr (in every build, not only with assertions on), where
// std::get would throw bad_variant_access past every layer.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace wb {

struct Error
{
    std::string file;     // the file the bad input came from; empty for in-memory input
    std::string path;     // JSON pointer of the field, or the entry id for catalogs; may be empty
    std::string message;  // what is wrong, in one sentence, no trailing period needed

    // "FILE: PATH: MESSAGE" with the empty parts left out: the one line a user sees.
    std::string toString() const;
};

namespace detail {
// Prints "internal error: what (the error)" on stderr and aborts.
[[noreturn]] void resultMisused(const char *what, const Error *error);
} // namespace detail

template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_value(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }

    const T &value() const &
    {
        checkValue();
        return *std::get_if<T>(&m_value);
    }
    T &value() &
    {
        checkValue();
        return *std::get_if<T>(&m_value);
    }
    T &&value() &&
    {
        checkValue();
        return std::move(*std::get_if<T>(&m_value));
    }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    const Error &error() const
    {
        if (ok())
            detail::resultMisused("error() of a Result that holds a value", nullptr);
        return *std::get_if<Error>(&m_value);
    }

private:
    void checkValue() const
    {
        if (!ok())
            detail::resultMisused("value() of a failed Result", std::get_if<Error>(&m_value));
    }

    std::variant<T, Error> m_value;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Result<Ok>;

} // namespace wb
