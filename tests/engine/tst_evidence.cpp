// The evidence importers: each tool's result file (tests/data/evidence, written from the tools'
// documented formats) read into the same normalized run, with units and semantics converted as
// worked out by hand below; malformed files refused naming the file and the field.
#include <evidence/evidence.h>
#include <evidence/runs.h>
#include <report/report.h>
#include <usecase/records.h>
#include <usecase/scenario.h>

#include "../testsupport.h"

#include <QtTest>

#include <QFile>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <random>
#include <string>

using namespace wb;
using wbtest::parseOrFail;
using wbtest::shippedCatalog;

namespace {

std::string sample(const char *name)
{
    QFile f(QStringLiteral(WB_SOURCE_DIR "/tests/data/evidence/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no sample %s", name);
    return f.readAll().toStdString();
}

std::vector<MeasuredRun> read(const char *name)
{
    auto runs = readMeasuredRuns(sample(name), name);
    if (!runs)
        qFatal("%s", runs.error().toString().c_str());
    return std::move(runs).value();
}

bool near(std::optional<double> a, double b)
{
    return a && std::abs(*a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestEvidence : public QObject
{
    Q_OBJECT

private slots:
    void vllmResult();
    void guidellmSweep();
    void llmperfSummary();
    void evidenceCsv();
    void genaiPerfExport();
    void aiperfExport();
    void mapping();
    void sameMetricNames();
    void calibrationFromEngineRuns();
    void calibrationFromSampleFiles();
    void provenanceAndSwitch();
    void scenarioPassesAndCache();
    void scenarioSurvivesEngineFailure();
    void badFiles_data();
    void badFiles();
};

// vllm-h200-12.5rps.json: milliseconds to seconds (mean TTFT 812.4 ms -> 0.8124 s), input tokens
// per request from the totals (1,996,000 / 998 completed = 2,000), the date from %Y%m%d-%H%M%S.
void TestEvidence::vllmResult()
{
    const auto runs = read("vllm-h200-12.5rps.json");
    QCOMPARE(runs.size(), std::size_t(1));
    const MeasuredRun &r = runs[0];
    QCOMPARE(r.tool, RunTool::Vllm);
    QCOMPARE(r.date, std::string("2026-11-20"));
    QCOMPARE(r.model, std::string("meta-llama/Llama-3.1-70B-Instruct"));
    QVERIFY(near(r.requestRatePerS, 12.5));
    QVERIFY(!r.offline && !r.concurrency);
    QVERIFY(near(r.ttft.mean, 0.8124));
    QVERIFY(near(r.ttft.p50, 0.7601));
    QVERIFY(near(r.ttft.p99, 1.65));
    QVERIFY(near(r.tpot.p99, 0.0495));
    QVERIFY(near(r.itl.p99, 0.0987));
    QVERIFY(near(r.e2e.p95, 14.98));
    QVERIFY(r.ntpot.empty());  // vLLM reports TPOT without the first token only
    QVERIFY(near(r.inputTokens.mean, 2000));
    QVERIFY(near(r.outputTokens.mean, 300));
    QCOMPARE(r.completed, std::optional<long long>(998));
    QCOMPARE(r.failed, std::optional<long long>(2));
    QVERIFY(near(r.outputTokensPerS, 3655.7));
    QVERIFY(r.gpu.empty() && !r.gpus);  // the file does not say; never guessed
}

// guidellm-h200.json: two benchmarks, two runs. inter_token_latency_ms is TPOT (without the first
// token), time_per_output_token_ms includes it; request_latency is already in seconds.
void TestEvidence::guidellmSweep()
{
    const auto runs = read("guidellm-h200.json");
    QCOMPARE(runs.size(), std::size_t(2));
    QCOMPARE(runs[0].tool, RunTool::GuideLlm);
    QCOMPARE(runs[0].toolVersion, std::string("0.4.0"));
    QVERIFY(near(runs[0].requestRatePerS, 12.5));
    QVERIFY(near(runs[0].ttft.p99, 1.66));
    QVERIFY(near(runs[0].tpot.p50, 0.0409));
    QVERIFY(near(runs[0].ntpot.p50, 0.0435));
    QVERIFY(near(runs[0].e2e.p99, 15.9));
    QVERIFY(near(runs[0].inputTokens.mean, 2000));
    QCOMPARE(runs[0].failed, std::optional<long long>(2));
    QCOMPARE(runs[1].concurrency, std::optional<int>(16));
    QVERIFY(!runs[1].requestRatePerS);
    QVERIFY(near(runs[1].ttft.p50, 0.295));
}

// llmperf summary: seconds already; its inter-token latency includes the first token, so it is
// NTPOT, not TPOT; 141 completed requests a minute = 2.35 requests/s; timestamp 1795000000 is
// 2026-11-18 (UTC).
void TestEvidence::llmperfSummary()
{
    const auto runs = read("llmperf-h200_2000_300_summary.json");
    QCOMPARE(runs.size(), std::size_t(1));
    const MeasuredRun &r = runs[0];
    QCOMPARE(r.tool, RunTool::LlmPerf);
    QCOMPARE(r.date, std::string("2026-11-18"));
    QCOMPARE(r.concurrency, std::optional<int>(32));
    QVERIFY(near(r.ttft.p50, 0.61));
    QVERIFY(near(r.ntpot.p99, 0.0521));
    QVERIFY(r.tpot.empty());
    QVERIFY(near(r.e2e.mean, 13.6));
    QVERIFY(near(r.requestsPerS, 141.0 / 60));
    QCOMPARE(r.completed, std::optional<long long>(499));
}

void TestEvidence::evidenceCsv()
{
    const auto runs = read("runs.csv");
    QCOMPARE(runs.size(), std::size_t(1));
    const MeasuredRun &r = runs[0];
    QCOMPARE(r.tool, RunTool::Csv);
    QCOMPARE(r.label, std::string("in-house load test"));
    QCOMPARE(r.gpu, std::string("h200-sxm-141gb"));
    QCOMPARE(r.gpus, std::optional<int>(8));
    QCOMPARE(r.stack, std::optional<ServingStack>(ServingStack::Vllm));
    QVERIFY(near(r.ttft.p99, 1.68));
    QVERIFY(near(r.tpot.p50, 0.041));
    QVERIFY(near(r.e2e.p99, 15.9));
    QCOMPARE(r.failed, std::optional<long long>(5));
}

// genai-perf-h200-12.5rps_profile_export_genai_perf.json: metric objects in ms (TTFT avg 830 ms ->
// 0.830 s; inter_token_latency is per request, first token excluded: the run's tpot), the rate
// from input_config.request_rate, throughputs in their own units.
void TestEvidence::genaiPerfExport()
{
    const auto runs = read("genai-perf-h200-12.5rps_profile_export_genai_perf.json");
    QCOMPARE(runs.size(), std::size_t(1));
    const MeasuredRun &r = runs[0];
    QCOMPARE(r.tool, RunTool::GenAiPerf);
    QCOMPARE(r.model, std::string("meta-llama/Llama-3.1-70B-Instruct"));
    QVERIFY(near(r.requestRatePerS, 12.5));
    QVERIFY(!r.concurrency && !r.offline);
    QVERIFY(near(r.ttft.mean, 0.830));
    QVERIFY(near(r.ttft.p90, 1.250));
    QVERIFY(near(r.tpot.p99, 0.0499));
    QVERIFY(near(r.e2e.p50, 13.010));
    QVERIFY(r.itl.empty() && r.ntpot.empty());
    QVERIFY(near(r.outputTokensPerS, 3660));
    QVERIFY(near(r.requestsPerS, 12.2));
    QVERIFY(near(r.inputTokens.mean, 2000));
    QVERIFY(near(r.outputTokens.mean, 300));
}

// aiperf-h200-c32_profile_export_aiperf.json: AIPerf is told by input_config.loadgen (32
// concurrent), the date from start_time, 1,000 requests from request_count.
void TestEvidence::aiperfExport()
{
    const auto runs = read("aiperf-h200-c32_profile_export_aiperf.json");
    QCOMPARE(runs.size(), std::size_t(1));
    const MeasuredRun &r = runs[0];
    QCOMPARE(r.tool, RunTool::AiPerf);
    QCOMPARE(r.date, std::string("2026-11-21"));
    QCOMPARE(r.concurrency, std::optional<int>(32));
    QVERIFY(!r.requestRatePerS);
    QVERIFY(near(r.tpot.mean, 0.00825));
    QVERIFY(near(r.e2e.p95, 2.960));
    QCOMPARE(r.completed, std::optional<long long>(1000));
    QVERIFY(!r.failed);
    // Forced through another importer, it is refused, not misread.
    QVERIFY(!readMeasuredRuns(sample("aiperf-h200-c32_profile_export_aiperf.json"), "x", RunTool::Vllm));
}

// Mapping a run to a candidate: what the file does not say (vLLM writes no GPU, count, layout
// or stack) is the candidate's and is listed; a conflict is refused naming the field.
void TestEvidence::mapping()
{
    const Brief brief = parseOrFail(sample("../../../resources/samples/chat-70b.brief.json"));
    const MeasuredRun vllm = read("vllm-h200-12.5rps.json").front();
    std::vector<std::string> from;
    auto mapped = mapRun(vllm, brief, 1, {}, &from);  // candidate 2: 8x h200 TP1 vllm
    QVERIFY2(mapped, mapped ? "" : mapped.error().toString().c_str());
    QCOMPARE(mapped->gpu, std::string("h200-sxm-141gb"));
    QCOMPARE(mapped->gpus, std::optional<int>(8));
    QCOMPARE(from, (std::vector<std::string>{"gpu", "serving_stack", "tensor_parallel", "gpus"}));
    // The same file against the H100 candidate, told it ran on an H200: refused.
    RunMapping h200;
    h200.gpu = "h200-sxm-141gb";
    auto wrong = mapRun(vllm, brief, 0, h200);
    QVERIFY(!wrong);
    QCOMPARE(wrong.error().path, std::string("gpu"));
    // 4 GPUs of a TP1 candidate are 4 replicas: fine; 3 GPUs of a TP2 candidate are not.
    RunMapping three;
    three.gpus = 3;
    QVERIFY(!mapRun(vllm, brief, 0, three));
    QCOMPARE(mapRun(vllm, brief, 0, three).error().path, std::string("gpus"));
    RunMapping four;
    four.gpus = 4;
    QVERIFY(mapRun(vllm, brief, 1, four));
    // What is typed fills gaps only: the vLLM file says 12.5 requests/s and 2,000/300 tokens.
    RunMapping rate;
    rate.requestRatePerS = 10;
    QCOMPARE(mapRun(vllm, brief, 1, rate).error().path, std::string("load"));
    rate.requestRatePerS = 12.5;
    QVERIFY(mapRun(vllm, brief, 1, rate));
    RunMapping lengths;
    lengths.inputTokens = 1000;
    QCOMPARE(mapRun(vllm, brief, 1, lengths).error().path, std::string("input_tokens"));
    // A CSV row without a load or lengths, and none given: refused naming what is missing.
    auto csv = readMeasuredRuns("tool,ttft_p50_ms\nprobe,700\n", "probe.csv");
    QVERIFY(csv);
    QCOMPARE(mapRun(csv->front(), brief, 1, {}).error().path, std::string("load"));
    RunMapping load;
    load.concurrency = 8;
    QCOMPARE(mapRun(csv->front(), brief, 1, load).error().path, std::string("input_tokens"));
    load.inputTokens = 2000;
    load.outputTokens = 300;
    QVERIFY(mapRun(csv->front(), brief, 1, load));
    QVERIFY(!mapRun(vllm, brief, 9, {}));
    // Loads beyond what a brief may ask for are refused (1e305 requests/s once crashed the
    // cost model when predicted).
    RunMapping fast = load;
    fast.concurrency.reset();
    fast.requestRatePerS = 1e305;
    QCOMPARE(mapRun(csv->front(), brief, 1, fast).error().path, std::string("request_rate"));
    // A byte order mark before the JSON is not content.
    QVERIFY(readMeasuredRuns("\xEF\xBB\xBF" + sample("vllm-h200-12.5rps.json"), "bom.json"));
}

namespace {

// The sample files' runs mapped to the chat sample's candidate 2 (8x H200, vLLM), ids from 1.
std::vector<EvidenceRun> sampleRuns(const Brief &brief)
{
    std::vector<EvidenceRun> runs;
    for (const char *file : {"vllm-h200-12.5rps.json", "guidellm-h200.json", "llmperf-h200_2000_300_summary.json"})
        for (const MeasuredRun &r : read(file)) {
            EvidenceRun e;
            e.id = long(runs.size()) + 1;
            e.scenario = brief.name;
            e.candidate = 1;
            e.file.name = file;
            auto mapped = mapRun(r, brief, 1, {});
            if (!mapped)
                qFatal("%s", mapped.error().toString().c_str());
            e.run = *mapped;
            runs.push_back(e);
        }
    return runs;
}

// Mean absolute log error of a column over the metrics a calibration fits (means, medians and
// the output throughput) of one run's comparison.
double meanLogError(const std::vector<MetricComparison> &metrics, std::optional<double> MetricComparison::*column)
{
    double sum = 0;
    int n = 0;
    for (const MetricComparison &m : metrics) {
        const bool fitted = (m.stat == "mean" || m.stat == "p50" || m.metric == "output_tokens_per_s") &&
                            m.metric != "ntpot" && !(m.metric == "itl" && m.stat == "p50");
        if (fitted && m.*column) {
            sum += std::abs(std::log(*(m.*column) / m.measured));
            ++n;
        }
    }
    return n ? sum / n : NAN;
}

// The chat sample narrowed to one candidate of 8B on one H200, quick to simulate.
Brief smallBrief()
{
    std::string text = sample("../../../resources/samples/chat-70b.brief.json");
    auto json = nlohmann::ordered_json::parse(text);
    json["workload"]["model"] = "llama-3.1-8b";
    json["workload"].erase("input_tokens_p95");
    json["workload"].erase("output_tokens_p95");
    json["candidates"] = nlohmann::ordered_json::array(
        {{{"gpu", "h200-sxm-141gb"}, {"gpus", 1}, {"tensor_parallel", 1}, {"serving_stack", "vllm"}}});
    return parseOrFail(json.dump());
}

} // namespace

// Importing a vLLM, a GuideLLM and an LLMPerf result for the same candidate: every run's
// comparison uses the same metric names, and the metrics all three report (TTFT mean and p50,
// E2E mean and p50, output tokens/s) each get a prediction.
void TestEvidence::sameMetricNames()
{
    const Brief brief = parseOrFail(sample("../../../resources/samples/chat-70b.brief.json"));
    const auto runs = sampleRuns(brief);
    QCOMPARE(runs.size(), std::size_t(4));
    const auto predictions = predictRuns(brief, runs, shippedCatalog(), shippedCatalog().efficiency(), {});
    QCOMPARE(predictions.size(), runs.size());
    for (const RunPrediction &p : predictions) {
        QVERIFY2(p.why.empty(), p.why.c_str());
        // (No structured binding: clang 14 cannot capture one in the lambda.)
        for (const auto &wanted : {std::pair{"ttft", "mean"}, {"ttft", "p50"}, {"e2e", "mean"}, {"e2e", "p50"},
                                   {"output_tokens_per_s", ""}}) {
            const char *metric = wanted.first, *stat = wanted.second;
            const auto it = std::find_if(p.metrics.begin(), p.metrics.end(), [&](const MetricComparison &m) {
                return m.metric == metric && m.stat == stat;
            });
            QVERIFY2(it != p.metrics.end(), qPrintable(QStringLiteral("run %1 lacks %2 %3").arg(p.run).arg(metric, stat)));
            QVERIFY(it->predicted && *it->predicted > 0);
        }
    }
}

// Runs built by the engine itself at known factors (memory bandwidth efficiency 20% below the
// shipped value, step overhead doubled) with 3% multiplicative noise (fixed seed): calibrating
// on four of them must predict the fifth, held out, better than the shipped factors do, and
// move the memory factor the right way.
void TestEvidence::calibrationFromEngineRuns()
{
    const Catalog &catalog = shippedCatalog();
    const Brief brief = smallBrief();
    const EfficiencyTable &base = catalog.efficiency();
    std::vector<EfficiencyFactor> truth = base.factors();
    for (EfficiencyFactor &f : truth) {
        if (f.key == "memory.hopper")
            f.value *= 0.8;
        if (f.key == "step_overhead_s.vllm")
            f.value *= 2.0;
    }
    QVERIFY(base.factor("memory.hopper") && base.factor("step_overhead_s.vllm"));
    const EfficiencyTable trueTable(truth);
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> noise(-0.03, 0.03);
    std::vector<EvidenceRun> runs;
    // Loads: Poisson at 2, 6 and 12 requests/s; closed loops of 4 and 24 clients (the held-out one).
    for (int i = 0; i < 5; ++i) {
        EvidenceRun e;
        e.id = i + 1;
        e.candidate = 0;
        e.run.gpu = "h200-sxm-141gb";
        e.run.gpus = 1;
        e.run.tensorParallel = 1;
        e.run.stack = ServingStack::Vllm;
        e.run.inputTokens.mean = 2000;
        e.run.outputTokens.mean = 300;
        if (i < 3)
            e.run.requestRatePerS = std::array{2.0, 6.0, 12.0}[std::size_t(i)];
        else
            e.run.concurrency = i == 3 ? 4 : 24;
        EvaluateOptions options;
        options.efficiency = &trueTable;
        const PerformanceResult p = evaluate(briefAtRun(brief, e), catalog, options).results.at(0).performance;
        QVERIFY(p.computed);
        const auto noisy = [&](double v) { return std::optional<double>(v * (1 + noise(rng))); };
        e.run.ttft = {noisy(p.ttft.mean), noisy(p.ttft.p50), {}, {}, {}};
        e.run.tpot = {noisy(p.tpot.mean), noisy(p.tpot.p50), {}, {}, {}};
        e.run.e2e = {noisy(p.e2e.mean), noisy(p.e2e.p50), {}, {}, {}};
        e.run.outputTokensPerS = noisy(p.outputTokensPerS);
        runs.push_back(e);
    }
    const std::vector<EvidenceRun> seen(runs.begin(), runs.end() - 1);
    const auto calibrations = calibrateFromEvidence(brief, seen, catalog, base);
    QCOMPARE(calibrations.size(), std::size_t(1));
    QCOMPARE(calibrations[0].provenance(), std::string("calibrated from 4 runs"));
    QVERIFY2(calibrations[0].table.value("memory.hopper") < base.value("memory.hopper"),
             qPrintable(QString::number(calibrations[0].table.value("memory.hopper"))));
    const auto predictions = predictRuns(brief, {runs.back()}, catalog, base, calibrations);
    const double before = meanLogError(predictions[0].metrics, &MetricComparison::predicted);
    const double after = meanLogError(predictions[0].metrics, &MetricComparison::calibrated);
    qInfo("held-out run: mean |log error| %.3f at the shipped factors, %.3f calibrated", before, after);
    QVERIFY2(after < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
}

// The sample files (illustrative figures, not measurements): calibrated on the vLLM, GuideLLM
// Poisson and LLMPerf runs, the held-out GuideLLM run of 16 concurrent clients is predicted
// better than at the shipped factors.
void TestEvidence::calibrationFromSampleFiles()
{
    const Brief brief = parseOrFail(sample("../../../resources/samples/chat-70b.brief.json"));
    const auto runs = sampleRuns(brief);
    const EvidenceRun heldOut = runs[2];
    QCOMPARE(heldOut.run.concurrency, std::optional<int>(16));
    std::vector<EvidenceRun> seen = runs;
    seen.erase(seen.begin() + 2);
    const auto calibrations = calibrateFromEvidence(brief, seen, shippedCatalog(), shippedCatalog().efficiency());
    QCOMPARE(calibrations.size(), std::size_t(1));
    // Two of the three runs are at the same load, so predicting the LLMPerf run from them misses
    // (TTFT p50 0.61 s measured, 1.20 s left out): the fit is flagged unstable, and still applies.
    QVERIFY(!calibrations[0].stable);
    const auto predictions = predictRuns(brief, {heldOut}, shippedCatalog(), shippedCatalog().efficiency(), calibrations);
    const double before = meanLogError(predictions[0].metrics, &MetricComparison::predicted);
    const double after = meanLogError(predictions[0].metrics, &MetricComparison::calibrated);
    qInfo("held-out sample run: mean |log error| %.3f at the shipped factors, %.3f calibrated", before, after);
    QVERIFY2(after < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
}

// A calibrated candidate says so in the JSON (provenance), the table and the CSV; the other
// candidates and a scenario with calibration switched off are exactly the uncalibrated figures.
void TestEvidence::provenanceAndSwitch()
{
    const Catalog &catalog = shippedCatalog();
    std::string text = sample("../../../resources/samples/chat-70b.brief.json");
    auto json = nlohmann::ordered_json::parse(text);
    json["candidates"] = nlohmann::ordered_json::array({json["candidates"][0], json["candidates"][1]});
    const Brief brief = parseOrFail(json.dump());
    ScenarioRunOptions options;
    options.today = "2026-12-01";
    EvaluateOptions plainOptions;
    plainOptions.today = options.today;
    std::vector<EvidenceRun> runs = sampleRuns(brief);
    runs.resize(2);
    const auto off = evaluateScenario(brief, catalog, {runs, false, {}}, options);
    QVERIFY(!off.calibrations);
    const std::string plain = resultsToJson(brief, evaluate(brief, catalog, plainOptions));
    QCOMPARE(resultsToJson(brief, *off.results), plain);
    const auto on = evaluateScenario(brief, catalog, {runs, true, {}}, options);
    QVERIFY(on.calibrations);
    QCOMPARE(on.calibrations->size(), std::size_t(1));
    const auto parsed = nlohmann::json::parse(resultsToJson(brief, *on.results));
    QCOMPARE(parsed["results"][0]["provenance"]["step_model"].get<std::string>(), std::string("shipped calibration"));
    QCOMPARE(parsed["results"][1]["provenance"]["step_model"].get<std::string>(), std::string("calibrated from 2 runs"));
    QCOMPARE(parsed["results"][1]["provenance"]["calibrated_from_runs"].get<int>(), 2);
    // The H100 candidate's figures are untouched; the H200's moved.
    const auto plainJson = nlohmann::json::parse(plain);
    QCOMPARE(parsed["results"][0]["performance"], plainJson["results"][0]["performance"]);
    QVERIFY(parsed["results"][1]["performance"] != plainJson["results"][1]["performance"]);
    QVERIFY(resultsToTable(brief, *on.results).find("[calibrated from 2 runs]") != std::string::npos);
    // The sample runs' TTFT is 2.5x the prediction, which no factor of the step model explains:
    // the calibrated candidate warns that its TTFT figures are uncertain, once, on the deployment
    // its figures are for.
    const auto &warnings = deployment(on.results->results[1]).warnings;
    QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const Warning &w) {
        return w.code == "calibration-misfit" && w.message.find("TTFT is still") != std::string::npos;
    }));
    QVERIFY(resultsToCsv(brief, *on.results).find(",calibrated from 2 runs,") != std::string::npos);
}

namespace {
// The chat sample with its first two candidates (H100, H200) and two H200 runs.
Brief twoCandidateChat()
{
    auto json = nlohmann::ordered_json::parse(sample("../../../resources/samples/chat-70b.brief.json"));
    json["candidates"] = nlohmann::ordered_json::array({json["candidates"][0], json["candidates"][1]});
    return parseOrFail(json.dump());
}
std::string stepModelOf(const std::string &resultsJson, std::size_t candidate)
{
    return nlohmann::json::parse(resultsJson)["results"][candidate]["provenance"]["step_model"].get<std::string>();
}
} // namespace

// The scenario's use case (usecase/scenario.h): a quick pass and then the full one, each reported
// as it is done; the first quick pass is uncalibrated (nothing is kept yet), the full pass is
// calibrated and compared with the runs; a second evaluation under the same key reuses the kept
// calibration (the very same object: nothing is fitted again) from its quick pass on, and another
// key fits its own.
void TestEvidence::scenarioPassesAndCache()
{
    const Catalog &catalog = shippedCatalog();
    const Brief brief = twoCandidateChat();
    std::vector<EvidenceRun> runs = sampleRuns(brief);
    runs.resize(2);
    CalibrationCache cache;
    std::vector<std::pair<bool, std::string>> passes;  // preview, step model of the H200
    ScenarioRunOptions options;
    options.today = "2026-12-01";
    options.quickFirst = true;
    options.analyse = true;
    options.cache = &cache;
    options.onPass = [&](std::shared_ptr<const Results> r) { passes.emplace_back(r->preview, stepModelOf(resultsToJson(brief, *r), 1)); };
    const ScenarioEvidence evidence{runs, true, "key-1"};
    const auto first = evaluateScenario(brief, catalog, evidence, options);
    QVERIFY(!first.stopped);
    QCOMPARE(passes.size(), std::size_t(2));
    QCOMPARE(passes[0], std::pair(true, std::string("shipped calibration")));
    QCOMPARE(passes[1], std::pair(false, std::string("calibrated from 2 runs")));
    QVERIFY(first.calibrations && first.calibrations->size() == 1);
    QVERIFY(first.analysis);
    QCOMPARE(first.analysis->predictions.size(), runs.size());

    passes.clear();
    const auto second = evaluateScenario(brief, catalog, evidence, options);
    QCOMPARE(second.calibrations.get(), first.calibrations.get());
    QCOMPARE(passes.size(), std::size_t(2));
    QCOMPARE(passes[0], std::pair(true, std::string("calibrated from 2 runs")));
    QCOMPARE(resultsToJson(brief, *second.results), resultsToJson(brief, *first.results));

    const auto other = evaluateScenario(brief, catalog, {runs, true, "key-2"}, options);
    QVERIFY(other.calibrations && other.calibrations.get() != first.calibrations.get());
    QCOMPARE(cache.find("key-2").get(), other.calibrations.get());
    QVERIFY(!cache.find("key-1"));
}

// Nothing the engine throws leaves the use case: an exception in the evaluation ends the run with
// results that say so (one pass, no comparison), a record is refused with the reason, and a
// calibration that throws leaves exactly the uncalibrated figures. The faults are injected
// (core/fault.h), as no real input provokes one on demand.
void TestEvidence::scenarioSurvivesEngineFailure()
{
#ifndef WB_FAULT_INJECTION
    QSKIP("built without fault injection");
#else
    const Catalog &catalog = shippedCatalog();
    const Brief brief = twoCandidateChat();
    std::vector<EvidenceRun> runs = sampleRuns(brief);
    runs.resize(2);
    ScenarioRunOptions options;
    options.today = "2026-12-01";
    options.quickFirst = true;
    options.analyse = true;
    int passes = 0;
    options.onPass = [&](std::shared_ptr<const Results>) { ++passes; };

    qputenv("WB_INJECT_FAULT", "engine-throws");
    const auto failed = evaluateScenario(brief, catalog, {runs, true, {}}, options);
    QCOMPARE(passes, 1);
    QCOMPARE(failed.results->engineError.value_or(""), std::string("the engine failed: injected fault (engine-throws)"));
    QVERIFY(!failed.analysis);
    ScenarioSnapshot snapshot;
    snapshot.scenario = brief.name;
    snapshot.briefJson = sample("../../../resources/samples/chat-70b.brief.json");
    const auto record = recordScenario(snapshot, catalog, std::nullopt, "2026-12-01T10:00:00Z");
    QVERIFY(!record);
    QCOMPARE(record.error().message, std::string("the record was not made: the engine failed (the engine failed: "
                                                 "injected fault (engine-throws))"));

    qputenv("WB_INJECT_FAULT", "calibration-throws");
    options.quickFirst = false;
    const auto uncalibrated = evaluateScenario(brief, catalog, {runs, true, {}}, options);
    qunsetenv("WB_INJECT_FAULT");
    QVERIFY(uncalibrated.calibrations && uncalibrated.calibrations->empty());
    EvaluateOptions plain;
    plain.today = options.today;
    QCOMPARE(resultsToJson(brief, *uncalibrated.results), resultsToJson(brief, evaluate(brief, catalog, plain)));
#endif
}

void TestEvidence::badFiles_data()
{
    QTest::addColumn<QString>("file");     // a sample to start from
    QTest::addColumn<QString>("replace");  // text in it
    QTest::addColumn<QString>("with");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("percentiles out of order") << "vllm-h200-12.5rps.json" << "\"p99_ttft_ms\": 1650.0"
                                              << "\"p99_ttft_ms\": 1000.0" << "/p99_ttft_ms" << "percentiles must not decrease";
    QTest::newRow("negative time") << "vllm-h200-12.5rps.json" << "\"mean_tpot_ms\": 41.2" << "\"mean_tpot_ms\": -41.2"
                                   << "/mean_tpot_ms" << "not negative";
    QTest::newRow("metric as text") << "vllm-h200-12.5rps.json" << "\"median_e2el_ms\": 12950.0"
                                    << "\"median_e2el_ms\": \"12950\"" << "/median_e2el_ms" << "must be a number";
    QTest::newRow("rate in words") << "vllm-h200-12.5rps.json" << "\"request_rate\": 12.5" << "\"request_rate\": \"fast\""
                                   << "/request_rate" << "or \"inf\"";
    QTest::newRow("fractional count") << "vllm-h200-12.5rps.json" << "\"completed\": 998" << "\"completed\": 998.5"
                                      << "/completed" << "whole number";
    QTest::newRow("unknown strategy") << "guidellm-h200.json" << "\"type_\": \"concurrent\"" << "\"type_\": \"ramp\""
                                      << "/benchmarks/1/config/strategy/type_" << "is not a GuideLLM strategy";
    QTest::newRow("guidellm percentiles") << "guidellm-h200.json" << "\"p99\": 1660.0" << "\"p99\": 1.0"
                                          << "/benchmarks/0/metrics/time_to_first_token_ms/successful/percentiles/p99"
                                          << "must not decrease";
    QTest::newRow("llmperf negative") << "llmperf-h200_2000_300_summary.json" << "\"results_ttft_s_mean\": 0.66"
                                      << "\"results_ttft_s_mean\": -1" << "/results_ttft_s_mean" << "not negative";
    QTest::newRow("csv typo column") << "runs.csv" << "ttft_p99_ms" << "ttft_p99" << "line 1, column 13"
                                     << "is not a column of the evidence CSV";
    QTest::newRow("csv not a number") << "runs.csv" << ",1680," << ",16 80," << "line 2, column ttft_p99_ms"
                                      << "is not a number";
    QTest::newRow("csv unknown stack") << "runs.csv" << ",vllm," << ",triton," << "line 2, column serving_stack"
                                       << "must be generic, vllm, sglang or trtllm";
    QTest::newRow("csv hex number") << "runs.csv" << ",770," << ",0x10," << "line 2, column ttft_p50_ms"
                                    << "is not a number";
    QTest::newRow("tokens for requests") << "genai-perf-h200-12.5rps_profile_export_genai_perf.json"
                                         << "\"request_throughput\": {\"unit\": \"requests/sec\""
                                         << "\"request_throughput\": {\"unit\": \"tokens/sec\""
                                         << "/request_throughput/unit" << "expected requests/sec";
    QTest::newRow("unknown unit") << "genai-perf-h200-12.5rps_profile_export_genai_perf.json"
                                  << "\"time_to_first_token\": {\"unit\": \"ms\"" << "\"time_to_first_token\": {\"unit\": \"ticks\""
                                  << "/time_to_first_token/unit" << "is not a unit this build reads";
    QTest::newRow("missing unit") << "aiperf-h200-c32_profile_export_aiperf.json"
                                  << "\"inter_token_latency\": {\"unit\": \"ms\"," << "\"inter_token_latency\": {"
                                  << "/inter_token_latency/unit" << "cannot be told";
    QTest::newRow("aiperf percentiles") << "aiperf-h200-c32_profile_export_aiperf.json" << "\"p95\": 352.0"
                                        << "\"p95\": 999.0" << "/time_to_first_token/p99" << "must not decrease";
    QTest::newRow("not a result file") << "vllm-h200-12.5rps.json" << "\"mean_ttft_ms\"" << "\"meanttft\""
                                       << "" << "is not a result file this build reads";
}

void TestEvidence::badFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, replace);
    QFETCH(QString, with);
    QFETCH(QString, path);
    QFETCH(QString, message);
    QString text = QString::fromStdString(sample(file.toLatin1().constData()));
    QVERIFY2(text.contains(replace), qPrintable(replace));
    text.replace(replace, with);
    // The not-a-result-file case also drops vLLM's other markers.
    if (file.startsWith(QLatin1String("vllm")) && with == QLatin1String("\"meanttft\""))
        text.replace(QLatin1String("\"backend\""), QLatin1String("\"engine\""));
    const auto runs = readMeasuredRuns(text.toStdString(), file.toStdString());
    QVERIFY(!runs);
    QCOMPARE(QString::fromStdString(runs.error().file), file);
    QCOMPARE(QString::fromStdString(runs.error().path), path);
    QVERIFY2(QString::fromStdString(runs.error().message).contains(message), runs.error().toString().c_str());
}

QTEST_GUILESS_MAIN(TestEvidence)
#include "tst_evidence.moc"
