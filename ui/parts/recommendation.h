// The recommendation as the cost and compare pages show it: the engine's words (report/labels.h),
// so the window and `gpuwb evaluate` say the same; or why the engine holds it back.
#pragma once

#include <evaluate/evaluate.h>

#include <QString>

namespace wb {

QString recommendationHtml(const Results &results);

} // namespace wb
