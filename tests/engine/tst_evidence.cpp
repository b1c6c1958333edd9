// The evidence importers: each tool's result file (tests/data/evidence, written from the tools'
// documented formats) read into the same normalized run, with units and semantics converted as
// worked out by hand below; malformed files refused naming the file and the field.
#include <evidence/runs.h>

#include <QtTest>

#include <QFile>

#include <string>

using namespace wb;

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
