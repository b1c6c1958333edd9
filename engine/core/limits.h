// The engine's input limits, in one place: what a brief, a project or a catalog file may hold,
// and the ranges the models are meaningful for. Beyond them a file is refused (exit 2 on the
// command line) with the field and the limit named, before any unbounded work is done.
// README "Limits" lists them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace wb::limits {

inline constexpr std::size_t kJsonBytes = 16u << 20;      // a brief, a catalog file, a stored scenario
inline constexpr int kJsonDepth = 64;                     // nesting of objects and arrays
inline constexpr std::size_t kJsonString = 64u << 10;     // one string (a note, a source, a name)
inline constexpr std::size_t kCandidates = 32;            // per brief (each is ~0.4 s of simulation on 2 cores)
inline constexpr std::size_t kPrices = 1000;              // price quotes per brief
inline constexpr double kGpusPerCandidate = 100000;       // tensor x pipeline x replicas
inline constexpr double kRequestRatePerS = 10000;         // open-loop rate and peak, bursts included
inline constexpr double kMinRequestRatePerS = 1e-6;       // about 2.6 requests a month
inline constexpr double kMinRequestsPerMonth = 1;
inline constexpr double kRequestsPerMonth = 1e11;         // ~38,000 requests/s on average
inline constexpr double kConcurrency = 1e6;               // closed-loop requests in flight
inline constexpr double kUsd = 1e12;                      // any one price or cost input
// Replicas simulated one by one; beyond it the simulator runs a representative set at the same
// load per replica and scales the throughput (SimResult::replicasRepresented).
inline constexpr int kSimulatedReplicas = 32;
// The most replicas the engine will size a deployment to (the count is a double until checked).
inline constexpr double kReplicas = 100000;

// Checks JSON text before it is parsed: its size, how deep its objects and arrays nest and how
// long each string is, in one pass over the bytes (no tree is built, so a 100,000-deep document
// costs a scan, not gigabytes). Returns what is wrong ("nests deeper than 64 levels at byte
// 1,234"), or nothing.
std::optional<std::string> checkJsonText(std::string_view text);

// An id a file may give (a case, a set, a checklist item): 1 to 64 letters, digits, '-', '_' or '.'.
bool isPlainName(std::string_view value);

// What makes text unfit to store and show, or nothing: invalid UTF-8, a control character (C0,
// DEL or C1; line breaks and tabs allowed when `multiline`), or a bidirectional override or
// isolate (U+202A-U+202E, U+2066-U+2069), which can make text read differently from what it is.
std::optional<std::string> textProblem(std::string_view text, bool multiline);
// True when text shows nothing: only spaces and invisible characters (zero-width spaces and
// joiners, U+2060, the byte-order mark, no-break spaces).
bool isBlankText(std::string_view text);

// A user's value made safe for a one-line message: control characters written as \n, \t,
// \x1b and so on; at most `maxChars` bytes kept (with "…" after).
std::string printable(std::string_view value, std::size_t maxChars = 200);

} // namespace wb::limits
