// libFuzzer target: reading benchmark result files (vLLM, GuideLLM, LLMPerf JSON and the evidence
// CSV; the format is told from the content, so one target reaches every importer) from arbitrary
// bytes must never crash; a file that reads gives runs whose figures are finite.
#include <evidence/runs.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    auto runs = wb::readMeasuredRuns(text, "fuzz");
    if (!runs) {
        (void)runs.error().toString();
        return 0;
    }
    for (const wb::MeasuredRun &r : *runs)
        for (const wb::MeasuredStat *s : {&r.ttft, &r.tpot, &r.ntpot, &r.itl, &r.e2e})
            for (const auto &v : {s->mean, s->p50, s->p90, s->p95, s->p99})
                if (v && (!std::isfinite(*v) || *v < 0))
                    std::abort();
    return 0;
}
