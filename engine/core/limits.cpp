#include "core/limits.h"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

#include <algorithm>
#include <cctype>

namespace wb::limits {

std::optional<std::string> checkJsonText(std::string_view text)
{
    if (text.size() > kJsonBytes)
        return fmt::format("is {:.1f} MiB; a JSON file may hold at most {} MiB", double(text.size()) / (1 << 20),
                           kJsonBytes >> 20);
    int depth = 0;
    bool inString = false;
    std::size_t stringStart = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i;  // the escaped character, whatever it is
            } else if (c == '"') {
                inString = false;
                if (i - stringStart - 1 > kJsonString)  // the bytes between the quotes
                    return fmt::format("has a string of {} bytes at byte {}; a string may hold at most {} bytes (64 KiB)",
                                       i - stringStart - 1, stringStart, kJsonString);
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            stringStart = i;
            break;
        case '{':
        case '[':
            if (++depth > kJsonDepth)
                return fmt::format("nests objects and arrays deeper than {} levels (at byte {})", kJsonDepth, i);
            break;
        case '}':
        case ']': --depth; break;
        default: break;
        }
    }
    if (inString && text.size() - stringStart - 1 > kJsonString)
        return fmt::format("has an unfinished string of {} bytes at byte {}; a string may hold at most {} bytes (64 KiB)",
                           text.size() - stringStart - 1, stringStart, kJsonString);
    return std::nullopt;
}

std::string printable(std::string_view value, std::size_t maxChars)
{
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (out.size() >= maxChars) {
            out += "…";
            break;
        }
        const auto c = static_cast<unsigned char>(value[i]);
        switch (c) {
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20 || c == 0x7f)
                out += fmt::format("\\x{:02x}", c);
            else if (c == 0xc2 && i + 1 < value.size() && static_cast<unsigned char>(value[i + 1]) >= 0x80 &&
                     static_cast<unsigned char>(value[i + 1]) <= 0x9f)
                out += fmt::format("\\u{:04x}", static_cast<unsigned char>(value[++i]));  // a C1 control (U+0080-U+009F)
            else
                out += char(c);
        }
    }
    return out;
}

namespace {

// The code point at text[i] and its length in bytes; length 0 for invalid UTF-8 (overlong forms,
// surrogates, beyond U+10FFFF, truncated sequences).
std::pair<char32_t, std::size_t> codePoint(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80)
        return {c, 1};
    std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (n == 0 || i + n > text.size())
        return {0, 0};
    char32_t cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80)
            return {0, 0};
        cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return {0, 0};
    return {cp, n};
}

} // namespace

std::optional<std::string> textProblem(std::string_view text, bool multiline)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto [cp, n] = codePoint(text, i);
        if (n == 0)
            return fmt::format("is not valid UTF-8 (at byte {})", i);
        const bool allowed = multiline && (cp == '\n' || cp == '\t' || cp == '\r');
        if (!allowed && (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f)))
            return fmt::format("holds a control character (U+{:04X}) at byte {}", std::uint32_t(cp), i);
        if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
            return fmt::format("holds a bidirectional override (U+{:04X}) at byte {}, which can make text read "
                               "differently from what it is",
                               std::uint32_t(cp), i);
        i += n;
    }
    return std::nullopt;
}

bool isBlankText(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto [cp, n] = codePoint(text, i);
        if (n == 0)
            return false;
        const bool invisible = cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0xa0 || (cp >= 0x200b && cp <= 0x200f) ||
                               cp == 0x2060 || cp == 0xfeff || cp == 0x202f || cp == 0x2028 || cp == 0x2029;
        if (!invisible)
            return false;
        i += n;
    }
    return true;
}

bool isPlainName(std::string_view value)
{
    return !value.empty() && value.size() <= 64 && std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

} // namespace wb::limits
