// Test-only fault injection, for the boundaries that must handle a failure no real input can
// provoke on demand: a store write failing during an undo, an exception escaping inside gpuwb.
// Built in only when the project is configured with its tests (WB_FAULT_INJECTION, set with
// BUILD_TESTING); otherwise faultInjected() is a constant false and the environment is never read.
//
// With it built in, WB_INJECT_FAULT in the environment names the sites that fail, separated by
// commas ("store-write", "gpuwb-internal", "engine-throws", "calibration-throws").
#pragma once

#include <string_view>

namespace wb {

#ifdef WB_FAULT_INJECTION
bool faultInjected(std::string_view site);
#else
constexpr bool faultInjected(std::string_view) { return false; }
#endif

} // namespace wb
