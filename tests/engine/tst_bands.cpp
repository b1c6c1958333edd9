// The figures' P10-P90 bands (catalog/bands.h): how a band is made from held-out residuals,
// widened outside the data, read from and written to its file; version comparison; the
// leave-one-group-out predictions they come from (evaluate/calibration.h), on a predictor whose
// every figure is a factor times a constant, so that the held-out values are known by hand.
#include "testsupport.h"

#include <catalog/bands.h>
#include <evaluate/calibration.h>
#include <evaluate/evaluate.h>
#include <report/report.h>

#include <QtTest>

#include <nlohmann/json.hpp>

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
    void everyFigureOfTheSampleHasItsBand();
    void stackVersionOutsideTheDataWarnsAndWidens();
    void benchmarkPromptsAreChecked();
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
    // A GPU family without cases: the GPU-family grouping's quantiles (-0.4, +0.3), sqrt(2)
    // wider for one respect outside the data and sqrt(1.1) for few cases, about the median:
    // 1000 e^(-0.05 - 0.35 x 1.4832) = 566.0, 1000 e^(-0.05 + 0.35 x 1.4832) = 1598.6.
    BandContext c = context();
    c.gpuFamily = "cdna4";
    const auto one = t.band(1000, c);
    QVERIFY(std::fabs(one->p10 - 566.0) < 0.1);
    QVERIFY(std::fabs(one->p90 - 1598.6) < 0.1);
    QCOMPARE(one->outside.size(), std::size_t(1));
    QVERIFY(one->basis.find("no case on the cdna4 GPU family") != std::string::npos);
    // And a size class without cases: the widest of both groupings (-0.4, +0.3), sqrt(3) wider
    // for two respects: sqrt(3 x 1.1) = 1.8166; e^(-0.05 - 0.35 x 1.8166) = 0.5037,
    // e^(-0.05 + 0.35 x 1.8166) = 1.7964.
    c.sizeClass = "large";
    const auto two = t.band(1000, c);
    QVERIFY(std::fabs(two->p10 - 503.7) < 0.1);
    QVERIFY(std::fabs(two->p90 - 1796.4) < 0.1);
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

namespace {

std::string chatBrief(const std::string &candidate, const std::string &traffic = R"({"mode": "open-loop", "request_rate_per_s": 2})")
{
    return R"({"format": "gpu-workbench-brief", "version": 1, "name": "t", "workload": {"kind": "realtime-inference",
        "model": "llama-3.1-70b", "weights_precision": "fp8", "kv_cache_precision": "fp8", "input_tokens": 1000,
        "output_tokens": 200, "traffic": )" + traffic + R"(, "slo": {"ttft_p99_s": 2, "tpot_p99_s": 0.08}},
        "candidates": [)" + candidate + "]}";
}

const Band &bandAt(const CandidateResult &r, const std::string &path)
{
    const auto it = r.uncertainty.find(path);
    if (it == r.uncertainty.end())
        qFatal("no band at %s", path.c_str());
    return it->second;
}

} // namespace

// The shipped bands (resources/calibration/bands.json) on a brief: each predicted figure the
// spec names has a band from held-out residuals, in order and about the figure's scale; the load
// an open loop offers is the brief's, not a prediction, so its band is the figure; each option's
// cost per accepted output moves inversely with the capacity's band; the JSON writes them.
void TestBands::everyFigureOfTheSampleHasItsBand()
{
    const Catalog &catalog = wbtest::shippedCatalog();
    QVERIFY(!catalog.bands().empty());
    const Brief brief = wbtest::parseOrFail(chatBrief(R"({"gpu": "h100-sxm-80gb", "gpus": 2, "tensor_parallel": 2, "serving_stack": "vllm"})"));
    const Results results = evaluate(brief, catalog);
    const CandidateResult &r = deployment(results.results.at(0));
    QVERIFY(r.performance.computed && r.cost.computed);
    for (const char *path : {"performance.ttft_s.mean", "performance.ttft_s.p99", "performance.tpot_s.p50", "performance.tpot_s.p99",
                             "performance.e2e_s.p99", "performance.max_output_tokens_per_s"}) {
        const Band &b = bandAt(r, path);
        QVERIFY2(b.p10 < b.p50 && b.p50 < b.p90, path);
        QVERIFY2(b.p10 > 0.2 * b.figure && b.p90 < 10 * b.figure, path);
        QVERIFY2(b.basis.find("held-out error of") != std::string::npos, path);
    }
    const Band &offered = bandAt(r, "performance.output_tokens_per_s");
    QCOMPARE(offered.p10, offered.p90);
    QCOMPARE(offered.p10, r.performance.outputTokensPerS);
    // Cost: P10 cost at P90 capacity, by the ratio: cost x capacity / capacity's P90.
    const Band &capacity = bandAt(r, "performance.max_output_tokens_per_s");
    const double cost = r.cost.options.at(0).costPerAcceptedOutput;
    const Band &c = bandAt(r, "cost.options.0.cost_per_accepted_output_usd");
    QVERIFY(std::fabs(c.p10 / (cost * capacity.figure / capacity.p90) - 1) < 1e-12);
    QVERIFY(std::fabs(c.p90 / (cost * capacity.figure / capacity.p10) - 1) < 1e-12);
    // The results JSON carries them under results[].uncertainty.
    const auto json = nlohmann::json::parse(resultsToJson(brief, results));
    const auto &u = json.at("results").at(0).at("uncertainty").at("performance.ttft_s.p99");
    QCOMPARE(u.at("p90").get<double>(), bandAt(r, "performance.ttft_s.p99").p90);
    QVERIFY(!u.at("basis").get<std::string>().empty());
    // The sample chat scenario's recommendation says how it stands across the band.
    const auto sample = loadBrief(std::string(WB_SOURCE_DIR) + "/resources/samples/chat-70b.brief.json", catalog);
    QVERIFY(sample);
    const Results chat = evaluate(*sample, catalog);
    QVERIFY(chat.cost.recommendation);
    const auto &reasons = chat.cost.recommendation->reasons;
    QVERIFY(std::any_of(reasons.begin(), reasons.end(), [](const Message &m) { return m.code.starts_with("band-"); }));
}

void TestBands::stackVersionOutsideTheDataWarnsAndWidens()
{
    const Catalog &catalog = wbtest::shippedCatalog();
    const auto run = [&](const std::string &version) {
        const std::string candidate = R"({"gpu": "h100-sxm-80gb", "gpus": 2, "tensor_parallel": 2, "serving_stack": "vllm")"
                                      + (version.empty() ? std::string() : R"(, "serving_stack_version": ")" + version + "\"") + "}";
        return evaluate(wbtest::parseOrFail(chatBrief(candidate)), catalog).results.at(0);
    };
    const auto &vllm = catalog.bands().stacks.at("vllm");
    QVERIFY(!vllm.versions.empty());
    const CandidateResult plain = run(""), inside = run(vllm.versions.back()), early = run("0.1.0");
    const auto warned = [](const CandidateResult &r) {
        return std::find_if(r.warnings.begin(), r.warnings.end(), [](const Message &m) { return m.code == "outside-calibration-data"; });
    };
    QVERIFY(warned(plain) == plain.warnings.end());
    QVERIFY(warned(inside) == inside.warnings.end());
    const auto w = warned(early);
    QVERIFY(w != early.warnings.end());
    QCOMPARE(w->field, std::string("/candidates/0/serving_stack_version"));
    QVERIFY2(w->message.find("vllm 0.1.0 is outside the data's " + vllm.versions.front()) != std::string::npos, w->message.c_str());
    const Band &narrow = bandAt(plain, "performance.ttft_s.p99"), &wide = bandAt(early, "performance.ttft_s.p99");
    QVERIFY(wide.p90 / wide.p10 > narrow.p90 / narrow.p10);
    // A version the engine cannot compare is refused, naming the field.
    auto bad = parseBrief(chatBrief(R"({"gpu": "h100-sxm-80gb", "serving_stack": "vllm", "serving_stack_version": "latest"})"),
                          "b.json", catalog);
    QVERIFY(!bad);
    QCOMPARE(bad.error().path, std::string("/candidates/0/serving_stack_version"));
}

void TestBands::benchmarkPromptsAreChecked()
{
    const Catalog &catalog = wbtest::shippedCatalog();
    const std::string candidate = R"({"gpu": "h100-sxm-80gb", "gpus": 2, "tensor_parallel": 2})";
    const auto error = [&](const std::string &traffic) {
        auto b = parseBrief(chatBrief(candidate, traffic), "b.json", catalog);
        return b ? std::string() : b.error().path + ": " + b.error().message;
    };
    QCOMPARE(error(R"({"mode": "closed-loop", "concurrency": 16, "prompts": 160})"), std::string());
    QVERIFY(error(R"({"mode": "closed-loop", "concurrency": 16, "prompts": 8})").starts_with("/workload/traffic/prompts: is below concurrency (16)"));
    QVERIFY(error(R"({"mode": "open-loop", "request_rate_per_s": 2, "prompts": 100})").starts_with("/workload/traffic/prompts: applies to closed-loop"));
    QVERIFY(error(R"({"mode": "closed-loop", "concurrency": 16, "prompts": 0})").starts_with("/workload/traffic/prompts"));
}

QTEST_GUILESS_MAIN(TestBands)
#include "tst_bands.moc"
