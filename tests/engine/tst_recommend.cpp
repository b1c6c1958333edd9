// The recommendation (rent / reserve / buy / API / hybrid) and the seed's six common mistakes,
// decided by summarizeCost from the brief's decision inputs and the priced options. The GPU
// options are made by hand here (their cost per accepted output set relative to the API's), so
// that each case isolates the input that decides it; the API route is priced by the engine from
// the brief's own API quote.
#include "testsupport.h"

#include <core/format.h>
#include <cost/cost.h>
#include <evaluate/evaluate.h>
#include <report/labels.h>
#include <report/report.h>

#include <nlohmann/json.hpp>

#include <QtTest>

#include <fmt/format.h>

#include <algorithm>

using namespace wb;

namespace {

const char *kToday = "2026-11-30";

// Llama-3.1-8B, 1000 tokens in and 200 out, 10 requests/s steady (26,280,000 requests in a
// 730-hour month), every output accepted, an API at $0.10 / $0.40 per million tokens. %1: the
// cost.decision object; %2: extra top-level members (assumptions); %3: traffic extras.
QString briefText(const QString &decision, const QString &extra = {}, const QString &traffic = {})
{
    return QStringLiteral(R"({"format": "gpu-workbench-brief", "version": 1, "name": "recommend",
  "workload": {"kind": "realtime-inference", "model": "llama-3.1-8b", "weights_precision": "bf16",
    "input_tokens": 1000, "output_tokens": 200,
    "traffic": {"mode": "open-loop", "request_rate_per_s": 10%3},
    "slo": {"ttft_p99_s": 2},
    "acceptance": {"quality_pass_rate": 1, "failure_rate": 0}},
  "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 2}, {"gpu": "h100-sxm-80gb", "gpus": 4}],
  "assumptions": {"hours_per_month": 730, "platform_fte_self_hosted": 0.5%2},
  "cost": {"requests_per_month": 26280000,
    "api": {"provider": "test api", "usd_per_million_input": 0.10, "usd_per_million_output": 0.40,
            "failure_rate": 0, "observed": "2026-11-01", "source": "hand-worked test"}%1}})")
        .arg(decision.isEmpty() ? QString() : QStringLiteral(", \"decision\": ") + decision, extra, traffic);
}

Brief brief(const QString &decision, const QString &extra = {}, const QString &traffic = {})
{
    return wbtest::parseOrFail(briefText(decision, extra, traffic).toStdString());
}

// A priced GPU option: its term, hourly price and cost per accepted output; a month's total to
// match (26,280,000 accepted outputs).
CostOption gpuOption(PricingTerm term, double costPerAccepted, double usdPerGpuHour = 2.0)
{
    CostOption o;
    o.term = term;
    o.provider = "test";
    o.observed = "2026-11-01";
    o.usdPerGpuHour = usdPerGpuHour;
    o.gpus = 2;
    o.replicas = 2;
    o.utilization = 0.5;
    o.requestsPerMonth = 26280000;
    o.acceptedOutputsPerMonth = 26280000;
    o.costPerAcceptedOutput = costPerAccepted;
    o.totalUsdPerMonth = costPerAccepted * o.acceptedOutputsPerMonth;
    return o;
}

// Candidate results around hand-made options: both fit with room to spare (headroom 50%, room
// for four times the sequences needed) unless a case says otherwise.
std::vector<CandidateResult> candidates(const Brief &b, std::vector<std::vector<CostOption>> options)
{
    std::vector<CandidateResult> out;
    for (std::size_t i = 0; i < options.size(); ++i) {
        CandidateResult r;
        r.candidate = b.candidates[std::min(i, b.candidates.size() - 1)];
        r.fit.computed = true;
        r.fit.fits = true;
        r.fit.headroomFraction = 0.5;
        r.fit.maxConcurrencyPerReplica = 400;
        r.fit.sizedConcurrencyPerReplica = 100;
        r.cost.computed = true;
        r.cost.options = std::move(options[i]);
        out.push_back(std::move(r));
    }
    return out;
}

CostSummary summarize(const Brief &b, const std::vector<CandidateResult> &results)
{
    return summarizeCost(b, results, wbtest::shippedCatalog(), kToday);
}

// The API's cost per accepted output for the base brief, as the engine prices it.
double apiCost(const Brief &b)
{
    const CostSummary s = summarize(b, {});
    if (!s.api)
        qFatal("the API route is not priced");
    return s.api->costPerAcceptedOutput;
}

bool warns(const CostSummary &s, const char *code)
{
    return std::any_of(s.warnings.begin(), s.warnings.end(), [&](const Warning &w) { return w.code == code; });
}

} // namespace

class TestRecommend : public QObject
{
    Q_OBJECT

private slots:
    void routes_data();
    void routes();
    void aSetAsideCommitmentSaysWhy();
    void apiFlexibilityPremiumIsANamedAssumption();
    void hybridWhenItCostsLess();
    void spotOnlyWhereInterruptionsAreAcceptable();
    void coldStartsOverTheTargetLeaveAnOptionOut();
    void breakEvenReasonMatchesItsFigures();
    void nearTieNamesTheAssumptionThatFlipsIt();
    void mistakes_data();
    void mistakes();
    void mediaDecidesAsServingDoes();
    void trainingMistakes();
    void apiRoutesBeyondText_data();
    void apiRoutesBeyondText();
    void apiQuoteMustBillTheBriefsWork_data();
    void apiQuoteMustBillTheBriefsWork();
    void priceBookApiRoutes();
    void managedFineTuneRecommendedWhenCheaper();
    void apiAtFewerBitsIsSaid();
    void evaluationIsCountedInRecords();
};

void TestRecommend::routes_data()
{
    QTest::addColumn<QString>("decision");
    // Cost per accepted output of the on-demand, reserved and purchase options as multiples of
    // the API's (0: no such option).
    QTest::addColumn<double>("onDemand");
    QTest::addColumn<double>("reserved");
    QTest::addColumn<double>("purchase");
    QTest::addColumn<QString>("route");

    const QString medium = QStringLiteral(R"({"demand_certainty": "medium", "model_churn": "medium"})");
    const QString certain = QStringLiteral(R"({"demand_certainty": "high", "model_churn": "low"})");
    const QString unsure = QStringLiteral(R"({"demand_certainty": "low", "model_churn": "medium"})");
    // The API is cheapest: it wins.
    QTest::newRow("api cheapest") << medium << 2.0 << 1.8 << 1.5 << "api";
    // The same costs, but the data boundary rules the API out, or the hardware must be controlled:
    // the cheapest GPU commitment the certainty allows.
    QTest::newRow("api not allowed") << QStringLiteral(R"({"api_allowed": false})") << 2.0 << 1.8 << 0.0 << "reserve";
    QTest::newRow("hardware control needed")
        << QStringLiteral(R"({"needs_hardware_control": true})") << 2.0 << 0.0 << 0.0 << "rent";
    // GPUs cheaper than the API: on-demand only -> rent.
    QTest::newRow("rent") << medium << 0.5 << 0.0 << 0.0 << "rent";
    // A reservation is cheapest and demand is not uncertain -> reserve; uncertain -> rent.
    QTest::newRow("reserve") << medium << 0.6 << 0.4 << 0.0 << "reserve";
    QTest::newRow("reserve, but demand uncertain") << unsure << 0.6 << 0.4 << 0.0 << "rent";
    // Buying is cheapest: only with high certainty and low churn; else the next commitment.
    QTest::newRow("buy") << certain << 0.6 << 0.5 << 0.3 << "buy";
    QTest::newRow("buy, but churn not low") << medium << 0.6 << 0.5 << 0.3 << "reserve";
    QTest::newRow("buy, but demand uncertain") << unsure << 0.6 << 0.5 << 0.3 << "rent";
    // Issue 37: the purchase set aside, the next option is the cheaper of the reservation and
    // on-demand, never a reservation dearer than renting; and the API when it beats that option,
    // though not the purchase.
    QTest::newRow("buy set aside, reservation dearer than on-demand") << medium << 0.6 << 0.7 << 0.3 << "rent";
    QTest::newRow("buy set aside, API below the next option") << medium << 1.2 << 0.0 << 0.8 << "api";
    QTest::newRow("buy set aside, API not allowed")
        << QStringLiteral(R"({"demand_certainty": "medium", "api_allowed": false})") << 1.2 << 0.0 << 0.8 << "rent";
    // Only a reservation beside the purchase, demand uncertain: the reservation, not nothing.
    QTest::newRow("buy set aside, only a reservation") << unsure << 0.0 << 0.5 << 0.3 << "reserve";
    // Demand uncertain and the API within 25% of the best GPU option (API = 1 / 0.85 = 1.18x):
    // per-token billing is worth its premium; at 1 / 0.75 = 1.33x it is not.
    QTest::newRow("uncertain, API 18% dearer") << unsure << 0.85 << 0.0 << 0.0 << "api";
    QTest::newRow("uncertain, API 33% dearer") << unsure << 0.75 << 0.0 << 0.0 << "rent";
    // High churn counts as uncertain too.
    QTest::newRow("high churn, API 18% dearer")
        << QStringLiteral(R"({"demand_certainty": "high", "model_churn": "high"})") << 0.85 << 0.0 << 0.0 << "api";
    QTest::newRow("certain, API 18% dearer") << certain << 0.85 << 0.0 << 0.0 << "rent";
}

void TestRecommend::routes()
{
    QFETCH(QString, decision);
    QFETCH(double, onDemand);
    QFETCH(double, reserved);
    QFETCH(double, purchase);
    QFETCH(QString, route);
    const Brief b = brief(decision);
    const double api = apiCost(b);
    std::vector<CostOption> options;
    if (onDemand > 0)
        options.push_back(gpuOption(PricingTerm::OnDemand, onDemand * api));
    if (reserved > 0)
        options.push_back(gpuOption(PricingTerm::Reserved1y, reserved * api));
    if (purchase > 0)
        options.push_back(gpuOption(PricingTerm::Purchase, purchase * api));
    const CostSummary s = summarize(b, candidates(b, {options}));
    QVERIFY(s.recommendation);
    QCOMPARE(QString::fromLatin1(enumName(s.recommendation->route).data()), route);
    QVERIFY(!s.recommendation->reasons.empty());
    if (!b.cost.decision.apiAllowed) {
        const auto &r = s.recommendation->reasons;
        QVERIFY(std::any_of(r.begin(), r.end(), [](const wb::Message &m) { const std::string &x = m.message; return x.find("data boundary") != std::string::npos; }));
    }
}

// Issue 37's brief: medium certainty, the purchase cheapest, a 1-year reservation dearer than
// on-demand. The recommendation rents, and its reasons say why the purchase and the reservation
// were set aside, with the costs each compares.
void TestRecommend::aSetAsideCommitmentSaysWhy()
{
    const Brief b = brief(QStringLiteral(R"({"demand_certainty": "medium", "model_churn": "medium", "api_allowed": false})"));
    const double api = apiCost(b);
    const CostSummary s = summarize(b, candidates(b, {{gpuOption(PricingTerm::OnDemand, 0.6 * api, 3.0),
                                                       gpuOption(PricingTerm::Reserved1y, 0.9 * api, 5.0),
                                                       gpuOption(PricingTerm::Purchase, 0.3 * api, 1.0)}}));
    QVERIFY(s.recommendation);
    QCOMPARE(s.recommendation->route, Route::Rent);
    QCOMPARE(s.recommendation->term, std::optional<PricingTerm>(PricingTerm::OnDemand));
    const auto reason = [&](const char *code) -> std::string {
        for (const Message &m : s.recommendation->reasons)
            if (m.code == code)
                return m.message;
        return {};
    };
    const std::string purchase = reason("purchase-needs-certainty"), reservation = reason("reservation-dearer-than-rent");
    QVERIFY2(purchase.find(fmt::format("${:.6f} per accepted output", 0.3 * api)) != std::string::npos, purchase.c_str());
    QVERIFY2(purchase.find(fmt::format("(on-demand), costs ${:.6f}", 0.6 * api)) != std::string::npos, purchase.c_str());
    QVERIFY2(reservation.find(fmt::format("costs ${:.6f} per accepted output against ${:.6f} renting on demand", 0.9 * api, 0.6 * api))
                 != std::string::npos,
             reservation.c_str());
}

// The 25% premium the API may cost while demand is uncertain is the assumption
// api_flexibility_premium: at 1.4, an API 33% dearer than the best GPU option is recommended.
void TestRecommend::apiFlexibilityPremiumIsANamedAssumption()
{
    const QString unsure = QStringLiteral(R"({"demand_certainty": "low"})");
    const Brief base = brief(unsure);
    const Brief generous = brief(unsure, QStringLiteral(", \"api_flexibility_premium\": 1.4"));
    const double api = apiCost(base);
    QCOMPARE(apiCost(generous), api);
    const auto route = [&](const Brief &b) {
        return summarize(b, candidates(b, {{gpuOption(PricingTerm::OnDemand, 0.75 * api)}})).recommendation->route;
    };
    QCOMPARE(route(base), Route::Rent);
    QCOMPARE(route(generous), Route::Api);
}

// The reason about a commitment's break-even states the figures it compares and draws the
// conclusion they give. A reservation at $1.44 against $2.00 on demand pays once on-demand GPUs
// would be billed for more than 1.44 / 2.00 = 72% of the month. Billed always on (100%), it wins;
// billed for a scheduled window of a third of the month, on demand costs less for the same GPUs,
// which the reason must say (the window once printed "beats on-demand above 72% utilization"
// whatever the billing).
void TestRecommend::breakEvenReasonMatchesItsFigures()
{
    const Brief b = brief(QStringLiteral(R"({"demand_certainty": "high", "model_churn": "low", "api_allowed": false})"));
    const double api = apiCost(b);
    for (const double billedShare : {1.0, 0.33}) {
        CostOption reserved = gpuOption(PricingTerm::Reserved1y, 0.5 * api, 1.44);
        reserved.breakEvenUtilizationVsOnDemand = 1.44 / 2.00;
        reserved.onDemandBilledShare = billedShare;
        const CostSummary s = summarize(b, candidates(b, {{gpuOption(PricingTerm::OnDemand, 0.6 * api), reserved}}));
        QVERIFY(s.recommendation);
        QCOMPARE(s.recommendation->route, Route::Reserve);
        const auto &reasons = s.recommendation->reasons;
        const auto it = std::find_if(reasons.begin(), reasons.end(),
                                     [](const wb::Message &r) { return r.message.find("72%") != std::string::npos; });
        QVERIFY2(it != reasons.end(), "no reason cites the break-even");
        const bool wins = billedShare >= 0.72;
        QCOMPARE(it->message.find("this commitment costs less than renting on demand") != std::string::npos, wins);
        QCOMPARE(it->message.find("renting on demand costs less for the same GPUs") != std::string::npos, !wins);
        QVERIFY2(it->message.find(wins ? "billed for 100%" : "billed for 33% of the month") != std::string::npos, it->message.c_str());
    }
}

// Two options 3% apart are a near tie (near_tie_fraction 6%), and the recommendation names the
// assumption that reverses them and where. A GPU option at 0.97 of the API's cost per accepted
// output, both over 26,280,000 accepted outputs a month. Each extra engineer on the platform adds
// engineer_usd_per_year / 12 a month to the GPU route only, so per accepted output
// k = (E / 12) / 26,280,000; the GPU option costs as much as the API when
// platform_fte_self_hosted = 0.5 + (api - 0.97 api) / k. The API's own engineers
// (platform_fte_api, 0.1 by default) move only the API, by the same k: it catches up when they
// fall to 0.1 - 0.03 api / k.
void TestRecommend::nearTieNamesTheAssumptionThatFlipsIt()
{
    const Brief b = brief(QStringLiteral(R"({"demand_certainty": "high", "model_churn": "low", "api_allowed": true})"));
    const double api = apiCost(b);
    const CostSummary s = summarize(b, candidates(b, {{gpuOption(PricingTerm::OnDemand, 0.97 * api)}}));
    QVERIFY(s.ranking);
    QVERIFY(s.ranking->first.find("on-demand") != std::string::npos);
    QCOMPARE(s.ranking->second, std::string("the model API"));
    QVERIFY(qAbs(s.ranking->gap - (1 / 0.97 - 1)) < 1e-9);
    QCOMPARE(s.ranking->withinNearTie, 2);
    const double k = b.assumptions.value(Assumption::EngineerUsdPerYear) / 12 / 26280000;
    const double expected = 0.5 + 0.03 * api / k;
    const auto flip = std::find_if(s.ranking->flips.begin(), s.ranking->flips.end(),
                                   [](const RankingFlip &f) { return f.assumption == Assumption::PlatformFteSelfHosted; });
    QVERIFY(flip != s.ranking->flips.end());
    QVERIFY(qAbs(flip->flipsAt - expected) < 1e-9);
    const auto apiFlip = std::find_if(s.ranking->flips.begin(), s.ranking->flips.end(),
                                      [](const RankingFlip &f) { return f.assumption == Assumption::PlatformFteApi; });
    QVERIFY(apiFlip != s.ranking->flips.end());
    QCOMPARE(apiFlip->current, 0.1);
    QVERIFY(qAbs(apiFlip->flipsAt - (0.1 - 0.03 * api / k)) < 1e-9);
    QVERIFY(s.recommendation);
    const auto &reasons = s.recommendation->reasons;
    QVERIFY(std::any_of(reasons.begin(), reasons.end(), [](const wb::Message &r) { return r.message.rfind("near tie:", 0) == 0; }));
    const std::string flipText = "if the engineers running the GPU platform were " + readableNumber(expected)
        + " instead of 0.5 (platform_fte_self_hosted)";
    QVERIFY2(std::any_of(reasons.begin(), reasons.end(),
                         [&](const wb::Message &r) { return r.message.find(flipText) != std::string::npos; }),
             flipText.c_str());
    // Far apart (the GPU option at half the API's cost), nothing is flagged.
    const CostSummary apart = summarize(b, candidates(b, {{gpuOption(PricingTerm::OnDemand, 0.5 * api)}}));
    const auto &calm = apart.recommendation->reasons;
    QVERIFY(std::none_of(calm.begin(), calm.end(), [](const wb::Message &r) { return r.message.rfind("near tie:", 0) == 0; }));
}

// The hybrid (priced per option by costCandidate, tst_cost) against the GPU option it extends:
// recommended when it costs less per accepted output, with its base replicas and the overflow's
// requests and tokens in the reason; not when it costs more. Below the API's cost too, the
// recommendation says which costs each pure route carries that the hybrid does not.
void TestRecommend::hybridWhenItCostsLess()
{
    const Brief apiAllowed = brief(QStringLiteral(R"({"demand_certainty": "medium"})"));
    const double api = apiCost(apiAllowed);
    CostOption gpu = gpuOption(PricingTerm::OnDemand, 0.8 * api);
    gpu.replicas = 6;
    gpu.gpus = 6;
    gpu.lines = {{"idle_capacity", 1234.56, "test"}};
    for (const double hybridCost : {0.5, 0.7, 0.9}) {
        CostOption hybrid = gpuOption(PricingTerm::OnDemand, hybridCost * api);
        hybrid.hybrid = CostOption::HybridSplit{2, 3504000, 3504000e3, 700800e3, 1000, 500};
        std::vector<CandidateResult> results = candidates(apiAllowed, {{gpu}});
        results[0].cost.hybrids = {hybrid};
        const CostSummary s = summarize(apiAllowed, results);
        QVERIFY(s.recommendation);
        QVERIFY(s.hybrid);
        if (hybridCost < 0.8) {
            QCOMPARE(s.recommendation->route, Route::Hybrid);
            QCOMPARE(s.recommendation->costPerAcceptedOutput, hybrid.costPerAcceptedOutput);
            const auto &r = s.recommendation->reasons;
            QVERIFY(std::any_of(r.begin(), r.end(), [](const wb::Message &m) { const std::string &x = m.message;
                return x.find("2 replicas for the steady base") != std::string::npos
                       && x.find("API for the 3.5 million requests a month") != std::string::npos;
            }));
            // Below the API (0.5 and 0.7 of its cost): the explanation names the GPU route's idle cost.
            QVERIFY(std::any_of(r.begin(), r.end(), [](const wb::Message &m) { const std::string &x = m.message;
                return x.find("costs less than either pure route") != std::string::npos && x.find("$1,234.56") != std::string::npos;
            }));
            // The headline names the base's GPUs (2, not the 6 the GPUs alone need) and the API beside them.
            Results whole;
            whole.results = results;
            whole.cost = s;
            const std::string headline = recommendationHeadline(whole);
            QVERIFY2(headline.find("hybrid, 2 x h100-sxm-80gb") != std::string::npos
                         && headline.find("the model API (test api) for the bursts") != std::string::npos,
                     headline.c_str());
        } else {
            QCOMPARE(s.recommendation->route, Route::Rent);
        }
    }
}

// Spot is cheapest per accepted output, but the brief has a p99 TTFT target: it is left out with
// its reason, and on-demand is rented; when the brief declares interruptions acceptable, spot is
// recommended. The API is ruled out so that the GPU options decide.
void TestRecommend::spotOnlyWhereInterruptionsAreAcceptable()
{
    for (const bool acceptable : {false, true}) {
        const Brief b = brief(QStringLiteral(R"({"api_allowed": false, "interruptions_acceptable": %1})")
                                  .arg(acceptable ? QStringLiteral("true") : QStringLiteral("false")));
        const double api = apiCost(b);
        const CostSummary s = summarize(b, candidates(b, {{gpuOption(PricingTerm::OnDemand, 0.6 * api),
                                                           gpuOption(PricingTerm::Spot, 0.4 * api, 1.0)}}));
        QVERIFY(s.recommendation);
        QCOMPARE(s.recommendation->route, Route::Rent);
        QCOMPARE(*s.recommendation->term, acceptable ? PricingTerm::Spot : PricingTerm::OnDemand);
        const auto &r = s.recommendation->reasons;
        QCOMPARE(std::any_of(r.begin(), r.end(), [](const wb::Message &m) { const std::string &x = m.message; return x.rfind("spot capacity is left out", 0) == 0; }),
                 !acceptable);
        // Left out, spot is not ranked either: on demand is the one option left (the API is ruled out).
        QCOMPARE(s.ranking.has_value(), acceptable);
    }
    // Unsaid, a brief with a latency target leaves spot out; one without (batch work) weighs it.
    const Brief unsaid = brief(QStringLiteral(R"({"api_allowed": false})"));
    QVERIFY(!unsaid.cost.decision.interruptionsAcceptable);
    QCOMPARE(*summarize(unsaid, candidates(unsaid, {{gpuOption(PricingTerm::OnDemand, 0.6 * apiCost(unsaid)),
                                                    gpuOption(PricingTerm::Spot, 0.4 * apiCost(unsaid), 1.0)}}))
                  .recommendation->term,
             PricingTerm::OnDemand);
}

// Renting on demand is cheapest, but billed serverless 30% of its requests wait 76 s for a
// replica to start, over the brief's 2 s p99 TTFT: it is left out with its reason and the
// reservation (paid every hour, never cold) is recommended. With starts of 1 s, under the target,
// renting wins again.
void TestRecommend::coldStartsOverTheTargetLeaveAnOptionOut()
{
    const Brief b = brief(QStringLiteral(R"({"api_allowed": false})"));
    const double api = apiCost(b);
    for (const double startS : {76.0, 1.0}) {
        CostOption od = gpuOption(PricingTerm::OnDemand, 0.4 * api);
        od.coldStartShare = 0.3;
        od.coldStartS = startS;
        od.coldStartOverSlo = coldStartMissesSlo(b, od);  // as costCandidate marks it
        const CostSummary s = summarize(b, candidates(b, {{od, gpuOption(PricingTerm::Reserved1y, 0.6 * api)}}));
        QVERIFY(s.recommendation);
        const bool over = startS > 2;
        QCOMPARE(s.recommendation->route, over ? Route::Reserve : Route::Rent);
        const auto &r = s.recommendation->reasons;
        QCOMPARE(std::any_of(r.begin(), r.end(),
                             [](const wb::Message &m) { const std::string &x = m.message;
                                 return x.find("is left out") != std::string::npos && x.find("wait up to 76 s") != std::string::npos
                                        && x.find("over the brief's 2 s target") != std::string::npos;
                             }),
                 over);
        QCOMPARE(s.ranking.has_value(), !over);  // left out, it is not ranked either
    }
}

void TestRecommend::mistakes_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("provoke");
    for (const char *code : {"mistake-hourly-rate", "mistake-fit-yes-no", "mistake-interconnect",
                             "mistake-generated-not-accepted", "mistake-platform-responsibility",
                             "mistake-todays-model"}) {
        QTest::newRow(qPrintable(QStringLiteral("%1 provoked").arg(QLatin1String(code)))) << QString::fromLatin1(code) << true;
        QTest::newRow(qPrintable(QStringLiteral("%1 absent").arg(QLatin1String(code)))) << QString::fromLatin1(code) << false;
    }
}

// Each of the seed's six common mistakes, on a brief and options that provoke it and on the same
// with that one thing put right.
void TestRecommend::mistakes()
{
    QFETCH(QString, code);
    QFETCH(bool, provoke);
    const QString certain = QStringLiteral(R"({"demand_certainty": "high", "model_churn": "low"})");
    QString extra, acceptance;
    Brief b = brief(certain);
    const double api = apiCost(b);
    // Two GPU candidates, both cheaper than the API, the second per accepted output.
    std::vector<std::vector<CostOption>> options = {{gpuOption(PricingTerm::OnDemand, 0.6 * api, 1.0)},
                                                    {gpuOption(PricingTerm::OnDemand, 0.4 * api, 3.0)}};
    if (code == QLatin1String("mistake-hourly-rate") && !provoke)
        options[0][0].usdPerGpuHour = 4.0;  // the cheapest per hour is also the cheapest per output
    if (code == QLatin1String("mistake-generated-not-accepted") && provoke) {
        QString text = briefText(certain);
        text.replace(QLatin1String(R"(,
    "acceptance": {"quality_pass_rate": 1, "failure_rate": 0})"), QString());
        b = wbtest::parseOrFail(text.toStdString());
        QVERIFY(!b.workload.acceptance.given);
    }
    if (code == QLatin1String("mistake-platform-responsibility") && provoke) {
        QString text = briefText(certain);
        text.replace(QLatin1String(R"(, "platform_fte_self_hosted": 0.5)"), QString());
        b = wbtest::parseOrFail(text.toStdString());
    }
    if (code == QLatin1String("mistake-interconnect")) {
        // Tensor parallelism of 2 over PCIe (L40S) provokes it; over NVLink (H100 SXM) it does not.
        QString text = briefText(certain);
        text.replace(QLatin1String(R"({"gpu": "h100-sxm-80gb", "gpus": 4})"),
                     provoke ? QLatin1String(R"({"gpu": "l40s-48gb", "gpus": 4, "tensor_parallel": 2})")
                             : QLatin1String(R"({"gpu": "h100-sxm-80gb", "gpus": 4, "tensor_parallel": 2})"));
        b = wbtest::parseOrFail(text.toStdString());
    }
    if (code == QLatin1String("mistake-todays-model"))
        options[1] = {gpuOption(PricingTerm::Reserved1y, 0.4 * api, 3.0)};  // recommended: reserve
    std::vector<CandidateResult> results = candidates(b, options);
    if (code == QLatin1String("mistake-fit-yes-no") && provoke)
        results[0].fit.headroomFraction = 0.05;  // under fragile_fit_headroom_fraction (10%)
    if (code == QLatin1String("mistake-todays-model"))
        results[1].fit.headroomFraction = provoke ? 0.2 : 0.3;  // against commitment_min_headroom_fraction (25%)
    const CostSummary s = summarize(b, results);
    QVERIFY(s.recommendation);
    QCOMPARE(warns(s, code.toLatin1().constData()), provoke);
}

// Issue 37: a media service gets a recommendation per accepted image, and a brief built to commit
// the method's mistakes raises them in their media wording: an RTX 4090 cheapest per hour but
// not per image (1); a batch of 32 that fits an RTX 4090 (24 GB) but 64 would not (SDXL's
// activations at 1024^2 are about a third of a GiB an output: tst_media) (2); tensor parallelism
// over the L40S's PCIe (3); no acceptance (4); no platform owner (5). The same brief put right
// (H100 only, batch 8, acceptance and the engineers stated) raises none.
void TestRecommend::mediaDecidesAsServingDoes()
{
    const auto run = [](const std::string &candidates, int batch, const std::string &more, const std::string &assumptions) {
        const std::string json = std::string(R"({"format": "gpu-workbench-brief", "version": 1, "name": "sdxl",
          "workload": {"kind": "media-generation", "weights_precision": "bf16",
            "media": {"model": "sdxl-1.0-base", "width": 1024, "height": 1024, "steps": 30, "batch_size": )")
            + std::to_string(batch) + R"(},
            "traffic": {"mode": "open-loop", "request_rate_per_s": 2}, "slo": {"e2e_p99_s": 60})" + more + R"(},
          "candidates": )" + candidates + R"(,
          "cost": {"decision": {"demand_certainty": "high", "model_churn": "low"}}, "assumptions": {)" + assumptions + "}}";
        EvaluateOptions o;
        o.today = kToday;
        return evaluate(wbtest::parseOrFail(json), wbtest::shippedCatalog(), o);
    };
    const Results wrong = run(R"([{"gpu": "rtx-4090-24gb", "gpus": 8}, {"gpu": "l40s-48gb", "gpus": 8, "tensor_parallel": 2},
                                  {"gpu": "h100-sxm-80gb", "gpus": 8}])", 32, {}, {});
    // Without acceptance a media brief's ranking is held back, as a service's is; the mistakes
    // are said all the same.
    QVERIFY(!wrong.cost.recommendation);
    QVERIFY(std::any_of(wrong.rankingHeldBackBy.begin(), wrong.rankingHeldBackBy.end(),
                        [](const BriefItem &i) { return i.pointer == "/workload/acceptance"; }));
    const std::vector<const char *> mistakes = {"mistake-hourly-rate", "mistake-fit-yes-no", "mistake-interconnect",
                                                "mistake-generated-not-accepted", "mistake-platform-responsibility"};
    for (const char *code : mistakes)
        QVERIFY2(warns(wrong.cost, code), code);
    const Results right = run(R"([{"gpu": "h100-sxm-80gb", "gpus": 8}])", 8,
                              R"(, "acceptance": {"quality_pass_rate": 0.9, "failure_rate": 0.01})",
                              R"("platform_fte_self_hosted": 0.5)");
    QVERIFY(right.cost.recommendation);
    QVERIFY(right.cost.recommendation->costPerAcceptedOutput > 0);
    for (const char *code : mistakes)
        QVERIFY2(!warns(right.cost, code), code);
}

// A pre-training brief built to commit the method's mistakes: an RTX 4090 cluster cheapest per
// GPU-hour but not per run (1); micro-batches of 2 sequences of 9,216 tokens that leave the RTX
// 4090 under 10% headroom (about 7% when this was written) (2); pipeline parallelism across
// nodes over PCIe-only RTX cards (3); no acceptance (4); no platform owner (5). Mistake 6 (a
// commitment sized for today's model) needs a reservation or purchase recommended, which low
// demand certainty rules out here. At least five of the six must be said.
void TestRecommend::trainingMistakes()
{
    const std::string json = R"({"format": "gpu-workbench-brief", "version": 1, "name": "pretrain mistakes",
      "workload": {"kind": "training", "model": "llama-3.1-8b", "weights_precision": "bf16",
        "training": {"sequence_length": 9216, "micro_batch_size": 2, "tokens": 2e10, "sharding": "zero3",
                     "activation_recompute": "full"}},
      "candidates": [{"gpu": "rtx-4090-24gb", "gpus": 64, "pipeline_parallel": 4},
                     {"gpu": "h100-sxm-80gb", "gpus": 64}],
      "cost": {"decision": {"demand_certainty": "low", "model_churn": "high"},
               "prices": [{"gpu": "rtx-4090-24gb", "provider": "cheap cards", "term": "on-demand", "usd_per_gpu_hour": 0.34,
                           "observed": "2026-11-01", "source": "hand-made test price"},
                          {"gpu": "h100-sxm-80gb", "provider": "big cards", "term": "purchase", "usd_per_gpu": 25000,
                           "observed": "2026-11-01", "source": "hand-made test price"}]}})";
    EvaluateOptions o;
    o.today = kToday;
    const Results r = evaluate(wbtest::parseOrFail(json), wbtest::shippedCatalog(), o);
    int raised = 0;
    QStringList said;
    for (const char *code : {"mistake-hourly-rate", "mistake-fit-yes-no", "mistake-interconnect", "mistake-generated-not-accepted",
                             "mistake-platform-responsibility", "mistake-todays-model"})
        if (warns(r.cost, code)) {
            ++raised;
            said << code;
        }
    QVERIFY2(raised >= 5, qPrintable(said.join(QStringLiteral(", "))));
}

// Each API unit priced from a brief's quote, worked by hand. Every case: failure rate 0, quality
// pass rate 0.8, no observability share and no API platform labour (set to 0), so the cost per
// accepted output is the price of one request / 0.8. A hundred million requests a month keep the
// lines' rounding to cents out of the comparison.
void TestRecommend::apiRoutesBeyondText_data()
{
    QTest::addColumn<QString>("workload");
    QTest::addColumn<QString>("api");
    QTest::addColumn<double>("perAccepted");
    QTest::addColumn<bool>("perRun");
    const QString image = QStringLiteral(R"("kind": "media-generation", "weights_precision": "bf16",
        "media": {"model": "sdxl-1.0-base", "width": 1024, "height": 1024, "steps": 30},
        "traffic": {"mode": "open-loop", "request_rate_per_s": 1}, "slo": {"e2e_p99_s": 60})");
    // $0.01 an image / 0.8 = $0.0125.
    QTest::newRow("per image") << image << QStringLiteral(R"("usd_per_image": 0.01)") << 0.0125 << false;
    // 1024 x 1024 = 1.048576 megapixels x $0.02 = $0.02097152 an image; / 0.8 = $0.0262144.
    QTest::newRow("per megapixel") << image << QStringLiteral(R"("usd_per_megapixel": 0.02)") << 0.0262144 << false;
    // Wan 2.1's own clip: 81 frames at its 16 frames a second = 5.0625 s x $0.06 = $0.30375; / 0.8 = $0.3796875.
    QTest::newRow("per video second")
        << QStringLiteral(R"("kind": "media-generation", "weights_precision": "bf16", "media": {"model": "wan2.1-t2v-14b"},
        "traffic": {"mode": "open-loop", "request_rate_per_s": 0.01}, "slo": {"e2e_p99_s": 3600})")
        << QStringLiteral(R"("usd_per_video_second": 0.06)") << 0.3796875 << false;
    // 256 input tokens x $0.02 per million = $0.00000512 a request; / 0.8 = $0.0000064.
    QTest::newRow("embedding input only")
        << QStringLiteral(R"("kind": "embedding", "model": "bge-large-en-v1.5", "weights_precision": "bf16", "input_tokens": 256,
        "traffic": {"mode": "open-loop", "request_rate_per_s": 10}, "slo": {"e2e_p99_s": 1})")
        << QStringLiteral(R"("usd_per_million_input": 0.02)") << 0.0000064 << false;
    // An output price on an embedding quote (the form wrote one before embeddings billed input only)
    // is not read: the same $0.0000064 (the brief warns api-output-price-ignored).
    QTest::newRow("embedding, output price ignored")
        << QStringLiteral(R"("kind": "embedding", "model": "bge-large-en-v1.5", "weights_precision": "bf16", "input_tokens": 256,
        "traffic": {"mode": "open-loop", "request_rate_per_s": 10}, "slo": {"e2e_p99_s": 1})")
        << QStringLiteral(R"("usd_per_million_input": 0.02, "usd_per_million_output": 5)") << 0.0000064 << false;
    // 100 million tokens trained, an evaluation of 1 million tokens every 25 million: 4 of them,
    // 104 million tokens billed x $0.50 per million = $52 a run; / 0.8 = $65 per accepted run.
    QTest::newRow("managed LoRA")
        << QStringLiteral(R"("kind": "lora", "model": "llama-3.1-8b", "weights_precision": "bf16",
        "training": {"sequence_length": 2048, "micro_batch_size": 2, "tokens": 1e8,
                     "evaluation": {"interval_tokens": 2.5e7, "tokens": 1e6}})")
        << QStringLiteral(R"("usd_per_million_training_tokens": 0.5)") << 65.0 << true;
}

void TestRecommend::apiRoutesBeyondText()
{
    QFETCH(QString, workload);
    QFETCH(QString, api);
    QFETCH(double, perAccepted);
    QFETCH(bool, perRun);
    const QString json = QStringLiteral(R"({"format": "gpu-workbench-brief", "version": 1, "name": "api units",
      "workload": {%1, "acceptance": {"quality_pass_rate": 0.8, "failure_rate": 0}},
      "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 1}],
      "assumptions": {"observability_fraction": 0, "platform_fte_api": 0},
      "cost": {"requests_per_month": 1e8,
               "api": {"provider": "test api", %2, "failure_rate": 0, "observed": "2026-11-01", "source": "hand-worked test"}}})")
                             .arg(workload, api);
    const Brief b = wbtest::parseOrFail(json.toStdString());
    const CostSummary s = summarize(b, {});
    QVERIFY(s.api);
    QCOMPARE(s.api->perRun, perRun);
    QVERIFY2(std::abs(s.api->costPerAcceptedOutput - perAccepted) < 1e-9 * std::max(1.0, perAccepted),
             qPrintable(QString::number(s.api->costPerAcceptedOutput, 'g', 12)));
    QVERIFY(!warns(s, "no-api-price"));
}

// A quote must bill what the brief does, in one unit, and name the field that is wrong.
void TestRecommend::apiQuoteMustBillTheBriefsWork_data()
{
    QTest::addColumn<QString>("workload");
    QTest::addColumn<QString>("api");
    QTest::addColumn<QString>("pointer");
    const QString image = QStringLiteral(R"("kind": "media-generation", "weights_precision": "bf16",
        "media": {"model": "sdxl-1.0-base"}, "traffic": {"mode": "open-loop", "request_rate_per_s": 1})");
    const QString lora = QStringLiteral(R"("kind": "lora", "model": "llama-3.1-8b", "weights_precision": "bf16",
        "training": {"sequence_length": 2048, "tokens": 1e8})");
    QTest::newRow("tokens for images") << image << QStringLiteral(R"("usd_per_million_input": 1, "usd_per_million_output": 1)")
                                       << QStringLiteral("/cost/api/usd_per_million_input");
    QTest::newRow("two units") << image << QStringLiteral(R"("usd_per_image": 0.01, "usd_per_megapixel": 0.01)")
                               << QStringLiteral("/cost/api/usd_per_megapixel");
    // Of two units, the one that does not bill the brief's work is named, wherever it stands.
    QTest::newRow("an image price beside tokens") << image << QStringLiteral(R"("usd_per_million_input": 1, "usd_per_image": 0.01)")
                                                  << QStringLiteral("/cost/api/usd_per_million_input");
    QTest::newRow("an output price alone for images") << image << QStringLiteral(R"("usd_per_million_output": 1)")
                                                      << QStringLiteral("/cost/api/usd_per_million_output");
    QTest::newRow("a blank provider") << image << QStringLiteral(R"("provider": "  ", "usd_per_image": 0.01)")
                                      << QStringLiteral("/cost/api/provider");
    QTest::newRow("no price") << image << QString() << QStringLiteral("/cost/api/usd_per_image");
    QTest::newRow("full fine-tune price for a LoRA")
        << lora << QStringLiteral(R"("usd_per_million_training_tokens": 1, "fine_tuning": "full-finetune")")
        << QStringLiteral("/cost/api/fine_tuning");
    QTest::newRow("output price for a per-image API")
        << image << QStringLiteral(R"("usd_per_image": 0.01, "usd_per_million_output": 1)") << QStringLiteral("/cost/api/usd_per_million_output");
    QTest::newRow("pre-training has no API")
        << QStringLiteral(R"("kind": "training", "model": "llama-3.1-8b", "weights_precision": "bf16",
        "training": {"sequence_length": 2048, "tokens": 1e9})")
        << QStringLiteral(R"("usd_per_million_training_tokens": 1)") << QStringLiteral("/cost/api");
}

void TestRecommend::apiQuoteMustBillTheBriefsWork()
{
    QFETCH(QString, workload);
    QFETCH(QString, api);
    QFETCH(QString, pointer);
    const QString json = QStringLiteral(R"({"format": "gpu-workbench-brief", "version": 1, "name": "bad quote",
      "workload": {%1}, "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 1}],
      "cost": {"api": {%2 "observed": "2026-11-01", "source": "hand-worked test"}}})")
                             .arg(workload, (api.contains(QLatin1String("\"provider\"")) ? QString() : QStringLiteral(R"("provider": "test api", )"))
                                                + (api.isEmpty() ? QString() : api + QStringLiteral(",")));
    const Result<Brief> r = parseBrief(json.toStdString(), "bad.json", wbtest::shippedCatalog());
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error().path), pointer);
}

// Without a quote, the price book's dated prices price each kind's API: the SDXL sample's images
// per image (Dezgo), the LoRA sample's run per training token (Ori, LoRA only); a full fine-tune of
// the same model finds no managed price for its kind of run and says so.
void TestRecommend::priceBookApiRoutes()
{
    const auto sample = [](const char *name) {
        QFile file(QStringLiteral(WB_SOURCE_DIR "/resources/samples/%1.brief.json").arg(QLatin1String(name)));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("no sample brief %s", name);
        return wbtest::parseOrFail(file.readAll().toStdString());
    };
    const Brief sdxl = sample("sdxl-images");
    const CostSummary images = summarize(sdxl, {});
    QVERIFY(images.api);
    QVERIFY(images.api->provider.find("Dezgo") != std::string::npos);
    QCOMPARE(images.api->apiRates.front().first, std::string("usd_per_image"));

    Brief lora = sample("lora-finetune");
    const CostSummary adapters = summarize(lora, {});
    QVERIFY(adapters.api);
    QVERIFY(adapters.api->perRun);
    // 200 million tokens x $0.46 per million = $92 a run; 3% observability on it = $2.76.
    QCOMPARE(adapters.api->totalUsdPerMonth, 94.76);

    lora.workload.kind = WorkloadKind::FullFinetune;
    const CostSummary full = summarize(lora, {});
    QVERIFY(!full.api);
    QVERIFY(warns(full, "no-api-price"));
}

// An API that serves the model at fewer bits than the brief's weights is not quite the model the
// GPUs would run: the price book's DeepInfra "Turbo" endpoints serve Llama 70B in FP8 (their
// model names say so), and a BF16 brief is told, among the reasons when the API is recommended.
// A brief that accepts FP8, or asks for it, is not; nor is an API that does not say.
void TestRecommend::apiAtFewerBitsIsSaid()
{
    QString text = briefText(QStringLiteral(R"({"api_allowed": true})"));
    QVERIFY(text.count(QLatin1String("llama-3.1-8b")) == 1);
    text.replace(QLatin1String("llama-3.1-8b"), QLatin1String("llama-3.1-70b"));
    Brief b = wbtest::parseOrFail(text.toStdString());
    b.cost.api.reset();  // the price book's
    const CostSummary bf16 = summarize(b, {});
    QVERIFY(bf16.api && bf16.api->provider.find("(fp8)") != std::string::npos);
    QVERIFY(warns(bf16, "api-lower-precision"));
    QVERIFY(bf16.recommendation && bf16.recommendation->route == Route::Api);
    QVERIFY(std::any_of(bf16.recommendation->reasons.begin(), bf16.recommendation->reasons.end(),
                        [](const Warning &w) { return w.code == "api-lower-precision" && w.message.find("at fp8") != std::string::npos; }));
    Brief accepting = b;
    accepting.workload.acceptablePrecisions = {Precision::Bf16, Precision::Fp8};
    QVERIFY(!warns(summarize(accepting, {}), "api-lower-precision"));
    Brief fp8 = b;
    fp8.workload.weightsPrecision = Precision::Fp8;
    QVERIFY(!warns(summarize(fp8, {}), "api-lower-precision"));
    // The brief's own quote says nothing of its precision.
    QVERIFY(!warns(summarize(brief(QStringLiteral(R"({"api_allowed": true})")), {}), "api-lower-precision"));
}

// A LoRA whose managed service costs less per accepted run than every GPU option, with the API
// allowed, is sent to the service; the reason names both costs per run.
void TestRecommend::managedFineTuneRecommendedWhenCheaper()
{
    const std::string json = R"({"format": "gpu-workbench-brief", "version": 1, "name": "managed lora",
      "workload": {"kind": "lora", "model": "llama-3.1-8b", "weights_precision": "bf16",
        "training": {"sequence_length": 2048, "micro_batch_size": 2, "tokens": 1e8},
        "acceptance": {"quality_pass_rate": 0.8, "failure_rate": 0}},
      "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 1}],
      "cost": {"decision": {"demand_certainty": "medium", "model_churn": "medium", "api_allowed": true},
               "api": {"provider": "test tuning", "usd_per_million_training_tokens": 0.01, "observed": "2026-11-01",
                       "source": "hand-worked test"}}})";
    const Brief b = wbtest::parseOrFail(json);
    CostOption run = gpuOption(PricingTerm::OnDemand, 50);
    run.perRun = true;
    run.requestsPerMonth = 1;
    run.acceptedOutputsPerMonth = 0.8;
    run.totalUsdPerMonth = 40;
    const CostSummary s = summarize(b, candidates(b, {{run}}));
    QVERIFY(s.recommendation);
    QCOMPARE(s.recommendation->route, Route::Api);
    QVERIFY(s.recommendation->perRun);
    const auto &codes = s.recommendation->reasons;
    QVERIFY(std::any_of(codes.begin(), codes.end(), [](const Message &m) { return m.code == "api-cheapest"; }));
}

// An evaluation is batch inference over a dataset: what it costs is per evaluated record, and the
// recommendation's headline (the Compare page, the Record page, the PDF and the CLI read it) says
// so; an SDXL service is counted in images and a LoRA in runs.
void TestRecommend::evaluationIsCountedInRecords()
{
    const std::string json = R"({"format": "gpu-workbench-brief", "version": 1, "name": "evals",
      "workload": {"kind": "evaluation", "model": "llama-3.1-8b", "weights_precision": "bf16",
        "input_tokens": 1500, "output_tokens": 200, "traffic": {"mode": "offline"},
        "acceptance": {"quality_pass_rate": 0.97, "failure_rate": 0.01}},
      "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 1}],
      "cost": {"requests_per_month": 2000000, "decision": {"api_allowed": false}}})";
    EvaluateOptions o;
    o.today = kToday;
    const Results r = evaluate(wbtest::parseOrFail(json), wbtest::shippedCatalog(), o);
    QVERIFY(r.cost.recommendation);
    QCOMPARE(r.cost.recommendation->unit, std::string("evaluated record"));
    const std::string headline = recommendationHeadline(r);
    QVERIFY2(headline.find(" per evaluated record, $") != std::string::npos, headline.c_str());
    // The reasons, the mistakes, the CLI's cost table and the JSON count in the same unit: a
    // reason that priced "per accepted output" would fail here.
    int perRecord = 0;
    std::vector<Message> messages = r.cost.recommendation->reasons;
    messages.insert(messages.end(), r.cost.warnings.begin(), r.cost.warnings.end());
    for (const Message &m : messages) {
        QVERIFY2(m.message.find("accepted output") == std::string::npos, m.message.c_str());
        perRecord += m.message.find(" per evaluated record") != std::string::npos;
    }
    QVERIFY(perRecord >= 1);  // at least the option's own cost ("option-cost")
    const std::string table = resultsToTable(wbtest::parseOrFail(json), r);
    QVERIFY2(table.find("Cost per evaluated record (USD;") != std::string::npos, table.c_str());
    QVERIFY(table.find("$/accepted: USD per evaluated record.") != std::string::npos);
    const nlohmann::json root = nlohmann::json::parse(resultsToJson(wbtest::parseOrFail(json), r));
    QCOMPARE(root.at("cost").at("accepted_unit").get<std::string>(), std::string("evaluated record"));
    QCOMPARE(root.at("cost").at("recommendation").at("unit").get<std::string>(), std::string("evaluated record"));
    QCOMPARE(r.cost.units, std::string("evaluated records"));
    Workload w;
    w.kind = WorkloadKind::Lora;
    QCOMPARE(acceptedUnit(w), std::string("accepted run"));
    w.kind = WorkloadKind::MediaGeneration;
    w.media.emplace();
    QCOMPARE(acceptedUnit(w), std::string("accepted image"));
    w.media->model.video = true;
    QCOMPARE(acceptedUnit(w), std::string("accepted clip"));
}

QTEST_GUILESS_MAIN(TestRecommend)
#include "tst_recommend.moc"
