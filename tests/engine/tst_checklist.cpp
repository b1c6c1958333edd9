// The vendor checklist's template: the shipped one holds every question of the method's
// procurement checklist, one per bullet, and a malformed template is refused with its field.
#include <core/types.h>
#include <procurement/checklist.h>

#include <QtTest>

#include <QFile>
#include <QRegularExpression>

#include <algorithm>
#include <string>

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

QTEST_GUILESS_MAIN(TestChecklist)
#include "tst_checklist.moc"
