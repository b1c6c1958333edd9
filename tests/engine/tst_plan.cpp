// The benchmark plan: four phases per candidate in the method's order, acceptance criteria equal
// to the brief's targets, and commands that use only the tools' documented flags and survive a
// POSIX shell intact.
#include "testsupport.h"

#include <evaluate/evaluate.h>
#include <procurement/plan.h>

#include <QtTest>

#include <QProcess>
#include <QProcessEnvironment>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <set>

using namespace wb;

namespace {

// vllm bench serve's options as documented (https://docs.vllm.ai/en/latest/cli/bench/serve.html,
// read 2026-12-02): the ones a plan may use. Value-less flags are listed apart.
const std::set<std::string> kVllmFlags = {
    "--backend", "--base-url", "--endpoint", "--model", "--dataset-name", "--random-input-len", "--random-output-len",
    "--num-prompts", "--request-rate", "--burstiness", "--max-concurrency", "--percentile-metrics",
    "--metric-percentiles", "--goodput", "--result-dir", "--result-filename", "--dataset-path", "--custom-output-len"};
const std::set<std::string> kVllmSwitches = {"--ignore-eos", "--save-result", "--save-detailed"};
// Its --backend choices the plan uses: vLLM's own, and the OpenAI-compatible client.
const std::set<std::string> kVllmBackends = {"vllm", "openai"};
// guidellm benchmark's options (https://github.com/vllm-project/guidellm, docs "Run a Benchmark",
// read 2026-12-02); --rate-type takes synchronous, throughput, concurrent, constant, poisson or sweep.
const std::set<std::string> kGuidellmFlags = {"--target", "--model", "--data", "--rate-type", "--rate", "--max-seconds",
                                              "--output-path"};
const std::set<std::string> kRateTypes = {"synchronous", "throughput", "concurrent", "constant", "poisson", "sweep"};

const PlanStep *step(const CandidatePlan &c, const std::string &id)
{
    for (const PlanPhase &p : c.phases)
        for (const PlanStep &s : p.steps)
            if (s.id == id)
                return &s;
    return nullptr;
}

bool isNumber(const std::string &s)
{
    bool ok = false;
    QString::fromStdString(s).toDouble(&ok);
    return ok;
}

// Every flag documented, every value-taking flag followed by a value, numbers where numbers go.
void checkArguments(const PlanCommand &c)
{
    std::size_t i = 0;
    if (c.tool == "vllm") {
        QCOMPARE(c.args.at(0), std::string("bench"));
        QCOMPARE(c.args.at(1), std::string("serve"));
        i = 2;
    } else if (c.tool == "guidellm") {
        QCOMPARE(c.args.at(0), std::string("benchmark"));
        i = 1;
    } else if (c.tool == "sh") {
        // A shell loop (rocm-smi): it must parse.
        QCOMPARE(c.args.at(0), std::string("-c"));
        QProcess sh;
        sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-n"), QStringLiteral("-c"), QString::fromStdString(c.args.at(1))});
        QVERIFY(sh.waitForFinished(10000));
        QCOMPARE(sh.exitCode(), 0);
        return;
    } else {
        QCOMPARE(c.tool, std::string("nvidia-smi"));
        return;
    }
    const std::set<std::string> &flags = c.tool == "vllm" ? kVllmFlags : kGuidellmFlags;
    for (; i < c.args.size(); ++i) {
        const std::string &flag = c.args[i];
        if (c.tool == "vllm" && kVllmSwitches.count(flag))
            continue;
        QVERIFY2(flags.count(flag), flag.c_str());
        QVERIFY2(i + 1 < c.args.size() && c.args[i + 1].rfind("--", 0) != 0, (flag + " has no value").c_str());
        const std::string &value = c.args[++i];
        if (flag == "--random-input-len" || flag == "--random-output-len" || flag == "--num-prompts" ||
            flag == "--max-concurrency" || flag == "--burstiness" || flag == "--max-seconds" || flag == "--rate")
            QVERIFY2(isNumber(value) && std::stod(value) > 0, (flag + " " + value).c_str());
        if (flag == "--request-rate")
            QVERIFY(value == "inf" || (isNumber(value) && std::stod(value) > 0));
        if (flag == "--rate-type")
            QVERIFY2(kRateTypes.count(value), value.c_str());
        if (flag == "--backend")
            QVERIFY2(kVllmBackends.count(value), value.c_str());
        if (flag == "--goodput")  // KEY:VALUE pairs, milliseconds, until the next flag
            while (i + 1 < c.args.size() && c.args[i + 1].rfind("--", 0) != 0) {
                const std::string pair = c.args[++i];
                QVERIFY2(pair.find(':') != std::string::npos && isNumber(pair.substr(pair.find(':') + 1)), pair.c_str());
            }
    }
}

// What a shell makes of a command line: the words it passes (variables expanded).
QStringList shellWords(const std::string &line, const std::string &tool)
{
    QProcess sh;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MODEL"), QStringLiteral("org/model name"));
    env.insert(QStringLiteral("BASE_URL"), QStringLiteral("http://localhost:8000"));
    env.insert(QStringLiteral("RESULTS"), QStringLiteral("out dir"));
    env.insert(QStringLiteral("REPLICA_URL"), QStringLiteral("http://replica:8000"));
    env.insert(QStringLiteral("PROMPTS"), QStringLiteral("my prompts.jsonl"));
    sh.setProcessEnvironment(env);
    const std::string body = line.substr(tool.size());
    sh.start(QStringLiteral("/bin/sh"),
             {QStringLiteral("-c"), QString::fromStdString("for a in" + body + "; do printf '%s\\n' \"$a\"; done")});
    sh.waitForFinished(10000);
    QStringList got = QString::fromUtf8(sh.readAllStandardOutput()).split(u'\n');
    got.removeLast();
    return got;
}

// The line a shell sees, on one line or over several with backslash continuations, splits back
// into exactly the arguments.
void checkShellLine(const PlanCommand &c)
{
    QStringList want;
    for (std::string a : c.args) {
        for (const auto &[var, value] : {std::pair<std::string, std::string>{"$MODEL", "org/model name"},
                                         {"$BASE_URL", "http://localhost:8000"}, {"$RESULTS", "out dir"},
                                         {"$REPLICA_URL", "http://replica:8000"}, {"$PROMPTS", "my prompts.jsonl"}})
            if (a.rfind(var, 0) == 0)
                a = value + a.substr(var.size());
        want << QString::fromStdString(a);
    }
    QCOMPARE(shellWords(c.shell(), c.tool), want);
    QCOMPARE(shellWords(c.shellLines(40), c.tool), want);
}

Brief sampleBrief(const char *name)
{
    auto brief = loadBrief(std::string(WB_SOURCE_DIR "/resources/samples/") + name, wbtest::shippedCatalog());
    if (!brief)
        qFatal("%s", brief.error().toString().c_str());
    return std::move(brief).value();
}

} // namespace

class TestPlan : public QObject
{
    Q_OBJECT

private slots:
    void fourPhasesWithTheBriefsTargets();
    void burstsAndClosedLoops();
    void trainingHasNoServingCommands();
    void jsonCarriesTheFigures();
    void textCannotBecomeCommands();
    void stacksVendorsAndPredictedMisses();
};

// chat-70b: open loop at 12.5 requests/s, 2,000/300 tokens (p95 6,000/700), p99 TTFT 2.0 s and
// TPOT 0.08 s, 95% quality pass rate, 1% failures.
void TestPlan::fourPhasesWithTheBriefsTargets()
{
    const Brief brief = sampleBrief("chat-70b.brief.json");
    EvaluateOptions quick;
    quick.performance = true;
    const Results results = evaluate(brief, wbtest::shippedCatalog(), quick);
    const BenchmarkPlan plan = makeBenchmarkPlan(brief, results, wbtest::shippedCatalog());
    QCOMPARE(plan.candidates.size(), brief.candidates.size());
    QCOMPARE(plan.modelRepo, std::string("meta-llama/Llama-3.1-70B"));
    for (const CandidatePlan &c : plan.candidates) {
        QCOMPARE(c.phases.size(), std::size_t(4));
        const char *ids[] = {"memory-fit", "performance", "operations", "financial"};
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(c.phases[i].id, std::string(ids[i]));
        QCOMPARE(step(c, "perf-ttft-p99")->target, std::optional<double>(2.0));
        QCOMPARE(step(c, "perf-tpot-p99")->target, std::optional<double>(0.08));
        QCOMPARE(step(c, "perf-throughput")->target, std::optional<double>(12.5 * 300));
        QCOMPARE(step(c, "perf-accepted")->target, std::optional<double>(0.95 * 0.99));
        QVERIFY(!step(c, "perf-ttft-p95"));  // the brief sets no p95 target
        for (const PlanPhase &p : c.phases)
            for (const PlanStep &s : p.steps)
                for (const PlanCommand &cmd : s.commands) {
                    checkArguments(cmd);
                    checkShellLine(cmd);
                }
    }
    // The steady run asks vLLM for the brief's lengths and rate, with its SLO as goodput.
    const PlanStep *run = step(plan.candidates[0], "perf-steady-run");
    QCOMPARE(run->commands.size(), std::size_t(2));
    const std::string vllm = run->commands[0].shell();
    for (const char *part : {"--random-input-len 2000", "--random-output-len 300", "--request-rate 12.5",
                             "--goodput ttft:2000 tpot:80", "--num-prompts 7500"})  // 12.5/s x 600 s
        QVERIFY2(vllm.find(part) != std::string::npos, vllm.c_str());
    // The memory step drives the p95 lengths.
    const std::string fit = step(plan.candidates[0], "fit-peak-memory")->commands.at(0).shell();
    QVERIFY2(fit.find("--random-input-len 6000 --random-output-len 700") != std::string::npos, fit.c_str());
    const std::string md = planToMarkdown(plan);
    for (const char *heading : {"### Phase 1: Memory fit", "### Phase 2: Performance and latency",
                                "### Phase 3: Failures and operations", "### Phase 4: Financial normalization"})
        QVERIFY(md.find(heading) != std::string::npos);
}

// Bursts run at the peak rate for the burst's length; a closed loop runs at its concurrency.
void TestPlan::burstsAndClosedLoops()
{
    Brief brief = sampleBrief("chat-70b.brief.json");
    brief.candidates.resize(1);
    brief.workload.traffic.burstMultiplier = 3;
    brief.workload.traffic.burstDurationS = 60;
    brief.workload.traffic.burstPeriodS = 900;
    Results results = evaluate(brief, wbtest::shippedCatalog());
    BenchmarkPlan plan = makeBenchmarkPlan(brief, results, wbtest::shippedCatalog());
    const PlanStep *burst = step(plan.candidates[0], "perf-burst-run");
    QCOMPARE(burst->target, std::optional<double>(2.0));
    const std::string line = burst->commands.at(0).shell();
    QVERIFY2(line.find("--request-rate 37.5") != std::string::npos, line.c_str());  // 12.5 x 3
    QVERIFY2(line.find("--num-prompts 2250") != std::string::npos, line.c_str());   // 37.5/s x 60 s
    QVERIFY(burst->commands.at(1).shell().find("--max-seconds 60") != std::string::npos);

    brief.workload.traffic = Traffic{};
    brief.workload.traffic.mode = TrafficMode::ClosedLoop;
    brief.workload.traffic.concurrency = 16;
    results = evaluate(brief, wbtest::shippedCatalog());
    plan = makeBenchmarkPlan(brief, results, wbtest::shippedCatalog());
    const PlanStep *run = step(plan.candidates[0], "perf-steady-run");
    QVERIFY(run->commands[0].shell().find("--request-rate inf --max-concurrency 16") != std::string::npos);
    QVERIFY(run->commands[1].shell().find("--rate-type concurrent --rate 16") != std::string::npos);
    QVERIFY(!step(plan.candidates[0], "perf-throughput") || step(plan.candidates[0], "perf-throughput")->basis == "prediction");
}

void TestPlan::trainingHasNoServingCommands()
{
    const Brief brief = sampleBrief("lora-finetune.brief.json");
    const Results results = evaluate(brief, wbtest::shippedCatalog());
    const BenchmarkPlan plan = makeBenchmarkPlan(brief, results, wbtest::shippedCatalog(), 0);
    QCOMPARE(plan.candidates.size(), std::size_t(1));
    for (const PlanPhase &p : plan.candidates[0].phases)
        for (const PlanStep &s : p.steps)
            for (const PlanCommand &c : s.commands)
                QCOMPARE(c.tool, std::string("nvidia-smi"));
    QVERIFY(step(plan.candidates[0], "ops-checkpoint")->what.find("checkpoint") != std::string::npos);
    QVERIFY(!plan.candidates[0].notes.empty());
    // Issue 37: the adapter's two stages. The fit at the brief's micro-batch (2) and sequence
    // length (4,096), never a serving request's "0 input tokens"; then the step, the first
    // adapter checkpoint and the cost per accepted run, each against the engine's prediction.
    const PlanStep *peak = step(plan.candidates[0], "fit-peak-memory");
    QVERIFY(peak);
    QVERIFY2(peak->what.find("micro-batches of 2 sequences of 4096 tokens") != std::string::npos, peak->what.c_str());
    const auto &training = *deployment(results.results[0]).performance.training;
    for (const PlanPhase &p : plan.candidates[0].phases)
        for (const PlanStep &s : p.steps)
            QVERIFY2(s.what.find("input") == std::string::npos && s.criterion.find("no time model") == std::string::npos,
                     s.what.c_str());
    QCOMPARE(step(plan.candidates[0], "perf-step-time")->predicted.value_or(0), training.stepTimeS);
    QCOMPARE(step(plan.candidates[0], "perf-first-checkpoint")->predicted.value_or(0), *training.timeToFirstCheckpointS);
    const PlanStep *money = step(plan.candidates[0], "fin-cost-per-accepted");
    QVERIFY2(money->criterion.find("per accepted run") != std::string::npos && money->criterion.find("USD a run") != std::string::npos,
             money->criterion.c_str());
}

void TestPlan::jsonCarriesTheFigures()
{
    Brief brief = sampleBrief("chat-70b.brief.json");
    brief.candidates.resize(1);
    const Results results = evaluate(brief, wbtest::shippedCatalog());
    const auto json = nlohmann::json::parse(planToJson(makeBenchmarkPlan(brief, results, wbtest::shippedCatalog())));
    QCOMPARE(json["format"].get<std::string>(), std::string("gpu-workbench-benchmark-plan"));
    const auto &phases = json["candidates"][0]["phases"];
    QCOMPARE(phases.size(), std::size_t(4));
    bool found = false;
    for (const auto &s : phases[1]["steps"])
        if (s["id"] == "perf-ttft-p99") {
            found = true;
            QCOMPARE(s["target"].get<double>(), 2.0);
            QCOMPARE(s["comparison"].get<std::string>(), std::string("<="));
            QVERIFY(s["predicted"].is_number());
        }
    QVERIFY(found);
}

// Free text in the Markdown (a brief's name, a provider's) stays on its line, and the model's
// repository is single-quoted when it is not plainly safe: no line of the plan a reader copies
// runs what a brief or a catalog wrote.
void TestPlan::textCannotBecomeCommands()
{
    Brief brief = sampleBrief("chat-70b.brief.json");
    brief.candidates.resize(1);
    brief.name = "Chat\n```sh\ntouch /tmp/pwned\n```";
    const Results results = evaluate(brief, wbtest::shippedCatalog());
    BenchmarkPlan plan = makeBenchmarkPlan(brief, results, wbtest::shippedCatalog());
    plan.modelRepo = "x$(touch /tmp/pwned)`id`;ls";
    const QString md = QString::fromStdString(planToMarkdown(plan));
    for (const QString &line : md.split(u'\n'))
        QVERIFY2(!line.trimmed().startsWith(QLatin1String("touch")), qPrintable(line));
    QVERIFY(md.contains(QLatin1String("# Benchmark plan: Chat ```sh touch /tmp/pwned ```")));
    QVERIFY(md.contains(QLatin1String("export MODEL='x$(touch /tmp/pwned)`id`;ls'")));
    // What a shell makes of that line: the value, unexpanded.
    QProcess sh;
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("export MODEL='x$(touch /tmp/pwned)`id`;ls'; printf %s \"$MODEL\"")});
    QVERIFY(sh.waitForFinished(10000));
    QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), QStringLiteral("x$(touch /tmp/pwned)`id`;ls"));
}

// The sample's candidates: 3 is TensorRT-LLM (driven through the OpenAI-compatible client), 6 an
// AMD MI300X (memory through rocm-smi), 4 an L40S the engine predicts cannot meet the TTFT target
// (its criterion is marked "predicted to miss").
void TestPlan::stacksVendorsAndPredictedMisses()
{
    const Brief brief = sampleBrief("chat-70b.brief.json");
    const Results results = evaluate(brief, wbtest::shippedCatalog());
    const BenchmarkPlan plan = makeBenchmarkPlan(brief, results, wbtest::shippedCatalog());
    const std::string trt = step(plan.candidates[2], "perf-steady-run")->commands.at(0).shell();
    QVERIFY2(trt.find("--backend openai") != std::string::npos, trt.c_str());
    QVERIFY(step(plan.candidates[0], "perf-steady-run")->commands.at(0).shell().find("--backend vllm") != std::string::npos);
    QCOMPARE(step(plan.candidates[5], "fit-load")->commands.at(0).tool, std::string("sh"));
    QVERIFY(step(plan.candidates[5], "fit-load")->commands.at(0).args.at(1).find("rocm-smi") != std::string::npos);
    QCOMPARE(step(plan.candidates[0], "fit-load")->commands.at(0).tool, std::string("nvidia-smi"));
    // The memory phase drives one replica at the concurrency the KV cache is sized for.
    const std::string fit = step(plan.candidates[0], "fit-peak-memory")->commands.at(0).shell();
    QVERIFY2(fit.find("--base-url \"$REPLICA_URL\"") != std::string::npos, fit.c_str());
    QVERIFY2(fit.find(fmt::format("--max-concurrency {}", deployment(results.results[0]).fit.sizedConcurrencyPerReplica)) !=
                 std::string::npos,
             fit.c_str());
    const PlanStep *l40s = step(plan.candidates[3], "perf-ttft-p99");
    QVERIFY(l40s->predicted && *l40s->predicted > 2.0);
    QCOMPARE(l40s->predictedToPass(), std::optional<bool>(false));
    const std::string md = planToMarkdown(plan);
    QVERIFY(md.find("predicted to miss") != std::string::npos);
    // The quality step replays the team's prompts and keeps the outputs.
    const std::string quality = step(plan.candidates[0], "perf-accepted")->commands.at(0).shell();
    QVERIFY2(quality.find("--dataset-name custom --dataset-path \"$PROMPTS\"") != std::string::npos, quality.c_str());
    QVERIFY(quality.find("--save-detailed") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestPlan)
#include "tst_plan.moc"
