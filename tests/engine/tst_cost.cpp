// The cost model against hand-worked cases (to the cent), its properties, the price book's
// dating, and the recommendation and common-mistake checks on the sample brief.
#include "testsupport.h"

#include <core/format.h>
#include <cost/cost.h>
#include <cost/pricing.h>
#include <evaluate/evaluate.h>

#include <QtTest>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace wb;

namespace {

// Llama-3.1-8B bf16 (8,030,261,248 parameters: 2 x 525,336,576 embedding and head, 32 layers of
// 218,103,808 linear + 8,192 norm weights, 4,096 final norm) on 2x H100 SXM at TP1, 1000 tokens in
// and 200 out, 10 requests/s open loop, 90% of outputs pass the quality filter and 2% of attempts
// fail. Round assumptions so that the arithmetic below can be followed by hand.
const char *kBrief = R"({"format": "gpu-workbench-brief", "version": 1, "name": "hand-worked",
  "workload": {"kind": "realtime-inference", "model": "llama-3.1-8b", "weights_precision": "bf16",
    "input_tokens": 1000, "output_tokens": 200,
    "traffic": {"mode": "open-loop", "request_rate_per_s": 10},
    "slo": {"ttft_p99_s": 2},
    "acceptance": {"quality_pass_rate": 0.9, "failure_rate": 0.02}},
  "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 2, "tensor_parallel": 1}],
  "assumptions": {"hours_per_month": 730, "engineer_usd_per_year": 120000, "platform_fte_self_hosted": 0.5,
    "platform_fte_api": 0.1, "observability_fraction": 0.05, "storage_usd_per_gb_month": 0.10,
    "egress_usd_per_gb": 0.10, "egress_bytes_per_output_token": 50, "serving_stack_usd_per_gpu_month": 10,
    "pue": 1, "energy_usd_per_kwh": 0.10, "idle_power_fraction": 0.3, "server_power_overhead": 1,
    "colocation_usd_per_kw_month": 100, "support_fraction_per_year": 0.12, "operations_fte_purchase": 0,
    "residual_value_fraction": 0.15, "depreciation_years": 4},
  "cost": {
    "prices": [
      {"gpu": "h100-sxm-80gb", "provider": "test on-demand", "term": "on-demand", "usd_per_gpu_hour": 2.00,
       "observed": "2026-11-01", "source": "hand-worked test"},
      {"gpu": "h100-sxm-80gb", "provider": "test reserved", "term": "reserved-1y", "usd_per_gpu_hour": 1.20,
       "observed": "2026-11-01", "source": "hand-worked test"},
      {"gpu": "h100-sxm-80gb", "provider": "test purchase", "term": "purchase", "usd_per_gpu": 30000,
       "observed": "2026-11-01", "source": "hand-worked test"}],
    "api": {"provider": "test api", "usd_per_million_input": 0.10, "usd_per_million_output": 0.40,
            "failure_rate": 0.01, "observed": "2026-11-01", "source": "hand-worked test"}}})";

const char *kToday = "2026-11-30";

// The performance engine's answer, fixed: 8 requests/s within the SLO on the two replicas (4 per
// replica), and 3 replicas for the 10 requests/s peak.
PerformanceResult fixedPerformance()
{
    PerformanceResult p;
    p.computed = true;
    p.maxRequestRateWithinSloPerS = 8;
    p.maxRequestsPerS = 9;
    p.requestsPerS = 10;
    p.replicasForPeak = 3;
    // max(8 / 2 replicas, 10 requests/s / 3 replicas) = 4 requests/s per replica.
    p.requestRatePerReplicaPerS = 4;
    return p;
}

// kBrief with text inserted before a marker ("traffic extras", "cost extras" or "decision").
Brief briefWith(const std::string &traffic, const std::string &cost = {})
{
    std::string text = kBrief;
    text.replace(text.find(R"("request_rate_per_s": 10)"), 24, R"("request_rate_per_s": 10)" + traffic);
    text.replace(text.find(R"("cost": {)"), 9, R"("cost": {)" + cost);
    return wbtest::parseOrFail(text);
}

CandidateCost priced(const Brief &b, const PerformanceResult &perf = fixedPerformance())
{
    const Catalog &catalog = wbtest::shippedCatalog();
    const Candidate &c = b.candidates[0];
    const FitResult fit = fitCandidate(b, c, catalog);
    return costCandidate(b, c, *catalog.gpu(c.gpu), fit, perf, catalog, kToday);
}

const CostOption &option(const CandidateCost &c, PricingTerm term)
{
    for (const CostOption &o : c.options)
        if (o.term == term)
            return o;
    qFatal("no option for the term");
}

double line(const CostOption &o, const char *name)
{
    for (const CostLine &l : o.lines)
        if (l.name == name)
            return l.usdPerMonth;
    qFatal("no line %s", name);
}

long long cents(double usd)
{
    return std::llround(usd * 100);
}

} // namespace

class TestCost : public QObject
{
    Q_OBJECT

private slots:
    void handWorkedOnDemand();
    void handWorkedApi();
    void breakEvensAndPayback();
    void commitmentAboveOnDemandIsSaid();
    void totalsAreTheSumOfDisplayedLines();
    void acceptanceLowersCost();
    void idleFallsWithUtilization();
    void lowerPriceNeverCostsMore();
    void stalePriceWarns();
    void priceSelectionRule();
    void readableCounts();
    void everyShippedPriceIsDatedAndSourced();
    void badPriceIsAnErrorWithItsPath();
    void sampleRecommendsWithReasonsAndWarns();
    void handWorkedHybrid();
    void hybridCarriesBothRoutesFixedCosts();
    void scheduledWindowIsBilledForItsHours();
    void autoscaledFollowsTheLoad();
    void serverlessBillsUseAndColdStarts();
    void spotInterruptionsCostTheirRestarts();
    void commitmentTermsAreShownAndWarned();
    void nightlyBatchSampleIsBilledForItsWindow();
    void embeddingApiBillsItsInputOnly();
    void dataRegionLeavesOutOffersElsewhere();
    void offlineWorkUnderServerlessBillsItsWork();
};

// Volume: 10 requests/s x 730 h x 3600 s = 26,280,000 requests a month.
// Capacity: 3 replicas (the simulated answer) of 1 GPU at 4 requests/s each: utilization
// 10 / 12 = 0.8333. GPU spend: 3 GPUs x $2.00 x 730 h = $4,380.00. Wasted share of busy time:
// 1 - (1 - 0.02) x 0.9 = 0.118.
//   gpu_compute     4,380 x 0.8333 x 0.882                      = 3,219.30
//   retry_waste     4,380 x 0.8333 x 0.118                      =   430.70
//   idle_capacity   4,380 x (1 - 0.8333)                        =   730.00
//   storage         16.0605 GB x 4 copies (3 replicas + 1) x 0.10 =   6.42
//   serving_stack   3 GPUs x $10                                =    30.00
//   network         26,280,000 x 0.98 x 200 tokens x 50 B = 257.544 GB x 0.10 = 25.75
//   observability   4,380 x 0.05                                =   219.00
//   platform_labour 0.5 x 120,000 / 12                          = 5,000.00
//   total                                                       = 9,661.17
// Accepted: 26,280,000 x 0.882 = 23,178,960; cost per accepted output 9,661.17 / 23,178,960.
void TestCost::handWorkedOnDemand()
{
    const Brief b = wbtest::parseOrFail(kBrief);
    const CandidateCost c = priced(b);
    QVERIFY(c.computed);
    const CostOption &o = option(c, PricingTerm::OnDemand);
    QCOMPARE(o.gpus, 3);
    QCOMPARE(o.requestsPerMonth, 26280000.0);
    QVERIFY(qAbs(o.utilization - 10.0 / 12.0) < 1e-12);
    QCOMPARE(cents(line(o, "gpu_compute")), 321930LL);
    QCOMPARE(cents(line(o, "retry_waste")), 43070LL);
    QCOMPARE(cents(line(o, "idle_capacity")), 73000LL);
    QCOMPARE(cents(line(o, "storage")), 642LL);
    QCOMPARE(cents(line(o, "serving_stack")), 3000LL);
    QCOMPARE(cents(line(o, "network")), 2575LL);
    QCOMPARE(cents(line(o, "observability")), 21900LL);
    QCOMPARE(cents(line(o, "platform_labour")), 500000LL);
    QCOMPARE(cents(o.totalUsdPerMonth), 966117LL);
    QCOMPARE(o.acceptedOutputsPerMonth, 23178960.0);
    QVERIFY(qAbs(o.costPerAcceptedOutput - 9661.17 / 23178960.0) < 1e-15);
    QVERIFY(qAbs(o.costPerMillionAcceptedTokens - 9661.17 / (23178960.0 * 200) * 1e6) < 1e-9);
}

// Per request: (1,000 x $0.10 + 200 x $0.40) / 1e6 = $0.00018; usage 26,280,000 x 0.00018 =
// $4,730.40. Wasted: 1 - 0.99 x 0.9 = 0.109.
//   api_usage       4,730.40 x 0.891 = 4,214.79
//   retry_waste     4,730.40 x 0.109 =   515.61
//   observability   4,730.40 x 0.05  =   236.52
//   platform_labour 0.1 x 10,000     = 1,000.00
//   total                            = 5,966.92 for 26,280,000 x 0.891 = 23,415,480 accepted.
// A reserved price above the on-demand price the GPU is priced at ($2.40 against $2.00) is priced
// as given and warned, naming both offers; the brief's own $1.20 reservation is not.
void TestCost::commitmentAboveOnDemandIsSaid()
{
    const auto warned = [](const CandidateCost &c) {
        return std::count_if(c.warnings.begin(), c.warnings.end(), [](const Warning &w) {
            return w.code == "price-above-on-demand" && w.message.find("test reserved") != std::string::npos;
        });
    };
    QCOMPARE(warned(priced(wbtest::parseOrFail(kBrief))), 0);
    std::string text = kBrief;
    text.replace(text.find(R"("usd_per_gpu_hour": 1.20)"), 24, R"("usd_per_gpu_hour": 2.40)");
    const CandidateCost c = priced(wbtest::parseOrFail(text));
    QCOMPARE(warned(c), 1);
    QCOMPARE(option(c, PricingTerm::Reserved1y).usdPerGpuHour, 2.40);
    for (const Warning &w : c.warnings)
        if (w.code == "price-above-on-demand" && w.message.find("test reserved") != std::string::npos)
            QVERIFY2(w.message.find("$2.40") != std::string::npos && w.message.find("test on-demand ($2.00)") != std::string::npos,
                     w.message.c_str());
}

void TestCost::handWorkedApi()
{
    const Brief b = wbtest::parseOrFail(kBrief);
    Results r;
    r.results.push_back({});
    r.results[0].candidate = b.candidates[0];
    r.results[0].fit = fitCandidate(b, b.candidates[0], wbtest::shippedCatalog());
    r.results[0].cost = priced(b);
    const CostSummary s = summarizeCost(b, r.results, wbtest::shippedCatalog(), kToday);
    QVERIFY(s.api);
    QCOMPARE(cents(line(*s.api, "api_usage")), 421479LL);
    QCOMPARE(cents(line(*s.api, "retry_waste")), 51561LL);
    QCOMPARE(cents(line(*s.api, "observability")), 23652LL);
    QCOMPARE(cents(line(*s.api, "platform_labour")), 100000LL);
    QCOMPARE(cents(s.api->totalUsdPerMonth), 596692LL);
    QCOMPARE(s.api->acceptedOutputsPerMonth, 23415480.0);
    // Each line's words are its arithmetic: 23,415,480 accepted x $0.000180 = $4,214.79, and the
    // other 2,864,520 (26,280,000 x 0.109) x $0.000180 = $515.61.
    const auto basis = [&](const char *name) {
        for (const CostLine &l : s.api->lines)
            if (l.name == name)
                return QString::fromStdString(l.basis);
        return QString();
    };
    QVERIFY2(basis("api_usage").startsWith(QLatin1String("23,415,480 requests accepted (89.1% of 26,280,000) x $0.000180 each")),
             qPrintable(basis("api_usage")));
    QVERIFY2(basis("retry_waste").startsWith(QLatin1String("2,864,520 requests the API fails (1.0%) or the quality filter rejects "
                                                          "(10.0%), x $0.000180 each")),
             qPrintable(basis("retry_waste")));
    // The API is cheaper per accepted output here, so it is recommended, with its reasons.
    QVERIFY(s.recommendation);
    QCOMPARE(QString::fromLatin1(enumName(s.recommendation->route).data()), QStringLiteral("api"));
    QVERIFY(!s.recommendation->reasons.empty());

    // The break-even chart's API line: the brief's volume is the middle point; a hundred times it
    // costs the fixed platform labour plus a hundred times the lines that follow volume:
    // 1,000 + 100 x (4,214.79 + 515.61 + 236.52) = 497,692 (each line re-rounded to cents there,
    // so within a dollar or two).
    QCOMPARE(int(s.api->monthlyCostByVolume.size()), 41);
    QCOMPARE(s.api->monthlyCostByVolume[20].first, s.api->requestsPerMonth);
    QCOMPARE(s.api->monthlyCostByVolume[20].second, s.api->totalUsdPerMonth);
    QVERIFY(qAbs(s.api->monthlyCostByVolume.back().first - 100 * s.api->requestsPerMonth) < 1e-3 * s.api->requestsPerMonth);
    QVERIFY2(qAbs(s.api->monthlyCostByVolume.back().second - 497692) < 2,
             qPrintable(QString::number(s.api->monthlyCostByVolume.back().second, 'f', 2)));
    // A GPU route's line never falls as volume grows (more volume, more or equal replicas).
    for (const CostOption &o : r.results[0].cost.options) {
        QCOMPARE(int(o.monthlyCostByVolume.size()), 41);
        for (std::size_t i = 1; i < o.monthlyCostByVolume.size(); ++i)
            QVERIFY(o.monthlyCostByVolume[i].second >= o.monthlyCostByVolume[i - 1].second);
    }
}

// Reserved $1.20 against on-demand $2.00: the commitment wins above 1.20 / 2.00 = 60% utilization.
// Purchase of $30,000 per GPU at 83.3% load, per GPU and month:
//   power      0.7 kW x (0.3 + 0.7 x 0.8333) x PUE 1 x 730 h x $0.10 = 45.1383
//   colocation 0.7 kW x $100                                        = 70.00
//   support    30,000 x 0.12 / 12                                    = 300.00
// renting the same GPU on demand costs 2.00 x 730 = 1,460, so the purchase pays back in
// 30,000 / (1,460 - 415.1383) = 28.712 months. At full load the ownership cost per hour is
// (30,000 x 0.85 / 48 + 0.7 x 73 + 70 + 300) / 730 = (531.25 + 51.1 + 370) / 730 = 1.30459, so it
// beats on-demand above 1.30459 / 2.00 = 65.23% utilization.
void TestCost::breakEvensAndPayback()
{
    const CandidateCost c = priced(wbtest::parseOrFail(kBrief));
    const CostOption &reserved = option(c, PricingTerm::Reserved1y);
    QVERIFY(reserved.breakEvenUtilizationVsOnDemand);
    QCOMPARE(*reserved.breakEvenUtilizationVsOnDemand, 0.6);
    const CostOption &bought = option(c, PricingTerm::Purchase);
    QVERIFY(bought.paybackMonths);
    QVERIFY(qAbs(*bought.paybackMonths - 28.712) < 0.001);
    QVERIFY(qAbs(*bought.breakEvenUtilizationVsOnDemand - 0.65229) < 0.0001);
    QVERIFY(!option(c, PricingTerm::OnDemand).breakEvenUtilizationVsOnDemand);
    // Against the API: at the break-even volume self-hosting costs no more than the API, and 1%
    // below it, more (the search is exact to the request within its replica step).
    const CostOption &od = option(c, PricingTerm::OnDemand);
    if (od.breakEvenRequestsPerMonthVsApi) {
        const double v = *od.breakEvenRequestsPerMonthVsApi;
        QVERIFY(v > od.requestsPerMonth);  // the API wins at the brief's own volume (handWorkedApi)
    }
}

void TestCost::totalsAreTheSumOfDisplayedLines()
{
    const Brief b = wbtest::parseOrFail(kBrief);
    for (const CostOption &o : priced(b).options) {
        long long sum = 0;
        for (const CostLine &l : o.lines) {
            QCOMPARE(cents(l.usdPerMonth) / 100.0, l.usdPerMonth);  // each line is whole cents
            sum += cents(l.usdPerMonth);
        }
        QCOMPARE(sum, cents(o.totalUsdPerMonth));
    }
}

void TestCost::acceptanceLowersCost()
{
    double previous = INFINITY;
    for (double pass : {0.5, 0.7, 0.9, 1.0}) {
        Brief b = wbtest::parseOrFail(kBrief);
        b.workload.acceptance.qualityPassRate = pass;
        const double c = option(priced(b), PricingTerm::OnDemand).costPerAcceptedOutput;
        QVERIFY2(c < previous, qPrintable(QStringLiteral("pass rate %1").arg(pass)));
        previous = c;
    }
}

// Same three replicas, more traffic: a larger share of the paid GPU time is busy.
void TestCost::idleFallsWithUtilization()
{
    double previous = INFINITY;
    for (double rate : {3.0, 6.0, 9.0, 12.0}) {
        Brief b = wbtest::parseOrFail(kBrief);
        b.workload.traffic.requestRatePerS = rate;
        const CandidateCost c = priced(b);
        const CostOption &o = option(c, PricingTerm::OnDemand);
        QVERIFY(line(o, "idle_capacity") < previous);
        previous = line(o, "idle_capacity");
    }
}

void TestCost::lowerPriceNeverCostsMore()
{
    double previous = INFINITY;
    for (double price : {4.0, 3.0, 2.0, 1.0, 0.5}) {
        Brief b = wbtest::parseOrFail(kBrief);
        b.cost.prices[0].usdPerGpuHour = price;
        const CandidateCost c = priced(b);
        const CostOption &o = option(c, PricingTerm::OnDemand);
        QVERIFY(o.totalUsdPerMonth <= previous);
        QVERIFY(o.costPerAcceptedOutput <= previous);
        previous = o.totalUsdPerMonth;
    }
}

// A price observed more than price_stale_days (180) before today is flagged and warned about. (The
// purchase term: for on-demand a current catalog price would be chosen over a stale one.)
void TestCost::stalePriceWarns()
{
    Brief b = wbtest::parseOrFail(kBrief);
    b.cost.prices[2].observed = "2026-05-01";  // 213 days before 2026-11-30
    const CandidateCost c = priced(b);
    const CostOption &o = option(c, PricingTerm::Purchase);
    QCOMPARE(o.provider, std::string("test purchase"));
    QCOMPARE(o.ageDays, 213L);
    QVERIFY(o.stale);
    bool warned = false;
    for (const Warning &w : c.warnings)
        warned = warned || (w.code == "stale-price" && w.message.find("213 days") != std::string::npos);
    QVERIFY(warned);
    b.cost.prices[2].observed = "2026-06-05";  // 178 days: still current
    const CandidateCost current = priced(b);
    QVERIFY(!option(current, PricingTerm::Purchase).stale);
}

// The one rule for which price counts (cost/pricing.h), on offers made up for the purpose and
// aged against 2026-11-30 with a 180-day staleness limit: per term, current before stale, the
// brief's own before the book's, then the lower unit price.
void TestCost::priceSelectionRule()
{
    Catalog empty;
    const auto offer = [](PricingTerm term, double usd, const char *observed, const char *origin) {
        GpuPrice p;
        p.gpu = "x";
        p.term = term;
        (term == PricingTerm::Purchase ? p.usdPerGpu : p.usdPerGpuHour) = usd;
        p.observed = observed;
        p.origin = origin;
        return p;
    };
    const std::vector<GpuPrice> prices = {
        offer(PricingTerm::OnDemand, 1.00, "2025-01-01", "brief"),   // cheapest but stale (698 days)
        offer(PricingTerm::OnDemand, 3.00, "2026-11-01", "catalog"), // current, the book's
        offer(PricingTerm::OnDemand, 4.00, "2026-10-01", "brief"),   // current, the brief's: chosen
        offer(PricingTerm::Spot, 2.00, "2026-11-01", "brief"),
        offer(PricingTerm::Spot, 1.50, "2026-11-02", "brief"),       // both current and the brief's: lower wins
        offer(PricingTerm::Purchase, 30000, "2024-01-01", "brief"),  // stale, but the only purchase
    };
    const PriceSelection s = selectPrices(prices, empty, "x", kToday, 180);
    QCOMPARE(s.offers.size(), prices.size());
    QCOMPARE(s.chosen.at(PricingTerm::OnDemand).price, &prices[2]);
    QCOMPARE(s.chosen.at(PricingTerm::OnDemand).ageDays, 60L);  // 2026-10-01 to 2026-11-30
    QVERIFY(!s.chosen.at(PricingTerm::OnDemand).stale);
    QCOMPARE(s.chosen.at(PricingTerm::Spot).price, &prices[4]);
    QCOMPARE(s.chosen.at(PricingTerm::Purchase).price, &prices[5]);
    QVERIFY(s.chosen.at(PricingTerm::Purchase).stale);
    QCOMPARE(s.headline()->price, &prices[2]);  // what the candidates page shows
    QVERIFY(!s.isChosen(&prices[0]));
}

// Counts for people (break-evens in reasons, tables and charts): three significant figures and a
// word for the magnitude, digits grouped below a million.
void TestCost::readableCounts()
{
    QCOMPARE(readableCount(54'100'000), std::string("54.1 million"));
    QCOMPARE(readableCount(54'123'456), std::string("54.1 million"));
    QCOMPARE(readableCount(3'000'000), std::string("3 million"));
    QCOMPARE(readableCount(1.2e10), std::string("12 billion"));
    QCOMPARE(readableCount(250'000'000), std::string("250 million"));
    QCOMPARE(readableCount(2'350), std::string("2,350"));
    QCOMPARE(readableCount(999), std::string("999"));
    QCOMPARE(groupedInteger(-1'234'567), std::string("-1,234,567"));
    // Any figure to three significant figures, never with an exponent ("1.83e+05" was printed).
    QCOMPARE(readableNumber(183'456), std::string("183,000"));
    QCOMPARE(readableNumber(0.50625), std::string("0.506"));
    QCOMPARE(readableNumber(0.0935), std::string("0.0935"));
    QCOMPARE(readableNumber(0.5), std::string("0.5"));
    QCOMPARE(readableNumber(12.5), std::string("12.5"));
    QCOMPARE(readableNumber(-2.25), std::string("-2.25"));
}

void TestCost::everyShippedPriceIsDatedAndSourced()
{
    const Catalog &c = wbtest::shippedCatalog();
    QVERIFY(c.prices().size() >= 20);
    for (const GpuPrice &p : c.prices()) {
        QVERIFY(isIsoDate(p.observed));
        QVERIFY(!p.source.empty());
        QVERIFY(c.gpu(p.gpu));
    }
    for (const ApiPrice &p : c.apiPrices()) {
        QVERIFY(isIsoDate(p.observed));
        QVERIFY(!p.source.empty());
    }
}

void TestCost::badPriceIsAnErrorWithItsPath()
{
    QByteArray text = kBrief;
    text.replace("\"observed\": \"2026-11-01\", \"source\": \"hand-worked test\"},\n      {\"gpu\": \"h100-sxm-80gb\", \"provider\": \"test reserved\"",
                 "\"observed\": \"last week\", \"source\": \"hand-worked test\"},\n      {\"gpu\": \"h100-sxm-80gb\", \"provider\": \"test reserved\"");
    const auto b = parseBrief(text.toStdString(), "bad.json", wbtest::shippedCatalog());
    QVERIFY(!b);
    QCOMPARE(QString::fromStdString(b.error().path), QStringLiteral("/cost/prices/0/observed"));
    QVERIFY(QString::fromStdString(b.error().toString()).contains(QLatin1String("bad.json")));
}

void TestCost::sampleRecommendsWithReasonsAndWarns()
{
    const auto brief = loadBrief(std::string(WB_SOURCE_DIR) + "/resources/samples/chat-70b.brief.json",
                                 wbtest::shippedCatalog());
    QVERIFY(brief);
    EvaluateOptions options;
    options.today = kToday;
    const Results r = evaluate(brief.value(), wbtest::shippedCatalog(), options);
    QVERIFY(r.cost.recommendation);
    // Whichever route wins (since the calibration of issue 14, the model API at this volume), its
    // reason sets its cost per accepted output against the runner-up's.
    QVERIFY(!r.cost.recommendation->reasons.empty());
    QVERIFY(r.cost.recommendation->reasons.front().message.find("per accepted output") != std::string::npos);
    QVERIFY(r.cost.recommendation->reasons.front().message.find(" against ") != std::string::npos);
    int mistakes = 0;
    for (const Warning &w : r.cost.warnings)
        mistakes += w.code.rfind("mistake-", 0) == 0;
    QVERIFY(mistakes >= 1);
}

// Bursts to 3x for 20 s every 300 s on the 10 requests/s base: the average rate is
// 10 x (1 + 2 x 20/300) = 11.333/s, 11.333 x 730 x 3600 = 29,784,000 requests a month, and the
// peak of 30/s needs ceil(30 / 4) = 8 replicas for the GPUs alone (set as the simulated answer).
// Hybrid: ceil(10 / 4) = 3 base replicas carry 12/s, so bursts leave 30 - 12 = 18/s to the API for
// 1/15 of the time: 18 / 15 x 730 x 3600 = 3,153,600 requests. The base serves the other
// 26,630,400 (10.1333/s, utilization 10.1333 / 12 = 0.84444) on 3 GPUs x $2.00 x 730 h = $4,380:
//   gpu_compute      4,380 x 0.84444 x 0.882               = 3,262.22
//   retry_waste      4,380 x 0.84444 x 0.118               =   436.44
//   idle_capacity    4,380 x 0.15556                       =   681.33
//   storage          16.0605 GB x 4 copies x 0.10          =     6.42
//   serving_stack    3 GPUs x $10                          =    30.00
//   network          26,630,400 x 0.98 x 200 x 50 B = 260.978 GB x 0.10 = 26.10
//   observability    4,380 x 0.05                          =   219.00
//   platform_labour  0.5 x 120,000 / 12, in full           = 5,000.00   (base: 9,661.51)
// and the API, 3,153,600 x $0.00018 = $567.648 of usage (wasted 1 - 0.99 x 0.9 = 0.109):
//   api_usage 505.77, api_retry_waste 61.87, api_observability 28.38, api_platform_labour 1,000.00
// Total 11,257.53 for 26,630,400 x 0.882 + 3,153,600 x 0.891 = 26,297,870.4 accepted outputs.
void TestCost::handWorkedHybrid()
{
    const Brief b = briefWith(R"(, "bursts": {"multiplier": 3, "duration_s": 20, "period_s": 300})");
    PerformanceResult perf = fixedPerformance();
    perf.replicasForPeak = 8;
    const CandidateCost c = priced(b, perf);
    QCOMPARE(c.hybrids.size(), c.options.size());  // one per term: the API is priced and allowed
    const CostOption *h = nullptr;
    for (const CostOption &o : c.hybrids)
        if (o.term == PricingTerm::OnDemand)
            h = &o;
    QVERIFY(h && h->hybrid);
    QCOMPARE(h->hybrid->baseReplicas, 3);
    QCOMPARE(h->gpus, 3);
    QVERIFY(qAbs(h->hybrid->overflowRequestsPerMonth - 3153600) < 1e-3);
    QVERIFY(qAbs(h->hybrid->overflowInputTokensPerMonth - 3153600.0 * 1000) < 1);
    QVERIFY(qAbs(h->hybrid->overflowOutputTokensPerMonth - 3153600.0 * 200) < 1);
    QVERIFY(qAbs(h->requestsPerMonth - 29784000) < 1e-3);
    const std::pair<const char *, long long> expected[] = {
        {"gpu_compute", 326222}, {"retry_waste", 43644}, {"idle_capacity", 68133}, {"storage", 642},
        {"serving_stack", 3000}, {"network", 2610}, {"observability", 21900}, {"platform_labour", 500000},
        {"api_usage", 50577}, {"api_retry_waste", 6187}, {"api_observability", 2838}, {"api_platform_labour", 100000}};
    for (const auto &[name, value] : expected)
        QVERIFY2(cents(line(*h, name)) == value, name);
    QCOMPARE(cents(h->hybrid->gpuUsdPerMonth), 966151LL);
    QCOMPARE(cents(h->hybrid->apiUsdPerMonth), 159602LL);
    QCOMPARE(cents(h->totalUsdPerMonth), 1125753LL);
    QVERIFY(qAbs(h->acceptedOutputsPerMonth - 26297870.4) < 1e-3);
    QVERIFY(qAbs(h->costPerAcceptedOutput - 11257.53 / 26297870.4) < 1e-15);
}

// Properties over bursty traffic shapes: the hybrid's total is the sum of its lines; its GPU
// part carries the GPU route's platform labour in full and its API part the API route's (the
// hybrid once scaled the whole GPU bill, engineers included, by base / total replicas); and it
// reconciles with the GPU-only option line by line: what it saves is the GPU lines it does not
// need, what it adds is the API's lines for the overflow.
void TestCost::hybridCarriesBothRoutesFixedCosts()
{
    int checked = 0;
    for (double multiplier : {1.6, 2.5, 4.0, 8.0})
        for (double duration : {10.0, 60.0, 600.0})
            for (double period : {900.0, 3600.0}) {
                const Brief b = briefWith(fmt::format(R"(, "bursts": {{"multiplier": {}, "duration_s": {}, "period_s": {}}})",
                                                      multiplier, duration, period));
                PerformanceResult perf = fixedPerformance();
                perf.replicasForPeak = int(std::ceil(10 * multiplier / 4 - 1e-9));
                const CandidateCost c = priced(b, perf);
                const CostOption &gpuOnly = option(c, PricingTerm::OnDemand);
                const CostOption *h = nullptr;
                for (const CostOption &o : c.hybrids)
                    if (o.term == PricingTerm::OnDemand)
                        h = &o;
                const double peakToAverage = multiplier / (1 + (multiplier - 1) * duration / period);
                if (peakToAverage < 1.5) {
                    QVERIFY(!h);  // below hybrid_min_peak_to_average: not priced
                    continue;
                }
                QVERIFY(h);
                long long sum = 0, apiLines = 0, gpuDelta = 0;
                for (const CostLine &l : h->lines) {
                    sum += cents(l.usdPerMonth);
                    if (l.name.rfind("api_", 0) == 0)
                        apiLines += cents(l.usdPerMonth);
                    else
                        gpuDelta += cents(l.usdPerMonth) - cents(line(gpuOnly, l.name.c_str()));
                }
                QCOMPARE(sum, cents(h->totalUsdPerMonth));
                QCOMPARE(cents(line(*h, "platform_labour")), cents(line(gpuOnly, "platform_labour")));
                QCOMPARE(cents(line(*h, "api_platform_labour")), 100000LL);  // 0.1 x 120,000 / 12
                QCOMPARE(cents(h->totalUsdPerMonth), cents(gpuOnly.totalUsdPerMonth) + gpuDelta + apiLines);
                QVERIFY(h->hybrid->baseReplicas < gpuOnly.replicas);
                QVERIFY(h->totalUsdPerMonth >= line(gpuOnly, "platform_labour") + 1000.0);
                ++checked;
            }
    QVERIFY(checked >= 10);
}

// Billed for a scheduled window of 8 hours on 30 days (240 h): the 10 requests/s arrive only
// then, 10 x 240 x 3600 = 8,640,000 a month, on the 3 simulated replicas (12/s).
// On demand, billed 3 GPUs x 240 h x $2.00 = $1,440 at utilization 10 / 12:
//   gpu_compute 1,440 x 0.8333 x 0.882 = 1,058.40; retry_waste 1,440 x 0.8333 x 0.118 = 141.60;
//   idle_capacity 1,440 x 0.1667 = 240.00; observability 1,440 x 0.05 = 72.00.
// Reserved, paid every hour: 3 x 730 x $1.20 = $2,628 for 8,640,000 / 4 / 3600 = 600 busy
// replica-hours of 2,190: utilization 0.27397, idle 2,628 x 0.72603 = 1,908.00. On demand would be
// billed 240 / 730 = 32.9% of the month, under the reservation's break-even 1.20 / 2.00 = 60%.
void TestCost::scheduledWindowIsBilledForItsHours()
{
    const Brief b = briefWith({}, R"("billing": {"model": "scheduled", "hours_per_day": 8, "days_per_month": 30}, )");
    const CandidateCost c = priced(b);
    const CostOption &od = option(c, PricingTerm::OnDemand);
    QCOMPARE(od.requestsPerMonth, 8640000.0);
    QCOMPARE(od.replicas, 3);
    QVERIFY(qAbs(od.utilization - 10.0 / 12) < 1e-12);
    QVERIFY(qAbs(od.billedShareOfMonth - 240.0 / 730) < 1e-12);
    QCOMPARE(cents(line(od, "gpu_compute")), 105840LL);
    QCOMPARE(cents(line(od, "retry_waste")), 14160LL);
    QCOMPARE(cents(line(od, "idle_capacity")), 24000LL);
    QCOMPARE(cents(line(od, "observability")), 7200LL);
    const CostOption &reserved = option(c, PricingTerm::Reserved1y);
    QCOMPARE(reserved.billedShareOfMonth, 1.0);
    QVERIFY(qAbs(reserved.utilization - 600.0 / 2190) < 1e-12);
    QCOMPARE(cents(line(reserved, "idle_capacity")), 190800LL);
    QVERIFY(reserved.onDemandBilledShare && qAbs(*reserved.onDemandBilledShare - 240.0 / 730) < 1e-12);
    QCOMPARE(*reserved.breakEvenUtilizationVsOnDemand, 0.6);
    QVERIFY(od.totalUsdPerMonth < reserved.totalUsdPerMonth);  // the window makes renting cheaper
    // The same brief billed around the clock pays for 730 hours on demand too.
    const CandidateCost allMonth = priced(briefWith({}));
    const CostOption &always = option(allMonth, PricingTerm::OnDemand);
    QCOMPARE(always.billedShareOfMonth, 1.0);
    QVERIFY(always.totalUsdPerMonth > od.totalUsdPerMonth);
    // 3,000,000 requests in a window of 1e-6 h a day on one day would need 3e6 / 0.0036 s / 4 =
    // 2.1e11 replicas: beyond the 100,000 the engine sizes, said, and not priced (the count once
    // wrapped to 1 replica billed $0).
    const CandidateCost tiny = priced(briefWith({}, R"("requests_per_month": 3000000, "billing": {"model": "scheduled", "hours_per_day": 1e-6, "days_per_month": 1}, )"));
    QVERIFY(!tiny.computed);
    QVERIFY(std::any_of(tiny.warnings.begin(), tiny.warnings.end(), [](const Warning &w) { return w.code == "replicas-beyond-limit"; }));
    // A scheduled window needs its hours: the brief names the missing field.
    std::string bad = kBrief;
    bad.replace(bad.find(R"("cost": {)"), 9, R"("cost": {"billing": {"model": "scheduled", "hours_per_day": 8}, )");
    const auto parsed = parseBrief(bad, "bad.json", wbtest::shippedCatalog());
    QVERIFY(!parsed);
    QVERIFY2(parsed.error().toString().find("/cost/billing/days_per_month") != std::string::npos,
             parsed.error().toString().c_str());
}

// Autoscaled with one replica minimum and steady traffic: billed for the busy replica-hours at
// the 70% target utilization, 10 requests/s / 4 per replica = 2.5 busy replicas -> 2.5 / 0.7 =
// 3.571 replicas' worth, capped at the 3 the peak needs (3 x 730 h): here the cap binds. At
// 2 requests/s: 0.5 / 0.7 = 0.714 replicas' worth, below the minimum of 1, so 1 x 730 h is billed,
// $1,460 on demand for 0.5 busy: utilization 50%. Bursts make some requests wait for starts.
void TestCost::autoscaledFollowsTheLoad()
{
    Brief b = briefWith({}, R"("billing": {"model": "autoscaled", "min_replicas": 1}, )");
    b.workload.traffic.requestRatePerS = 2;
    const CandidateCost lowCost = priced(b);
    const CostOption &low = option(lowCost, PricingTerm::OnDemand);
    QVERIFY(qAbs(low.billedShareOfMonth - 1.0 / 3) < 1e-12);  // of the 3 replicas provisioned
    QVERIFY(qAbs(low.utilization - 0.5) < 1e-12);
    QCOMPARE(cents(line(low, "gpu_compute") + line(low, "retry_waste") + line(low, "idle_capacity")), 146000LL);
    b.workload.traffic.requestRatePerS = 10;
    const CandidateCost busyCost = priced(b);
    const CostOption &busy = option(busyCost, PricingTerm::OnDemand);
    QCOMPARE(busy.billedShareOfMonth, 1.0);
    QVERIFY(!busy.coldStartShare);  // a replica always runs and nothing bursts: no one waits
    // Bursts of 3x for 600 s an hour on 8 replicas for the peak: the base is ceil(10 / 4 / 0.7) = 4
    // replicas, and each burst starts 4 more. Until they are up (76.06 s) the 30 requests/s of a
    // burst meet 4 x 4 = 16/s of capacity: 14/s wait, 14 x 76.06 = 1,064.8 of every hour's
    // 10 x (3,600 + 2 x 600) = 48,000 requests, 2.22%.
    Brief bursty = briefWith(R"(, "bursts": {"multiplier": 3, "duration_s": 600, "period_s": 3600})",
                             R"("billing": {"model": "autoscaled", "min_replicas": 1}, )");
    PerformanceResult perf = fixedPerformance();
    perf.replicasForPeak = 8;
    const CandidateCost burst = priced(bursty, perf);
    const CostOption &od = option(burst, PricingTerm::OnDemand);
    QVERIFY(od.coldStartShare && qAbs(*od.coldStartShare - 14 * 76.060522496 / 48000) < 1e-9);
    // Its hybrid keeps the base replicas and sends the bursts to the API: none of them waits.
    for (const CostOption &h : burst.hybrids)
        QVERIFY(!h.coldStartShare);
    // With 6 replicas always running, the hybrid's base is those 6 (24/s), and the API takes what a
    // burst adds above them: 30 - 24 = 6/s for 600 s an hour (it once counted from 3 replicas).
    Brief six = briefWith(R"(, "bursts": {"multiplier": 3, "duration_s": 600, "period_s": 3600})",
                          R"("billing": {"model": "autoscaled", "min_replicas": 6}, )");
    const CandidateCost sixCost = priced(six, perf);
    QVERIFY(!sixCost.hybrids.empty());
    for (const CostOption &h : sixCost.hybrids) {
        QCOMPARE(h.hybrid->baseReplicas, 6);
        // 6/s x 600 s of every 3,600 s, of an average 10 x (1 + 2 x 600 / 3,600) = 13.33/s.
        QVERIFY(qAbs(h.hybrid->overflowRequestsPerMonth / h.requestsPerMonth - 6.0 * 600 / 3600 / (40.0 / 3)) < 1e-9);
    }
}

// Serverless, one request every 1,000 s on average (0.001/s, 2,628 a month), 4 per second per
// replica: busy 2,628 / 4 / 3,600 = 0.1825 replica-hours, a share p = 0.1825 / 730 = 0.00025.
// A replica stays up 300 s (scale_to_zero_idle_s) after a request; a gap exceeds that with
// probability e^(-0.001 x 300) = 0.740818, so a share (1 - p) x 0.740818 = 74.06% of requests find
// none running, 0.001 x 0.99975 x 0.740818 x 730 x 3,600 = 1,946.38 starts a month, each billed
// for 16.0605 GB at 1 GB/s + 60 s = 76.0605 s (41.12 h). Up p + (1 - p)(1 - 0.740818) = 0.259367
// of 730 h = 189.338 h, above busy / 0.7 = 0.261 h: billed 189.338 + 41.123 = 230.461 replica-hours,
// $460.92 at $2.00 on one GPU a replica. The 76 s wait is over the brief's 2 s p99 TTFT: it warns.
// A reservation is paid every hour and never starts cold.
void TestCost::serverlessBillsUseAndColdStarts()
{
    Brief b = briefWith({}, R"("billing": {"model": "serverless"}, )");
    QCOMPARE(b.cost.billing.minReplicas, 0);
    b.workload.traffic.requestRatePerS = 0.001;
    const CandidateCost c = priced(b);
    const CostOption &od = option(c, PricingTerm::OnDemand);
    QCOMPARE(cents(line(od, "gpu_compute") + line(od, "retry_waste") + line(od, "idle_capacity")), 46092LL);
    QVERIFY(qAbs(od.billedShareOfMonth * od.replicas * 730 - 230.461) < 1e-3);
    QVERIFY(od.coldStartShare && qAbs(*od.coldStartShare - 0.740633) < 1e-6);
    QVERIFY(qAbs(od.coldStartS - 76.0605) < 1e-4);
    QVERIFY(coldStartMissesSlo(b, od));
    QVERIFY(!option(c, PricingTerm::Reserved1y).coldStartShare);
    const auto warning = std::find_if(c.warnings.begin(), c.warnings.end(), [](const Warning &w) { return w.code == "cold-start"; });
    QVERIFY(warning != c.warnings.end());
    QVERIFY2(warning->message.find("74.1% of requests") != std::string::npos
                 && warning->message.find("over the brief's 2 s target") != std::string::npos,
             warning->message.c_str());
    // At 0.01/s a gap exceeds 300 s with probability e^-3 = 0.0498: 4.97% of requests start cold,
    // still over the 1% the p99 reaches; the replica is up 95% of the month.
    b.workload.traffic.requestRatePerS = 0.01;
    const CandidateCost busier = priced(b);
    QVERIFY(qAbs(*option(busier, PricingTerm::OnDemand).coldStartShare - 0.0496626) < 1e-6);
    // Bursts the one replica already carries start nothing: the billing and the cold starts are
    // those of the steady traffic (they once billed the whole month and hid the cold starts).
    Brief burstyServerless = briefWith(R"(, "bursts": {"multiplier": 1.5, "duration_s": 20, "period_s": 300})",
                                       R"("billing": {"model": "serverless"}, )");
    burstyServerless.workload.traffic.requestRatePerS = 0.001;
    PerformanceResult one = fixedPerformance();
    one.replicasForPeak = 1;
    const CandidateCost quietCost = priced(burstyServerless, one);
    const CostOption &quiet = option(quietCost, PricingTerm::OnDemand);
    QVERIFY2(quiet.billedShareOfMonth < 0.4, std::to_string(quiet.billedShareOfMonth).c_str());
    QVERIFY(quiet.coldStartShare && *quiet.coldStartShare > 0.7);
    // Autoscaled with a replica always running never starts cold at this load; with none it does.
    for (const int minimum : {1, 0}) {
        Brief a = briefWith({}, fmt::format(R"("billing": {{"model": "autoscaled", "min_replicas": {}}}, )", minimum));
        a.workload.traffic.requestRatePerS = 0.001;
        QCOMPARE(option(priced(a), PricingTerm::OnDemand).coldStartShare.has_value(), minimum == 0);
    }
    // Serverless has no minimum to set.
    std::string bad = kBrief;
    bad.replace(bad.find(R"("cost": {)"), 9, R"("cost": {"billing": {"model": "serverless", "min_replicas": 1}, )");
    const auto parsed = parseBrief(bad, "bad.json", wbtest::shippedCatalog());
    QVERIFY(!parsed);
    QVERIFY2(parsed.error().toString().find("/cost/billing/min_replicas") != std::string::npos, parsed.error().toString().c_str());
}

// Spot at $1.00 a GPU-hour on the 3 replicas of one GPU, billed around the clock: 2,190 GPU-hours,
// $2,190, busy 1,825 of them (u = 0.8333). Interrupted 30 times per GPU a month (the default),
// 30 x 2,190 / 730 = 90 times, each costing a replacement's 76.0605 s start (16.0605 GB at 1 GB/s
// plus 60 s): 90 x 76.0605 / 3,600 x $1.00 = $1.90 on top of the retry waste
// 2,190 x 0.8333 x 0.118 = $215.35, so $217.25. The offer's own 300 a GPU-month: 900 times,
// $19.02, $234.37. Requests of 40 s on average outlast the 30 s notice: each interruption also
// redoes 0.8333 x 40 / 2 = 16.67 s of work, 90 x 92.727 / 3,600 = $2.32, so $217.67.
void TestCost::spotInterruptionsCostTheirRestarts()
{
    const auto spotBrief = [](const std::string &extra) {
        std::string text = kBrief;
        text.replace(text.find(R"("prices": [)"), 11,
                     R"("prices": [{"gpu": "h100-sxm-80gb", "provider": "test spot", "term": "spot", "usd_per_gpu_hour": 1.00,
                        "observed": "2026-11-01", "source": "hand-worked test")" + extra + "}, ");
        return wbtest::parseOrFail(text);
    };
    const CandidateCost byDefault = priced(spotBrief({}));
    QCOMPARE(cents(line(option(byDefault, PricingTerm::Spot), "retry_waste")), 21725LL);
    const std::string basis = std::find_if(option(byDefault, PricingTerm::Spot).lines.begin(),
                                           option(byDefault, PricingTerm::Spot).lines.end(),
                                           [](const CostLine &l) { return l.name == "retry_waste"; })
                                  ->basis;
    QVERIFY2(basis.find("plus 90.0 interruptions a month (30 per GPU a month), each a 76 s replacement start") != std::string::npos,
             basis.c_str());
    const CandidateCost offered = priced(spotBrief(R"(, "interruptions_per_gpu_month": 300)"));
    QCOMPARE(cents(line(option(offered, PricingTerm::Spot), "retry_waste")), 23437LL);
    QVERIFY(option(offered, PricingTerm::Spot).terms.find("interrupted 300 times per GPU a month") != std::string::npos);
    PerformanceResult slow = fixedPerformance();
    slow.e2e = {40, 40, 40, 40, false};
    QCOMPARE(cents(line(option(priced(spotBrief({}), slow), PricingTerm::Spot), "retry_waste")), 21767LL);
    // 10,000 interruptions per GPU a month: 30,000 a month, 30,000 x 76.06 s = 633.8 h of the
    // 2,190 billed restarting, 28.9%: warned (from 5%, spot_restart_warn_fraction) and priced; with
    // spot_restart_max_fraction at 0.2 the option cannot carry its load and is not priced.
    const Brief stormy = spotBrief(R"(, "interruptions_per_gpu_month": 10000)");
    const CandidateCost storm = priced(stormy);
    QVERIFY(qAbs(*option(storm, PricingTerm::Spot).spotRestartShare - 30000 * 76.060522496 / 3600 / 2190) < 1e-9);
    QVERIFY(std::any_of(storm.warnings.begin(), storm.warnings.end(), [](const Warning &w) {
        return w.code == "spot-interruptions" && w.message.find("29% of their time restarting") != std::string::npos;
    }));
    Brief strict = stormy;
    QVERIFY(strict.assumptions.set("spot_restart_max_fraction", 0.2, "test"));
    const CandidateCost unusable = priced(strict);
    QVERIFY(std::none_of(unusable.options.begin(), unusable.options.end(), [](const CostOption &o) { return o.term == PricingTerm::Spot; }));
    QVERIFY(std::any_of(unusable.warnings.begin(), unusable.warnings.end(), [](const Warning &w) { return w.code == "spot-unusable"; }));
    // Other terms are not taken back: the rate is refused on them, by name.
    std::string bad = kBrief;
    bad.replace(bad.find(R"("provider": "test reserved", )"), 29, R"("provider": "test reserved", "interruptions_per_gpu_month": 3, )");
    const auto parsed = parseBrief(bad, "bad.json", wbtest::shippedCatalog());
    QVERIFY(!parsed);
    QVERIFY2(parsed.error().toString().find("/cost/prices/1/interruptions_per_gpu_month") != std::string::npos,
             parsed.error().toString().c_str());
    // Spot binds no term: a commitment on it is refused, by name.
    std::string committedSpot = kBrief;
    committedSpot.replace(committedSpot.find(R"("prices": [)"), 11,
                          R"("prices": [{"gpu": "h100-sxm-80gb", "provider": "s", "term": "spot", "usd_per_gpu_hour": 1,
                             "observed": "2026-11-01", "source": "t", "min_commitment_months": 12}, )");
    const auto refused = parseBrief(committedSpot, "spot.json", wbtest::shippedCatalog());
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().find("/cost/prices/0/min_commitment_months") != std::string::npos,
             refused.error().toString().c_str());
    // A brief saved with the retired spot_work_lost_fraction still opens, and says it is ignored.
    std::string retired = kBrief;
    retired.replace(retired.find(R"("assumptions": {)"), 16, R"("assumptions": {"spot_work_lost_fraction": 0.05, )");
    const Brief old = wbtest::parseOrFail(retired);
    QVERIFY(std::any_of(old.warnings.begin(), old.warnings.end(), [](const Warning &w) { return w.code == "retired-assumption"; }));
}

// A 12-month minimum commitment on a quote, 25% up front, with a $50 support fee per GPU a
// month, the offer's own egress at $0.05 per GB and 20 GB of storage per GPU included: the
// commitment is stated where the bill is (the GPU time line) and owed 12 x 3 x 730 x $1.20 =
// $31,536 over the term, a quarter of it ($7,884) up front; support 3 GPUs x $50 = $150.00; network 257.544 GB x 0.05 = $12.88;
// storage (64.242 - 60 GB) x 0.10 = $0.42. While demand certainty is medium it warns; when high,
// it does not.
void TestCost::commitmentTermsAreShownAndWarned()
{
    const std::string terms = R"("min_commitment_months": 12, "upfront_fraction": 0.25, "cancellation": "none before term end",
       "support_usd_per_gpu_month": 50, "egress_usd_per_gb": 0.05, "included_storage_gb_per_gpu": 20, "offer": "dedicated-cluster", )";
    for (const char *certainty : {"medium", "high"}) {
        std::string text = kBrief;
        text.replace(text.find(R"("provider": "test reserved", )"), 29, R"("provider": "test reserved", )" + terms);
        text.replace(text.find(R"("cost": {)"), 9,
                     std::string(R"("cost": {"decision": {"demand_certainty": ")") + certainty + R"("}, )");
        const CandidateCost c = priced(wbtest::parseOrFail(text));
        const CostOption &o = option(c, PricingTerm::Reserved1y);
        QCOMPARE(o.commitmentMonths.value_or(0), 12.0);
        QCOMPARE(cents(o.committedUsd), 3153600LL);
        QVERIFY(o.terms.find("dedicated-cluster offer, 12-month minimum commitment, 25% paid up front") == 0);
        const CostLine &compute = *std::find_if(o.lines.begin(), o.lines.end(), [](const CostLine &l) { return l.name == "gpu_compute"; });
        QVERIFY2(compute.basis.find("under a 12-month minimum commitment: $31,536.00 owed over the term, 25% of it up front ($7,884.00)") != std::string::npos,
                 compute.basis.c_str());
        QCOMPARE(cents(line(o, "vendor_support")), 15000LL);
        QCOMPARE(cents(line(o, "network")), 1288LL);
        QCOMPARE(cents(line(o, "storage")), 42LL);
        long long sum = 0;
        for (const CostLine &l : o.lines)
            sum += cents(l.usdPerMonth);
        QCOMPARE(sum, cents(o.totalUsdPerMonth));
        const bool warned = std::any_of(c.warnings.begin(), c.warnings.end(), [](const Warning &w) {
            return w.code == "commitment-vs-certainty" && w.message.find("12-month minimum commitment, $31,536.00 over the term for "
                                                                         "the 3 GPUs priced (25% up front: $7,884.00)")
                != std::string::npos;
        });
        QCOMPARE(warned, std::string(certainty) == "medium");
        QVERIFY(!option(c, PricingTerm::OnDemand).commitmentMonths);  // the other offers state none
    }
}

// The nightly batch sample runs in a window (its brief's cost.billing): its on-demand options are
// billed for those hours only, a reservation for every hour, and the break-even the reasons cite
// is weighed against the same share of the month.
void TestCost::nightlyBatchSampleIsBilledForItsWindow()
{
    const auto brief = loadBrief(std::string(WB_SOURCE_DIR) + "/resources/samples/batch-summarization.brief.json",
                                 wbtest::shippedCatalog());
    QVERIFY(brief);
    const BillingInputs &billing = brief.value().cost.billing;
    QCOMPARE(billing.model, Billing::Scheduled);
    const double share = billing.hoursPerDay * billing.daysPerMonth / brief.value().assumptions.value(Assumption::HoursPerMonth);
    QVERIFY(share < 0.5);
    EvaluateOptions options;
    options.today = kToday;
    const Results r = evaluate(brief.value(), wbtest::shippedCatalog(), options);
    int onDemand = 0, committed = 0;
    for (const CandidateResult &entered : r.results)
        for (const CostOption &o : deployment(entered).cost.options) {
            if (o.term == PricingTerm::OnDemand) {
                QVERIFY(qAbs(o.billedShareOfMonth - share) < 1e-12);
                ++onDemand;
            } else if (o.onDemandBilledShare) {
                QCOMPARE(o.billedShareOfMonth, 1.0);
                QVERIFY(qAbs(*o.onDemandBilledShare - share) < 1e-12);
                ++committed;
            }
        }
    QVERIFY(onDemand >= 1);
    QVERIFY(r.cost.recommendation);
}


// An embedding API bills input tokens only: an embedding brief's cost.api needs no output price,
// and its usage is requests x input tokens x the input price: 26,280,000 x 1,000 x $0.02 / 1e6 =
// $525.60 a month, all accepted (no failures, every output passes). A chat brief's API without an
// output price is refused at the field.
void TestCost::embeddingApiBillsItsInputOnly()
{
    const std::string embedding = R"({"format": "gpu-workbench-brief", "version": 1, "name": "e",
      "workload": {"kind": "embedding", "model": "bert-base", "weights_precision": "bf16", "input_tokens": 1000,
        "traffic": {"mode": "open-loop", "request_rate_per_s": 10},
        "acceptance": {"quality_pass_rate": 1, "failure_rate": 0}},
      "candidates": [{"gpu": "l4-24gb", "gpus": 1}],
      "assumptions": {"hours_per_month": 730},
      "cost": {"requests_per_month": 26280000,
        "api": {"provider": "embeddings", "usd_per_million_input": 0.02, "observed": "2026-11-01", "source": "hand-worked test"}}})";
    const Brief b = wbtest::parseOrFail(embedding);
    const CostSummary s = summarizeCost(b, {}, wbtest::shippedCatalog(), kToday);
    QVERIFY(s.api);
    QCOMPARE(cents(line(*s.api, "api_usage")), 52560LL);
    std::string chat = embedding;
    chat.replace(chat.find("\"embedding\""), 11, "\"batch-inference\"");
    chat.replace(chat.find("\"bert-base\""), 11, "\"llama-3.1-8b\"");
    chat.replace(chat.find("\"input_tokens\": 1000"), 20, "\"input_tokens\": 1000, \"output_tokens\": 100");
    const auto refused = parseBrief(chat, "chat.json", wbtest::shippedCatalog());
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().find("/cost/api/usd_per_million_output") != std::string::npos,
             refused.error().toString().c_str());
}

// Residency (issue 37 item 5): where the brief keeps its data in the EU, an offer stated to run in
// the US is left out ($2.00), and said so, and the $3.00 offer stated to run in the EU comes before
// the $1.00 one that does not say where it runs; an offer that does not say (the only reservation)
// is kept and flagged. An API stated to run in the US is no option, said as such rather than as a
// missing price. Without a data region, the cheapest, $1.00, is the one used, as before.
void TestCost::dataRegionLeavesOutOffersElsewhere()
{
    const std::string quotes = R"("prices": [
      {"gpu": "h100-sxm-80gb", "provider": "us offer", "term": "on-demand", "usd_per_gpu_hour": 2.00, "region": "us",
       "observed": "2026-11-01", "source": "hand-worked test"},
      {"gpu": "h100-sxm-80gb", "provider": "eu offer", "term": "on-demand", "usd_per_gpu_hour": 3.00, "region": "eu",
       "observed": "2026-11-01", "source": "hand-worked test"},
      {"gpu": "h100-sxm-80gb", "provider": "somewhere", "term": "reserved-1y", "usd_per_gpu_hour": 1.50,
       "observed": "2026-11-01", "source": "hand-worked test"},
      {"gpu": "h100-sxm-80gb", "provider": "cheapest, unstated", "term": "on-demand", "usd_per_gpu_hour": 1.00,
       "observed": "2026-11-01", "source": "hand-worked test"}],
     "api": {"provider": "us api", "usd_per_million_input": 0.10, "usd_per_million_output": 0.40, "region": "us",
       "observed": "2026-11-01", "source": "hand-worked test"}}})";
    const std::string head = std::string(kBrief).substr(0, std::string(kBrief).find(R"("cost": {)"));
    const auto codes = [](const std::vector<Warning> &warnings) {
        std::set<std::string> out;
        for (const Warning &w : warnings)
            out.insert(w.code);
        return out;
    };
    for (bool eu : {false, true}) {
        const Brief b = wbtest::parseOrFail(head + R"("cost": {)" + (eu ? R"("decision": {"data_region": "eu"}, )" : "") + quotes);
        const CandidateCost c = priced(b);
        QCOMPARE(option(c, PricingTerm::OnDemand).provider, std::string(eu ? "eu offer" : "cheapest, unstated"));
        QCOMPARE(option(c, PricingTerm::Reserved1y).provider, std::string("somewhere"));
        const std::set<std::string> said = codes(c.warnings);
        QCOMPARE(said.count("price-outside-region"), std::size_t(eu));
        QCOMPARE(said.count("price-region-unstated"), std::size_t(eu));  // the reservation's
        const CostSummary s = summarizeCost(b, {}, wbtest::shippedCatalog(), kToday);
        QCOMPARE(s.api.has_value(), !eu);
        QCOMPARE(codes(s.warnings).count("api-outside-region"), std::size_t(eu));
        QCOMPARE(codes(s.warnings).count("no-api-price"), std::size_t(0));
    }
    // A region the list does not hold is refused at its field.
    const auto refused = parseBrief(head + R"("cost": {"decision": {"data_region": "europe"}, )" + quotes, "region.json",
                                    wbtest::shippedCatalog());
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().find("/cost/decision/data_region") != std::string::npos,
             refused.error().toString().c_str());
}

// Offline work (queued at once) under serverless billing is billed for the work and one start per
// replica, not as a load spread over the month (which kept a replica up all month). 2,880,000
// requests at the 4 requests/s a replica carries are 2,880,000 / 4 / 3,600 = 200 replica-hours;
// each replica started adds 76.0605 s (16.0605 GB of weights at 1 GB/s plus 60 s), so R replicas
// are billed 200 + R x 76.0605 / 3,600 hours, at $2.00 an hour.
void TestCost::offlineWorkUnderServerlessBillsItsWork()
{
    Brief b = briefWith({}, R"("billing": {"model": "serverless"}, "requests_per_month": 2880000, )");
    b.workload.traffic.mode = TrafficMode::Offline;
    b.workload.traffic.requestRatePerS.reset();
    b.workload.slo = {};
    const CandidateCost c = priced(b);
    const CostOption &od = option(c, PricingTerm::OnDemand);
    const double billed = 200 + od.replicas * 76.0605 / 3600;
    QVERIFY2(qAbs(od.billedShareOfMonth * od.replicas * 730 - billed) < 1e-3,
             std::to_string(od.billedShareOfMonth * od.replicas * 730).c_str());
    QCOMPARE(cents(line(od, "gpu_compute") + line(od, "retry_waste") + line(od, "idle_capacity")), std::llround(billed * 2 * 100));
    QVERIFY(!od.coldStartShare);  // nothing waits on a latency target
    QVERIFY(od.utilization > 0.99);
}

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
