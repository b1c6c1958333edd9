#include "core/dates.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace wb {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
long daysFromCivil(long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + long(doe) - 719468;
}

std::optional<long> parse(const std::string &s)
{
    int y = 0, m = 0, d = 0;
    char tail = 0;
    const auto digit = [&](std::size_t i) { return s[i] >= '0' && s[i] <= '9'; };
    if (s.size() != 10 || s[4] != '-' || s[7] != '-' ||
        !(digit(0) && digit(1) && digit(2) && digit(3) && digit(5) && digit(6) && digit(8) && digit(9)))
        return std::nullopt;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
        return std::nullopt;
    if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2999)
        return std::nullopt;
    static const int lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (d > lengths[m - 1] + (m == 2 && leap ? 1 : 0))
        return std::nullopt;
    return daysFromCivil(y, unsigned(m), unsigned(d));
}

} // namespace

bool isIsoDate(const std::string &s)
{
    return parse(s).has_value();
}

std::optional<long> daysBetween(const std::string &a, const std::string &b)
{
    const auto x = parse(a), y = parse(b);
    if (!x || !y)
        return std::nullopt;
    return *y - *x;
}

std::string todayIso()
{
    return isoDateFromToday(0);
}

std::string nowUtcIso()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string isoDateFromToday(int days)
{
    const auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()) + std::chrono::days(days);
    const std::chrono::year_month_day ymd{now};
    return fmt::format("{:04d}-{:02d}-{:02d}", int(ymd.year()), unsigned(ymd.month()), unsigned(ymd.day()));
}

} // namespace wb
