// Numbers for people, the same in the CLI's output, the engine's reasons and the window (English
// until the translated UI exists; then the UI formats through QLocale).
#pragma once

#include <string>

namespace wb {

// "1,234,567"
std::string groupedInteger(long long value);
// A count to three significant figures with a word for its magnitude: 54,100,000 -> "54.1
// million", 2,350 -> "2,350", 1.2e10 -> "12 billion".
std::string readableCount(double count);
// Any figure to three significant figures without an exponent: 183,456 -> "183,000",
// 0.50625 -> "0.506", 0.0935 -> "0.0935".
std::string readableNumber(double value);
// A duration to three significant figures in the unit that reads best: 45 -> "45 s",
// 1,500 -> "25 min", 11,155 -> "3.1 h", 400,000 -> "4.63 days"; infinity -> "never".
std::string readableDuration(double seconds);
// Dollars and cents, grouped: 14366.3 -> "14,366.30"; beyond 10^15 (no cent can be meant) the
// readable form.
std::string usdAmount(double usd);
// A cost per accepted output or run as the messages print it: dollars and cents from $1 up
// (a run: "47.24"), six decimals below (an output: 0.00046 -> "0.000460", not "0.00").
std::string usdPerOutput(double usd);

// One CSV cell, safe to open in a spreadsheet: formula-like text neutralised with a leading ',
// a cell with a comma, a quote or a line break quoted (RFC 4180).
std::string csvCell(const std::string &cell);

} // namespace wb
