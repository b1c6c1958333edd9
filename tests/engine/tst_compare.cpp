// Two scenarios side by side: brief differences by JSON pointer and result differences per
// candidate, matched by layout.

#include "testsupport.h"

#include <evaluate/compare.h>

#include <QObject>
#include <QTest>

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void briefDifferencesByPointer();
    void resultsMatchedByLayout();
    void fieldsInWords();
};

// Pointers shown to people in words: list indexes count from one, the workload's fields need no
// "workload", units stay, unknown keys lose their underscores, escaped tokens are unescaped.
void TestCompare::fieldsInWords()
{
    QCOMPARE(wb::fieldLabel("/candidates/0/gpus"), std::string("Candidate 1 › GPUs"));
    QCOMPARE(wb::fieldLabel("/workload/slo/ttft_p99_s"), std::string("Latency targets › TTFT p99 (s)"));
    QCOMPARE(wb::fieldLabel("/workload/input_tokens"), std::string("input tokens"));
    QCOMPARE(wb::fieldLabel("/assumptions/hours_per_month"), std::string("Assumption › hours per month"));
    QCOMPARE(wb::fieldLabel("/workload/traffic/burst_duration_s"), std::string("Traffic › burst duration (s)"));
    QCOMPARE(wb::fieldLabel("/notes/a~1b"), std::string("notes › a/b"));
    QCOMPARE(wb::fieldLabel(""), std::string("(the whole brief)"));
}

void TestCompare::briefDifferencesByPointer()
{
    const std::string a = R"({"name": "A", "workload": {"kind": "realtime-inference", "traffic": {"request_rate_per_s": 12.5},
        "slo": {"ttft_p99_s": 2}}, "candidates": [{"gpu": "h100-sxm-80gb"}, {"gpu": "l4-24gb"}]})";
    const std::string b = R"({"name": "B", "workload": {"kind": "realtime-inference", "traffic": {"request_rate_per_s": 25},
        "acceptance": {"quality_pass_rate": 0.9}}, "candidates": [{"gpu": "h100-sxm-80gb"}],
        "a/b": 1})";
    const auto changes = wb::diffBriefs(a, b);
    // Worked out by hand: name and rate changed; the TTFT target and the second candidate only
    // in A; the acceptance and the escaped "a/b" key only in B. Unchanged leaves are not listed.
    QCOMPARE(int(changes.size()), 6);
    QCOMPARE(changes[0].pointer, std::string("/name"));
    QCOMPARE(changes[0].before, std::string("\"A\""));
    QCOMPARE(changes[0].after, std::string("\"B\""));
    QCOMPARE(changes[1].pointer, std::string("/workload/traffic/request_rate_per_s"));
    QCOMPARE(changes[1].before, std::string("12.5"));
    QCOMPARE(changes[1].after, std::string("25"));
    QCOMPARE(changes[2].pointer, std::string("/workload/slo/ttft_p99_s"));
    QCOMPARE(changes[2].after, std::string());
    QCOMPARE(changes[3].pointer, std::string("/candidates/1/gpu"));
    QCOMPARE(changes[4].pointer, std::string("/workload/acceptance/quality_pass_rate"));
    QCOMPARE(changes[4].before, std::string());
    QCOMPARE(changes[5].pointer, std::string("/a~1b"));
    QVERIFY(wb::diffBriefs(a, a).empty());
    // A field given in one brief at the value the other takes by default (pipeline_parallel 1,
    // BF16 weights for a service) is no change; a value other than the default is.
    const std::string eight = R"({"workload": {"kind": "realtime-inference"}, "candidates": [{"gpu": "h200-sxm-141gb", "gpus": 8}]})";
    const std::string one = R"({"workload": {"kind": "realtime-inference", "weights_precision": "bf16"},
        "candidates": [{"gpu": "h200-sxm-141gb", "gpus": 1, "pipeline_parallel": 1}]})";
    const auto count = wb::diffBriefs(eight, one);
    QCOMPARE(int(count.size()), 1);
    QCOMPARE(count[0].pointer, std::string("/candidates/0/gpus"));
    QCOMPARE(int(wb::diffBriefs(eight, R"({"workload": {"kind": "realtime-inference", "weights_precision": "fp8"},
        "candidates": [{"gpu": "h200-sxm-141gb", "gpus": 8, "pipeline_parallel": 2}]})").size()), 2);
    QCOMPARE(wb::diffBriefs("{", a).front().pointer, std::string());
    // Any JSON is compared, whatever its shape: "/0" only in the first, "/workload" only in the
    // second; pipeline_parallel 1 is every kind's default, so without a kind it is still no change.
    QCOMPARE(int(wb::diffBriefs("[1]", R"({"workload": "x", "candidates": [{"pipeline_parallel": 1}]})").size()), 2);
}

void TestCompare::resultsMatchedByLayout()
{
    wb::Results a, b;
    wb::CandidateResult h100;
    h100.candidate.gpu = "h100-sxm-80gb";
    h100.candidate.gpus = 8;
    h100.candidate.tensorParallel = 2;
    h100.fit.computed = true;
    h100.fit.headroomFraction = 0.35;
    wb::CandidateResult l4;
    l4.candidate.gpu = "l4-24gb";
    a.results = {h100, l4};
    h100.fit.headroomFraction = 0.20;  // the same layout in B, with less headroom
    h100.candidate.gpus = 1;            // entered as one GPU: the same candidate (issue 39)
    b.results = {h100};
    const auto changes = wb::compareResults(a, b);
    // Seven figures for each of the two candidates.
    QCOMPARE(int(changes.size()), 14);
    QCOMPARE(changes[0].candidate, std::string("h100-sxm-80gb TP2 PP1 generic"));
    QCOMPARE(changes[0].figure, std::string("memory headroom"));
    QCOMPARE(changes[0].before.value_or(-1), 0.35);
    QCOMPARE(changes[0].after.value_or(-1), 0.20);
    QVERIFY(!changes[0].lowerIsBetter);
    QVERIFY(!changes[1].before);  // performance not computed
    // The L4 is only in A.
    QCOMPARE(changes[7].candidate, std::string("l4-24gb TP1 PP1 generic"));
    QVERIFY(!changes[7].before);  // its fit was not computed either
    QVERIFY(!changes[7].after);

    // The same layout entered twice in one scenario is two candidates, told apart by place; a
    // different weight precision is another candidate.
    wb::CandidateResult again = h100, fp8 = h100;
    again.fit.headroomFraction = 0.5;
    fp8.candidate.weightsPrecision = wb::Precision::Fp8;
    b.results = {h100, again, fp8};
    const auto three = wb::compareResults(a, b);
    QCOMPARE(int(three.size()), 4 * 7);
    QCOMPARE(three[14].candidate, std::string("h100-sxm-80gb TP2 PP1 generic (2)"));
    QVERIFY(!three[14].before);
    QCOMPARE(three[14].after.value_or(-1), 0.5);
    QCOMPARE(three[21].candidate, std::string("h100-sxm-80gb TP2 PP1 generic fp8"));
}

QTEST_APPLESS_MAIN(TestCompare)
#include "tst_compare.moc"
