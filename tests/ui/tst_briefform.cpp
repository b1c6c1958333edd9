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
#include <widgets/readablestyle.h>

#include <catalog/prices.h>

#include <QCheckBox>
#include <QDir>
#include <QStyleFactory>
#include <QStyleOptionButton>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
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
    void typedTextIsKeptAndExplained();
    void quoteDialogsSayWhatHoldsThem();
    void untickedBoxesShowOnADarkPalette();
};

// Find Layouts' unticked GPUs and precisions were invisible in dark mode: Fusion frames an unticked
// box a shade darker than the window, on a near-black base. Under ReadableStyle an unticked box on
// a dark palette (base 30, text 230: the screenshots' dark theme) has a frame at least 60 levels
// from the base (it is drawn halfway to the text, about 130).
void TestBriefForm::untickedBoxesShowOnADarkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(37, 37, 38));
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    wb::ReadableStyle style(QStyleFactory::create(QStringLiteral("Fusion")));
    QCheckBox box(QStringLiteral("bf16"));
    box.setStyle(&style);
    box.setPalette(dark);
    box.resize(box.sizeHint());
    const QImage image = box.grab().toImage();
    QStyleOptionButton option;
    option.initFrom(&box);
    const QRect indicator = style.subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
    int farthest = 0;
    for (int y = indicator.top(); y <= indicator.bottom(); ++y)
        for (int x = indicator.left(); x <= indicator.right(); ++x)
            farthest = std::max(farthest, std::abs(QColor(image.pixel(x * image.width() / box.width(),
                                                                      y * image.height() / box.height()))
                                                           .lightness()
                                                       - 30));
    QVERIFY2(farthest >= 60, qPrintable(QString::number(farthest)));
}

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

// What a person types stays in the field as typed, and the message under the form says in words
// what is wrong with it, with bounds written as a person writes them. A QDoubleValidator dropped
// the keystrokes it judged out of place: "1e-6" typed in a whole-number field became "16", "1.5"
// became "1.", and the bound of a field shown in minutes read 0.016666666666666666.
void TestBriefForm::typedTextIsKeptAndExplained()
{
    const wb::Catalog &catalog = wbtest::shippedCatalog();
    const QString dir = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
    const wb::Brief chat = wbtest::parseOrFail(readFile(dir + "chat-70b.brief.json"), catalog);
    wb::BriefForm form(catalog);
    form.resize(1280, 800);
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    form.setBrief(&chat);
    QLabel *message = nullptr;
    for (QLabel *label : form.findChildren<QLabel *>())
        if (label->accessibleName() == QLatin1String("Brief validation message"))
            message = label;
    QVERIFY(message);
    auto *input = qobject_cast<wb::NumberEdit *>(form.field(QStringLiteral("/workload/input_tokens")));
    QVERIFY(input);
    for (const char *typed : {"1e-6", "1.5", "2e3.5", "1,5"}) {
        typeInto(input, QString::fromLatin1(typed));
        QCOMPARE(input->text(), QString::fromLatin1(typed));
        QVERIFY2(!input->problem().isEmpty(), typed);
        QVERIFY(!input->value());
    }
    typeInto(input, QStringLiteral("1.5"));
    QCOMPARE(input->problem(), QStringLiteral("1.5 is not a whole number"));
    // The sample's 2,000 input tokens are kept, the unit in brackets (not "1 tokens").
    QVERIFY2(message->text().contains(QStringLiteral("1.5 is not a whole number; the brief keeps 2,000 (tokens)")),
             qPrintable(message->text()));
    typeInto(input, QStringLiteral("2e3"));  // 2,000 in scientific notation is a whole number
    QVERIFY2(input->problem().isEmpty(), qPrintable(input->problem()));
    QCOMPARE(input->value(), std::optional<double>(2000));
    QCOMPARE(input->text(), QStringLiteral("2e3"));
    typeInto(input, QStringLiteral("12a"));  // a letter no number has is refused as typed
    QCOMPARE(input->text(), QStringLiteral("12"));

    // A label that is no noun ("TTFT p99 ≤:") has a name for messages.
    auto *ttft = qobject_cast<wb::NumberEdit *>(form.field(QStringLiteral("/workload/slo/ttft_p99_s")));
    QVERIFY(ttft);
    typeInto(ttft, QStringLiteral("0"));
    QVERIFY2(message->text().startsWith(QStringLiteral("TTFT p99 target: 0 is not above 0")), qPrintable(message->text()));

    // The checkpoint interval is 1 s to 1e7 s (brief/fields.cpp), shown in minutes: its lower
    // bound is 1/60 min, written to 12 significant digits, 0.0166666666667.
    const wb::Brief pretrain = wbtest::parseOrFail(readFile(dir + "pretrain-70b.brief.json"), catalog);
    form.setBrief(&pretrain);
    auto *interval = qobject_cast<wb::NumberEdit *>(form.field(QStringLiteral("/workload/training/checkpoint/interval_s")));
    QVERIFY(interval && interval->isVisibleTo(&form));
    typeInto(interval, QStringLiteral("0.01"));
    QVERIFY2(interval->problem().contains(QStringLiteral("0.0166666666667 to 166,666.666667")), qPrintable(interval->problem()));
    // Typed as the message writes it, the upper bound (rounded up) is in range and sent as the
    // bound, 1e7 s.
    typeInto(interval, QStringLiteral("166,666.666667"));
    QVERIFY2(interval->problem().isEmpty(), qPrintable(interval->problem()));
    QCOMPARE(interval->value(), std::optional<double>(1e7 / 60));
}

// A quote dialog holds its button until the quote is whole, and a line in the dialog says why,
// naming what is missing apart from what is typed wrong: a price of 0 typed is wrong, not missing.
// A price with more digits than the field's decimals shows them all (0.00001 was shown 0.0000,
// and saved so).
void TestBriefForm::quoteDialogsSayWhatHoldsThem()
{
    wb::PriceQuoteDialog price(wbtest::shippedCatalog(), QStringLiteral("h100-sxm-80gb"));
    price.show();
    QVERIFY(QTest::qWaitForWindowExposed(&price));
    QLabel *message = nullptr;
    for (QLabel *label : price.findChildren<QLabel *>())
        if (label->accessibleName() == QLatin1String("Why the quote cannot be used yet"))
            message = label;
    QVERIFY(message && message->isVisible());
    QPushButton *ok = nullptr;
    for (QPushButton *button : price.findChildren<QPushButton *>())
        if (button->text() == QLatin1String("Add to the brief"))
            ok = button;
    QVERIFY(ok);
    QCOMPARE(message->text(), QStringLiteral("Still missing: the provider, the price, the source."));
    QTest::keyClicks(price.providerEdit(), QStringLiteral("Acme Cloud"));
    QTest::keyClicks(price.sourceEdit(), QStringLiteral("https://example.com/pricing"));
    typeInto(price.amountBox(), QStringLiteral("0"));
    QCOMPARE(message->text(), QStringLiteral("Price: 0 is not above 0."));
    QVERIFY(!ok->isEnabled());
    QCOMPARE(ok->toolTip(), message->text());
    typeInto(price.amountBox(), QStringLiteral("2.49"));
    QVERIFY2(ok->isEnabled(), qPrintable(message->text()));
    QCOMPARE(message->text(), QString());

    wb::ApiQuoteForm api;
    wb::ApiPrice quote;
    quote.provider = "Acme AI";
    quote.usdPerMillionInput = 0.00001;
    quote.usdPerMillionOutput = 0.5;
    quote.observed = "2026-11-01";
    quote.source = "https://example.com/api";
    api.setQuote(quote);
    QVERIFY2(api.complete(), qPrintable((api.missing() + api.wrong()).join(u'|')));
    QVERIFY2(api.json().contains(QStringLiteral("\"usd_per_million_input\":1e-05")), qPrintable(api.json()));
}

QTEST_MAIN(TestBriefForm)
#include "tst_briefform.moc"
