#include "evidence/runs.h"

#include "catalog/prices.h"
#include "core/csvread.h"
#include "core/jsonfields.h"
#include "core/limits.h"

#include <fmt/format.h>

#include <charconv>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>

namespace wb {

namespace {

using detail::FieldError;
using detail::Json;

// One statistic read from the file: its value (already in the run's unit) and where it was.
struct Read
{
    std::optional<double> value;
    std::string path;
};

// A statistic's five slots, each with where it came from, checked as a whole: finite, not
// negative, percentiles in order.
struct StatReader
{
    Read mean, p50, p90, p95, p99;

    MeasuredStat finish() const
    {
        for (const Read *r : {&mean, &p50, &p90, &p95, &p99})
            if (r->value && (!std::isfinite(*r->value) || *r->value < 0))
                throw FieldError{r->path, "must be a finite number, not negative"};
        const Read *last = nullptr;
        for (const Read *r : {&p50, &p90, &p95, &p99}) {
            if (!r->value)
                continue;
            if (last && *r->value < *last->value)
                throw FieldError{r->path, fmt::format("is {:g}, below {} ({:g}): percentiles must not decrease", *r->value,
                                                      last->path, *last->value)};
            last = r;
        }
        return {mean.value, p50.value, p90.value, p95.value, p99.value};
    }
};

// A number (or null, or absent: empty) from a JSON object, scaled.
Read number(const Json &object, const std::string &key, const std::string &at, double scale = 1)
{
    Read r{std::nullopt, at + "/" + key};
    if (!object.is_object())
        return r;
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return r;
    if (!it->is_number())
        throw FieldError{r.path, "must be a number, not " + detail::jsonTypeName(*it)};
    r.value = it->get<double>() * scale;
    return r;
}

std::optional<long long> count(const Json &object, const std::string &key, const std::string &at)
{
    const Read r = number(object, key, at);
    if (!r.value)
        return std::nullopt;
    if (*r.value < 0 || *r.value > 1e15 || std::floor(*r.value) != *r.value)
        throw FieldError{r.path, "must be a whole number of requests, not negative"};
    return static_cast<long long>(*r.value);
}

std::string text(const Json &object, const std::string &key)
{
    if (!object.is_object() || !object.contains(key) || !object[key].is_string())
        return {};
    return limits::printable(object[key].get<std::string>(), 200);
}

const Json &member(const Json &object, const std::string &key)
{
    static const Json none;
    if (!object.is_object())
        return none;
    const auto it = object.find(key);
    return it == object.end() ? none : *it;
}

double positive(const Read &r)
{
    if (!r.value || !std::isfinite(*r.value) || *r.value < 0)
        throw FieldError{r.path, "must be a finite number, not negative"};
    return *r.value;
}

// vLLM `bench serve --save-result` (vllm/benchmarks/serve.py): header fields, totals, and for each
// of ttft, tpot, itl and e2el the mean, median and p{P} in milliseconds.
MeasuredRun readVllm(const Json &root)
{
    MeasuredRun run;
    run.tool = RunTool::Vllm;
    // vLLM writes the date as %Y%m%d-%H%M%S.
    run.date = text(root, "date");
    if (run.date.size() >= 8 && std::all_of(run.date.begin(), run.date.begin() + 8, [](char c) { return c >= '0' && c <= '9'; }))
        run.date = run.date.substr(0, 4) + "-" + run.date.substr(4, 2) + "-" + run.date.substr(6, 2);
    if (!isIsoDate(run.date))
        run.date.clear();
    run.model = text(root, "model_id");
    run.label = text(root, "label");
    run.toolVersion = text(root, "vllm_version");
    const Json &rate = member(root, "request_rate");
    if (rate.is_string() && (rate.get<std::string>() == "inf" || rate.get<std::string>() == "Infinity"))
        run.offline = true;
    else if (rate.is_number() && std::isfinite(rate.get<double>()) && rate.get<double>() > 0)
        run.requestRatePerS = rate.get<double>();
    else if (!rate.is_null())
        throw FieldError{"/request_rate", "must be a rate in requests per second, or \"inf\""};
    if (const auto c = count(root, "max_concurrency", "")) {
        if (*c < 1)
            throw FieldError{"/max_concurrency", "must be at least 1"};
        run.concurrency = int(std::min<long long>(*c, 1000000));
        run.offline = false;
    }
    if (const Read b = number(root, "burstiness", ""); b.value)
        run.burstiness = positive(b);
    run.completed = count(root, "completed", "");
    run.failed = count(root, "failed", "");
    if (run.completed && *run.completed > 0) {
        if (const Read in = number(root, "total_input_tokens", ""); in.value)
            run.inputTokens.mean = positive(in) / double(*run.completed);
        if (const Read out = number(root, "total_output_tokens", ""); out.value)
            run.outputTokens.mean = positive(out) / double(*run.completed);
    }
    if (const Read r = number(root, "request_throughput", ""); r.value)
        run.requestsPerS = positive(r);
    if (const Read r = number(root, "output_throughput", ""); r.value)
        run.outputTokensPerS = positive(r);
    const auto stat = [&](const std::string &m) {
        StatReader s;
        s.mean = number(root, "mean_" + m + "_ms", "", 1e-3);
        s.p50 = number(root, "median_" + m + "_ms", "", 1e-3);
        if (!s.p50.value)
            s.p50 = number(root, "p50_" + m + "_ms", "", 1e-3);
        s.p90 = number(root, "p90_" + m + "_ms", "", 1e-3);
        s.p95 = number(root, "p95_" + m + "_ms", "", 1e-3);
        s.p99 = number(root, "p99_" + m + "_ms", "", 1e-3);
        return s.finish();
    };
    run.ttft = stat("ttft");
    run.tpot = stat("tpot");
    run.itl = stat("itl");
    run.e2e = stat("e2el");
    return run;
}

// GuideLLM benchmarks.json, schema 2 (src/guidellm/benchmark/schemas): each metric a
// StatusDistributionSummary whose `successful` part has mean, median and percentiles{p50..p99}.
MeasuredStat guidellmStat(const Json &metrics, const std::string &name, const std::string &at, double scale)
{
    const Json &successful = member(member(metrics, name), "successful");
    const std::string base = at + "/" + name + "/successful";
    StatReader s;
    s.mean = number(successful, "mean", base, scale);
    s.p50 = number(member(successful, "percentiles"), "p50", base + "/percentiles", scale);
    if (!s.p50.value)
        s.p50 = number(successful, "median", base, scale);
    const Json &pct = member(successful, "percentiles");
    s.p90 = number(pct, "p90", base + "/percentiles", scale);
    s.p95 = number(pct, "p95", base + "/percentiles", scale);
    s.p99 = number(pct, "p99", base + "/percentiles", scale);
    return s.finish();
}

std::vector<MeasuredRun> readGuideLlm(const Json &root)
{
    const Json &benchmarks = member(root, "benchmarks");
    if (!benchmarks.is_array())
        throw FieldError{"/benchmarks", "is missing: GuideLLM's benchmarks.json lists its runs there"};
    if (benchmarks.empty())
        throw FieldError{"/benchmarks", "is empty: the file holds no run"};
    if (benchmarks.size() > 1000)
        throw FieldError{"/benchmarks", "holds more than 1,000 runs"};
    const std::string version = text(member(root, "metadata"), "guidellm_version");
    std::vector<MeasuredRun> runs;
    for (std::size_t i = 0; i < benchmarks.size(); ++i) {
        const std::string at = fmt::format("/benchmarks/{}", i);
        const Json &b = benchmarks[i];
        if (!b.is_object())
            throw FieldError{at, "must be an object"};
        MeasuredRun run;
        run.tool = RunTool::GuideLlm;
        run.toolVersion = version;
        run.label = text(member(b, "config"), "id_");
        // The strategy: in config (schema 2) or in args (earlier releases).
        const bool inConfig = member(member(b, "config"), "strategy").is_object();
        const Json &strategy = inConfig ? member(member(b, "config"), "strategy") : member(member(b, "args"), "strategy");
        const std::string sat = at + (inConfig ? "/config/strategy" : "/args/strategy");
        const std::string type = text(strategy, "type_");
        if (type == "poisson" || type == "constant") {
            run.requestRatePerS = positive(number(strategy, "rate", sat));
            if (*run.requestRatePerS <= 0)
                throw FieldError{sat + "/rate", "must be above 0"};
            // Gamma shape of the arrivals: 1 for Poisson; constant arrivals have no variance, an
            // unbounded shape, which 1e6 stands for (a coefficient of variation of 0.001).
            run.burstiness = type == "poisson" ? 1 : 1e6;
        } else if (type == "concurrent") {
            const auto streams = count(strategy, "streams", sat);
            if (!streams || *streams < 1)
                throw FieldError{sat + "/streams", "must be a count of concurrent streams"};
            run.concurrency = int(std::min<long long>(*streams, 1000000));
        } else if (type == "synchronous") {
            run.concurrency = 1;
        } else if (type == "throughput") {
            run.offline = true;
        } else {
            throw FieldError{sat + "/type_", "\"" + limits::printable(type) +
                                                  "\" is not a GuideLLM strategy this build reads (poisson, constant, "
                                                  "concurrent, synchronous, throughput)"};
        }
        const Json &metrics = member(b, "metrics");
        const std::string mat = at + "/metrics";
        if (!metrics.is_object())
            throw FieldError{mat, "is missing"};
        run.ttft = guidellmStat(metrics, "time_to_first_token_ms", mat, 1e-3);
        run.tpot = guidellmStat(metrics, "inter_token_latency_ms", mat, 1e-3);
        run.ntpot = guidellmStat(metrics, "time_per_output_token_ms", mat, 1e-3);
        run.e2e = guidellmStat(metrics, "request_latency", mat, 1);  // seconds
        run.inputTokens = guidellmStat(metrics, "prompt_token_count", mat, 1);
        run.outputTokens = guidellmStat(metrics, "output_token_count", mat, 1);
        run.requestsPerS = guidellmStat(metrics, "requests_per_second", mat, 1).mean;
        run.outputTokensPerS = guidellmStat(metrics, "output_tokens_per_second", mat, 1).mean;
        const Json &totals = member(metrics, "request_totals");
        run.completed = count(totals, "successful", mat + "/request_totals");
        run.failed = count(totals, "errored", mat + "/request_totals");
        runs.push_back(std::move(run));
    }
    return runs;
}

// LLMPerf `*_summary.json` (token_benchmark_ray.py): flattened keys, seconds; its
// inter_token_latency sums every gap, the first token's included, over the output tokens.
MeasuredRun readLlmPerf(const Json &root)
{
    MeasuredRun run;
    run.tool = RunTool::LlmPerf;
    run.model = text(root, "model");
    run.toolVersion = text(root, "version");
    run.label = text(root, "name");
    if (const Read t = number(root, "timestamp", ""); t.value && *t.value > 0 && *t.value < 1e11) {
        const std::time_t seconds = static_cast<std::time_t>(*t.value);
        std::tm utc{};
        if (gmtime_r(&seconds, &utc))
            run.date = fmt::format("{:04}-{:02}-{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
    }
    if (const auto c = count(root, "num_concurrent_requests", "")) {
        if (*c < 1)
            throw FieldError{"/num_concurrent_requests", "must be at least 1"};
        run.concurrency = int(std::min<long long>(*c, 1000000));
    }
    if (const Read in = number(root, "mean_input_tokens", ""); in.value)
        run.inputTokens.mean = positive(in);
    if (const Read out = number(root, "mean_output_tokens", ""); out.value)
        run.outputTokens.mean = positive(out);
    const auto stat = [&](const std::string &m) {
        const std::string k = "results_" + m + "_";
        StatReader s;
        s.mean = number(root, k + "mean", "");
        s.p50 = number(root, k + "quantiles_p50", "");
        s.p90 = number(root, k + "quantiles_p90", "");
        s.p95 = number(root, k + "quantiles_p95", "");
        s.p99 = number(root, k + "quantiles_p99", "");
        return s.finish();
    };
    run.ttft = stat("ttft_s");
    run.ntpot = stat("inter_token_latency_s");
    run.e2e = stat("end_to_end_latency_s");
    run.completed = count(root, "results_num_completed_requests", "");
    run.failed = count(root, "results_number_errors", "");
    if (const Read r = number(root, "results_num_completed_requests_per_min", ""); r.value)
        run.requestsPerS = positive(r) / 60;
    if (const Read r = number(root, "results_mean_output_throughput_token_per_s", ""); r.value)
        run.outputTokensPerS = positive(r);
    return run;
}

// GenAI-Perf `profile_export_genai_perf.json` and AIPerf `profile_export_aiperf.json` (AIPerf's
// docs/tutorials/working-with-profile-exports.md; GenAI-Perf's docs/perf_benchmark): each metric
// an object with its `unit` and `avg`, `p50`, `p90`, `p95`, `p99`; the load in `input_config`
// (AIPerf: `input_config.loadgen.{concurrency,request_rate}`; GenAI-Perf:
// `input_config.{concurrency,request_rate}`). Their inter_token_latency is per request
// (request latency - TTFT) / (output tokens - 1): the run's tpot.
// `kind`: "time" (ms, s or sec, us, ns: scaled to seconds), or the one unit the metric is in
// ("tokens", "tokens/sec", "requests/sec", "requests"): a throughput in tokens where requests are
// expected is refused, not read as something else.
double unitScale(const Json &metric, const std::string &at, const std::string &kind)
{
    const Json &field = member(metric, "unit");
    if (!field.is_string())
        throw FieldError{at + "/unit", field.is_null() ? std::string("is missing: the figures' unit cannot be told")
                                                       : "must be text naming the unit"};
    const std::string unit = field.get<std::string>();
    if (kind == "time") {
        if (unit == "ms")
            return 1e-3;
        if (unit == "s" || unit == "sec")
            return 1;
        if (unit == "us")
            return 1e-6;
        if (unit == "ns")
            return 1e-9;
    } else if (unit == kind) {
        return 1;
    }
    throw FieldError{at + "/unit", "\"" + limits::printable(unit) + "\" is not a unit this build reads here (expected " +
                                       (kind == "time" ? std::string("ms, s, sec, us or ns") : kind) + ")"};
}

MeasuredStat profileStat(const Json &root, const std::string &name, const std::string &kind)
{
    const Json &metric = member(root, name);
    if (metric.is_null())
        return {};
    const std::string at = "/" + name;
    if (!metric.is_object())
        throw FieldError{at, "must be an object with a unit and statistics"};
    const double scale = unitScale(metric, at, kind);
    StatReader s;
    s.mean = number(metric, "avg", at, scale);
    s.p50 = number(metric, "p50", at, scale);
    s.p90 = number(metric, "p90", at, scale);
    s.p95 = number(metric, "p95", at, scale);
    s.p99 = number(metric, "p99", at, scale);
    return s.finish();
}

MeasuredRun readProfileExport(const Json &root)
{
    MeasuredRun run;
    const Json &config = member(root, "input_config");
    const Json &loadgen = member(config, "loadgen");
    run.tool = loadgen.is_object() || root.contains("start_time") ? RunTool::AiPerf : RunTool::GenAiPerf;
    const std::string at = loadgen.is_object() ? "/input_config/loadgen" : "/input_config";
    const Json &load = loadgen.is_object() ? loadgen : config;
    const std::string started = text(root, "start_time");
    if (started.size() >= 10 && isIsoDate(started.substr(0, 10)))
        run.date = started.substr(0, 10);
    const Json &names = member(member(config, "endpoint"), "model_names");
    const Json &models = names.is_array() ? names : member(config, "model");
    if (models.is_array() && !models.empty() && models[0].is_string())
        run.model = limits::printable(models[0].get<std::string>(), 200);
    if (const auto c = count(load, "concurrency", at); c && *c > 0)
        run.concurrency = int(std::min<long long>(*c, 1000000));
    if (const Read r = number(load, "request_rate", at); r.value) {
        if (positive(r) <= 0)
            throw FieldError{r.path, "must be above 0"};
        run.requestRatePerS = r.value;
        run.concurrency.reset();  // a rate with a concurrency cap: the rate is the load
    }
    run.ttft = profileStat(root, "time_to_first_token", "time");
    run.tpot = profileStat(root, "inter_token_latency", "time");
    run.e2e = profileStat(root, "request_latency", "time");
    run.inputTokens = profileStat(root, "input_sequence_length", "tokens");
    run.outputTokens = profileStat(root, "output_sequence_length", "tokens");
    run.requestsPerS = profileStat(root, "request_throughput", "requests/sec").mean;
    run.outputTokensPerS = profileStat(root, "output_token_throughput", "tokens/sec").mean;
    if (const MeasuredStat n = profileStat(root, "request_count", "requests"); n.mean) {
        if (*n.mean > 1e15 || std::floor(*n.mean) != *n.mean)
            throw FieldError{"/request_count/avg", "must be a whole number of requests"};
        run.completed = static_cast<long long>(*n.mean);
    }
    if (const auto e = count(root, "error_request_count", ""))
        run.failed = e;
    return run;
}

const char *kStatNames[] = {"mean", "p50", "p90", "p95", "p99"};
const char *kLatencyNames[] = {"ttft", "tpot", "ntpot", "itl", "e2e"};

std::vector<std::string> csvColumns()
{
    std::vector<std::string> c = {"tool", "tool_version", "date", "model", "gpu", "gpus", "tensor_parallel",
                                  "serving_stack", "input_tokens_mean", "input_tokens_p95", "output_tokens_mean",
                                  "output_tokens_p95", "request_rate_per_s", "concurrency"};
    for (const char *m : kLatencyNames)
        for (const char *s : kStatNames)
            c.push_back(fmt::format("{}_{}_ms", m, s));
    c.insert(c.end(), {"requests_per_s", "output_tokens_per_s", "completed", "failed"});
    return c;
}

std::vector<MeasuredRun> readCsv(const CsvTable &table)
{
    for (std::size_t c = 0; c < table.header.size(); ++c)
        if (std::find(kEvidenceCsvColumns.begin(), kEvidenceCsvColumns.end(), table.header[c]) == kEvidenceCsvColumns.end())
            throw FieldError{fmt::format("line 1, column {}", c + 1),
                             "\"" + limits::printable(table.header[c]) + "\" is not a column of the evidence CSV (see "
                                                                          "the README's list)"};
    if (!table.column("tool"))
        throw FieldError{"line 1", "has no \"tool\" column"};
    if (table.rows.empty())
        throw FieldError{"line 2", "no run: the file has a header only"};
    std::vector<MeasuredRun> runs;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto &row = table.rows[r];
        const auto cell = [&](const std::string &name) -> std::string {
            const auto c = table.column(name);
            return c ? row[*c] : std::string();
        };
        const auto where = [&](const std::string &name) {
            return fmt::format("line {}, column {}", table.lines[r], name);
        };
        const auto num = [&](const std::string &name, double scale = 1) -> Read {
            const std::string s = cell(name);
            Read out{std::nullopt, where(name)};
            if (s.empty())
                return out;
            // A plain decimal number (from_chars takes no hex, no "inf", no spaces, unlike strtod).
            double v = 0;
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
            if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
                throw FieldError{out.path, "\"" + limits::printable(s) + "\" is not a number"};
            if (v < 0)
                throw FieldError{out.path, "must not be negative"};
            out.value = v * scale;
            return out;
        };
        const auto whole = [&](const std::string &name) -> std::optional<long long> {
            const Read v = num(name);
            if (v.value && (std::floor(*v.value) != *v.value || *v.value > 1e15))
                throw FieldError{v.path, "must be a whole number"};
            return v.value ? std::optional<long long>(static_cast<long long>(*v.value)) : std::nullopt;
        };
        MeasuredRun run;
        run.tool = RunTool::Csv;
        run.label = limits::printable(cell("tool"), 200);
        if (run.label.empty())
            throw FieldError{where("tool"), "is empty: name the tool that measured the run"};
        run.toolVersion = limits::printable(cell("tool_version"), 200);
        run.date = cell("date");
        if (!run.date.empty() && !isIsoDate(run.date))
            throw FieldError{where("date"), "must be a date as YYYY-MM-DD"};
        run.model = limits::printable(cell("model"), 200);
        run.gpu = cell("gpu");
        if (!run.gpu.empty() && !limits::isPlainName(run.gpu))
            throw FieldError{where("gpu"), "must be a catalog GPU id"};
        if (const auto g = whole("gpus"); g) {
            if (*g < 1 || *g > 100000)
                throw FieldError{where("gpus"), "must be 1 to 100,000"};
            run.gpus = int(*g);
        }
        if (const auto tp = whole("tensor_parallel"); tp) {
            if (*tp < 1 || *tp > 1024)
                throw FieldError{where("tensor_parallel"), "must be 1 to 1,024"};
            run.tensorParallel = int(*tp);
        }
        if (const std::string s = cell("serving_stack"); !s.empty()) {
            run.stack = enumFromString<ServingStack>(s);
            if (!run.stack)
                throw FieldError{where("serving_stack"), "must be " + enumChoices<ServingStack>()};
        }
        run.inputTokens.mean = num("input_tokens_mean").value;
        run.inputTokens.p95 = num("input_tokens_p95").value;
        run.outputTokens.mean = num("output_tokens_mean").value;
        run.outputTokens.p95 = num("output_tokens_p95").value;
        if (cell("request_rate_per_s") == "inf")
            run.offline = true;
        else if (const Read rate = num("request_rate_per_s"); rate.value) {
            if (*rate.value <= 0)
                throw FieldError{rate.path, "must be above 0 (or inf)"};
            run.requestRatePerS = rate.value;
        }
        if (const auto c = whole("concurrency"); c) {
            if (*c < 1 || *c > 1000000)
                throw FieldError{where("concurrency"), "must be 1 to 1,000,000"};
            run.concurrency = int(*c);
        }
        MeasuredStat *stats[] = {&run.ttft, &run.tpot, &run.ntpot, &run.itl, &run.e2e};
        for (std::size_t m = 0; m < 5; ++m) {
            StatReader s;
            Read *slots[] = {&s.mean, &s.p50, &s.p90, &s.p95, &s.p99};
            for (std::size_t k = 0; k < 5; ++k)
                *slots[k] = num(fmt::format("{}_{}_ms", kLatencyNames[m], kStatNames[k]), 1e-3);
            *stats[m] = s.finish();
        }
        run.requestsPerS = num("requests_per_s").value;
        run.outputTokensPerS = num("output_tokens_per_s").value;
        run.completed = whole("completed");
        run.failed = whole("failed");
        runs.push_back(std::move(run));
    }
    return runs;
}

void checkHasMetrics(const MeasuredRun &run, const std::string &where)
{
    if (run.ttft.empty() && run.tpot.empty() && run.ntpot.empty() && run.itl.empty() && run.e2e.empty() &&
        !run.outputTokensPerS && !run.requestsPerS)
        throw FieldError{where, "holds no latency and no throughput: nothing to compare with a prediction"};
}

} // namespace

const std::vector<std::string> kEvidenceCsvColumns = csvColumns();

std::string_view runToolName(RunTool tool)
{
    switch (tool) {
    case RunTool::Vllm: return "vllm-bench-serve";
    case RunTool::GuideLlm: return "guidellm";
    case RunTool::LlmPerf: return "llmperf";
    case RunTool::GenAiPerf: return "genai-perf";
    case RunTool::AiPerf: return "aiperf";
    case RunTool::Csv: return "csv";
    }
    return "?";
}

Result<std::vector<MeasuredRun>> readMeasuredRuns(const std::string &text, const std::string &fileName,
                                                  std::optional<RunTool> as)
{
    // A UTF-8 byte order mark (some editors write one) is not part of the content.
    const std::size_t bom = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    const std::size_t start = text.find_first_not_of(" \t\r\n", bom);
    if (!as && start != std::string::npos && text[start] == '[')
        return Error{fileName, "", "is a JSON array; the result files this build reads are JSON objects (or the evidence CSV)"};
    const bool json = as ? *as != RunTool::Csv : start != std::string::npos && text[start] == '{';
    try {
        if (!json) {
            if (text.size() > limits::kJsonBytes)
                return Error{fileName, "", "is larger than the 16 MiB an evidence file may hold"};
            auto table = parseCsv(text, fileName);
            if (!table)
                return table.error();
            std::vector<MeasuredRun> runs = readCsv(*table);
            for (std::size_t i = 0; i < runs.size(); ++i)
                checkHasMetrics(runs[i], fmt::format("line {}", table->lines[i]));
            return runs;
        }
        if (auto bad = limits::checkJsonText(text))
            return Error{fileName, "", *bad};
        const Json root = Json::parse(text.begin() + std::ptrdiff_t(bom), text.end(), nullptr, false);
        if (root.is_discarded() || !root.is_object())
            return Error{fileName, "", "is not valid JSON (a syntax error, or a number out of range)"};
        std::vector<MeasuredRun> runs;
        const auto is = [&](RunTool tool, bool looksLike) { return as ? *as == tool : looksLike; };
        if (is(RunTool::GuideLlm, root.contains("benchmarks") && root["benchmarks"].is_array()))
            runs = readGuideLlm(root);
        else if (is(RunTool::LlmPerf, root.contains("results_ttft_s_mean") || root.contains("results_end_to_end_latency_s_mean")))
            runs.push_back(readLlmPerf(root));
        else if (is(RunTool::GenAiPerf, member(root, "time_to_first_token").is_object() ||
                                            member(root, "request_latency").is_object()) ||
                 (as && *as == RunTool::AiPerf))
            runs.push_back(readProfileExport(root));
        else if (is(RunTool::Vllm, root.contains("mean_ttft_ms") || (root.contains("backend") && root.contains("request_throughput"))))
            runs.push_back(readVllm(root));
        else
            return Error{fileName, "", "is not a result file this build reads (vLLM bench serve --save-result, GuideLLM "
                                       "benchmarks.json, LLMPerf *_summary.json, GenAI-Perf or AIPerf profile_export*.json, "
                                       "or the evidence CSV)"};
        for (std::size_t i = 0; i < runs.size(); ++i)
            checkHasMetrics(runs[i], runs.size() > 1 ? fmt::format("/benchmarks/{}", i) : std::string());
        return runs;
    } catch (const FieldError &e) {
        return Error{fileName, e.path, e.message};
    }
}

} // namespace wb
