// Parameter counts and KV cache sizes from the architecture, against published figures and
// hand-worked arithmetic.

#include "testsupport.h"

#include <fit/fit.h>
#include <catalog/modelarch.h>

#include <QObject>
#include <QTest>

class TestModelArch : public QObject
{
    Q_OBJECT

private slots:
    void parameterCounts_data();
    void parameterCounts();
    void kvBytesPerToken_data();
    void kvBytesPerToken();
    void hfConfigImport();
};

void TestModelArch::parameterCounts_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("publishedTotal");
    QTest::addColumn<double>("publishedActive");
    // Totals from the model cards / safetensors metadata of each Hugging Face repository; active
    // parameters from the Mixtral paper (arXiv 2401.04088: 12.9 B of 46.7 B), Mistral's 8x22B
    // announcement (39 B of 141 B) and DeepSeek-V3's report (arXiv 2412.19437: 37 B of 671 B).
    QTest::newRow("llama-3-8b") << "llama-3-8b" << 8.03e9 << 8.03e9;
    QTest::newRow("llama-3.1-70b") << "llama-3.1-70b" << 70.55e9 << 70.55e9;
    QTest::newRow("llama-3.1-405b") << "llama-3.1-405b" << 405.85e9 << 405.85e9;
    QTest::newRow("llama-2-70b") << "llama-2-70b" << 68.98e9 << 68.98e9;
    QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << 46.7e9 << 12.9e9;
    QTest::newRow("mixtral-8x22b") << "mixtral-8x22b" << 140.6e9 << 39.0e9;
    QTest::newRow("qwen2.5-7b") << "qwen2.5-7b" << 7.62e9 << 7.62e9;
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 671e9 << 37e9;
    QTest::newRow("gpt-3-175b") << "gpt-3-175b" << 175e9 << 175e9;
}

void TestModelArch::parameterCounts()
{
    QFETCH(QString, model);
    QFETCH(double, publishedTotal);
    QFETCH(double, publishedActive);
    const wb::ModelSpec *m = wbtest::shippedCatalog().model(model.toStdString());
    QVERIFY(m);
    const wb::ParameterCounts p = wb::countParameters(*m);
    QVERIFY2(std::abs(p.total() / publishedTotal - 1) < 0.01, qPrintable(QString::number(p.total() / 1e9)));
    QVERIFY2(std::abs(p.active() / publishedActive - 1) < 0.025, qPrintable(QString::number(p.active() / 1e9)));
}

void TestModelArch::kvBytesPerToken_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("tp");
    QTest::addColumn<double>("expectedBytesPerToken");
    // Llama-3.1-70B: 2 (K and V) x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 B = 320 KiB.
    QTest::newRow("llama-3.1-70b bf16 tp1") << "llama-3.1-70b" << "bf16" << 1 << 327680.0;
    // Same at fp8 (1 byte) on a TP2 GPU: 4 KV heads each: 2 x 80 x 4 x 128 x 1 = 81,920 B.
    QTest::newRow("llama-3.1-70b fp8 tp2") << "llama-3.1-70b" << "fp8" << 2 << 81920.0;
    // TP16 exceeds the 8 KV heads: each GPU keeps one (replicated) head: 2 x 80 x 1 x 128 x 2.
    QTest::newRow("llama-3.1-70b bf16 tp16 replicates") << "llama-3.1-70b" << "bf16" << 16 << 40960.0;
    // Llama-2-7B has no GQA: 2 x 32 x 32 x 128 x 2 = 524,288 B = 512 KiB.
    QTest::newRow("llama-2-7b bf16") << "llama-2-7b" << "bf16" << 1 << 524288.0;
    // DeepSeek-V3 MLA: 61 layers x (512 + 64) x 2 bytes = 70,272 B, not split by TP.
    QTest::newRow("deepseek-v3 mla bf16 tp8") << "deepseek-v3" << "bf16" << 8 << 70272.0;
}

void TestModelArch::kvBytesPerToken()
{
    QFETCH(QString, model);
    QFETCH(QString, precision);
    QFETCH(int, tp);
    QFETCH(double, expectedBytesPerToken);
    const wb::ModelSpec *m = wbtest::shippedCatalog().model(model.toStdString());
    QVERIFY(m);
    const auto p = wb::enumFromString<wb::Precision>(precision.toStdString());
    QVERIFY(p);
    QCOMPARE(m->layers * wb::kvBytesPerTokenPerLayer(*m, *p, tp), expectedBytesPerToken);
}

void TestModelArch::hfConfigImport()
{
    // Meta-Llama-3-8B's config.json (the fields that matter).
    const char *config = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "vocab_size": 128256, "max_position_embeddings": 8192, "tie_word_embeddings": false,
        "rope_theta": 500000.0, "torch_dtype": "bfloat16"})";
    auto m = wb::modelFromHfConfig(config, "config.json", "");
    QVERIFY(m.ok());
    QCOMPARE(m->kvHeads, 8);
    QCOMPARE(m->headDim, 128);
    QVERIFY(std::abs(wb::countParameters(*m).total() - 8.03e9) < 0.01e9);

    auto bad = wb::modelFromHfConfig(R"({"model_type": "llama", "hidden_size": 4096})", "config.json", "/hf");
    QVERIFY(!bad.ok());
    QCOMPARE(QString::fromStdString(bad.error().path), QStringLiteral("/hf/num_hidden_layers"));
}

QTEST_GUILESS_MAIN(TestModelArch)
#include "tst_modelarch.moc"
