// libFuzzer target: parsing a brief from arbitrary bytes must never crash; a brief that parses is
// also rendered (fit only, so that one input stays fast).
#include <brief/brief.h>
#include <evaluate/evaluate.h>
#include "report/report.h"

#include "fuzzsupport.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    auto brief = wb::parseBrief(text, "fuzz.json", fuzz::catalog());
    if (!brief) {
        (void)brief.error().toString();
        return 0;
    }
    wb::EvaluateOptions options;
    options.performance = false;
    options.today = "2026-11-30";
    const wb::Results results = wb::evaluate(*brief, fuzz::catalog(), options);
    (void)wb::resultsToJson(*brief, results);
    (void)wb::resultsToCsv(*brief, results);
    return 0;
}
