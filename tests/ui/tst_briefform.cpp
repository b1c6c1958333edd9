// The Brief form against the parser, typed as a person types: in every number field the form
// shows for each shipped sample, a number at each bound of the field's range and one just past it
// is typed with keys; the form accepts it exactly when the parser does not refuse its range (the
// form's ranges are the engine's table, brief/fields.h, for the brief's kind), keeps the text as
// typed, and an accepted number is sent as the edit of that field. The price dialogs read their
// ranges from the same table.

#include "testsupport.h"

#include <brief/fields.h>
#include <dialogs/apiquote.h>
#include <dialogs/pricequote.h>
#include <pages/briefform.h>
#include <pages/brieffields.h>
#include <widgets/numberedit.h>

#include <QDir>
#include <QLineEdit>
#include <QLocale>
#include <QTest>

#include <cmath>

namespace {

std::string readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll().toStdString();
}

// Replaces what a number field shows with typed keys: select all, type.
void typeInto(wb::NumberEdit *number, const QString &text)
{
    number->lineEdit()->setFocus(Qt::TabFocusReason);
    number->lineEdit()->selectAll();
    QTest::keyClicks(number->lineEdit(), text);
}

// The JSON the form sends for a shown number (briefform.cpp: a whole number rounded, any other
// to 12 digits).
QString jsonOf(const wb::brieffields::FieldSpec &spec, double shown)
{
    if (spec.type == wb::brieffields::FieldSpec::Integer)
        return QString::number(std::llround(shown / spec.scale));
    return QString::number(shown / spec.scale, 'g', 12);
}

// A range refusal of the parser (Fields::checkRange, or an assumption's range) for pointer.
bool isRangeError(const wb::Error &e, const std::string &pointer)
{
    if (e.path != pointer)
        return false;
    for (const char *start : {"must be between ", "must be at least ", "must be greater than ", "must be at most ",
                              "must be 0 or more"})
        if (e.message.starts_with(start) && e.message.find(", not ") != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestBriefForm : public QObject
{
    Q_OBJECT

private slots:
    void typedBoundsAgreeWithParser();
    void quoteFormsTakeThePriceRanges();
};

void TestBriefForm::typedBoundsAgreeWithParser()
{
    const wb::Catalog &catalog = wbtest::shippedCatalog();
    const std::vector<wb::brieffields::FieldSpec> specs = wb::brieffields::fieldSpecs(catalog);
    const QDir dir(QStringLiteral(WB_SOURCE_DIR "/resources/samples"));
    const QLocale locale;
    int typed = 0, accepted = 0;
    for (const QString &name : dir.entryList({QStringLiteral("*.brief.json")}, QDir::Files, QDir::Name)) {
        const std::string text = readFile(dir.filePath(name));
        const wb::Brief brief = wbtest::parseOrFail(text, catalog);
        wb::BriefForm form(catalog);
        form.resize(1280, 800);
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));
        form.setBrief(&brief);
        std::vector<std::vector<wb::BriefPatch>> edits;
        connect(&form, &wb::BriefForm::edit, this,
                [&edits](const std::vector<wb::BriefPatch> &patches, const QString &) { edits.push_back(patches); });
        for (const wb::brieffields::FieldSpec &spec : specs) {
            auto *number = qobject_cast<wb::NumberEdit *>(form.field(spec.pointer));
            if (!number || !number->isVisibleTo(&form))
                continue;
            const std::string pointer = spec.pointer.toStdString();
            const wb::FieldRow &row = wb::briefFields().at(pointer, brief.workload.kind);
            // The bounds as shown, typeable: whole numbers, or 9 decimals rounded inwards.
            const bool whole = spec.type == wb::brieffields::FieldSpec::Integer;
            const double q = whole ? 1 : 1e9;
            std::vector<double> values;
            if (std::isfinite(row.min)) {
                const double low = row.min * spec.scale;
                const double at = row.minExclusive ? std::floor(low * q) / q + 1 / q : std::ceil(low * q - 1e-6) / q;
                values.push_back(at);
                values.push_back(row.minExclusive ? low : std::floor((at - std::max(1 / q, std::abs(at) * 0.01)) * q) / q);
            }
            if (std::isfinite(row.max)) {
                const double at = std::floor(row.max * spec.scale * q + 1e-6) / q;
                values.push_back(at);
                values.push_back(std::ceil((at + std::max(1 / q, std::abs(at) * 0.01)) * q) / q);
            }
            for (const double shown : values) {
                const QString keys = whole ? QString::number(qint64(shown))
                                           : locale.toString(shown, 'f', QLocale::FloatingPointShortest);
                const QString what = name + ": " + spec.pointer + " typed " + keys;
                edits.clear();
                typeInto(number, keys);
                ++typed;
                QCOMPARE(number->text(), keys);  // nothing the validator dropped or rewrote
                const QString json = jsonOf(spec, shown);
                auto parsed = wb::patchBrief(text, pointer, json.toStdString(), catalog);
                const bool parserTakesRange = parsed || !isRangeError(parsed.error(), pointer);
                QVERIFY2(number->problem().isEmpty() == parserTakesRange,
                         qPrintable(what + " -> form: " + (number->problem().isEmpty() ? "accepted" : number->problem())
                                    + ", parser: "
                                    + (parsed ? QString("accepted") : QString::fromStdString(parsed.error().toString()))));
                if (parserTakesRange) {
                    ++accepted;
                    QVERIFY2(!edits.empty(), qPrintable(what + " -> no edit sent"));
                    const std::vector<wb::BriefPatch> &patches = edits.back();
                    QCOMPARE(patches.size(), std::size_t(1));
                    QCOMPARE(patches.front().pointer, pointer);
                    QCOMPARE(QString::fromStdString(patches.front().valueJson), json);
                }
                form.setBrief(&brief);
            }
        }
    }
    qInfo("%d numbers typed, %d in range", typed, accepted);
    QVERIFY(typed > 100);
}

// The price dialogs' numbers take the ranges of a brief's price entry: a price must be above 0
// (a free GPU-hour is a typing slip the parser refuses), a share of the commitment at most 100 %,
// an API's failures below 99.9 % (cost/prices.cpp's rows).
void TestBriefForm::quoteFormsTakeThePriceRanges()
{
    const auto field = [](QWidget *form, const char *name) {
        for (auto *number : form->findChildren<wb::NumberEdit *>())
            if (number->accessibleName() == QLatin1String(name))
                return number;
        qFatal("no field %s", name);
    };
    wb::PriceQuoteDialog price(wbtest::shippedCatalog(), QStringLiteral("h100-sxm-80gb"));
    price.show();
    QVERIFY(QTest::qWaitForWindowExposed(&price));
    wb::NumberEdit *amount = field(&price, "Price");
    typeInto(amount, QStringLiteral("0"));
    QVERIFY2(!amount->problem().isEmpty(), "a price of 0 accepted");
    typeInto(amount, QStringLiteral("0.01"));
    QVERIFY2(amount->problem().isEmpty(), qPrintable(amount->problem()));
    wb::NumberEdit *upfront = field(&price, "Paid up front");
    typeInto(upfront, QStringLiteral("100"));
    QVERIFY2(upfront->problem().isEmpty(), qPrintable(upfront->problem()));
    typeInto(upfront, QStringLiteral("100.5"));
    QVERIFY(!upfront->problem().isEmpty());

    wb::ApiQuoteForm api;
    api.show();
    QVERIFY(QTest::qWaitForWindowExposed(&api));
    wb::NumberEdit *failure = field(&api, "Failure rate");
    typeInto(failure, QStringLiteral("99.9"));
    QVERIFY2(failure->problem().isEmpty(), qPrintable(failure->problem()));
    typeInto(failure, QStringLiteral("99.95"));
    QVERIFY(!failure->problem().isEmpty());
}

QTEST_MAIN(TestBriefForm)
#include "tst_briefform.moc"
