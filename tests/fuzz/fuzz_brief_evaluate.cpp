// libFuzzer target: the command line's path for a brief, whole: parse, evaluate with the
// simulations (the quick budget, so that one input stays well under a second) and render the
// table, the JSON and the CSV. No input may crash, hang or exhaust memory.
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
    options.preview = true;
    options.today = "2026-11-30";
    const wb::Results results = wb::evaluate(*brief, fuzz::catalog(), options);
    (void)wb::resultsToTable(*brief, results);
    (void)wb::resultsToJson(*brief, results);
    (void)wb::resultsToCsv(*brief, results);
    return 0;
}
