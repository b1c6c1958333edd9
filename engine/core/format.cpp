#include "core/format.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <string_view>

namespace wb {

std::string groupedInteger(long long value)
{
    const std::string digits = std::to_string(std::llabs(value));
    std::string out = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string usdAmount(double usd)
{
    if (!std::isfinite(usd) || std::abs(usd) >= 1e15)
        return readableNumber(usd);
    const long long cents = std::llround(std::abs(usd) * 100);
    return (usd < 0 && cents > 0 ? "-" : "") + groupedInteger(cents / 100) + fmt::format(".{:02d}", cents % 100);
}

std::string usdPerOutput(double usd)
{
    return std::abs(usd) >= 1 || !std::isfinite(usd) ? usdAmount(usd) : fmt::format("{:.6f}", usd);
}

std::string readableCount(double count)
{
    const double a = std::abs(count);
    const auto scaled = [&](double unit, const char *word) {
        const double v = count / unit;
        const int decimals = std::abs(v) >= 100 ? 0 : std::abs(v) >= 10 ? 1 : 2;
        std::string digits = fmt::format("{:.{}f}", v, decimals);
        // Trailing zeros of the decimals say nothing: "54.10" -> "54.1", "3.00" -> "3".
        if (digits.find('.') != std::string::npos) {
            digits.erase(digits.find_last_not_of('0') + 1);
            if (digits.back() == '.')
                digits.pop_back();
        }
        return digits + " " + word;
    };
    if (a >= 1e12)
        return scaled(1e12, "trillion");
    if (a >= 1e9)
        return scaled(1e9, "billion");
    if (a >= 1e6)
        return scaled(1e6, "million");
    return groupedInteger(std::llround(count));
}

std::string readableNumber(double value)
{
    if (value == 0 || !std::isfinite(value))
        return fmt::format("{}", value);
    const int magnitude = int(std::floor(std::log10(std::abs(value))));
    if (magnitude >= 2) {
        const double unit = std::pow(10.0, magnitude - 2);
        return groupedInteger(std::llround(std::round(value / unit) * unit));
    }
    std::string digits = fmt::format("{:.{}f}", value, 2 - magnitude);
    if (digits.find('.') != std::string::npos) {
        digits.erase(digits.find_last_not_of('0') + 1);
        if (digits.back() == '.')
            digits.pop_back();
    }
    return digits;
}

std::string csvCell(const std::string &cell)
{
    // A text that starts like a formula (=, +, -, @, tab, carriage return; a provider named
    // =HYPERLINK(...)) gets a leading ' so that it stays text; a number such as -3 stays a number.
    char *end = nullptr;
    std::strtod(cell.c_str(), &end);
    const bool number = !cell.empty() && end == cell.c_str() + cell.size();
    std::string s = cell;
    if (!s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos && !number)
        s.insert(0, 1, '\'');
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace wb

namespace wb {

std::string readableDuration(double seconds)
{
    if (!std::isfinite(seconds))
        return "never";
    const double a = std::abs(seconds);
    if (a < 120)
        return readableNumber(seconds) + " s";
    if (a < 2 * 3600)
        return readableNumber(seconds / 60) + " min";
    if (a < 2 * 86400)
        return readableNumber(seconds / 3600) + " h";
    return readableNumber(seconds / 86400) + " days";
}

} // namespace wb
