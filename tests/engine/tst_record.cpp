// Decision records: the canonical content and its hash, the decision checked against the
// results, and recomputation: nothing listed when nothing changed, exactly the changed price and
// the cost figures it moves when a catalog price changes.
#include "testsupport.h"

#include <evaluate/evaluate.h>
#include <record/record.h>

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace wb;

namespace {

struct Scenario
{
    std::string briefJson;
    Brief brief;
    Results results;
};

Scenario chat(const Catalog &catalog = wbtest::shippedCatalog())
{
    QFile f(QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no sample");
    Scenario s;
    s.briefJson = f.readAll().toStdString();
    s.brief = wbtest::parseOrFail(s.briefJson, catalog);
    EvaluateOptions o;
    o.today = "2026-12-02";  // prices aged against a fixed day, as a record keeps it
    s.results = evaluate(s.brief, catalog, o);
    return s;
}

RecordInputs inputsOf(const Scenario &s, const Catalog &catalog = wbtest::shippedCatalog())
{
    RecordInputs in;
    in.scenario = "chat";
    in.briefJson = s.briefJson;
    in.brief = &s.brief;
    in.results = &s.results;
    in.catalog = &catalog;
    in.created = "2026-12-02T10:00:00Z";
    return in;
}

// The candidate of the sample on 8x H200 and its on-demand option.
std::size_t h200(const Scenario &s)
{
    for (std::size_t i = 0; i < s.results.results.size(); ++i)
        if (s.results.results[i].candidate.gpu == "h200-sxm-141gb")
            return i;
    qFatal("the sample has no H200 candidate");
}

RecordDecision decided(std::optional<std::size_t> candidate, std::optional<PricingTerm> term)
{
    return {candidate, term, false, "cheapest that meets the SLO", {"Ana Ruiz, finance"}, "2026-12-02"};
}

} // namespace

class TestRecord : public QObject
{
    Q_OBJECT

private slots:
    void contentIsHashedAndReadBack();
    void decisionIsChecked_data();
    void decisionIsChecked();
    void recomputedUnchangedListsNothing();
    void recomputedAfterAPriceChangeListsItAndTheCostsItMoves();
};

void TestRecord::contentIsHashedAndReadBack()
{
    const Scenario s = chat();
    const std::size_t c = h200(s);
    auto content = makeDecisionRecord(inputsOf(s), decided(c, PricingTerm::OnDemand));
    QVERIFY2(content, content ? "" : content.error().toString().c_str());
    auto view = readDecisionRecord(*content, "record");
    QVERIFY(view);
    QVERIFY(view->intact);
    QVERIFY(!view->draft);
    QCOMPARE(view->sha256.size(), std::size_t(64));
    QCOMPARE(view->today, std::string("2026-12-02"));
    QVERIFY(view->decision);
    QCOMPARE(view->decision->candidate, std::optional<std::size_t>(c));
    QCOMPARE(view->decision->term, std::optional<PricingTerm>(PricingTerm::OnDemand));
    QCOMPARE(view->decision->signOff, std::vector<std::string>{"Ana Ruiz, finance"});

    // The recorded figures are the results JSON; the decision carries its option's cost.
    const nlohmann::json j = nlohmann::json::parse(*content);
    const CostOption *onDemand = nullptr;
    for (const CostOption &o : deployment(s.results.results[c]).cost.options)
        if (o.term == PricingTerm::OnDemand)
            onDemand = &o;
    QVERIFY(onDemand);
    QCOMPARE(j["decision"]["usd_per_month"].get<double>(), onDemand->totalUsdPerMonth);
    QCOMPARE(j["decision"]["route"].get<std::string>(), std::string("rent"));
    QVERIFY(j["catalog"]["gpus"].contains("h200-sxm-141gb"));
    QVERIFY(!j["catalog"]["gpus"].contains("rtx-4090-24gb"));  // only what the candidates use

    // Any change to the content breaks the hash: a monthly cost edited by one cent.
    nlohmann::json edited = j;
    edited["decision"]["usd_per_month"] = onDemand->totalUsdPerMonth + 0.01;
    auto tampered = readDecisionRecord(edited.dump(), "record");
    QVERIFY(tampered);
    QVERIFY(!tampered->intact);
    // A record changed by hand into nonsense is refused as damaged when recomputed, not a crash.
    edited["calibration"] = nlohmann::json::array({{{"gpu", 5}, {"factors", "none"}}});
    auto nonsense = readDecisionRecord(edited.dump(), "record");
    QVERIFY(nonsense);
    RecomputeWith with;
    with.catalog = &wbtest::shippedCatalog();
    auto refused = recomputeDecisionRecord(*nonsense, with);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("damaged") != std::string::npos, refused.error().message.c_str());

    // A draft has no decision and says so.
    auto draft = makeDecisionRecord(inputsOf(s), std::nullopt);
    QVERIFY(draft);
    QVERIFY(readDecisionRecord(*draft, "draft")->draft);
    QVERIFY(!readDecisionRecord("{\"format\": \"something else\"}", "x"));
    QVERIFY(!readDecisionRecord("not json", "x"));
}

void TestRecord::decisionIsChecked_data()
{
    QTest::addColumn<int>("candidate");   // -1: the model API
    QTest::addColumn<QString>("term");
    QTest::addColumn<QString>("rationale");
    QTest::addColumn<QString>("signOff");
    QTest::addColumn<QString>("date");
    QTest::addColumn<QString>("field");

    QTest::newRow("no such candidate") << 99 << "on-demand" << "why" << "Ana" << "2026-12-02" << "/decision/candidate";
    QTest::newRow("a term it has no price for") << -2 << "purchase" << "why" << "Ana" << "2026-12-02" << "/decision/term";
    QTest::newRow("the API with a term") << -1 << "on-demand" << "why" << "Ana" << "2026-12-02" << "/decision/route";
    QTest::newRow("no rationale") << -2 << "on-demand" << "  " << "Ana" << "2026-12-02" << "/decision/rationale";
    QTest::newRow("nobody signs") << -2 << "on-demand" << "why" << "" << "2026-12-02" << "/decision/sign_off";
    QTest::newRow("not a date") << -2 << "on-demand" << "why" << "Ana" << "2 Dec 2026" << "/decision/date";
}

void TestRecord::decisionIsChecked()
{
    QFETCH(int, candidate);
    QFETCH(QString, term);
    QFETCH(QString, rationale);
    QFETCH(QString, signOff);
    QFETCH(QString, date);
    QFETCH(QString, field);
    static const Scenario s = chat();
    RecordDecision d;
    if (candidate >= 0)
        d.candidate = std::size_t(candidate);
    else if (candidate == -2)
        d.candidate = h200(s);  // priced on demand only in the sample
    if (!term.isEmpty() && (candidate != -1 || field == QLatin1String("/decision/route")))
        d.term = enumFromString<PricingTerm>(term.toStdString());
    d.rationale = rationale.toStdString();
    if (!signOff.isEmpty())
        d.signOff.push_back(signOff.toStdString());
    d.date = date.toStdString();
    auto content = makeDecisionRecord(inputsOf(s), d);
    QVERIFY(!content);
    QCOMPARE(QString::fromStdString(content.error().path), field);
}

void TestRecord::recomputedUnchangedListsNothing()
{
    const Scenario s = chat();
    auto content = makeDecisionRecord(inputsOf(s), decided(std::nullopt, std::nullopt));
    QVERIFY2(content, content ? "" : content.error().toString().c_str());
    auto view = readDecisionRecord(*content, "record");
    QVERIFY(view);
    RecomputeWith with;
    with.catalog = &wbtest::shippedCatalog();
    auto again = recomputeDecisionRecord(*view, with);
    QVERIFY2(again, again ? "" : again.error().toString().c_str());
    QVERIFY2(again->changes.empty(), recomputationMarkdown(*view, *again).c_str());
    QVERIFY(recomputationMarkdown(*view, *again).find("No differences") != std::string::npos);
}

void TestRecord::recomputedAfterAPriceChangeListsItAndTheCostsItMoves()
{
    const Scenario s = chat();
    const std::size_t c = h200(s);
    auto content = makeDecisionRecord(inputsOf(s), decided(c, PricingTerm::OnDemand));
    QVERIFY(content);
    auto view = readDecisionRecord(*content, "record");
    QVERIFY(view);

    // After the record, the catalog gains a cheaper on-demand H200 offer ($1.00 an hour, under
    // every shipped one), which the cost model picks for the H200 candidate.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("prices.json"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "gpu-workbench-catalog", "version": 1, "prices": [{"gpu": "h200-sxm-141gb", "provider": "Test Cloud, H200", "term": "on-demand",
                "usd_per_gpu_hour": 1.0, "observed": "2026-12-01", "source": "a test"}]})");
    f.close();
    Catalog later = wbtest::shippedCatalog();
    QVERIFY(later.loadFile(file.toStdString()));

    RecomputeWith with;
    with.catalog = &later;
    auto again = recomputeDecisionRecord(*view, with);
    QVERIFY2(again, again ? "" : again.error().toString().c_str());
    const std::string added = "/catalog/prices/h200-sxm-141gb | Test Cloud, H200 | on-demand/";
    int inputs = 0;
    bool priceMoved = false;
    for (const RecordChange &ch : again->changes) {
        if (ch.input) {
            // The one input that changed is that price entry (each of its fields, new).
            QVERIFY2(ch.pointer.rfind(added, 0) == 0, ch.pointer.c_str());
            QCOMPARE(ch.before, std::string("(none)"));
            ++inputs;
            continue;
        }
        // Every figure it moves is a cost: nothing of the fit or the performance.
        QVERIFY2(ch.pointer.find("/fit/") == std::string::npos && ch.pointer.find("/performance/") == std::string::npos,
                 ch.pointer.c_str());
        // (Or the band of a cost: results[].uncertainty["cost. ..."], which the cost carries.)
        QVERIFY2(ch.pointer.find("/cost/") != std::string::npos || ch.pointer.find("/uncertainty/cost.") != std::string::npos
                     || ch.pointer.rfind("/results/warnings/", 0) == 0,
                 ch.pointer.c_str());
        if (ch.pointer == "/results/results/" + std::to_string(c) + "/cost/options/0/usd_per_gpu_hour") {
            QCOMPARE(ch.after, std::string("1.0"));
            priceMoved = true;
        }
    }
    QCOMPARE(inputs, 9);   // the nine fields of a price entry (record.cpp's priceJson)
    QVERIFY2(priceMoved, recomputationMarkdown(*view, *again).c_str());
    // The record itself still shows its original figures.
    QCOMPARE(readDecisionRecord(*content, "record")->resultsJson, view->resultsJson);
}

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
