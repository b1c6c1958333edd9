// The spreadsheet exports: the workbook's sheets built from the engine's results, written as XLSX
// and read back (unzip + the sheet XML) to check that the numbers are numbers, equal to the
// engine's; cost lines that add up to their totals; formula-like text kept as text; failures that
// name the file and leave nothing half-written.
#include "testsupport.h"

#include <evaluate/evaluate.h>
#include <procurement/vendors.h>
#include <report/labels.h>
#include <report/report.h>
#include <report/xlsx.h>

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

using namespace wb;

namespace {

QByteArray unzipped(const QString &xlsx, const QString &member)
{
    QProcess unzip;
    unzip.start(QStringLiteral("unzip"), {QStringLiteral("-p"), xlsx, member});
    if (!unzip.waitForFinished(30000) || unzip.exitCode() != 0)
        return {};
    return unzip.readAllStandardOutput();
}

QString columnLetters(std::size_t column)
{
    QString letters;
    for (std::size_t n = column + 1; n > 0; n = (n - 1) / 26)
        letters.prepend(QChar(char('A' + (n - 1) % 26)));
    return letters;
}

// A cell of a worksheet's XML: its type attribute ("" for a number, "s" for a shared string,
// "b" for a boolean), its <v> text and whether it holds a formula.
struct XmlCell
{
    QString type, value;
    bool formula = false;
};

std::map<QString, XmlCell> cellsOf(const QByteArray &xml)
{
    std::map<QString, XmlCell> cells;
    static const QRegularExpression cell(QStringLiteral(R"re(<c r="([A-Z]+[0-9]+)"([^>]*?)(/>|>(.*?)</c>))re"));
    static const QRegularExpression type(QStringLiteral(R"re(t="([a-zA-Z]+)")re"));
    static const QRegularExpression value(QStringLiteral(R"re(<v>([^<]*)</v>)re"));
    for (auto it = cell.globalMatch(QString::fromUtf8(xml)); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        XmlCell c;
        c.type = type.match(m.captured(2)).captured(1);
        c.value = value.match(m.captured(4)).captured(1);
        c.formula = m.captured(4).contains(QLatin1String("<f>")) || m.captured(4).contains(QLatin1String("<f "));
        cells[m.captured(1)] = c;
    }
    return cells;
}

QStringList sharedStrings(const QByteArray &xml)
{
    QStringList strings;
    static const QRegularExpression si(QStringLiteral(R"re(<si><t[^>]*>(.*?)</t></si>)re"),
                                       QRegularExpression::DotMatchesEverythingOption);
    for (auto it = si.globalMatch(QString::fromUtf8(xml)); it.hasNext();) {
        QString s = it.next().captured(1);
        s.replace(QLatin1String("&lt;"), QLatin1String("<")).replace(QLatin1String("&gt;"), QLatin1String(">"));
        s.replace(QLatin1String("&quot;"), QLatin1String("\"")).replace(QLatin1String("&amp;"), QLatin1String("&"));
        strings << s;
    }
    return strings;
}

struct Evaluated
{
    Brief brief;
    Results results;
};

Evaluated sample()
{
    auto brief = loadBrief(std::string(WB_SOURCE_DIR) + "/resources/samples/chat-70b.brief.json", wbtest::shippedCatalog());
    if (!brief)
        qFatal("%s", brief.error().toString().c_str());
    Results results = evaluate(*brief, wbtest::shippedCatalog());
    return {std::move(brief).value(), std::move(results)};
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void costLinesAddUpToTotals();
    void apiBarColoursStandApart();
    void workbookHoldsTheEnginesNumbers();
    void formulaLikeTextStaysText();
    void failuresNameTheFileAndKeepTheOld();
};

void TestReport::costLinesAddUpToTotals()
{
    const Evaluated e = sample();
    const Sheet sheet = costLinesSheet(e.results);
    QVERIFY(!sheet.rows.empty());
    // Each option's block is its lines, then "Total": the engine's sum of the rounded lines.
    int totals = 0;
    double sum = 0;
    for (const std::vector<Cell> &row : sheet.rows) {
        QVERIFY(row[3].value);
        if (row[2].text == "Total") {
            QVERIFY2(std::abs(sum - *row[3].value) < 0.005, qPrintable(QStringLiteral("%1 %2: lines %3, total %4")
                                                                          .arg(QString::fromStdString(row[0].text),
                                                                               QString::fromStdString(row[1].text))
                                                                          .arg(sum)
                                                                          .arg(*row[3].value)));
            ++totals;
            sum = 0;
        } else {
            sum += *row[3].value;
        }
    }
    // One total per option the normalization table lists (its rows with a usd_per_month).
    const Sheet normalization = normalizationSheet(e.results);
    std::size_t column = 0;
    while (normalization.columns[column].name != "usd_per_month")
        ++column;
    int options = 0;
    for (const std::vector<Cell> &row : normalization.rows)
        options += row[column].value ? 1 : 0;
    QCOMPARE(totals, options);
}

void TestReport::workbookHoldsTheEnginesNumbers()
{
    const Evaluated e = sample();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("figures.xlsx"));
    const std::vector<Sheet> sheets = resultSheets(e.brief, e.results);
    const Status written = writeXlsx(path.toStdString(), sheets);
    QVERIFY2(written, written ? "" : written.error().toString().c_str());

    const QStringList strings = sharedStrings(unzipped(path, QStringLiteral("xl/sharedStrings.xml")));
    QVERIFY(!strings.isEmpty());
    for (std::size_t s = 0; s < sheets.size(); ++s) {
        const QByteArray xml = unzipped(path, QStringLiteral("xl/worksheets/sheet%1.xml").arg(s + 1));
        QVERIFY2(!xml.isEmpty(), qPrintable(QString::fromStdString(sheets[s].name)));
        QVERIFY(xml.contains("state=\"frozen\""));
        const std::map<QString, XmlCell> cells = cellsOf(xml);
        const Sheet &sheet = sheets[s];
        for (std::size_t c = 0; c < sheet.columns.size(); ++c) {
            const QString header = columnLetters(c) + QLatin1String("1");
            QVERIFY(cells.count(header));
            QCOMPARE(strings.value(cells.at(header).value.toInt()), QString::fromStdString(sheet.columns[c].name));
        }
        for (std::size_t r = 0; r < sheet.rows.size(); ++r)
            for (std::size_t c = 0; c < sheet.columns.size(); ++c) {
                const Cell &cell = sheet.rows[r][c];
                const QString ref = columnLetters(c) + QString::number(r + 2);
                const QString where = QString::fromStdString(sheet.name) + QLatin1Char(' ') + ref;
                if (cell.value && sheet.columns[c].format != CellFormat::Text && std::isfinite(*cell.value)) {
                    QVERIFY2(cells.count(ref), qPrintable(where));
                    const XmlCell &x = cells.at(ref);
                    if (sheet.columns[c].format == CellFormat::Boolean) {
                        QCOMPARE(x.type, QStringLiteral("b"));
                        QCOMPARE(x.value.toInt(), *cell.value != 0 ? 1 : 0);
                    } else {
                        QVERIFY2(x.type.isEmpty(), qPrintable(where + QLatin1String(" is not a number")));
                        bool ok = false;
                        const double v = x.value.toDouble(&ok);
                        QVERIFY2(ok && std::abs(v - *cell.value) <= 1e-12 * std::max(1.0, std::abs(*cell.value)),
                                 qPrintable(where + QLatin1String(": ") + x.value));
                    }
                } else if (!cell.text.empty()) {
                    QVERIFY2(cells.count(ref) && cells.at(ref).type == QLatin1String("s"), qPrintable(where));
                    QCOMPARE(strings.value(cells.at(ref).value.toInt()), QString::fromStdString(cell.text));
                } else {
                    QVERIFY2(!cells.count(ref), qPrintable(where + QLatin1String(" should be empty")));
                }
            }
    }

    // The sheets' numbers are the engine's: the recommended option's cost per accepted output
    // and monthly total, found in the workbook's normalization sheet.
    const Sheet &normalization = sheets.front();
    std::size_t costColumn = 0, totalColumn = 0;
    for (std::size_t c = 0; c < normalization.columns.size(); ++c) {
        if (normalization.columns[c].name == "cost_per_accepted_output_usd")
            costColumn = c;
        if (normalization.columns[c].name == "usd_per_month")
            totalColumn = c;
    }
    const CostOption &api = *e.results.cost.api;
    const std::map<QString, XmlCell> cells = cellsOf(unzipped(path, QStringLiteral("xl/worksheets/sheet1.xml")));
    const QString apiRow = QString::number(normalization.rows.size() + 1);  // the model API comes last
    QCOMPARE(cells.at(columnLetters(costColumn) + apiRow).value.toDouble(), api.costPerAcceptedOutput);
    QCOMPARE(cells.at(columnLetters(totalColumn) + apiRow).value.toDouble(), api.totalUsdPerMonth);
    // Formats: currency, percent and GiB are declared in the styles.
    const QByteArray styles = unzipped(path, QStringLiteral("xl/styles.xml"));
    QVERIFY(styles.contains("0.0%"));
    QVERIFY(styles.contains("GiB"));
    QVERIFY(styles.contains("&quot;$&quot;#,##0.00"));
}

void TestReport::formulaLikeTextStaysText()
{
    QFile f(QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::string json = f.readAll().toStdString();
    const std::string name = "\"name\": \"";
    json.replace(json.find(name), name.size(), name + "=HYPERLINK(\\\"http://x\\\") ");
    const Brief brief = wbtest::parseOrFail(json);
    const Results results = evaluate(brief, wbtest::shippedCatalog());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("figures.xlsx"));
    Sheet injected{"Injected", {{"candidate", CellFormat::Text}, {"figure", CellFormat::Decimal}}, {}};
    injected.rows.push_back({{"=HYPERLINK(\"http://x\")", std::nullopt}, {"+1+1", std::nullopt}});
    // Characters XML 1.0 cannot hold (U+FFFF, a bell) become U+FFFD: the workbook opens unrepaired.
    injected.rows.push_back({{std::string("not\xEF\xBF\xBF") + "a character\x07", std::nullopt}, {"", std::nullopt}});
    std::vector<Sheet> sheets = resultSheets(brief, results);
    sheets.push_back(injected);
    QVERIFY(writeXlsx(path.toStdString(), sheets));
    // No cell of any sheet is a formula; the text is kept as it was typed, as a string.
    for (std::size_t s = 0; s < sheets.size(); ++s)
        for (const auto &[ref, cell] : cellsOf(unzipped(path, QStringLiteral("xl/worksheets/sheet%1.xml").arg(s + 1))))
            QVERIFY2(!cell.formula, qPrintable(ref));
    const QStringList strings = sharedStrings(unzipped(path, QStringLiteral("xl/sharedStrings.xml")));
    QVERIFY(strings.contains(QStringLiteral("=HYPERLINK(\"http://x\")")));
    QVERIFY(strings.contains(QStringLiteral("+1+1")));
    QVERIFY(strings.contains(QStringLiteral("not\uFFFDa character\uFFFD")));
}

void TestReport::failuresNameTheFileAndKeepTheOld()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kept.xlsx"));
    {
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("the old workbook");
    }
    const Sheet bad{"a/b", {{"x", CellFormat::Text}}, {}};
    const Status refused = writeXlsx(path.toStdString(), {bad});
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().find(path.toStdString()) != std::string::npos, refused.error().toString().c_str());
    QVERIFY2(refused.error().toString().find("a/b") != std::string::npos, refused.error().toString().c_str());
    QFile kept(path);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("the old workbook"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temporary file left

    const Sheet twice{"Same", {{"x", CellFormat::Text}}, {}};
    QVERIFY(!writeXlsx(dir.filePath(QStringLiteral("twice.xlsx")).toStdString(), {twice, twice}));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("twice.xlsx"))));

    const std::string missing = dir.filePath(QStringLiteral("no-such-folder/x.xlsx")).toStdString();
    const Status noFolder = writeXlsx(missing, {twice});
    QVERIFY(!noFolder);
    QVERIFY2(noFolder.error().toString().find(missing) != std::string::npos, noFolder.error().toString().c_str());
}

// A chart shows the model API's bar beside the GPU options: a serving or media chart's legend
// gives every line its own colour, the API's lines included (the line names each kind's options
// and the API option carry, cost.cpp).
void TestReport::apiBarColoursStandApart()
{
    const std::vector<std::string> api = {"api_usage", "retry_waste", "observability", "platform_labour"};
    const std::vector<std::vector<std::string>> kinds = {
        {"gpu_compute", "idle_capacity", "storage", "serving_stack", "network", "observability", "vendor_support",
         "platform_labour"},
        {"gpu_compute", "failed_renders", "idle_capacity", "storage", "queue_overhead", "network",
         "moderation_or_quality_filtering", "operator_review", "observability", "vendor_support", "platform_labour"}};
    for (const auto &lines : kinds) {
        std::map<int, std::string> byColour;
        for (const auto &list : {lines, api})
            for (const std::string &name : list) {
                const auto [it, added] = byColour.emplace(wb::costLineColour(name), name);
                QVERIFY2(added || it->second == name || (name == "retry_waste" && it->second == "failed_renders"),
                         qPrintable(QString::fromStdString(name + " shares a colour with " + it->second)));
            }
    }
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
