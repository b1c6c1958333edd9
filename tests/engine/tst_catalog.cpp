// The shipped catalogs: complete, sourced and valid; and catalog files that are malformed or
// inconsistent are refused with one message naming the file, the entry and the field.

#include "testsupport.h"

#include <catalog/catalog.h>

#include <QObject>
#include <QTest>

class TestCatalog : public QObject
{
    Q_OBJECT

private slots:
    void everySpecIdIsPresent_data();
    void everySpecIdIsPresent();
    void everyGpuFigureHasASource();
    void badCatalogIsRefused_data();
    void badCatalogIsRefused();
    void userCatalogOverridesAndAdds();
    void failedLoadLeavesCatalogUnchanged();
};

void TestCatalog::everySpecIdIsPresent_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    // The ids ../shared/spec/brief-and-results-v1.md fixes under "Catalog ids".
    for (const char *id : {"a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-80gb", "h100-sxm-80gb", "h100-pcie-80gb",
                           "h100-nvl-94gb", "h200-sxm-141gb", "h200-nvl-141gb", "b200-180gb", "b300-288gb",
                           "gb200-186gb", "gb300-288gb", "l40s-48gb", "l4-24gb", "rtx-4090-24gb", "rtx-5090-32gb",
                           "rtx-6000-ada-48gb", "rtx-pro-6000-96gb", "mi300x-192gb", "mi325x-256gb", "mi355x-288gb",
                           "gaudi3-128gb"})
        QTest::newRow(id) << "gpu" << id;
    for (const char *id : {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-8b",
                           "llama-3.1-70b", "llama-3.1-405b", "llama-3.3-70b", "mistral-7b", "mixtral-8x7b",
                           "mixtral-8x22b", "qwen2.5-7b", "qwen2.5-72b", "deepseek-v3", "gpt-3-175b"})
        QTest::newRow(id) << "model" << id;
}

void TestCatalog::everySpecIdIsPresent()
{
    QFETCH(QString, kind);
    QFETCH(QString, id);
    const wb::Catalog &c = wbtest::shippedCatalog();
    if (kind == QLatin1String("gpu"))
        QVERIFY2(c.gpu(id.toStdString()) != nullptr, qPrintable(id));
    else
        QVERIFY2(c.model(id.toStdString()) != nullptr, qPrintable(id));
}

void TestCatalog::everyGpuFigureHasASource()
{
    const wb::Catalog &c = wbtest::shippedCatalog();
    for (const wb::GpuSpec &g : c.gpus()) {
        for (const char *figure : {"memory", "bandwidth", "flops", "scale_up", "pcie_gen", "board_power", "mig", "year"}) {
            auto it = g.figureSources.find(figure);
            QVERIFY2(it != g.figureSources.end(), qPrintable(QString::fromStdString(g.id) + " " + figure));
            const wb::Source *s = c.source(it->second);
            QVERIFY(s != nullptr);
            QVERIFY2(s->url.rfind("https://", 0) == 0, s->url.c_str());
            QCOMPARE(s->readDate.size(), std::size_t(10));
        }
    }
    for (const wb::ModelSpec &m : c.models()) {
        QVERIFY2(!m.sourceUrl.empty(), m.id.c_str());
        QVERIFY2(!m.sourceReadDate.empty(), m.id.c_str());
    }
}

namespace {

// A valid one-GPU catalog (H100 SXM figures) to break one field at a time.
std::string gpuCatalog(const std::string &replaceFrom = {}, const std::string &replaceTo = {})
{
    std::string text = R"({"format": "gpu-workbench-catalog", "version": 1,
 "sources": {"ds": {"url": "https://example.org/datasheet.pdf", "read": "2026-11-30"}},
 "gpus": [{"id": "test-gpu", "name": "Test GPU", "vendor": "nvidia", "architecture": "hopper",
   "form_factor": "sxm", "memory_bytes": 85899345920, "memory_bandwidth_bytes_per_s": 3.35e12,
   "dense_flops_per_s": {"fp32": 6.69e13, "tf32": 4.947e14, "bf16": 9.894e14, "fp8": 1.9789e15,
                          "int8": 1.9789e15, "fp4": null},
   "scale_up": {"kind": "nvlink", "bandwidth_bytes_per_s": 9e11, "domain_gpus": 8},
   "pcie_gen": 5, "board_power_w": 700, "mig_instances": 7, "year": 2022,
   "sources": {"memory": "ds", "bandwidth": "ds", "flops": "ds", "scale_up": "ds", "pcie_gen": "ds",
               "board_power": "ds", "mig": "ds", "year": "ds"}}]})";
    if (!replaceFrom.empty()) {
        const auto at = text.find(replaceFrom);
        if (at == std::string::npos)
            qFatal("fixture has no %s", replaceFrom.c_str());
        text.replace(at, replaceFrom.size(), replaceTo);
    }
    return text;
}

} // namespace

void TestCatalog::badCatalogIsRefused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expectedPath");
    QTest::addColumn<QString>("expectedMessage");

    QTest::newRow("valid fixture loads") << QString::fromStdString(gpuCatalog()) << "" << "";
    QTest::newRow("not json") << "{\"gpus\": [" << "" << "is not valid JSON";
    QTest::newRow("negative memory")
        << QString::fromStdString(gpuCatalog("\"memory_bytes\": 85899345920", "\"memory_bytes\": -80"))
        << "entry \"test-gpu\" at /gpus/0/memory_bytes" << "must be at least";
    QTest::newRow("memory as text")
        << QString::fromStdString(gpuCatalog("\"memory_bytes\": 85899345920", "\"memory_bytes\": \"80GB\""))
        << "entry \"test-gpu\" at /gpus/0/memory_bytes" << "must be a number";
    QTest::newRow("missing bandwidth")
        << QString::fromStdString(gpuCatalog("\"memory_bandwidth_bytes_per_s\": 3.35e12,", ""))
        << "entry \"test-gpu\" at /gpus/0/memory_bandwidth_bytes_per_s" << "is missing";
    // The sparse FP8 figure (3,958 TFLOPS) against the dense BF16 one: four times, not two.
    QTest::newRow("sparse fp8 figure")
        << QString::fromStdString(gpuCatalog("\"fp8\": 1.9789e15", "\"fp8\": 3.958e15"))
        << "entry \"test-gpu\" at /gpus/0/dense_flops_per_s/fp8" << "a sparse figure";
    QTest::newRow("flops key left out")
        << QString::fromStdString(gpuCatalog("\"fp4\": null", "\"fp4x\": null"))
        << "entry \"test-gpu\" at /gpus/0/dense_flops_per_s/fp4" << "write null";
    QTest::newRow("unknown source")
        << QString::fromStdString(gpuCatalog("\"year\": \"ds\"", "\"year\": \"nowhere\""))
        << "entry \"test-gpu\" at /gpus/0/sources/year" << "not defined";
    QTest::newRow("figure without source")
        << QString::fromStdString(gpuCatalog(", \"year\": \"ds\"", ""))
        << "entry \"test-gpu\" at /gpus/0/sources/year" << "is missing";
    QTest::newRow("bad read date")
        << QString::fromStdString(gpuCatalog("\"read\": \"2026-11-30\"", "\"read\": \"30/11/2026\""))
        << "source \"ds\" at /sources/ds/read" << "YYYY-MM-DD";
    QTest::newRow("upper-case id")
        << QString::fromStdString(gpuCatalog("\"id\": \"test-gpu\"", "\"id\": \"Test GPU\""))
        << "entry \"Test GPU\" at /gpus/0/id" << "lower-case";
    QTest::newRow("wrong format tag")
        << QString::fromStdString(gpuCatalog("gpu-workbench-catalog", "something-else")) << "/format"
        << "must be \"gpu-workbench-catalog\"";
    QTest::newRow("override of unknown id")
        << QString::fromStdString(gpuCatalog("\"id\": \"test-gpu\",", "\"id\": \"test-gpu\", \"override\": true,"))
        << "entry \"test-gpu\" at /gpus/0/override" << "no earlier catalog";
    // Llama-3-8B's architecture counts 8.03 B parameters (tst_modelarch); 80 B is a typo.
    QTest::newRow("model parameters inconsistent")
        << R"({"format": "gpu-workbench-catalog", "version": 1, "models": [{"id": "m", "name": "M",
             "parameters": 80e9, "layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 8,
             "intermediate_size": 14336, "vocab_size": 128256, "tied_embeddings": false, "max_context": 8192}]})"
        << "entry \"m\" at /models/0/parameters" << "the architecture gives 8.03";
    QTest::newRow("kv heads do not divide heads")
        << R"({"format": "gpu-workbench-catalog", "version": 1, "models": [{"id": "m", "name": "M",
             "parameters": 8.03e9, "layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 7,
             "intermediate_size": 14336, "vocab_size": 128256, "tied_embeddings": false, "max_context": 8192}]})"
        << "entry \"m\" at /models/0/kv_heads" << "must divide";
}

void TestCatalog::badCatalogIsRefused()
{
    QFETCH(QString, text);
    QFETCH(QString, expectedPath);
    QFETCH(QString, expectedMessage);
    wb::Catalog catalog;
    wb::Status s = catalog.loadJson(text.toStdString(), "user/catalog.json");
    if (expectedMessage.isEmpty()) {
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        return;
    }
    QVERIFY(!s.ok());
    const wb::Error &e = s.error();
    QCOMPARE(QString::fromStdString(e.file), QStringLiteral("user/catalog.json"));
    QCOMPARE(QString::fromStdString(e.path), expectedPath);
    QVERIFY2(QString::fromStdString(e.message).contains(expectedMessage), e.message.c_str());
    const std::string line = e.toString();
    QVERIFY(line.find('\n') == std::string::npos);
    QVERIFY(line.rfind("user/catalog.json: ", 0) == 0);
}

void TestCatalog::userCatalogOverridesAndAdds()
{
    wb::Catalog c = wbtest::shippedCatalog();
    const std::size_t before = c.gpus().size();
    // A user who measured 79.22 GiB usable on their H100s patches just that field.
    wb::Status s = c.loadJson(R"({"format": "gpu-workbench-catalog", "version": 1,
        "gpus": [{"id": "h100-sxm-80gb", "override": true, "memory_bytes": 85061213061}]})",
                              "user.json");
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
    QCOMPARE(c.gpus().size(), before);
    QCOMPARE(c.gpu("h100-sxm-80gb")->memoryBytes, std::uint64_t(85061213061));
    QCOMPARE(c.gpu("h100-sxm-80gb")->memoryBandwidthBytesPerS, 3.35e12);  // untouched fields stay
    QCOMPARE(c.gpu("h100-sxm-80gb")->catalogFile, std::string("user.json"));

    s = c.loadJson(gpuCatalog(), "user2.json");
    QVERIFY(s.ok());
    QCOMPARE(c.gpus().size(), before + 1);
    QVERIFY(c.gpu("test-gpu"));
}

void TestCatalog::failedLoadLeavesCatalogUnchanged()
{
    wb::Catalog c = wbtest::shippedCatalog();
    const std::size_t before = c.gpus().size();
    // The first entry is valid, the second broken: neither may land.
    std::string text = gpuCatalog();
    const auto end = text.rfind("]}");
    const std::string entry = text.substr(text.find("{\"id\""), end - text.find("{\"id\""));
    std::string second = entry;
    second.replace(second.find("test-gpu"), 8, "test-gpu-2");
    second.replace(second.find("\"board_power_w\": 700"), 20, "\"board_power_w\": -1");
    text.insert(end, "," + second);
    wb::Status s = c.loadJson(text, "broken.json");
    QVERIFY(!s.ok());
    QCOMPARE(c.gpus().size(), before);
    QVERIFY(!c.gpu("test-gpu"));
}

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
