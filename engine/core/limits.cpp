#include "core/limits.h"

#include <fmt/format.h>

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
            else
                out += char(c);
        }
    }
    return out;
}

bool isPlainName(std::string_view value)
{
    return !value.empty() && value.size() <= 64 && std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

} // namespace wb::limits
