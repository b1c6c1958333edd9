// Brief parsing: every bad field is an error naming the file and the field's JSON pointer.

#include "testsupport.h"

#include <brief/brief.h>

#include <QObject>
#include <QTest>

namespace {

// A valid real-time brief; each bad-input row replaces one fragment of it.
const std::string kBrief = R"({"format": "gpu-workbench-brief", "version": 1, "name": "t",
  "workload": {"kind": "realtime-inference", "model": "llama-3.1-70b", "weights_precision": "fp8",
    "input_tokens": 2000, "output_tokens": 300,
    "traffic": {"mode": "open-loop", "request_rate_per_s": 12.5, "burstiness": 1.0},
    "slo": {"ttft_p99_s": 2.0, "tpot_p99_s": 0.2}},
  "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 8, "tensor_parallel": 2}]})";

std::string with(const std::string &from, const std::string &to)
{
    std::string s = kBrief;
    const auto at = s.find(from);
    if (at == std::string::npos)
        qFatal("fixture has no %s", from.c_str());
    return s.replace(at, from.size(), to);
}

} // namespace

class TestBrief : public QObject
{
    Q_OBJECT

private slots:
    void validBrief();
    void badInput_data();
    void badInput();
    void unknownFieldsWarn();
    void assumptionsOverride();
    void patchesAreCheckedTogether();
};

void TestBrief::validBrief()
{
    const wb::Brief b = wbtest::parseOrFail(kBrief);
    QCOMPARE(b.workload.kind, wb::WorkloadKind::RealtimeInference);
    QCOMPARE(b.workload.kvCachePrecision, wb::Precision::Bf16);  // the spec's default
    QCOMPARE(b.candidates.at(0).replicas(), 4);
    QCOMPARE(b.candidates.at(0).servingStack, wb::ServingStack::Generic);
    QVERIFY(b.warnings.empty());
}

void TestBrief::badInput_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("malformed json") << "{\"format\": " << "" << "is not valid JSON";
    // Found by fuzz_brief_parse: a number beyond double range made nlohmann throw out_of_range.
    QTest::newRow("number out of range") << QString::fromStdString(with("12.5", "1e99999")) << ""
                                         << "out of range";
    QTest::newRow("negative input tokens") << QString::fromStdString(with("\"input_tokens\": 2000", "\"input_tokens\": -5"))
                                           << "/workload/input_tokens" << "must be at least 1";
    QTest::newRow("fractional output tokens")
        << QString::fromStdString(with("\"output_tokens\": 300", "\"output_tokens\": 2.5")) << "/workload/output_tokens"
        << "whole number";
    QTest::newRow("unknown gpu") << QString::fromStdString(with("h100-sxm-80gb", "h900-sxm")) << "/candidates/0/gpu"
                                 << "not in the GPU catalog";
    QTest::newRow("unknown model") << QString::fromStdString(with("llama-3.1-70b", "llama-9")) << "/workload/model"
                                   << "not in the model catalog";
    QTest::newRow("unknown kind") << QString::fromStdString(with("realtime-inference", "realtime")) << "/workload/kind"
                                  << "expected realtime-inference";
    QTest::newRow("unknown precision") << QString::fromStdString(with("\"fp8\"", "\"fp6\"")) << "/workload/weights_precision"
                                       << "unknown value";
    QTest::newRow("rate missing for open loop")
        << QString::fromStdString(with("\"request_rate_per_s\": 12.5,", "")) << "/workload/traffic/request_rate_per_s"
        << "is missing";
    QTest::newRow("zero rate") << QString::fromStdString(with("12.5", "0")) << "/workload/traffic/request_rate_per_s"
                               << "at least 1e-06";
    // 1e-300 requests/s once priced each output at about 1e297 dollars.
    QTest::newRow("vanishing rate") << QString::fromStdString(with("12.5", "1e-300")) << "/workload/traffic/request_rate_per_s"
                                    << "at least 1e-06";
    // Bursts of 1,000 x 12.5 = 12,500 requests/s are over the 10,000 the simulator is meaningful for.
    QTest::newRow("bursts over the rate limit")
        << QString::fromStdString(with("\"request_rate_per_s\": 12.5,",
                                       "\"request_rate_per_s\": 12.5, \"bursts\": {\"multiplier\": 1000, \"duration_s\": 10, \"period_s\": 60},"))
        << "/workload/traffic/bursts/multiplier" << "bursts of 12500 requests/s";
    // A peak under the base rate once sized one replica where four were needed.
    QTest::newRow("peak below the rate")
        << QString::fromStdString(with("\"request_rate_per_s\": 12.5,", "\"request_rate_per_s\": 12.5, \"peak_request_rate_per_s\": 1,"))
        << "/workload/traffic/peak_request_rate_per_s" << "is below request_rate_per_s (12.5)";
    QTest::newRow("negative slo") << QString::fromStdString(with("\"ttft_p99_s\": 2.0", "\"ttft_p99_s\": -1"))
                                  << "/workload/slo/ttft_p99_s" << "greater than 0";
    QTest::newRow("gpus not divisible") << QString::fromStdString(with("\"gpus\": 8", "\"gpus\": 7"))
                                        << "/candidates/0/gpus" << "cannot be split";
    QTest::newRow("tp as string") << QString::fromStdString(with("\"tensor_parallel\": 2", "\"tensor_parallel\": \"2\""))
                                  << "/candidates/0/tensor_parallel" << "must be a number";
    QTest::newRow("wrong format") << QString::fromStdString(with("gpu-workbench-brief", "brief")) << "/format"
                                  << "must be \"gpu-workbench-brief\"";
    QTest::newRow("newer version") << QString::fromStdString(with("\"version\": 1", "\"version\": 2")) << "/version"
                                   << "reads version 1";
    QTest::newRow("nf4 kv cache")
        << QString::fromStdString(with("\"weights_precision\": \"fp8\"", "\"kv_cache_precision\": \"nf4\""))
        << "/workload/kv_cache_precision" << "weight format";
    QTest::newRow("training brief without training")
        << QString::fromStdString(with("realtime-inference", "lora")) << "/workload/training" << "is missing";
    QTest::newRow("unknown assumption")
        << QString::fromStdString(with("\"name\": \"t\",", "\"name\": \"t\", \"assumptions\": {\"gpu_util\": 0.8},"))
        << "/assumptions/gpu_util" << "not a known assumption";
    QTest::newRow("assumption out of range")
        << QString::fromStdString(with("\"name\": \"t\",", "\"name\": \"t\", \"assumptions\": {\"gpu_memory_utilization\": 1.5},"))
        << "/assumptions/gpu_memory_utilization" << "between 0.05 and 1";
    QTest::newRow("p95 below mean")
        << QString::fromStdString(with("\"output_tokens\": 300", "\"output_tokens\": 300, \"output_tokens_p95\": 100"))
        << "/workload/output_tokens_p95" << "at least output_tokens";
    QTest::newRow("inline model incomplete")
        << QString::fromStdString(with("\"llama-3.1-70b\"", "{\"parameters\": 7e9, \"layers\": 32}"))
        << "/workload/model/hidden_size" << "inline model needs";
}

void TestBrief::badInput()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    QFETCH(QString, message);
    auto b = wb::parseBrief(json.toStdString(), "briefs/chat.json", wbtest::shippedCatalog());
    QVERIFY(!b.ok());
    QCOMPARE(QString::fromStdString(b.error().file), QStringLiteral("briefs/chat.json"));
    QCOMPARE(QString::fromStdString(b.error().path), path);
    QVERIFY2(QString::fromStdString(b.error().message).contains(message), b.error().message.c_str());
}

void TestBrief::unknownFieldsWarn()
{
    const wb::Brief b = wbtest::parseOrFail(with("\"input_tokens\": 2000", "\"input_tokens\": 2000, \"input_tokenz\": 5"));
    QCOMPARE(b.warnings.size(), std::size_t(1));
    QCOMPARE(b.warnings[0].code, std::string("unknown-field"));
    QVERIFY(b.warnings[0].message.find("/workload/input_tokenz") != std::string::npos);
}

// Several fields set in one patch are checked once, at the end. Switching the kind to LoRA alone
// gets the training block the kind needs from the engine (sequence length: the larger of 2048 and
// the brief's 2000 input tokens); a block given in the same patch is kept as given.
void TestBrief::patchesAreCheckedTogether()
{
    const wb::Catalog &catalog = wbtest::shippedCatalog();
    auto alone = wb::patchBrief(kBrief, "/workload/kind", "\"lora\"", catalog);
    QVERIFY2(alone.ok(), alone.ok() ? "" : alone.error().toString().c_str());
    QCOMPARE(alone->brief.workload.training->sequenceLength, 2048);
    // Back to real time: the traffic block the kind needs is added, the training block stays.
    auto back = wb::patchBrief(alone->json, "/workload/kind", "\"realtime-inference\"", catalog);
    QVERIFY(back.ok());
    QVERIFY(back->brief.workload.traffic.mode != wb::TrafficMode::Offline);
    // A closed loop without a concurrency gets 16; bursts go with the open loop.
    auto closed = wb::patchBrief(back->json, "/workload/traffic/mode", "\"closed-loop\"", catalog);
    QVERIFY(closed.ok());
    QCOMPARE(*closed->brief.workload.traffic.concurrency, 16.0);
    auto together = wb::patchBrief(kBrief,
                                   std::vector<wb::BriefPatch>{{"/workload/kind", "\"lora\""},
                                                               {"/workload/training", R"({"sequence_length": 2048})"}},
                                   catalog);
    QVERIFY(together.ok());
    const wb::Brief lora = wbtest::parseOrFail(together->json);
    QCOMPARE(together->brief.workload.kind, lora.workload.kind);  // the parsed brief is the JSON's
    QCOMPARE(lora.workload.kind, wb::WorkloadKind::Lora);
    QCOMPARE(lora.workload.training->sequenceLength, 2048);
    // "null" removes a field; a value that is not JSON names its field.
    auto removed = wb::patchBrief(kBrief, "/workload/slo/tpot_p99_s", "null", catalog);
    QVERIFY(removed.ok());
    QVERIFY(!removed->brief.workload.slo.tpotP99S);
    auto bad = wb::patchBrief(kBrief, "/workload/input_tokens", "12 tokens", catalog);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().path, std::string("/workload/input_tokens"));
}

void TestBrief::assumptionsOverride()
{
    const wb::Brief b = wbtest::parseOrFail(
        with("\"name\": \"t\",", "\"name\": \"t\", \"assumptions\": {\"gpu_memory_utilization\": 0.8, \"flash_attention\": false},"));
    QCOMPARE(b.assumptions.value(wb::Assumption::GpuMemoryUtilization), 0.8);
    QVERIFY(b.assumptions.overridden(wb::Assumption::GpuMemoryUtilization));
    QVERIFY(!b.assumptions.flag(wb::Assumption::FlashAttention));
    QCOMPARE(b.assumptions.value(wb::Assumption::MaxNumSeqs), 256.0);
}

QTEST_GUILESS_MAIN(TestBrief)
#include "tst_brief.moc"
