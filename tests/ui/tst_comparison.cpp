// The window's Compare table and the CSV and workbook list the same rows in the same order: both
// read the engine's normalizationRows (report/report.h). For every sample brief, row by row, the
// route, the price per GPU-hour, the headroom and the cost per accepted output agree, and the
// samples between them hold every kind of row (a candidate as entered before its sized
// deployment, a hybrid with the API, the API; the chat sample with bursts adds the hybrid), so that a view dropping or reordering one fails.

#include <pages/comparisonmodel.h>
#include <report/report.h>

#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace {

// A cell's number, or infinity where it is empty (as the model's sort role has it).
double numberOr(const std::optional<double> &v)
{
    return v ? *v : std::numeric_limits<double>::infinity();
}

bool same(double a, double b, double tolerance)
{
    return (std::isinf(a) && std::isinf(b)) || std::fabs(a - b) <= tolerance;
}

} // namespace

class TestComparison : public QObject
{
    Q_OBJECT

private slots:
    void sameRowsAsTheCsv();
};

void TestComparison::sameRowsAsTheCsv()
{
    const wb::Catalog &catalog = wbtest::shippedCatalog();
    int asEntered = 0, hybrid = 0, api = 0, ruledOut = 0;
    const QDir samples(QStringLiteral(WB_SOURCE_DIR "/resources/samples"));
    const QStringList files = samples.entryList({QStringLiteral("*.brief.json")});
    QVERIFY(files.size() >= 5);
    std::vector<std::pair<QString, std::string>> briefs;
    for (const QString &file : files) {
        QFile f(samples.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        briefs.emplace_back(file, f.readAll().toStdString());
    }
    // And the chat with bursts (4x its rate for a minute every 15), which the API's hybrid serves.
    auto bursty = nlohmann::json::parse(briefs.front().second);
    for (const auto &[file, text] : briefs)
        if (file == QLatin1String("chat-70b.brief.json"))
            bursty = nlohmann::json::parse(text);
    bursty["workload"]["traffic"]["bursts"] = {{"multiplier", 4}, {"duration_s", 60}, {"period_s", 900}};
    briefs.emplace_back(QStringLiteral("chat-70b with bursts"), bursty.dump());
    for (const auto &[file, text] : briefs) {
        auto brief = wb::parseBrief(text, file.toStdString(), catalog);
        QVERIFY2(brief, qPrintable(file));
        wb::EvaluateOptions options;
        options.today = "2026-12-01";
        const wb::Results results = wb::evaluate(*brief, catalog, options);
        const wb::Sheet sheet = wb::normalizationSheet(results);
        wb::ComparisonModel model;
        model.setResults(results);
        QCOMPARE(model.rowCount(), int(sheet.rows.size()));
        const auto column = [&](const char *name) {
            for (std::size_t c = 0; c < sheet.columns.size(); ++c)
                if (sheet.columns[c].name == name)
                    return c;
            qFatal("no column %s", name);
        };
        for (int i = 0; i < model.rowCount(); ++i) {
            const auto &cells = sheet.rows[std::size_t(i)];
            const QString where = file + QStringLiteral(" row %1").arg(i);
            const std::string route = cells[column("route")].text;
            const QString label = model.headerData(i, Qt::Vertical).toString();
            const QString term = model.data(model.index(i, wb::ComparisonModel::Term)).toString();
            // The API option by what it sells: a managed fine-tuning service for a run, billed per
            // training token (the LoRA sample's Ori quote), else a model API.
            const bool perRun = results.cost.api && results.cost.api->perRun;
            QCOMPARE(label == (perRun ? QLatin1String("Managed fine-tuning") : QLatin1String("Model API")), route == "api");
            if (route == "api" && perRun)
                QCOMPARE(term, QStringLiteral("per training token"));
            QVERIFY2((route == "hybrid") == term.endsWith(QLatin1String("API for bursts")), qPrintable(where));
            // An API the decision rules out (the SDXL and LoRA samples' data boundary) is priced
            // for reference: greyed, and best in no column.
            if (route != "gpu" && !results.cost.apiAllowed) {
                ++ruledOut;
                QVERIFY2(model.data(model.index(i, wb::ComparisonModel::PerAccepted), Qt::ForegroundRole).isValid(), qPrintable(where));
                for (int c = 0; c < wb::ComparisonModel::ColumnCount; ++c)
                    QVERIFY2(!model.isBest(i, c), qPrintable(where));
            }
            asEntered += label.endsWith(QLatin1String("(as entered)"));
            hybrid += route == "hybrid";
            api += route == "api";
            const auto number = [&](int c) { return model.data(model.index(i, c), Qt::UserRole).toDouble(); };
            QVERIFY2(same(number(wb::ComparisonModel::PerAccepted),
                          numberOr(cells[column("cost_per_accepted_output_usd")].value), 1e-8),
                     qPrintable(where));
            QVERIFY2(same(number(wb::ComparisonModel::PricePerGpuHour), numberOr(cells[column("usd_per_gpu_hour")].value), 1e-4),
                     qPrintable(where));
            QVERIFY2(same(number(wb::ComparisonModel::Headroom), numberOr(cells[column("headroom_fraction")].value), 1e-6),
                     qPrintable(where));
            // The deployment's GPUs, TTFT p99 and SLO verdict: one figure in both (issue 39).
            QVERIFY2(same(number(wb::ComparisonModel::Gpus), numberOr(cells[column("provisioned_gpus")].value), 0) || route == "api",
                     qPrintable(where));
            // (Media: the column is the end-to-end p99 in seconds.)
            const bool media = brief->workload.media.has_value();
            const auto ttft = cells[column(media ? "e2e_p99_s" : "ttft_p99_s")].value;
            QVERIFY2(same(number(wb::ComparisonModel::TtftP99), ttft ? *ttft * (media ? 1 : 1000) : numberOr(ttft), 1e-6),
                     qPrintable(where + QStringLiteral(": %1 ms against %2 s").arg(number(wb::ComparisonModel::TtftP99)).arg(ttft.value_or(-1))));
            const auto slo = cells[column("slo_met")].value;
            const int verdict = model.data(model.index(i, wb::ComparisonModel::SloMet), Qt::UserRole).toInt();
            QVERIFY2(route == "api" || (slo ? verdict == int(*slo) : verdict < 0),
                     qPrintable(where + QStringLiteral(": SLO %1 against %2").arg(verdict).arg(slo.value_or(-1))));
        }
    }
    QVERIFY(ruledOut >= 2);
    QVERIFY2(asEntered > 0 && hybrid > 0 && api > 0,
             qPrintable(QStringLiteral("the samples hold %1 as-entered, %2 hybrid and %3 API rows").arg(asEntered).arg(hybrid).arg(api)));
}

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"
