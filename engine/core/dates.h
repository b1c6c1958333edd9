// Calendar dates as ISO strings ("YYYY-MM-DD", proleptic Gregorian, UTC), for prices aged
// against today, records and evidence.
#pragma once

#include <optional>
#include <string>

namespace wb {

// Days from a to b (ISO dates "YYYY-MM-DD"); empty when either is malformed.
std::optional<long> daysBetween(const std::string &a, const std::string &b);
bool isIsoDate(const std::string &s);
// Today's date from the system clock, as "YYYY-MM-DD" (UTC).
std::string todayIso();
// This moment from the system clock, as "YYYY-MM-DDTHH:MM:SSZ".
std::string nowUtcIso();
// The date `days` from today (UTC), as YYYY-MM-DD.
std::string isoDateFromToday(int days);

} // namespace wb
