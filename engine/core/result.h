// Errors as values. The engine never lets an exception cross its boundary: every operation
// that can fail on user input returns a Result<T>, whose Error names the file, the JSON path
// of the offending field (RFC 6901, e.g. "/workload/input_tokens") and what is wrong.
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

template<typename T>
class Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_value(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<T>(m_value); }
    T &value() & { return std::get<T>(m_value); }
    T &&value() && { return std::get<T>(std::move(m_value)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    const Error &error() const { return std::get<Error>(m_value); }

private:
    std::variant<T, Error> m_value;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Result<Ok>;

} // namespace wb
