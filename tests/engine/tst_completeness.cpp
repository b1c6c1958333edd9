// Brief completeness: which items of the seed's workload brief are given, which are assumed,
// and when the ranking is held back. Expected counts are worked out from the item list in
// engine/brief/completeness.cpp (realtime: kind, model, lengths, two p95s, latency targets,
// acceptance, data boundary, operating model, candidates = 10 items).

#include "testsupport.h"

#include <brief/completeness.h>

#include <QObject>
#include <QTest>

#include <algorithm>

namespace {

const std::string kChat = R"({"format": "gpu-workbench-brief", "version": 1, "name": "t",
  "workload": {"kind": "realtime-inference", "model": "llama-3.1-70b", "weights_precision": "fp8",
    "input_tokens": 2000, "output_tokens": 300, "input_tokens_p95": 6000, "output_tokens_p95": 700,
    "traffic": {"mode": "open-loop", "request_rate_per_s": 12.5},
    "slo": {"ttft_p99_s": 2.0, "tpot_p99_s": 0.08},
    "acceptance": {"quality_pass_rate": 0.95, "failure_rate": 0.01}},
  "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 8, "tensor_parallel": 2}],
  "cost": {"decision": {"api_allowed": true}}})";

std::string without(std::string s, const std::string &fragment)
{
    const auto at = s.find(fragment);
    if (at == std::string::npos)
        qFatal("fixture has no %s", fragment.c_str());
    return s.erase(at, fragment.size());
}

QStringList missingNames(const wb::Completeness &c)
{
    QStringList out;
    for (const wb::BriefItem *i : c.missing())
        out << QString::fromStdString(i->name);
    return out;
}

} // namespace

class TestCompleteness : public QObject
{
    Q_OBJECT

private slots:
    void realtimeBriefMissingOnlyTheOperatingModel()
    {
        const auto c = wb::assessCompleteness(wbtest::parseOrFail(kChat));
        QCOMPARE(int(c.items.size()), 10);
        QCOMPARE(c.givenCount(), 9);
        QCOMPARE(c.fraction(), 0.9);
        QVERIFY(c.rankable());  // the operating model is assumed, not blocking
        QCOMPARE(missingNames(c), QStringList{"operating model (who runs the platform)"});
    }

    void latencyTargetsHoldBackTheRanking()
    {
        const auto c = wb::assessCompleteness(
            wbtest::parseOrFail(without(kChat, R"("slo": {"ttft_p99_s": 2.0, "tpot_p99_s": 0.08},)")));
        QVERIFY(!c.rankable());
        QCOMPARE(c.givenCount(), 8);
        // Blocking items come first in the missing list.
        QCOMPARE(missingNames(c).first(), QString("latency targets"));
        QCOMPARE(c.missing().front()->pointer, std::string("/workload/slo"));
    }

    void acceptanceAndDataBoundaryBlock()
    {
        std::string s = without(kChat, R"(,
    "acceptance": {"quality_pass_rate": 0.95, "failure_rate": 0.01})");
        s = without(s, R"(,
  "cost": {"decision": {"api_allowed": true}})");
        const auto c = wb::assessCompleteness(wbtest::parseOrFail(s));
        QVERIFY(!c.rankable());
        QCOMPARE(missingNames(c), (QStringList{"acceptance (quality pass and failure rates)",
                                               "data boundary (may the data go to a model API?)",
                                               "operating model (who runs the platform)"}));
    }

    void batchNeedsAMonthlyVolume()
    {
        const std::string batch = R"({"format": "gpu-workbench-brief", "version": 1,
          "workload": {"kind": "batch-inference", "model": "llama-3.1-8b", "input_tokens": 3000,
            "output_tokens": 250, "traffic": {"mode": "offline"},
            "acceptance": {"quality_pass_rate": 0.9}},
          "candidates": [{"gpu": "l4-24gb"}],
          "cost": {"decision": {"api_allowed": true}}})";
        auto c = wb::assessCompleteness(wbtest::parseOrFail(batch));
        QVERIFY(!c.rankable());
        QCOMPARE(missingNames(c).first(), QString("monthly volume"));
        // A monthly volume completes it; the p95 lengths and operating model stay assumed.
        std::string withVolume = batch;
        withVolume.insert(withVolume.find(R"("decision")"), R"("requests_per_month": 3000000, )");
        c = wb::assessCompleteness(wbtest::parseOrFail(withVolume));
        QVERIFY(c.rankable());
        QCOMPARE(c.givenCount(), 7);  // 10 items: kind, model, lengths, 2 p95, volume, acceptance, boundary, ops, candidates
        QCOMPARE(int(c.items.size()), 10);
    }

    // Issue 37: a fine-tune is decided per accepted run. Its acceptance (the share of runs that
    // pass evaluation) is asked for but does not hold the ranking back; its operating model is
    // training_platform_fte, the engineers its cost reads. Pre-training has no API to weigh, so
    // no data boundary is asked of it.
    void fineTuneNeedsItsTokensAndAsksForAcceptance()
    {
        const std::string lora = R"({"format": "gpu-workbench-brief", "version": 1,
          "workload": {"kind": "lora", "model": "llama-3.1-8b",
            "training": {"sequence_length": 4096}},
          "candidates": [{"gpu": "l40s-48gb"}]})";
        const auto c = wb::assessCompleteness(wbtest::parseOrFail(lora));
        // Items: kind, model, tokens, dataset, acceptance, data boundary, operating model,
        // candidates (no lengths or latency for a training run).
        QCOMPARE(int(c.items.size()), 8);
        QVERIFY(!c.rankable());
        QCOMPARE(missingNames(c), (QStringList{"tokens to train on", "data boundary (may the data go to a model API?)",
                                               "dataset (its size and where it is)",
                                               "acceptance (share of runs that pass evaluation)",
                                               "operating model (who runs the platform)"}));
        const auto ops = std::find_if(c.items.begin(), c.items.end(),
                                      [](const wb::BriefItem &i) { return i.name == "operating model (who runs the platform)"; });
        QCOMPARE(QString::fromStdString(ops->pointer), QString("/assumptions/training_platform_fte"));
        std::string pretrain = lora;
        pretrain.replace(pretrain.find("lora"), 4, "training");
        const auto p = wb::assessCompleteness(wbtest::parseOrFail(pretrain));
        QVERIFY(std::none_of(p.items.begin(), p.items.end(), [](const wb::BriefItem &i) { return i.pointer == "/cost/decision/api_allowed"; }));
    }
};

QTEST_APPLESS_MAIN(TestCompleteness)
#include "tst_completeness.moc"
