// The vendor checklist's template: the shipped one holds every question of the method's
// procurement checklist, one per bullet, and a malformed template is refused with its field.
#include <core/types.h>
#include <procurement/checklist.h>
#include <procurement/gate.h>
#include <procurement/vendors.h>

#include <QtTest>

#include <QFile>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <core/hash.h>

using namespace wb;

namespace {

// A minimal valid template: two sections of one item each. %1 replaces the items.
const char *kTemplate = R"({"format": "gpu-workbench-checklist", "version": 1, "template_version": "t1",
  "source": "test", "commitment_levels": ["on-demand", "reserved", "purchase", "dedicated-cluster"],
  "sections": [{"id": "a", "title": "A", "title_es": "A"}, {"id": "b", "title": "B", "title_es": "B"}],
  "items": [%1]})";

const char *kItemA = R"({"id": "a1", "section": "a", "question": "Q?", "question_es": "P", "evidence": "E", "required_from": "on-demand"})";
const char *kItemB = R"({"id": "b1", "section": "b", "question": "Q?", "question_es": "P", "evidence": "E", "required_from": "purchase"})";

std::string withItems(const QString &items)
{
    return QString::fromLatin1(kTemplate).arg(items).toStdString();
}

} // namespace

class TestChecklist : public QObject
{
    Q_OBJECT

private slots:
    void shippedTemplateHasEveryQuestion();
    void spanishTextIsTheMethods();
    void minimalTemplateReads();
    void badTemplate_data();
    void badTemplate();
    void answersRoundTrip();
    void badAnswers_data();
    void badAnswers();
    void gapsGrowWithTheCommitment();
    void purchaseIsSubjectToEvidenceUntilAnswered();
    void rentingIsNotGated();
    void teamItemsJoinTheirSection();
    void csvNeutralisesFormulas();
    void sha256OfKnownText();
    void answersBearOnFigures();
};

// The method's checklist has four sections of five bullets (the seed guide, "La lista de
// verificación de adquisición"); the template keeps them in order, one item per bullet. Required
// from on-demand: the GPU and node, the interconnect, the software versions, the access model,
// the serving stacks, the offer, the extra costs and idle billing (8 of 20); from a reservation
// all but the compliance evidence (19), which a purchase adds (20).
void TestChecklist::shippedTemplateHasEveryQuestion()
{
    const auto t = loadChecklistTemplate();
    QVERIFY2(t, t ? "" : t.error().toString().c_str());
    QCOMPARE(t->sections.size(), std::size_t(4));
    const char *sections[] = {"hardware", "software", "commercial", "security"};
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(t->sections[i].id, std::string(sections[i]));
        QCOMPARE(std::count_if(t->items.begin(), t->items.end(), [&](const ChecklistItem &item) { return item.section == sections[i]; }),
                 5L);
    }
    QCOMPARE(t->items.size(), std::size_t(20));
    const auto required = [&](Commitment c) {
        return std::count_if(t->items.begin(), t->items.end(), [&](const ChecklistItem &i) { return i.requiredFor(c); });
    };
    QCOMPARE(required(Commitment::OnDemand), 8L);
    QCOMPARE(required(Commitment::Reserved), 19L);
    QCOMPARE(required(Commitment::Purchase), 20L);
    QCOMPARE(required(Commitment::DedicatedCluster), 20L);
    // Two bullets copied by hand from the seed: the first of the hardware section and the last of
    // the commercial one.
    QCOMPARE(t->item("hw-gpu-node")->questionEs, std::string("Modelo exacto de GPU, capacidad de memoria, forma del nodo y GPUs por nodo."));
    QCOMPARE(t->item("co-idle")->questionEs,
             std::string("Si la capacidad ociosa se factura y cómo funciona la automatización del apagado."));
    QVERIFY(!t->templateVersion.empty());
}

// Where the seed guide is at hand (the shared folder beside the checkout), every bullet of its
// checklist section is an item's Spanish text, in order.
void TestChecklist::spanishTextIsTheMethods()
{
    QFile seed(QStringLiteral(WB_SHARED_DIR "/seed/guia-seleccion-gpu-ia.txt"));
    if (!seed.open(QIODevice::ReadOnly))
        QSKIP("the seed guide is not beside this checkout");
    const QString text = QString::fromUtf8(seed.readAll());
    const qsizetype from = text.indexOf(QStringLiteral("La lista de verificación de adquisición\n"));
    const qsizetype to = text.indexOf(QStringLiteral("Plan de benchmark"), from);
    QVERIFY(from >= 0 && to > from);
    QStringList bullets;
    for (const QString &line : text.mid(from, to - from).split(u'\n'))
        if (line.startsWith(QStringLiteral("• ")))
            bullets << line.mid(2).trimmed();
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    QCOMPARE(qsizetype(t->items.size()), bullets.size());
    for (qsizetype i = 0; i < bullets.size(); ++i)
        QCOMPARE(QString::fromStdString(t->items[std::size_t(i)].questionEs), bullets[i]);
}

void TestChecklist::minimalTemplateReads()
{
    const auto t = parseChecklistTemplate(withItems(QStringLiteral("%1, %2").arg(QLatin1String(kItemA), QLatin1String(kItemB))), "t.json");
    QVERIFY2(t, t ? "" : t.error().toString().c_str());
    QCOMPARE(t->items.size(), std::size_t(2));
    QVERIFY(!t->item("b1")->requiredFor(Commitment::Reserved));
    QVERIFY(t->item("b1")->requiredFor(Commitment::DedicatedCluster));
}

void TestChecklist::badTemplate_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    const QString a = QLatin1String(kItemA), b = QLatin1String(kItemB);
    const auto items = [](const QString &list) { return QString::fromStdString(withItems(list)); };
    QTest::newRow("duplicate id") << items(a + u',' + a + u',' + b) << "/items/1/id" << "\"a1\" appears twice";
    QTest::newRow("unknown section") << items(a + u',' + QString(b).replace(QLatin1String("\"b\""), QLatin1String("\"c\"")))
                                     << "/items/1/section" << "is not one of the template's sections";
    QTest::newRow("empty evidence") << items(QString(a).replace(QLatin1String("\"E\""), QLatin1String("\" \"")) + u',' + b)
                                    << "/items/0/evidence" << "is empty";
    QTest::newRow("unknown commitment") << items(QString(a).replace(QLatin1String("on-demand"), QLatin1String("forever")) + u',' + b)
                                        << "/items/0/required_from" << "unknown value \"forever\"";
    QTest::newRow("section split")
        << items(a + u',' + b + u',' + QString(a).replace(QLatin1String("a1"), QLatin1String("a2")))
        << "/items/2/section" << "\"a\" items must be listed together";
    QTest::newRow("section without items") << items(a) << "/items" << "section \"b\" has no item";
    QTest::newRow("id with a space") << items(QString(a).replace(QLatin1String("a1"), QLatin1String("a 1")) + u',' + b)
                                     << "/items/0/id" << "must be 1 to 64 letters";
    QString levels = items(a + u',' + b);
    levels.replace(QLatin1String("\"reserved\", \"purchase\""), QLatin1String("\"purchase\", \"reserved\""));
    QTest::newRow("levels out of order") << levels << "/commitment_levels/1" << "in that order";
    QTest::newRow("not a checklist") << QStringLiteral("[1]") << "" << "a JSON object is expected";
}

void TestChecklist::badTemplate()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    QFETCH(QString, message);
    const auto t = parseChecklistTemplate(json.toStdString(), "bad.json");
    QVERIFY(!t);
    QCOMPARE(QString::fromStdString(t.error().file), QStringLiteral("bad.json"));
    QCOMPARE(QString::fromStdString(t.error().path), path);
    QVERIFY2(QString::fromStdString(t.error().message).contains(message), t.error().message.c_str());
}

namespace {

// A vendor answering every item of a template the same way, dated, with or without a link.
Vendor answering(const ChecklistTemplate &t, const std::string &name, Answer answer, bool evidence)
{
    Vendor v;
    v.name = name;
    v.offer = VendorOffer::Purchase;
    v.providers = {"Acme Systems"};
    for (const ChecklistItem &item : t.items) {
        VendorAnswer a;
        a.answer = answer;
        a.text = "answered";
        a.link = evidence ? "https://example.com/" + item.id : "";
        a.answeredOn = "2026-11-20";
        a.answeredBy = "R. Vendor";
        v.setAnswer(t, item.id, a);
    }
    return v;
}

// Results recommending a purchase of candidate 1 from Acme Systems: the gate reads only the
// recommendation.
Results purchaseResults(PricingTerm term = PricingTerm::Purchase, Route route = Route::Buy)
{
    Results r;
    Recommendation rec;
    rec.route = route;
    rec.candidate = 0;
    rec.term = term;
    rec.provider = "Acme Systems";
    r.cost.recommendation = rec;
    return r;
}

const Warning *gateWarning(const Results &r)
{
    for (const Warning &w : r.cost.warnings)
        if (w.code == "checklist-evidence-missing")
            return &w;
    return nullptr;
}

} // namespace

// A checklist written as an answers file reads back as the same vendors and answers (merged
// into an empty checklist), attachments and dates included.
void TestChecklist::answersRoundTrip()
{
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    ProjectChecklist c;
    c.templateVersion = t->templateVersion;
    Vendor a = answering(*t, "Acme Systems", Answer::Yes, true);
    a.candidates = {{"Chat", 2}};
    a.contact = "sales@acme.example";
    a.contacted = "2026-11-01";
    a.notes = "Quote Q-17, valid 30 days";
    a.setAnswer(*t, "co-idle", std::nullopt);  // one left unanswered
    VendorAnswer withFile = *a.answer("hw-host");
    withFile.file = Attachment{"host-spec.pdf", std::string(64, 'a'), 1234};
    a.setAnswer(*t, "hw-host", withFile);
    c.vendors.push_back(a);
    c.vendors.push_back(answering(*t, "Cloud \"B\", EU", Answer::Partial, false));

    // Null evidence entries are absent ones.
    const auto nulls = parseAnswersFile(
        R"({"format": "gpu-workbench-checklist-answers", "version": 1, "vendors": [{"name": "N", "offer": "purchase"}],
            "items": [{"id": "hw-host", "answers": {"N": {"answer": "yes", "evidence_file": null, "attachment": null}}}]})",
        "nulls.json", *t);
    QVERIFY2(nulls, nulls ? "" : nulls.error().toString().c_str());
    QVERIFY(nulls->files.empty() && !nulls->vendors[0].answers[0].file);

    const std::string json = answersToJson(*t, c);
    const auto read = parseAnswersFile(json, "answers.json", *t);
    QVERIFY2(read, read ? "" : read.error().toString().c_str());
    ProjectChecklist back;
    back.templateVersion = t->templateVersion;
    mergeAnswers(back, *t, *read);
    QVERIFY(back == c);
    QVERIFY(!back.vendor("Acme Systems")->answer("co-idle"));
    QCOMPARE(back.vendor("Acme Systems")->answer("hw-host")->file->name, std::string("host-spec.pdf"));
    QVERIFY(read->files.empty());

    // Exported for one vendor: the other is not in the file, and every item still is.
    const auto one = nlohmann::json::parse(answersToJson(*t, c, "Acme Systems"));
    QCOMPARE(one["vendors"].size(), std::size_t(1));
    QCOMPARE(one["items"].size(), t->items.size());
    QVERIFY(one["items"][0]["answers"].contains("Acme Systems"));
    // An empty checklist still lists the template's items, each with its question and level.
    const auto empty = nlohmann::json::parse(answersToJson(*t, ProjectChecklist{}));
    QCOMPARE(empty["items"].size(), std::size_t(20));
    QCOMPARE(empty["items"][19]["required_from"].get<std::string>(), std::string("reserved"));
}

void TestChecklist::badAnswers_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    const QString head = QStringLiteral(R"({"format": "gpu-workbench-checklist-answers", "version": 1, "vendors": [%1], "items": [%2]})");
    const QString acme = QStringLiteral(R"({"name": "Acme", "offer": "purchase"})");
    const auto file = [&](const QString &vendors, const QString &items) { return head.arg(vendors, items); };
    const auto item = [](const QString &answer) {
        return QStringLiteral(R"({"id": "hw-host", "answers": {"Acme": %1}})").arg(answer);
    };
    QTest::newRow("unknown answer") << file(acme, item(QStringLiteral(R"({"answer": "maybe"})")))
                                    << "/items/0/answers/Acme/answer" << "unknown value \"maybe\"";
    QTest::newRow("unknown item") << file(acme, QStringLiteral(R"({"id": "hw-nothing", "answers": {}})"))
                                  << "/items/0/id" << "is not a question of this project's checklist";
    QTest::newRow("answer for a stranger") << file(acme, QStringLiteral(R"({"id": "hw-host", "answers": {"Other": null}})"))
                                           << "/items/0/answers/Other" << "who is not one of the file's vendors";
    QTest::newRow("bad date") << file(acme, item(QStringLiteral(R"({"answer": "yes", "answered_on": "20/11/2026"})")))
                              << "/items/0/answers/Acme/answered_on" << "must be a date as YYYY-MM-DD";
    QTest::newRow("unknown offer") << file(QStringLiteral(R"({"name": "Acme", "offer": "cheap"})"), QString())
                                   << "/vendors/0/offer" << "unknown value \"cheap\"";
    QTest::newRow("name with a line break") << file(QStringLiteral(R"({"name": "Ac\nme", "offer": "purchase"})"), QString())
                                            << "/vendors/0/name" << "control character";
    QTest::newRow("vendor twice") << file(acme + u',' + acme, QString()) << "/vendors/1/name" << "appears twice";
    QTest::newRow("item twice") << file(acme, item(QStringLiteral("null")) + u',' + item(QStringLiteral("null")))
                                << "/items/1/id" << "appears twice";
    QTest::newRow("typo in a field") << file(acme, item(QStringLiteral(R"({"answer": "yes", "evidence": "x"})")))
                                     << "/items/0/answers/Acme/evidence" << "is not an answer field";
    QTest::newRow("bad hash") << file(acme, item(QStringLiteral(
                                                R"({"answer": "yes", "attachment": {"name": "a.pdf", "sha256": "xyz", "bytes": 3}})")))
                              << "/items/0/answers/Acme/attachment/sha256" << "64 lower-case hexadecimal digits";
    QTest::newRow("no vendors") << file(QString(), QString()) << "/vendors" << "is empty";
    QTest::newRow("date with spaces") << file(acme, item(QStringLiteral(R"({"answer": "yes", "answered_on": "2026- 1- 1"})")))
                                      << "/items/0/answers/Acme/answered_on" << "must be a date as YYYY-MM-DD";
    QTest::newRow("escape in the text") << file(acme, item(QStringLiteral(R"({"answer": "yes", "text": "a\u001b]0;x\u0007"})")))
                                        << "/items/0/answers/Acme/text" << "control character (U+001B)";
    QTest::newRow("C1 control in a link") << file(acme, item(QStringLiteral(R"({"answer": "yes", "evidence_link": "a\u009bb"})")))
                                          << "/items/0/answers/Acme/evidence_link" << "control character (U+009B)";
    QTest::newRow("bidi override in a name")
        << file(QStringLiteral(R"({"name": "Acme\u202Etxt.exe", "offer": "purchase"})"), QString()) << "/vendors/0/name"
        << "bidirectional override (U+202E)";
    QTest::newRow("invisible name") << file(QStringLiteral(R"({"name": "\u200B\u200B", "offer": "purchase"})"), QString())
                                    << "/vendors/0/name" << "only invisible characters";
    QTest::newRow("misspelt answers") << file(acme, QStringLiteral(R"({"id": "hw-host", "answer": {"Acme": {"answer": "yes"}}})"))
                                      << "/items/0/answer" << "is not a field of an item";
    QTest::newRow("unknown top-level field") << head.arg(acme, QString()).replace(QLatin1String("\"version\": 1"), QLatin1String("\"version\": 1, \"vendor\": {}"))
                                             << "/vendor" << "is not a field of an answers file";
    QTest::newRow("slash in a vendor name")
        << file(QStringLiteral(R"({"name": "a/b~c", "offer": "purchase"})"),
                QStringLiteral(R"({"id": "hw-host", "answers": {"a/b~c": {"answer": "maybe"}}})"))
        << "/items/0/answers/a~1b~0c/answer" << "unknown value \"maybe\"";
    QTest::newRow("wrong format") << QStringLiteral(R"({"format": "gpu-workbench-brief", "version": 1})") << "/format"
                                  << "must be \"gpu-workbench-checklist-answers\"";
}

void TestChecklist::badAnswers()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    QFETCH(QString, message);
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    const auto read = parseAnswersFile(json.toStdString(), "vendor.json", *t);
    QVERIFY(!read);
    QCOMPARE(QString::fromStdString(read.error().file), QStringLiteral("vendor.json"));
    QCOMPARE(QString::fromStdString(read.error().path), path);
    QVERIFY2(QString::fromStdString(read.error().message).contains(message), read.error().message.c_str());
}

// Reserved: the 19 items required from a reservation must be answered; unknown leaves them
// missing. From a purchase on, each needs evidence as well (not-applicable excepted).
void TestChecklist::gapsGrowWithTheCommitment()
{
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    const Vendor none = answering(*t, "V", Answer::Unknown, false);
    QCOMPARE(vendorGaps(*t, none, Commitment::OnDemand).missing.size(), std::size_t(8));
    QCOMPARE(vendorGaps(*t, none, Commitment::Reserved).missing.size(), std::size_t(19));
    QCOMPARE(vendorGaps(*t, none, Commitment::Purchase).missing.size(), std::size_t(20));
    const Vendor said = answering(*t, "V", Answer::No, false);
    QVERIFY(vendorGaps(*t, said, Commitment::Reserved).empty());
    QCOMPARE(vendorGaps(*t, said, Commitment::Purchase).unbacked.size(), std::size_t(20));
    // Not applicable needs its reason (the answer's text) from a purchase on; answering() writes one.
    Vendor na = answering(*t, "V", Answer::NotApplicable, false);
    QVERIFY(vendorGaps(*t, na, Commitment::DedicatedCluster).empty());
    VendorAnswer bare = *na.answer("hw-host");
    bare.text = " ";
    na.setAnswer(*t, "hw-host", bare);
    QCOMPARE(vendorGaps(*t, na, Commitment::Purchase).unbacked, std::vector<std::string>{"hw-host"});
    // A blank link is no evidence.
    Vendor blank = answering(*t, "V", Answer::Yes, false);
    VendorAnswer spaces = *blank.answer("hw-host");
    spaces.link = "  ";
    blank.setAnswer(*t, "hw-host", spaces);
    QCOMPARE(standing(*t->item("hw-host"), blank.answer("hw-host"), Commitment::Purchase), Standing::Unbacked);
    QCOMPARE(standing(*t->item("hw-host"), blank.answer("hw-host"), Commitment::Reserved), Standing::Met);
    QCOMPARE(standing(*t->item("se-compliance"), nullptr, Commitment::Reserved), Standing::NotRequired);
    QVERIFY(vendorGaps(*t, answering(*t, "V", Answer::Yes, true), Commitment::DedicatedCluster).empty());
    const ChecklistProgress p = vendorProgress(*t, answering(*t, "V", Answer::Partial, false), "hardware");
    QCOMPARE(p.items, 5);
    QCOMPARE(p.answered, 5);
}

// The done-when case: a purchase whose vendor has unanswered required items warns, naming them,
// and stands "subject to evidence"; answering them (with evidence, a purchase's level) clears it.
void TestChecklist::purchaseIsSubjectToEvidenceUntilAnswered()
{
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    // No vendor at all backs the option: all 20 items a purchase requires are missing.
    Results r = purchaseResults();
    gateByChecklist(r, "Chat", *t, ProjectChecklist{});
    QVERIFY(r.cost.recommendation->evidence);
    QCOMPARE(r.cost.recommendation->evidence->missing.size(), std::size_t(20));
    QVERIFY(gateWarning(r));
    QVERIFY(QString::fromStdString(gateWarning(r)->message).contains(QLatin1String("no vendor")));

    // The vendor answered everything but two items, and backed every answer.
    ProjectChecklist c;
    Vendor acme = answering(*t, "Acme", Answer::Yes, true);
    acme.setAnswer(*t, "se-compliance", std::nullopt);
    VendorAnswer unknown = *acme.answer("hw-replacement");
    unknown.answer = Answer::Unknown;
    acme.setAnswer(*t, "hw-replacement", unknown);
    VendorAnswer bare = *acme.answer("co-idle");
    bare.link.clear();
    acme.setAnswer(*t, "co-idle", bare);
    c.vendors.push_back(acme);
    r = purchaseResults();
    gateByChecklist(r, "Chat", *t, c);
    const std::optional<EvidenceGate> &gate = r.cost.recommendation->evidence;
    QVERIFY(gate);
    QCOMPARE(gate->vendor, std::string("Acme"));
    QCOMPARE(gate->commitment, Commitment::Purchase);
    QCOMPARE(gate->missing.size(), std::size_t(2));
    QCOMPARE(gate->unbacked.size(), std::size_t(1));
    const QString message = QString::fromStdString(gateWarning(r)->message);
    QVERIFY2(message.contains(QLatin1String("hw-replacement")) && message.contains(QLatin1String("se-compliance")) &&
                 message.contains(QLatin1String("co-idle")),
             qPrintable(message));
    QVERIFY(QString::fromStdString(r.cost.recommendation->reasons.back().message).startsWith(QLatin1String("subject to evidence")));

    // The same vendor reserved (not bought): evidence is not yet required, so only the two
    // unanswered items remain; compliance evidence is required from a purchase only.
    r = purchaseResults(PricingTerm::Reserved1y, Route::Reserve);
    gateByChecklist(r, "Chat", *t, c);
    QCOMPARE(r.cost.recommendation->evidence->missing, std::vector<std::string>{"hw-replacement (" + t->item("hw-replacement")->question + ")"});
    QVERIFY(r.cost.recommendation->evidence->unbacked.empty());

    // Answered: the warning and the gate are gone.
    c.vendors[0] = answering(*t, "Acme", Answer::Yes, true);
    r = purchaseResults();
    gateByChecklist(r, "Chat", *t, c);
    QVERIFY(!r.cost.recommendation->evidence);
    QVERIFY(!gateWarning(r));
}

// Renting on demand or spot, and the API, commit to nothing the checklist gates; a dedicated
// cluster's price makes a reservation a dedicated-cluster commitment.
void TestChecklist::rentingIsNotGated()
{
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    Results r = purchaseResults(PricingTerm::OnDemand, Route::Rent);
    gateByChecklist(r, "Chat", *t, ProjectChecklist{});
    QVERIFY(!r.cost.recommendation->evidence);
    QVERIFY(r.cost.warnings.empty());
    Recommendation rec = *purchaseResults(PricingTerm::Reserved3y, Route::Reserve).cost.recommendation;
    QCOMPARE(commitmentOf(rec, nullptr), std::optional<Commitment>(Commitment::Reserved));
    rec.offer = Offer::DedicatedCluster;
    QCOMPARE(commitmentOf(rec, nullptr), std::optional<Commitment>(Commitment::DedicatedCluster));
}

void TestChecklist::teamItemsJoinTheirSection()
{
    const auto shipped = loadChecklistTemplate();
    QVERIFY(shipped);
    ProjectChecklist c;
    c.extraSections.push_back({"energy", "Energy", "Energía"});
    c.extraItems.push_back({"en-pue", "energy", "What PUE does the site run at?", "", "A metered report", Commitment::Purchase, "", ""});
    c.extraItems.push_back({"hw-rails", "hardware", "Are rails included?", "", "The quote", Commitment::Purchase, "", ""});
    const ChecklistTemplate t = projectTemplate(*shipped, c);
    QCOMPARE(t.items.size(), std::size_t(22));
    QCOMPARE(t.items[5].id, std::string("hw-rails"));  // after the five hardware items
    QCOMPARE(t.items.back().id, std::string("en-pue"));
    QCOMPARE(t.sections.back().id, std::string("energy"));
}

void TestChecklist::csvNeutralisesFormulas()
{
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    ProjectChecklist c;
    Vendor v = answering(*t, "=HYPERLINK(\"x\")", Answer::Yes, false);
    VendorAnswer a = *v.answer("hw-host");
    a.text = "+1 GPU, spare\nnext line";
    v.setAnswer(*t, "hw-host", a);
    c.vendors.push_back(v);
    const QString csv = QString::fromStdString(checklistToCsv(*t, c));
    const QStringList lines = csv.split(QStringLiteral("\r\n"));
    QVERIFY(lines[0].contains(QStringLiteral("\"'=HYPERLINK(\"\"x\"\") answer\"")));
    QVERIFY(csv.contains(QStringLiteral("\"'+1 GPU, spare\nnext line\"")));
    QCOMPARE(lines.size(), 22);  // header, 20 items, the empty string after the last line break
}

// SHA-256 of "abc", FIPS 180-2 appendix B.1.
void TestChecklist::sha256OfKnownText()
{
    QCOMPARE(sha256Hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

// The shipped template marks four questions as bearing on figures; a vendor that backs a
// candidate (listed, or through the provider of one of its prices) has its answers to them
// shown beside that candidate's figures, and only its.
void TestChecklist::answersBearOnFigures()
{
    const auto t = loadChecklistTemplate();
    QVERIFY(t);
    QCOMPARE(t->item("hw-interconnect")->affects, std::string("performance"));
    QCOMPARE(t->item("hw-gpu-node")->affects, std::string("fit"));
    QCOMPARE(t->item("co-idle")->affects, std::string("cost"));
    QCOMPARE(t->item("hw-host")->affects, std::string("cost"));
    QCOMPARE(std::count_if(t->items.begin(), t->items.end(), [](const ChecklistItem &i) { return !i.affects.empty(); }), 4L);

    Results r;
    r.results.resize(2);
    CostOption priced;
    priced.provider = "Acme Systems";
    r.results[1].cost.options.push_back(priced);
    ProjectChecklist c;
    Vendor listed = answering(*t, "Listed", Answer::Partial, false);
    listed.providers.clear();
    listed.candidates = {{"Chat", 1}};
    c.vendors.push_back(listed);
    c.vendors.push_back(answering(*t, "Acme", Answer::Yes, true));  // backs "Acme Systems" prices
    Vendor stranger = answering(*t, "Stranger", Answer::No, false);
    stranger.providers = {"Someone else"};
    c.vendors.push_back(stranger);
    const std::vector<VendorNote> notes = vendorNotes(r, "Chat", *t, c);
    QCOMPARE(notes.size(), std::size_t(8));  // four questions, two vendors
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(notes[i].candidate, std::size_t(0));
        QCOMPARE(notes[i].vendor, std::string("Listed"));
        QCOMPARE(notes[i].answer, std::string("partial"));
        QCOMPARE(notes[4 + i].candidate, std::size_t(1));
        QCOMPARE(notes[4 + i].vendor, std::string("Acme"));
    }
    QCOMPARE(notes[1].item, std::string("hw-interconnect"));
    QCOMPARE(notes[1].figures, std::string("performance"));
    // Another scenario's candidate 1 is not this one.
    QCOMPARE(vendorNotes(r, "Batch", *t, c).size(), std::size_t(4));
}

QTEST_GUILESS_MAIN(TestChecklist)
#include "tst_checklist.moc"
