// The layout search (evaluate/search.h): the layouts it tries (counted by hand), the Pareto fronts
// (no layout on a front is beaten on both of its axes, and every layout off it is), each GPU's
// cheapest layout within the SLO, deployments sized to the peak, confirmed layouts that
// evaluate() agrees with, the brief's acceptable precisions, cancellation, and what it refuses.
// Also the candidate's own weights precision that a chosen layout carries into a brief.
#include "testsupport.h"
#include <fstream>
#include <sstream>

#include <evaluate/evaluate.h>
#include <evaluate/search.h>
#include <report/report.h>

#include <QtTest>

#include <cmath>

using namespace wb;

namespace {

std::string chatBrief(const std::string &extra = {}, const std::string &candidates = R"({"gpu": "h100-sxm-80gb", "gpus": 8, "tensor_parallel": 2, "serving_stack": "vllm"})")
{
    return R"({"format": "gpu-workbench-brief", "version": 1, "name": "chat", "workload": {"kind": "realtime-inference",
        "model": "llama-3.1-70b", "weights_precision": "fp8", "kv_cache_precision": "fp8",
        "input_tokens": 2000, "output_tokens": 300, "traffic": {"mode": "open-loop", "request_rate_per_s": 6},
        "slo": {"ttft_p99_s": 2.0, "tpot_p99_s": 0.08})" + extra + R"(}, "candidates": [)" + candidates + "]}";
}

SearchResult search(const Brief &brief, std::vector<std::string> gpus, int maxGpus = 16)
{
    SearchOptions o;
    o.gpus = std::move(gpus);
    o.maxGpus = maxGpus;
    o.today = "2026-11-30";
    std::string why;
    auto r = searchLayouts(brief, wbtest::shippedCatalog(), o, &why);
    if (!r)
        qFatal("search refused: %s", why.c_str());
    return *r;
}

bool eligible(const LayoutResult &l)
{
    return l.costed && l.withinGpuLimit;
}

} // namespace

class TestSearch : public QObject
{
    Q_OBJECT

private slots:
    void layoutsTried();
    void frontsAreParetoFronts();
    void cheapestOfEachGpu();
    void deploymentsSizedToThePeak();
    void confirmedAgreesWithEvaluate();
    void aLayoutDoesNotDependOnTheOtherGpus();
    void acceptablePrecisions();
    void stopsWhenAsked();
    void refusals();
    void trafficModesAndLayouts();
    void candidatePrecision();
    void renderings();
};

// At the default limit of 64 GPUs: TP 1, 2, 4, 8 by PP 1, 2, 4 is 12 sizes; NVIDIA GPUs get vLLM,
// SGLang and TensorRT-LLM (36 layouts), AMD ones vLLM and SGLang (24). One precision (the
// brief's). With at most 4 GPUs: 1x1, 1x2, 1x4, 2x1, 2x2, 4x1 = 6 sizes, 18 layouts.
void TestSearch::layoutsTried()
{
    const Brief brief = wbtest::parseOrFail(chatBrief());
    SearchOptions o;
    o.gpus = {"h100-sxm-80gb", "mi300x-192gb"};
    o.confirm = false;
    o.today = "2026-11-30";
    const auto r = searchLayouts(brief, wbtest::shippedCatalog(), o);
    QVERIFY(r);
    const auto count = [&](const std::string &gpu) {
        return int(std::count_if(r->layouts.begin(), r->layouts.end(), [&](const LayoutResult &l) { return l.candidate.gpu == gpu; }));
    };
    QCOMPARE(count("h100-sxm-80gb"), 36);
    QCOMPARE(count("mi300x-192gb"), 24);
    o.maxGpus = 4;
    o.gpus = {"h100-sxm-80gb"};
    QCOMPARE(searchLayouts(brief, wbtest::shippedCatalog(), o)->layouts.size(), std::size_t(18));
    // 70B at fp8 is 70 GB of weights: it cannot fit one L4 (24 GB), so those layouts say why.
    o.gpus = {"l4-24gb"};
    const auto l4 = searchLayouts(brief, wbtest::shippedCatalog(), o);
    const LayoutResult &single = l4->layouts.front();
    QCOMPARE(single.candidate.tensorParallel * single.candidate.pipelineParallel, 1);
    QVERIFY(!single.fits);
    QVERIFY(!single.costed);
    QVERIFY(!single.why.empty());
}

void TestSearch::frontsAreParetoFronts()
{
    const SearchResult r = search(wbtest::parseOrFail(chatBrief()), {"h100-sxm-80gb", "l40s-48gb", "h200-sxm-141gb"});
    const auto beatsCost = [](const LayoutResult &o, const LayoutResult &l) {
        return o.costPerAcceptedOutput <= l.costPerAcceptedOutput && o.p99LatencyS <= l.p99LatencyS
            && (o.costPerAcceptedOutput < l.costPerAcceptedOutput || o.p99LatencyS < l.p99LatencyS);
    };
    const auto beatsThroughput = [](const LayoutResult &o, const LayoutResult &l) {
        return o.outputTokensPerSPerGpu >= l.outputTokensPerSPerGpu && o.tokensPerSPerUser >= l.tokensPerSPerUser
            && (o.outputTokensPerSPerGpu > l.outputTokensPerSPerGpu || o.tokensPerSPerUser > l.tokensPerSPerUser);
    };
    int onCost = 0, onThroughput = 0;
    for (const LayoutResult &l : r.layouts) {
        if (!eligible(l)) {
            QVERIFY(!l.costFront && !l.throughputFront && !l.cheapestOfGpu);
            continue;
        }
        bool costBeaten = false, throughputBeaten = false;
        for (const LayoutResult &o : r.layouts)
            if (&o != &l && eligible(o)) {
                costBeaten = costBeaten || beatsCost(o, l);
                throughputBeaten = throughputBeaten || beatsThroughput(o, l);
            }
        QCOMPARE(l.costFront, !costBeaten);
        QCOMPARE(l.throughputFront, !throughputBeaten);
        onCost += l.costFront;
        onThroughput += l.throughputFront;
    }
    QVERIFY(onCost >= 1);
    QVERIFY(onThroughput >= 2);  // a trade-off: the fastest per user is not the densest per GPU
    QCOMPARE(r.latencyName, std::string("TTFT p99"));
    QCOMPARE(r.sloLatencyS.value_or(0), 2.0);
}

// Each GPU's cheapest layout within the SLO, among those evaluated in full: costs within a
// thousandth of the least are a tie, which the lower latency breaks.
void TestSearch::cheapestOfEachGpu()
{
    const SearchResult r = search(wbtest::parseOrFail(chatBrief()), {"h100-sxm-80gb", "h200-sxm-141gb"});
    for (const std::string gpu : {"h100-sxm-80gb", "h200-sxm-141gb"}) {
        const LayoutResult *flagged = nullptr;
        double cheapest = INFINITY;
        int full = 0;
        for (const LayoutResult &l : r.layouts) {
            if (l.candidate.gpu != gpu)
                continue;
            if (l.cheapestOfGpu) {
                QVERIFY2(!flagged, "one cheapest layout per GPU");
                flagged = &l;
            }
            if (eligible(l) && l.meetsSlo && l.full) {
                cheapest = std::min(cheapest, l.costPerAcceptedOutput);
                ++full;
            }
        }
        QVERIFY2(flagged, gpu.c_str());
        QVERIFY(full >= 3);  // its three cheapest screened layouts at least were confirmed
        QVERIFY(flagged->meetsSlo && flagged->withinGpuLimit && flagged->full);
        QVERIFY(flagged->costPerAcceptedOutput <= cheapest * 1.001);
        for (const LayoutResult &l : r.layouts)
            if (l.candidate.gpu == gpu && eligible(l) && l.meetsSlo && l.full && l.costPerAcceptedOutput <= cheapest * 1.001)
                QVERIFY(flagged->p99LatencyS <= l.p99LatencyS);
    }
    // The choice of a GPU does not depend on the other GPUs searched.
    const SearchResult alone = search(wbtest::parseOrFail(chatBrief()), {"h200-sxm-141gb"});
    const auto choice = [](const SearchResult &s) {
        for (const LayoutResult &l : s.layouts)
            if (l.cheapestOfGpu && l.candidate.gpu == "h200-sxm-141gb")
                return candidateLabel(l.candidate) + " " + std::string(enumName(l.candidate.servingStack));
        return std::string();
    };
    QCOMPARE(choice(alone), choice(r));
}

void TestSearch::deploymentsSizedToThePeak()
{
    const SearchResult r = search(wbtest::parseOrFail(chatBrief()), {"h200-sxm-141gb"}, 16);
    int costed = 0;
    for (const LayoutResult &l : r.layouts) {
        if (!l.costed)
            continue;
        ++costed;
        QVERIFY(l.replicas >= 1);
        QCOMPARE(l.candidate.gpus, l.candidate.tensorParallel * l.candidate.pipelineParallel * l.replicas);
        QCOMPARE(l.withinGpuLimit, l.candidate.gpus <= 16);
        QVERIFY(l.costPerAcceptedOutput > 0);
        QVERIFY(std::isfinite(l.p99LatencyS) && l.p99LatencyS > 0);
        QVERIFY(l.outputTokensPerSPerGpu > 0);
    }
    QVERIFY(costed > 0);
}

// A confirmed layout is the deployment evaluated in full; entered as a candidate of the brief,
// evaluate() gives it the same cost per accepted output.
void TestSearch::confirmedAgreesWithEvaluate()
{
    const Brief brief = wbtest::parseOrFail(chatBrief());
    const SearchResult r = search(brief, {"h100-sxm-80gb"});
    const auto chosen = std::find_if(r.layouts.begin(), r.layouts.end(), [](const LayoutResult &l) { return l.cheapestOfGpu; });
    QVERIFY(chosen != r.layouts.end());
    Brief withIt = brief;
    withIt.candidates = layoutCandidates(brief, {*chosen});
    EvaluateOptions o;
    o.today = "2026-11-30";
    const Results results = evaluate(withIt, wbtest::shippedCatalog(), o);
    const CandidateResult &c = results.results.at(0);
    QVERIFY(c.cost.computed);
    QCOMPARE(c.cost.cheapest()->costPerAcceptedOutput, chosen->costPerAcceptedOutput);
    QCOMPARE(c.performance.replicasForPeak.value_or(0), chosen->replicas);
    // Every figure of a layout evaluated in full is evaluate()'s for it (issue 39: the sample's
    // H100 TP2 vLLM row read TTFT p99 1.332 s in the search and 1.616 s in evaluate: the search
    // reported the 4 replicas its full run sized with the latency of the 5 it had screened).
    std::ifstream in(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json");
    std::stringstream text;
    text << in.rdbuf();
    const Brief sample = wbtest::parseOrFail(text.str());
    const SearchResult found = search(sample, {"h100-sxm-80gb"});
    // The sample's own H100 layout (TP2, vLLM) is among those evaluated in full, whatever its
    // screening said, and compared first.
    std::vector<const LayoutResult *> rows;
    for (const LayoutResult &l : found.layouts)
        if (l.candidate.tensorParallel == 2 && l.candidate.pipelineParallel == 1 && l.candidate.servingStack == ServingStack::Vllm)
            rows.push_back(&l);
    QCOMPARE(rows.size(), std::size_t(1));
    QVERIFY(rows.front()->full);
    for (const LayoutResult &l : found.layouts)
        if (&l != rows.front())
            rows.push_back(&l);
    int compared = 0;
    for (const LayoutResult *row : rows) {
        const LayoutResult &l = *row;
        if (!l.full || !l.costed || compared == 4)
            continue;
        Brief withLayout = sample;
        withLayout.candidates = layoutCandidates(sample, {l});
        const Results evaluated = evaluate(withLayout, wbtest::shippedCatalog(), o);
        const CandidateResult &d = deployment(evaluated.results.at(0));
        const std::string label = layoutLabel(l, sample);
        QVERIFY2(d.candidate.replicas() == l.replicas, label.c_str());
        QVERIFY2(d.performance.ttft.p99 == l.p99LatencyS, label.c_str());
        QVERIFY2(d.cost.cheapest()->costPerAcceptedOutput == l.costPerAcceptedOutput, label.c_str());
        ++compared;
    }
    QVERIFY(compared > 0);
}

// A layout's figures, and whether they are the screened or the full ones, are the same whether
// its GPU is searched alone or beside another (issue 39: an L40S layout read 3 replicas beside an
// H100 and 4 alone, because which layouts are confirmed followed the fronts of all the GPUs).
void TestSearch::aLayoutDoesNotDependOnTheOtherGpus()
{
    // An 8B chat at 5 requests/s, long p95 requests, TTFT p99 within 1 s (the case the issue's
    // tester met).
    const Brief brief = wbtest::parseOrFail(R"({"format": "gpu-workbench-brief", "version": 1, "workload": {
        "kind": "realtime-inference", "model": "llama-3.1-8b", "weights_precision": "bf16", "input_tokens": 2000,
        "input_tokens_p95": 6000, "output_tokens": 300, "output_tokens_p95": 700,
        "traffic": {"mode": "open-loop", "request_rate_per_s": 5}, "slo": {"ttft_p99_s": 1}},
        "candidates": [{"gpu": "l40s-48gb"}]})");
    const SearchResult alone = search(brief, {"l40s-48gb"});
    const SearchResult beside = search(brief, {"h100-sxm-80gb", "l40s-48gb"});
    int compared = 0;
    for (const LayoutResult &a : alone.layouts)
        for (const LayoutResult &b : beside.layouts)
            if (candidateLabel(a.candidate) == candidateLabel(b.candidate)
                && a.candidate.servingStack == b.candidate.servingStack && a.candidate.weightsPrecision == b.candidate.weightsPrecision) {
                const QByteArray what = QByteArray::fromStdString(candidateLabel(a.candidate));
                QVERIFY2(a.full == b.full, what);
                QVERIFY2(a.replicas == b.replicas, what);
                QVERIFY2(a.costPerAcceptedOutput == b.costPerAcceptedOutput, what);
                QVERIFY2(a.meetsSlo == b.meetsSlo, what);
                QVERIFY2(a.cheapestOfGpu == b.cheapestOfGpu, what);
                ++compared;
            }
    QCOMPARE(compared, int(alone.layouts.size()));
}

void TestSearch::acceptablePrecisions()
{
    const Brief brief = wbtest::parseOrFail(chatBrief(R"(, "acceptable_precisions": ["fp8", "bf16", "fp8"])"));
    QCOMPARE(brief.workload.acceptablePrecisions.size(), std::size_t(2));  // the repeat is dropped
    SearchOptions o;
    o.gpus = {"h200-sxm-141gb"};
    o.confirm = false;
    o.maxGpus = 1;
    const auto r = searchLayouts(brief, wbtest::shippedCatalog(), o);
    // One size (TP1), two precisions, three stacks.
    QCOMPARE(r->layouts.size(), std::size_t(6));
    int bf16 = 0;
    for (const LayoutResult &l : r->layouts) {
        // The brief's own precision is not written on the layout; the other one is.
        if (l.candidate.weightsPrecision) {
            QCOMPARE(*l.candidate.weightsPrecision, Precision::Bf16);
            ++bf16;
        }
    }
    QCOMPARE(bf16, 3);
    QVERIFY(r->warnings.empty());
    // Without the list, only the brief's precision, and the result says so.
    const auto one = searchLayouts(wbtest::parseOrFail(chatBrief()), wbtest::shippedCatalog(), o);
    QCOMPARE(one->layouts.size(), std::size_t(3));
    QCOMPARE(one->warnings.at(0).code, std::string("search-one-precision"));
}

void TestSearch::stopsWhenAsked()
{
    std::stop_source source;
    source.request_stop();
    SearchOptions o;
    o.gpus = {"h100-sxm-80gb"};
    o.stop = source.get_token();
    const auto r = searchLayouts(wbtest::parseOrFail(chatBrief()), wbtest::shippedCatalog(), o);
    QVERIFY(r->cancelled);
    QVERIFY(std::none_of(r->layouts.begin(), r->layouts.end(), [](const LayoutResult &l) { return l.costed; }));
}

void TestSearch::refusals()
{
    const Brief training = wbtest::parseOrFail(R"({"format": "gpu-workbench-brief", "version": 1, "workload": {"kind": "full-finetune",
        "model": "llama-3.1-8b", "training": {"sequence_length": 4096, "tokens": 1e9}}, "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 8}]})");
    std::string why;
    QVERIFY(!searchLayouts(training, wbtest::shippedCatalog(), {}, &why));
    QVERIFY2(why.find("inference") != std::string::npos, why.c_str());
    SearchOptions o;
    o.gpus = {"h100-sxm-80gb", "no-such-gpu"};
    QVERIFY(!searchLayouts(wbtest::parseOrFail(chatBrief()), wbtest::shippedCatalog(), o, &why));
    QVERIFY2(why.find("\"no-such-gpu\" is not in the GPU catalog") != std::string::npos, why.c_str());

    // The brief's fields: a precision the list cannot name, and a candidate's own precision on
    // a training brief.
    auto bad = parseBrief(chatBrief(R"(, "acceptable_precisions": ["fp8", "fp9"])"), "b.json", wbtest::shippedCatalog());
    QVERIFY(!bad);
    QVERIFY2(bad.error().toString().find("acceptable_precisions") != std::string::npos, bad.error().toString().c_str());
    QVERIFY2(bad.error().toString().find("item 1") != std::string::npos, bad.error().toString().c_str());
    bad = parseBrief(R"({"format": "gpu-workbench-brief", "version": 1, "workload": {"kind": "full-finetune",
        "model": "llama-3.1-8b", "training": {"sequence_length": 4096, "tokens": 1e9}},
        "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 8, "weights_precision": "fp8"}]})", "t.json", wbtest::shippedCatalog());
    QVERIFY(!bad);
    QVERIFY2(bad.error().toString().find("/candidates/0/weights_precision") != std::string::npos, bad.error().toString().c_str());
}

// Offline traffic is the brief's own point on any deployment: a layout meets the SLO only if that
// point does (the TTFT shown is that point's). A tensor-parallel size that does not divide the
// attention heads is not tried (Qwen2.5-7B has 28: TP 1, 2, 4 but not 8). A GPU named twice is
// searched once.
void TestSearch::trafficModesAndLayouts()
{
    std::string offline = chatBrief();
    offline.replace(offline.find(R"({"mode": "open-loop", "request_rate_per_s": 6})"),
                    std::string(R"({"mode": "open-loop", "request_rate_per_s": 6})").size(), R"({"mode": "offline"})");
    const SearchResult r = search(wbtest::parseOrFail(offline), {"h100-sxm-80gb"});
    int costed = 0;
    for (const LayoutResult &l : r.layouts) {
        if (!l.costed)
            continue;
        ++costed;
        if (l.meetsSlo)
            QVERIFY2(l.p99LatencyS <= 2.0, qPrintable(QString::number(l.p99LatencyS)));
    }
    QVERIFY(costed > 0);

    std::string qwen = chatBrief();
    qwen.replace(qwen.find("llama-3.1-70b"), std::string("llama-3.1-70b").size(), "qwen2.5-7b");
    SearchOptions o;
    o.gpus = {"h100-sxm-80gb", "h100-sxm-80gb"};
    o.confirm = false;
    const auto q = searchLayouts(wbtest::parseOrFail(qwen), wbtest::shippedCatalog(), o);
    // TP 1, 2, 4 by PP 1, 2, 4 (at most 64 GPUs): 9 sizes, three stacks, once.
    QCOMPARE(q->layouts.size(), std::size_t(27));
    for (const LayoutResult &l : q->layouts)
        QVERIFY(l.candidate.tensorParallel <= 4);
}

// A candidate with its own weights precision: the same GPU and layout at bf16 holds about twice
// the fp8 weights, and its label and JSON say so. By hand: Llama 3.1 70B has 70.6 B parameters,
// 2.1 B of them the embedding and output head (128,256 x 8,192 each), which stay 16-bit; the
// other 68.5 B take 1 byte at fp8 and 2 at bf16: (2 x 68.5 + 2 x 2.1) / (68.5 + 2 x 2.1) = 1.94.
void TestSearch::candidatePrecision()
{
    const Brief brief = wbtest::parseOrFail(chatBrief({}, R"({"gpu": "h200-sxm-141gb", "gpus": 2, "tensor_parallel": 2, "serving_stack": "vllm"},
        {"gpu": "h200-sxm-141gb", "gpus": 2, "tensor_parallel": 2, "serving_stack": "vllm", "weights_precision": "bf16"})"));
    QVERIFY(!brief.candidates[0].weightsPrecision);
    QCOMPARE(*brief.candidates[1].weightsPrecision, Precision::Bf16);
    QCOMPARE(candidateLabel(brief.candidates[1]), std::string("2x h200-sxm-141gb TP2 bf16"));
    QVERIFY(candidateJson(brief.candidates[1]).find("\"weights_precision\":\"bf16\"") != std::string::npos);
    EvaluateOptions o;
    o.today = "2026-11-30";
    o.performance = false;
    const Results r = evaluate(brief, wbtest::shippedCatalog(), o);
    const double fp8 = double(r.results[0].fit.breakdown.weights), bf16 = double(r.results[1].fit.breakdown.weights);
    QVERIFY2(std::fabs(bf16 / fp8 - 1.94) < 0.02, qPrintable(QString::number(bf16 / fp8)));
}

void TestSearch::renderings()
{
    const Brief brief = wbtest::parseOrFail(chatBrief());
    const SearchResult r = search(brief, {"h200-sxm-141gb"}, 16);
    const std::string json = searchToJson(brief, r);
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json));
    QVERIFY(doc.isObject());
    QCOMPARE(doc["format"].toString(), QString("gpu-workbench-search"));
    QCOMPARE(doc["layouts"].toArray().size(), qsizetype(r.layouts.size()));
    const QJsonObject first = doc["layouts"].toArray().at(0).toObject();
    QVERIFY(first["costed"].toBool());  // costed layouts first, the cheapest of them leading
    const std::string csv = searchToCsv(brief, r);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(r.layouts.size() + 1));
    const std::string table = searchToTable(brief, r);
    QVERIFY(table.find("layouts tried") != std::string::npos);
    QVERIFY(table.find("cheapest-of-gpu") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
