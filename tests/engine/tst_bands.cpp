// The figures' P10-P90 bands (catalog/bands.h): how a band is made from held-out residuals,
// widened outside the data, read from and written to its file; version comparison; the
// leave-one-group-out predictions they come from (evaluate/calibration.h), on a predictor whose
// every figure is a factor times a constant, so that the held-out values are known by hand.
#include "testsupport.h"

#include <catalog/bands.h>
#include <evaluate/calibration.h>

#include <QtTest>

#include <cmath>

using namespace wb;

class TestBands : public QObject
{
    Q_OBJECT

private slots:
    void versionsCompare();
    void sizeClasses();
    void bandFromResiduals();
    void widerOutsideTheData();
    void fileRoundTripsAndRefusesNonsense();
    void groupOutLeavesTheWholeGroupOut();
};

void TestBands::versionsCompare()
{
    QCOMPARE(compareVersions("0.5.10", "0.5.9").value(), 1);   // numbers, not text: "10" > "9"
    QCOMPARE(compareVersions("v1.1.0", "1.1").value(), 0);      // a leading v, and 1.1 == 1.1.0
    QCOMPARE(compareVersions("1.3.0rc14", "1.3.0").value(), 0); // the suffix is ignored
    QCOMPARE(compareVersions("0.4.3", "0.9.0.2").value(), -1);
    QVERIFY(!compareVersions("SGLang 0.5", "0.5"));             // a name before the number is not a version
    QVERIFY(!compareVersions("latest", "1.0"));
}

void TestBands::sizeClasses()
{
    // Llama 3.1 8B, Llama 3 70B, Llama 3.1 405B: the three classes the measurements come in.
    QCOMPARE(modelSizeClass(8.03e9), std::string("small"));
    QCOMPARE(modelSizeClass(70.6e9), std::string("mid"));
    QCOMPARE(modelSizeClass(405e9), std::string("large"));
    QCOMPARE(modelSizeClass(15e9), std::string("mid"));
}

namespace {

BandTable table()
{
    BandTable t;
    // Ten cases' held-out log errors: P10 -0.2 (measured 18% below the prediction), P90 +0.1.
    t.residuals["public.throughput"] = {10, 40, -0.2, -0.05, 0.1};
    t.residuals["public.throughput@gpu-family"] = {10, 10, -0.4, -0.1, 0.3};
    t.residuals["public.throughput@model-size"] = {10, 10, -0.3, 0.0, 0.2};
    t.residuals["public.all"] = {12, 60, -0.5, 0.0, 0.5};
    // Only three cases of TTFT: too few for tails, so the set's pooled figures are used.
    t.residuals["public.ttft"] = {3, 12, -0.1, 0.0, 0.1};
    t.gpuFamilies = {"hopper", "ampere"};
    t.sizeClasses = {"small", "mid"};
    t.stacks["vllm"] = {5, {"0.4.3", "0.9.0.2"}, "2024-08", "2025-09"};
    return t;
}

BandContext context()
{
    return {"public", "throughput", "hopper", "mid", "vllm", ""};
}

} // namespace

void TestBands::bandFromResiduals()
{
    const BandTable t = table();
    const auto b = t.band(1000, context());
    QVERIFY(b);
    // By hand: the spread of a new draw about quantiles from n = 10 cases is sqrt(1 + 1/10) =
    // 1.0488 wider, about the median -0.05: P10 = 1000 e^(-0.05 - 0.15 x 1.0488) = 812.8,
    // P50 = 1000 e^(-0.05) = 951.2, P90 = 1000 e^(-0.05 + 0.15 x 1.0488) = 1113.3.
    QVERIFY(std::fabs(b->p10 - 812.8) < 0.1);
    QVERIFY(std::fabs(b->p50 - 951.2) < 0.1);
    QVERIFY(std::fabs(b->p90 - 1113.3) < 0.1);
    QVERIFY(b->outside.empty());
    QVERIFY(b->basis.find("40 predictions (10 cases)") != std::string::npos);
    // TTFT has three cases: the band falls back to the set's pooled figures (12 cases):
    // 0.2 s x e^(+-0.5 x sqrt(1 + 1/12)) = 0.2 x e^(+-0.5204) = 0.1189 .. 0.3365 s.
    BandContext ttft = context();
    ttft.family = "ttft";
    const auto f = t.band(0.2, ttft);
    QVERIFY(f);
    QVERIFY(std::fabs(f->p10 - 0.1189) < 0.0005);
    QVERIFY(std::fabs(f->p90 - 0.3365) < 0.0005);
    // A model consistently slow for a family: the band lies above its figure, not stretched to
    // reach it: P10 = 500 e^(0.1 - 0.05 x 1.0488) = 524.4.
    BandTable biased = table();
    biased.residuals["public.throughput"] = {10, 10, 0.05, 0.1, 0.2};
    QVERIFY(std::fabs(biased.band(500, context())->p10 - 524.4) < 0.1);
    // No residuals for the set: no band (not a made-up one).
    BandContext moe = context();
    moe.set = "moe";
    QVERIFY(!t.band(1000, moe));
}

void TestBands::widerOutsideTheData()
{
    const BandTable t = table();
    // A GPU family without cases: the GPU-family grouping's quantiles (-0.4, +0.3), once wider
    // for few cases about the median: 1000 e^(-0.05 - 0.35 x 1.0488) = 659.0,
    // 1000 e^(-0.05 + 0.35 x 1.0488) = 1373.1.
    BandContext c = context();
    c.gpuFamily = "cdna4";
    const auto one = t.band(1000, c);
    QVERIFY(std::fabs(one->p10 - 659.0) < 0.1);
    QVERIFY(std::fabs(one->p90 - 1373.1) < 0.1);
    QCOMPARE(one->outside.size(), std::size_t(1));
    QVERIFY(one->basis.find("no case on the cdna4 GPU family") != std::string::npos);
    // And a size class without cases: the widest of both groupings (-0.4, +0.3), sqrt(2) wider
    // for two independent respects: e^(-0.05 - 0.35 x 1.4832) = 0.5660, e^(-0.05 + 0.35 x 1.4832) = 1.5986.
    c.sizeClass = "large";
    const auto two = t.band(1000, c);
    QVERIFY(std::fabs(two->p10 - 566.0) < 0.1);
    QVERIFY(std::fabs(two->p90 - 1598.6) < 0.1);
    // A stack version outside the data's 0.4.3 to 0.9.0.2: wider, and said.
    BandContext v = context();
    v.stackVersion = "0.11.0";
    QCOMPARE(t.versionOutside("vllm", "0.11.0").value(), true);
    QCOMPARE(t.versionOutside("vllm", "0.6.0").value(), false);
    QVERIFY(!t.versionOutside("trtllm", "1.0"));   // no stated versions to compare with
    const auto newer = t.band(1000, v);
    QCOMPARE(newer->outside.size(), std::size_t(1));
    QVERIFY(newer->basis.find("vllm 0.11.0 is outside the data's 0.4.3 to 0.9.0.2") != std::string::npos);
}

void TestBands::fileRoundTripsAndRefusesNonsense()
{
    BandTable t = table();
    t.coverage = 0.8125;
    t.coverageFigures = 64;
    BandTable back;
    const Status s = back.loadJson(t.toJson("test"), "bands.json");
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
    QCOMPARE(back.residuals.size(), t.residuals.size());
    QCOMPARE(back.residuals.at("public.throughput@gpu-family").p90, 0.3);
    QCOMPARE(back.stacks.at("vllm").versions.back(), std::string("0.9.0.2"));
    QCOMPARE(back.coverageFigures, 64);
    QCOMPARE(back.file(), std::string("bands.json"));

    const auto fails = [](const std::string &text, const std::string &where) {
        BandTable b;
        b.residuals["x.y"] = {};
        const Status loaded = b.loadJson(text, "bad.json");
        return !loaded.ok() && loaded.error().toString().find(where) != std::string::npos && b.residuals.size() == 1;
    };
    const std::string head = R"({"format": "gpu-workbench-bands", "version": 1, "coverage": {"share": 0.8, "figures": 10}, )";
    const std::string data = R"("data": {"gpu_families": [], "size_classes": [], "stacks": []}})";
    QVERIFY(fails(head + R"("residuals": [{"key": "public.throughput", "cases": 3, "figures": 3, "p10": 0.2, "p50": 0.1, "p90": 0.3}], )" + data,
                  "/residuals/0/p50"));
    QVERIFY(fails(head + R"("residuals": [{"key": "nonsense", "cases": 3, "figures": 3, "p10": 0, "p50": 0, "p90": 0}], )" + data,
                  "/residuals/0/key"));
    QVERIFY(fails(head + R"("residuals": [{"key": "a.b", "cases": 3, "figures": 3, "p10": -9, "p50": 0, "p90": 0}], )" + data,
                  "/residuals/0/p10"));
    QVERIFY(fails(head + R"("residuals": [], "data": {"gpu_families": [], "size_classes": [], "stacks": [{"stack": "vllm", "cases": 1, "versions": ["new"]}]}})",
                  "/data/stacks/0/versions/0"));
    QVERIFY(fails("{", "bad.json"));
}

void TestBands::groupOutLeavesTheWholeGroupOut()
{
    // Four cases, two GPU families: each figure is its family's memory factor times 1000. The
    // measurements say hopper streams at 0.60 (prior 0.80) and ampere at 0.90.
    const EfficiencyTable &priors = EfficiencyTable::priors();
    const double hopperPrior = priors.factor("memory.hopper")->prior;
    const double amperePrior = priors.factor("memory.ampere")->prior;
    std::vector<CalibrationCase> cases;
    for (const auto &[id, family, measured] : {std::tuple{"H-1", "hopper", 600.0}, {"H-2", "hopper", 600.0},
                                               {"A-1", "ampere", 900.0}, {"A-2", "ampere", 900.0}}) {
        CalibrationCase c;
        c.id = id;
        c.set = "public";
        c.measured = {{MeasuredFigure::OfflineTokensPerS, measured}};
        c.factorKeys = {std::string("memory.") + family};
        c.groups = {{"gpu-family", family}, {"source", id}};
        Candidate cand;
        cand.gpu = "h100-sxm-80gb";
        c.brief.candidates = {cand};
        cases.push_back(c);
    }
    const CasePredictor predict = [](const CalibrationCase &c, const EfficiencyTable &t) {
        return std::vector<std::optional<double>>{1000 * t.value(c.factorKeys.front())};
    };
    CalibrationOptions options;
    options.iterations = 8;
    const CalibrationReport report = calibrate(cases, priors, predict, options);
    for (const CalibrationRow &r : report.rows) {
        const bool hopper = r.id[0] == 'H';
        // Without its GPU family no case informs its factor: the prediction is the prior's,
        // exactly (one Gauss-Newton step on the prior alone lands on it).
        QVERIFY(r.groupOut.at("gpu-family"));
        QVERIFY2(std::fabs(*r.groupOut.at("gpu-family") - 1000 * (hopper ? hopperPrior : amperePrior)) < 1e-6,
                 qPrintable(QString::number(*r.groupOut.at("gpu-family"))));
        // Without its source alone the other case of its family still informs the factor: the
        // prediction is near the measurement, as leave-one-out's.
        // (One case at sigma 0.10 against a prior of width 0.15: about 70% of the way, 9% off.)
        QVERIFY(std::fabs(*r.groupOut.at("source") / r.measured - 1) < 0.15);
        QVERIFY(!r.groupOut.count("stack"));   // no stack group: not held out by stack
    }
    // The pooled group-out median error: half the predictions at the prior (|800/600 - 1| =
    // 33% for hopper, |900 - 1000 x ampere prior| / 900 for ampere), half near the measurement.
    const auto pooled = groupOutErrors(report.rows);
    QCOMPARE(pooled.at({"public", "throughput"}).first, 8);
    const auto byFamily = groupOutErrors(report.rows, "gpu-family");
    QCOMPARE(byFamily.at({"public", "throughput"}).first, 4);
    const double hopperMiss = std::fabs(1000 * hopperPrior / 600 - 1), ampereMiss = std::fabs(1000 * amperePrior / 900 - 1);
    QVERIFY(std::fabs(byFamily.at({"public", "throughput"}).second - 0.5 * (hopperMiss + ampereMiss)) < 1e-6);

    // The bands: residual quantiles per family and grouping, with what the cases cover.
    const BandTable bands = residualBands(report, cases);
    QCOMPARE(bands.residuals.at("public.throughput").figures, 8);
    QCOMPARE(bands.residuals.at("public.throughput@gpu-family").cases, 4);
    QCOMPARE(bands.gpuFamilies, (std::set<std::string>{"ampere", "hopper"}));
}

QTEST_GUILESS_MAIN(TestBands)
#include "tst_bands.moc"
