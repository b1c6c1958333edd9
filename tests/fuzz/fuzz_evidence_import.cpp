// libFuzzer target, built once per importer (WB_FUZZ_RUN_TOOL names it: vLLM, GuideLLM, LLMPerf,
// GenAI-Perf/AIPerf JSON or the evidence CSV): reading a result file from arbitrary bytes must
// never crash; a file that reads gives runs whose figures are finite and not negative, and a
// mapping of them to a candidate either succeeds or names the field.
#include <evidence/evidence.h>
#include <evidence/runs.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    auto runs = wb::readMeasuredRuns(text, "fuzz", WB_FUZZ_RUN_TOOL);
    if (!runs) {
        (void)runs.error().toString();
        return 0;
    }
    wb::Brief brief;
    wb::Candidate candidate;
    candidate.gpu = "h200-sxm-141gb";
    candidate.gpus = 8;
    candidate.tensorParallel = 4;
    candidate.servingStack = wb::ServingStack::Vllm;
    brief.candidates.push_back(candidate);
    for (const wb::MeasuredRun &r : *runs) {
        auto mapped = wb::mapRun(r, brief, 0, {});
        if (!mapped && mapped.error().path.empty())
            std::abort();  // a refused mapping names the field
    }
    for (const wb::MeasuredRun &r : *runs)
        for (const wb::MeasuredStat *s : {&r.ttft, &r.tpot, &r.ntpot, &r.itl, &r.e2e})
            for (const auto &v : {s->mean, s->p50, s->p90, s->p95, s->p99})
                if (v && (!std::isfinite(*v) || *v < 0))
                    std::abort();
    return 0;
}
