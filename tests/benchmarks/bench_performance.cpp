// Speed of the performance engine (issue 20's goals: 10,000 simulated requests in at most 10 ms on
// one core; evaluate() of 20 candidates with capacity search, load curves and cost in at most 1 s;
// the sample's full evaluation in 0.5 s; the layout search over the whole catalog in 5 s).
//
//   ./build/tests/benchmarks/bench_performance --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one line)
//
// Report the medians. Requests per second simulated are printed as a counter.
#include <evaluate/evaluate.h>
#include <evaluate/search.h>
#include <performance/simulator.h>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

namespace {

const wb::Catalog &catalog()
{
    static const wb::Catalog c = [] {
        auto loaded = wb::Catalog::loadShipped(std::string(WB_SOURCE_DIR) + "/resources");
        if (!loaded)
            std::abort();
        return std::move(loaded).value();
    }();
    return c;
}

wb::Brief parse(const std::string &text)
{
    auto b = wb::parseBrief(text, "bench.json", catalog());
    if (!b)
        std::abort();
    return b.value();
}

const char *kWorkload = R"("workload": { "kind": "realtime-inference", "model": "llama-3.1-70b",
    "weights_precision": "fp8", "kv_cache_precision": "fp8", "input_tokens": 1000, "output_tokens": 300,
    "traffic": { "mode": "open-loop", "request_rate_per_s": 20 },
    "slo": { "ttft_p99_s": 2.0, "tpot_p99_s": 0.1 } })";

// 10,000 requests of Llama-3.1-70B fp8 (1000 in, 300 out) on 8x H100 SXM at TP2 (4 replicas).
void simulateTenThousand(benchmark::State &state, wb::TrafficMode mode)
{
    const wb::Brief brief = parse(std::string("{ \"format\": \"gpu-workbench-brief\", \"version\": 1, ") + kWorkload
                                  + R"(, "candidates": [ { "gpu": "h100-sxm-80gb", "gpus": 8, "tensor_parallel": 2, "serving_stack": "vllm" } ] })");
    const wb::Candidate &cand = brief.candidates[0];
    const wb::FitResult fit = wb::fitCandidate(brief, cand, catalog());
    const auto model = wb::StepModel::create(brief.workload, cand, *catalog().gpu(cand.gpu), brief.assumptions, catalog().efficiency(), nullptr);
    wb::SimConfig config;
    config.replicas = cand.replicas();
    config.kvCapacityTokens = fit.kvCacheCapacityTokensPerReplica.value_or(0);
    wb::TrafficSpec traffic;
    traffic.mode = mode;
    traffic.ratePerS = 20;  // below the candidate's capacity of about 25 requests/s
    traffic.requests = 10000;
    traffic.input.mean = 1000;
    traffic.output.mean = 300;
    wb::SimResult r;
    for (auto _ : state) {
        r = wb::simulate(*model, config, traffic);
        benchmark::DoNotOptimize(r.outputTokensPerS);
    }
    state.counters["requests_per_s"] = benchmark::Counter(10000.0 * state.iterations(), benchmark::Counter::kIsRate);
    state.counters["steps"] = double(r.steps);
    state.counters["fast_steps"] = double(r.fastSteps);
}
BENCHMARK_CAPTURE(simulateTenThousand, offline, wb::TrafficMode::Offline)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateTenThousand, open_loop, wb::TrafficMode::OpenLoop)->Unit(benchmark::kMillisecond);

// evaluate() of ten candidates (twenty: the same GPUs and layouts again on another serving
// stack), each with its offline capacity, the brief's point, the capacity search under the SLO,
// the replicas for the peak and the load curve.
void evaluateCandidates(benchmark::State &state, bool twenty)
{
    std::string candidates;
    const char *rows[] = {
        R"({ "gpu": "h100-sxm-80gb", "gpus": 8, "tensor_parallel": 2, "serving_stack": "vllm" })",
        R"({ "gpu": "h100-sxm-80gb", "gpus": 8, "tensor_parallel": 4, "serving_stack": "trtllm" })",
        R"({ "gpu": "h200-sxm-141gb", "gpus": 8, "tensor_parallel": 1, "serving_stack": "vllm" })",
        R"({ "gpu": "h200-sxm-141gb", "gpus": 8, "tensor_parallel": 2, "serving_stack": "sglang" })",
        R"({ "gpu": "b200-180gb", "gpus": 4, "tensor_parallel": 1, "serving_stack": "trtllm" })",
        R"({ "gpu": "mi300x-192gb", "gpus": 8, "tensor_parallel": 1, "serving_stack": "vllm" })",
        R"({ "gpu": "mi325x-256gb", "gpus": 8, "tensor_parallel": 2, "serving_stack": "vllm" })",
        R"({ "gpu": "a100-sxm-80gb", "gpus": 8, "tensor_parallel": 4, "serving_stack": "vllm" })",
        R"({ "gpu": "l40s-48gb", "gpus": 8, "tensor_parallel": 4, "serving_stack": "vllm" })",
        R"({ "gpu": "gb200-186gb", "gpus": 4, "tensor_parallel": 1, "serving_stack": "trtllm" })",
    };
    for (const char *row : rows)
        candidates += (candidates.empty() ? "" : ", ") + std::string(row);
    if (twenty)
        for (std::string row : rows) {
            const bool amd = row.find("mi3") != std::string::npos;
            for (const auto &[from, to] : {std::pair{"\"vllm\"", amd ? "\"sglang\"" : "\"trtllm\""},
                                           std::pair{"\"trtllm\"", "\"sglang\""}, std::pair{"\"sglang\"", "\"vllm\""}})
                if (const auto at = row.find(from); at != std::string::npos) {
                    row.replace(at, std::string(from).size(), to);
                    break;
                }
            candidates += ", " + row;
        }
    const wb::Brief brief = parse(std::string("{ \"format\": \"gpu-workbench-brief\", \"version\": 1, ") + kWorkload
                                  + ", \"candidates\": [ " + candidates + " ] }");
    for (auto _ : state) {
        wb::Results r = wb::evaluate(brief, catalog());
        benchmark::DoNotOptimize(r.results.size());
    }
}
BENCHMARK_CAPTURE(evaluateCandidates, ten, false)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(evaluateCandidates, twenty, true)->Unit(benchmark::kMillisecond)->Iterations(3);

// The window's first answer after an edit (issue 6: results within 200 ms of the last keystroke):
// the sample brief's six candidates with the quick simulation budget, and with the full one.
void evaluateSample(benchmark::State &state, bool preview)
{
    auto brief = wb::loadBrief(std::string(WB_SOURCE_DIR) + "/resources/samples/chat-70b.brief.json", catalog());
    if (!brief)
        std::abort();
    wb::EvaluateOptions options;
    options.preview = preview;
    options.today = "2026-11-30";
    for (auto _ : state) {
        wb::Results r = wb::evaluate(*brief, catalog(), options);
        benchmark::DoNotOptimize(r.results.size());
    }
}
BENCHMARK_CAPTURE(evaluateSample, preview, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(evaluateSample, full, false)->Unit(benchmark::kMillisecond)->Iterations(3);

// The layout search over every catalog GPU for the chat sample (issue 20: at most 5 s): every
// TP/PP size, serving stack and the brief's precision, screened with the quick budget, then the
// fronts and each GPU's cheapest layout confirmed with the full one.
void searchWholeCatalog(benchmark::State &state, bool confirm)
{
    auto brief = wb::loadBrief(std::string(WB_SOURCE_DIR) + "/resources/samples/chat-70b.brief.json", catalog());
    if (!brief)
        std::abort();
    wb::SearchOptions options;
    options.today = "2026-11-30";
    options.confirm = confirm;
    std::size_t layouts = 0;
    for (auto _ : state) {
        auto r = wb::searchLayouts(*brief, catalog(), options);
        layouts = r ? r->layouts.size() : 0;
        benchmark::DoNotOptimize(layouts);
    }
    state.counters["layouts"] = double(layouts);
}
BENCHMARK_CAPTURE(searchWholeCatalog, screen_only, false)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(searchWholeCatalog, confirmed, true)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

BENCHMARK_MAIN();
